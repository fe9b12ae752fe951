"""The documentation site of an estate: `write_docs` and the `iptoolkit docs` command.

Pages (Markdown that MkDocs builds and GitHub shows as it is): an overview, one page per
partner, per group (the group tree) and per channel type, the findings, and a changelog
when a previous snapshot is given. Diagrams are SVG files beside their pages, with a
Mermaid chart where GitHub can draw one. The same estate always gives the same bytes.
"""

from __future__ import annotations

from .writer import write_docs

__all__ = ["write_docs"]
