"""The questions asked of one estate: selections, the graph, where used and impact, tables.

Above `core`; read by every view (plots, exports, widgets, the audit, the MCP server).
"""
