"""An MCP server over an estate: AI assistants ask the toolkit, not the raw listing.

    iptoolkit mcp snapshot.json            # stdio, for Claude Desktop, VS Code, ...
    iptoolkit mcp --from-env --http 8765   # fetch live; streamable HTTP on 127.0.0.1

`build_server(store)` makes the `MCPServer` (the official `mcp` SDK) with read-only tools
(summary, find_profiles, get_item, where_used, impact, neighbourhood, findings,
schema_report, draw_topology; diff with two snapshots; refresh when fetching live) and
resources (the summary, the data model). Needs the `mcp` extra (`pip install
'iptoolkit[mcp]'`); without it, importing this package raises an error that says so.
"""

from __future__ import annotations

from ..support.extras import require

require("mcp")

from .server import build_server  # noqa: E402 - after the check, which names the extra
from .store import Loaded, Store  # noqa: E402

__all__ = ["build_server", "Store", "Loaded"]
