"""Graphviz DOT: the topology left to right, every id quoted, styled like the diagrams.

Node ids such as `profile:P1` hold a colon, which DOT reads as a port when unquoted, so every
id and every label is a quoted string with backslashes and quotes escaped (a backslash left
alone would start a Graphviz escape like `\\N` or `\\l`). Render with
`dot -Tsvg estate.dot -o estate.svg`.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.nodes import is_active
from ..support.printable import drop_unprintable
from ..topology.style import (
    LINE_COLOURS,
    PROBLEM_COLOUR,
    UNRESOLVED_COLOUR,
    line_style_of,
    node_colour,
    text_colour,
)
from ..topology.view import node_label
from .attributes import redact_text

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

__all__ = ["write_dot", "to_dot", "quote"]

_SHAPES = {
    "profile": "box",
    "agent": "cds",
    "response": "cds",
    "channel": "ellipse",
    "partner": "hexagon",
}
_EDGE_LOOKS = {
    "in": "",
    "ref": ", style=dotted",
    "out": ", style=dashed",
    "link": ", arrowhead=none",
}
_EDGES = {style: f'color="{LINE_COLOURS[style]}"{look}' for style, look in _EDGE_LOOKS.items()}
_MAX_LABEL = 60


def quote(text: Any) -> str:
    """A DOT quoted string: control characters dropped (a NUL ends Graphviz's input),
    backslashes and quotes escaped, line breaks as `\\n`."""
    value = drop_unprintable(text).replace("\t", " ").replace("\\", "\\\\").replace('"', '\\"')
    value = value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{value}"'


def to_dot(graph: EstateGraph, *, title: str | None = None) -> str:
    """The DOT text of a graph from `build_graph`."""
    lines = [
        "digraph topology {",
        "  graph [rankdir=LR, ranksep=1.6, nodesep=0.12, fontname=Helvetica, "
        'labelloc=t, fontsize=16, bgcolor="white"'
        + (f", label={quote(title)}" if title else "")
        + "];",
        '  node [fontname=Helvetica, fontsize=10, style=filled, color="#FFFFFF", '
        'margin="0.08,0.03", height=0.3];',
        "  edge [arrowsize=0.6, penwidth=0.9];",
    ]
    for node, data in graph.nodes(data=True):
        lines.append(f"  {quote(node)} [{_node_attributes(graph, node, data)}];")
    edges: Iterable[tuple[Hashable, Hashable, str | None]] = graph.edges(data="relation")
    for u, v, relation in edges:
        lines.append(f"  {quote(u)} -> {quote(v)} [{_EDGES[line_style_of(relation)]}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _node_attributes(graph: EstateGraph, node: Any, data: dict[str, Any]) -> str:
    kind = data.get("kind")
    text = redact_text(node_label(graph, node))
    if len(text) > _MAX_LABEL:
        text = text[: _MAX_LABEL - 1] + "…"
    fill = node_colour(kind, data.get("type"))
    attrs: dict[str, str] = {
        "label": quote(text),
        "shape": _SHAPES.get(str(kind), "box"),
        "fillcolor": f'"{fill}"',
        "fontcolor": f'"{text_colour(fill)}"',
        "tooltip": quote(node),
    }
    styles = ["rounded", "filled"] if kind == "profile" else ["filled"]
    if kind == "agent":
        attrs["orientation"] = "180"  # points at the profile: data comes in
    if data.get("resolved") is False:
        attrs.update(fillcolor='"white"', fontcolor=f'"{UNRESOLVED_COLOUR}"')
        attrs["color"] = f'"{UNRESOLVED_COLOUR}"'
        styles.append("dashed")
    elif data.get("problem"):
        attrs.update(fillcolor='"white"', fontcolor=f'"{PROBLEM_COLOUR}"')
        attrs["color"] = f'"{PROBLEM_COLOUR}"'
    elif not is_active(data):
        attrs.update(fillcolor='"#EEEEEE"', fontcolor='"#777777"', color=f'"{fill}"')
        styles.append("dashed")
    attrs["style"] = quote(",".join(styles))
    return ", ".join(f"{name}={value}" for name, value in attrs.items())


def write_dot(
    graph: EstateGraph, path: str | os.PathLike[str], *, title: str | None = None
) -> Path:
    """Write `to_dot(graph)` to a file (UTF-8)."""
    path = Path(path)
    path.write_text(to_dot(graph, title=title), encoding="utf-8")
    return path
