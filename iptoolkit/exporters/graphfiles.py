"""GraphML (for yEd, Gephi, networkx) and GEXF (for Gephi): the graph with its attributes.

Both carry every node and edge with scalar attributes (see `attributes`), a readable label
and the layered layout's positions and colours, so the file opens as a tidy picture in
yEd or Gephi rather than a heap of nodes at the origin.

GraphML is written here rather than by networkx because yEd shows only labels given in its
own `y:` graphics extension; networkx reads that extension back (`label`, `x`, `y`...).
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from ..core.nodes import is_active
from ..support.printable import drop_unprintable
from ..topology.layout import layered_layout
from ..topology.style import (
    LINE_COLOURS,
    PROBLEM_COLOUR,
    UNRESOLVED_COLOUR,
    line_style_of,
    node_colour,
)
from ..topology.view import node_label
from .attributes import attribute_types, coerce, scalar_attributes

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

__all__ = ["write_graphml", "write_gexf", "flat_graph", "positions"]

_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}
_YED_SHAPES = {
    "profile": "roundrectangle",
    "agent": "trapezoid",
    "response": "trapezoid2",
    "channel": "ellipse",
    "partner": "hexagon",
}
_YED_LINES = {"in": "line", "ref": "dotted", "out": "dashed", "link": "line"}  # by line style
_COLUMN_STEP = 420.0
_ROW_STEP = 40.0


def flat_graph(graph: EstateGraph) -> tuple[list[Any], list[Any]]:
    """(nodes, edges) with scalar attributes, a `label` on each node, and no secrets.

    `nodes` holds (node, attributes); `edges` holds (u, v, key, attributes).
    """
    nodes = []
    for node, data in graph.nodes(data=True):
        attrs = scalar_attributes(data)
        attrs["label"] = node_label(graph, node)
        nodes.append((node, attrs))
    edges = [
        (u, v, k, scalar_attributes(data)) for u, v, k, data in graph.edges(keys=True, data=True)
    ]
    node_types = attribute_types(nodes)
    edge_types = attribute_types((None, attrs) for *_, attrs in edges)
    nodes = [(n, {k: coerce(v, node_types[k]) for k, v in a.items()}) for n, a in nodes]
    edges = [
        (u, v, key, {k: coerce(x, edge_types[k]) for k, x in a.items()}) for u, v, key, a in edges
    ]
    return nodes, edges


def positions(graph: EstateGraph) -> dict[Hashable, tuple[float, float]]:
    """Layered layout positions in pixels: columns 420 apart, rows 40."""
    sweeps = 12 if graph.number_of_nodes() <= 5000 else 4
    placed = layered_layout(graph, sweeps=sweeps)
    return {node: (x * _COLUMN_STEP, y * _ROW_STEP) for node, (x, y) in placed.pos.items()}


# -- GraphML ------------------------------------------------------------------------------


def write_graphml(graph: EstateGraph, path: str | os.PathLike[str]) -> Path:
    """GraphML with typed attribute keys and yEd graphics (label, shape, colour, place)."""
    path = Path(path)
    nodes, edges = flat_graph(graph)
    node_types = attribute_types(nodes)
    edge_types = attribute_types((None, attrs) for *_, attrs in edges)
    key_of: dict[tuple[str, str], str] = {}
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        ' xmlns:y="http://www.yworks.com/xml/graphml"'
        ' xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns'
        ' http://www.yworks.com/xml/schema/graphml/1.1/ygraphml.xsd">',
    ]
    for domain, types in (("node", node_types), ("edge", edge_types)):
        for name in sorted(types):
            key = key_of[(domain, name)] = f"{domain[0]}{len(key_of)}"
            lines.append(
                f'  <key id="{key}" for="{domain}" attr.name={_attr(name)}'
                f' attr.type="{_GRAPHML_TYPES[types[name]]}"/>'
            )
    lines.append('  <key id="yn" for="node" yfiles.type="nodegraphics"/>')
    lines.append('  <key id="ye" for="edge" yfiles.type="edgegraphics"/>')
    lines.append('  <graph id="topology" edgedefault="directed">')
    where = positions(graph)
    for node, attrs in nodes:
        lines.append(f"    <node id={_attr(str(node))}>")
        lines.extend(_data(key_of, "node", attrs))
        lines.append(_yed_node(graph.nodes[node], attrs, where.get(node, (0.0, 0.0))))
        lines.append("    </node>")
    for index, (u, v, _, attrs) in enumerate(edges):
        lines.append(f'    <edge id="e{index}" source={_attr(str(u))} target={_attr(str(v))}>')
        lines.extend(_data(key_of, "edge", attrs))
        style = line_style_of(attrs.get("relation"))
        colour, line = LINE_COLOURS[style], _YED_LINES[style]
        lines.append(
            '      <data key="ye"><y:PolyLineEdge>'
            f'<y:LineStyle color="{colour}" type="{line}" width="1.0"/>'
            '<y:Arrows source="none" target="standard"/>'
            '<y:BendStyle smoothed="true"/></y:PolyLineEdge></data>'
        )
        lines.append("    </edge>")
    lines.append("  </graph>")
    lines.append("</graphml>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _data(key_of: dict[tuple[str, str], str], domain: str, attrs: dict[str, Any]) -> list[str]:
    out = []
    for name in sorted(attrs):
        value = attrs[name]
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        out.append(f'      <data key="{key_of[(domain, name)]}">{_text(text)}</data>')
    return out


def _yed_node(data: dict[str, Any], attrs: dict[str, Any], at: tuple[float, float]) -> str:
    kind = data.get("kind")
    fill, border, line = node_colour(kind, data.get("type")), "#FFFFFF", "line"
    if data.get("resolved") is False:
        fill, border, line = "#FFFFFF", UNRESOLVED_COLOUR, "dashed"
    elif data.get("problem"):
        fill, border = "#FFFFFF", PROBLEM_COLOUR
    elif not is_active(data):
        fill, border, line = "#E6E6E6", fill, "dashed"
    size = 40.0 if kind == "partner" else 30.0
    side = "w" if kind == "profile" else "e"
    x, y = at
    return (
        '      <data key="yn"><y:ShapeNode>'
        f'<y:Geometry x="{x:.1f}" y="{y:.1f}" width="{size:.0f}" height="{size:.0f}"/>'
        f'<y:Fill color="{fill}" transparent="false"/>'
        f'<y:BorderStyle color="{border}" type="{line}" width="1.0"/>'
        f'<y:NodeLabel modelName="sides" modelPosition="{side}" fontSize="12">'
        f"{_text(str(attrs['label']))}</y:NodeLabel>"
        f'<y:Shape type="{_YED_SHAPES.get(str(kind), "rectangle")}"/>'
        "</y:ShapeNode></data>"
    )


def _text(text: str) -> str:
    return escape(drop_unprintable(text))


def _attr(text: str) -> str:
    return quoteattr(drop_unprintable(text), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


# -- GEXF ---------------------------------------------------------------------------------


def write_gexf(graph: EstateGraph, path: str | os.PathLike[str]) -> Path:
    """GEXF 1.2 through networkx, with Gephi's `viz` colours and positions."""
    import networkx as nx

    path = Path(path)
    nodes, edges = flat_graph(graph)
    where = positions(graph)
    flat: EstateGraph = nx.MultiDiGraph()
    for node, attrs in nodes:
        data = graph.nodes[node]
        x, y = where.get(node, (0.0, 0.0))
        r, g, b = _rgb(node_colour(data.get("kind"), data.get("type")))
        attrs = {k: drop_unprintable(v) if isinstance(v, str) else v for k, v in attrs.items()}
        attrs["viz"] = {
            "color": {"r": r, "g": g, "b": b, "a": 1.0 if is_active(data) else 0.5},
            "position": {"x": x, "y": -y, "z": 0.0},
            "size": 12.0 if data.get("kind") == "partner" else 8.0,
        }
        flat.add_node(drop_unprintable(node), **attrs)  # ids too, as in GraphML
    for u, v, key, attrs in edges:
        clean = {k: drop_unprintable(x) if isinstance(x, str) else x for k, x in attrs.items()}
        flat.add_edge(drop_unprintable(u), drop_unprintable(v), key=key, **clean)
    nx.write_gexf(flat, path, version="1.2draft")
    return path


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)
