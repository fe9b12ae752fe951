"""The questions asked of one estate: selections, the graph, where used and impact, tables.

Above `core`; read by the views (plots, exports, widgets, the docs site, the MCP server).
"""
