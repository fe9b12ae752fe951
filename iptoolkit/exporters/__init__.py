"""The writers behind `ipt.export`, one module per family of formats.

`attributes` makes node and edge attributes fit graph file formats (and strips credentials
from URLs); `graphfiles` writes GraphML and GEXF, `dot` Graphviz, `mermaid` Mermaid,
`tables` CSV and Excel. Use `ipt.export(...)`, which picks the writer from the file name.
"""

from __future__ import annotations

__all__: list[str] = []
