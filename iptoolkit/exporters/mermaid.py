"""Mermaid flowcharts that GitHub renders in a Markdown file.

Rules kept, because Mermaid's parser is unforgiving:

- node ids are generated (`p1`, `a1`, `r1`, `c1`, `n1`, subgraphs `g1`): letters and
  digits only, never a keyword such as `end`, never starting with `o` or `x` (which Mermaid
  would read as a circle or cross arrow head after `--`);
- every label is quoted, and characters that Mermaid or HTML would interpret (`"`, `#`,
  `<`, `>`, `&`, backticks) are written as Mermaid entity codes (`#quot;` ...); line breaks
  become spaces;
- when the graph is large (more than `GROUP_ABOVE` nodes) partners, their channels and
  whatever only reaches that partner are grouped in one subgraph per partner;
- `group_by=` ("group", "agent_type", "partner") writes the grouped view that diagrams
  draw (`topology.view.grouped_view`): one node per group of items, with its count, so a
  10,000-profile estate fits in a chart GitHub renders.

GitHub renders Mermaid with Mermaid's default limits: `maxEdges` 500 and `maxTextSize`
50,000 characters (a bigger chart shows "Too many edges" or "Maximum text size in diagram
exceeded" instead); `fits_github` checks both. An export (`write_mermaid`, `.mmd` and `.md`)
therefore groups by profile group by default when the chart of every item would pass them
(`github_chart`); `group_by=False` writes every item whatever the size, and a chart past
the limits (every item, or grouped by a key with too many values) is written whole with a
warning to filter or group first.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ..core.nodes import is_active
from ..support.markdown import escape
from ..support.printable import drop_unprintable
from ..topology.style import (
    LINE_COLOURS,
    UNRESOLVED_COLOUR,
    direction_of,
    line_style_of,
    node_colour,
    text_colour,
)
from ..topology.view import GROUP_BY, grouped_view, item_label, node_label
from .attributes import redact_text

if TYPE_CHECKING:
    import networkx as nx

    from ..query.graph import EstateGraph
    from ..topology.view import ViewGraph

__all__ = [
    "to_mermaid",
    "grouped_mermaid",
    "write_mermaid",
    "mermaid_text",
    "front_matter",
    "fits_github",
    "github_chart",
    "auto_grouping",
    "check_group_by",
    "grouping_name",
    "GROUP_ABOVE",
    "GITHUB_MAX_EDGES",
    "GITHUB_MAX_TEXT",
]

GROUP_ABOVE = 60
GITHUB_MAX_EDGES = 500
"""Mermaid's default `maxEdges`, which GitHub keeps: more edges and the chart is not drawn."""
GITHUB_MAX_TEXT = 50_000
"""Mermaid's default `maxTextSize` (characters of the chart's source), which GitHub keeps."""
_MAX_LABEL = 60
_PREFIX = {"profile": "p", "agent": "a", "response": "r", "channel": "c", "partner": "n"}
_SHAPE = {  # kind -> (opening, closing) around the quoted label
    "profile": ("[", "]"),
    "agent": ("[/", "/]"),
    "response": ("[\\", "\\]"),
    "channel": ("([", "])"),
    "partner": ("{{", "}}"),
}
_ENTITIES = {
    "&": "#amp;",
    '"': "#quot;",
    "#": "#35;",
    "<": "#lt;",
    ">": "#gt;",
    "`": "#96;",
    "%": "#37;",  # `%%{init: ...}%%` in a label would be read as a directive
}
_ARROWS = {"in": "-->", "ref": "-.->", "out": "-.->", "link": "---"}  # by line style
_ARROW_SET = frozenset(_ARROWS.values())


def mermaid_text(text: Any) -> str:
    """A label as Mermaid shows it literally: quoted, entity-coded (`%` too, so that no
    directive or comment hides in it), one line, no control characters."""
    value = " ".join(drop_unprintable(text).split())
    value = "".join(_ENTITIES.get(char, char) for char in value)
    return f'"{value}"'


def front_matter(title: Any) -> str:
    """The chart's title as YAML front matter, written by a YAML emitter; `%%` is split
    (`% %`) because Mermaid looks for `%%{...}%%` directives in the whole text."""
    import yaml

    text = " ".join(drop_unprintable(title).split())
    text = re.sub("%(?=%)", "% ", text)
    body = yaml.safe_dump({"title": text}, allow_unicode=True, width=1_000_000)
    return f"---\n{body}---"


def fits_github(chart: str) -> bool:
    """Does GitHub (Mermaid's default limits) draw this chart: few enough edges and text?"""
    edges = sum(1 for line in chart.splitlines() if _is_edge(line))
    return edges <= GITHUB_MAX_EDGES and len(chart) <= GITHUB_MAX_TEXT


def _is_edge(line: str) -> bool:
    parts = line.split()
    return len(parts) == 3 and parts[1] in _ARROW_SET


def to_mermaid(graph: EstateGraph, *, title: str | None = None, group_by: str | None = None) -> str:
    """The Mermaid flowchart (left to right) of a graph from `build_graph`; with
    `group_by`, of its grouped view (groups of items with counts, as diagrams draw it)."""
    if group_by is not None:
        return grouped_mermaid(grouped_view(graph, group_by), title=title)
    lines = ["flowchart LR"]
    if title:
        lines.insert(0, front_matter(title))
    ids = _ids(graph)
    groups = _partner_groups(graph) if graph.number_of_nodes() > GROUP_ABOVE else {}
    grouped = {node for members in groups.values() for node in members}
    for node in graph:
        if node not in grouped:
            lines.append(f"  {_declare(graph, node, ids)}")
    for index, (partner, members) in enumerate(groups.items(), start=1):
        name = graph.nodes[partner].get("name") or str(partner)
        lines.append(f"  subgraph g{index}[{mermaid_text(name)}]")
        lines.append("    direction LR")
        for node in members:
            lines.append(f"    {_declare(graph, node, ids)}")
        lines.append("  end")
    links: dict[str, list[int]] = {"in": [], "out": [], "link": []}
    count = 0
    edges: Iterable[tuple[str, str, str | None]] = graph.edges(data="relation")
    for u, v, relation in edges:
        lines.append(f"  {ids[u]} {_ARROWS[line_style_of(relation)]} {ids[v]}")
        links[direction_of(relation)].append(count)
        count += 1
    lines.extend(_styles(graph, ids, links))
    return "\n".join(lines) + "\n"


def grouped_mermaid(view: ViewGraph, *, title: str | None = None) -> str:
    """The Mermaid flowchart of a grouped view (`topology.view.grouped_view`): what
    `to_mermaid(graph, group_by=...)` writes, for a caller that has the view already."""
    lines = ["flowchart LR"]
    if title:
        lines.insert(0, front_matter(title))
    return "\n".join(lines + _grouped_lines(view)) + "\n"


def _grouped_lines(view: ViewGraph) -> list[str]:
    """The grouped view's items and links; a link's label counts the links it stands for."""
    ids = _ids(view)
    lines = []
    for node, data in view.nodes(data=True):
        lines.append(f"  {_shape(ids[node], data.get('kind'), item_label(data))}")
    links: dict[str, list[int]] = {"in": [], "out": [], "link": []}
    for count, (u, v, data) in enumerate(view.edges(data=True)):
        lines.append(f"  {ids[u]} {_ARROWS[data['style']]} {ids[v]}")
        links[data["direction"]].append(count)
    looks = {
        node: {
            "kind": data["kind"],
            "type": data["type"],
            "resolved": not data["unresolved"],
            "active": data["inactive"] < data["count"],
        }
        for node, data in view.nodes(data=True)
    }
    lines.extend(_class_lines(looks, ids, links))
    return lines


GroupBy = str | Literal[False] | None
"""`group_by` of a Mermaid export: a key of `topology.view.GROUP_BY`, False (every item) or
None (every item when that chart fits GitHub's limits, else grouped by profile group)."""

_GROUPING_NAMES = {"group": "profile group", "agent_type": "agent type", "partner": "partner"}


def grouping_name(key: str) -> str:
    """`agent_type` -> `agent type`: a grouping key in words."""
    return _GROUPING_NAMES.get(key, key.replace("_", " "))


def check_group_by(group_by: object) -> GroupBy:
    """The `group_by` of a Mermaid export, or a ValueError naming the values it may take."""
    if group_by is None or group_by is False or group_by in GROUP_BY:
        return group_by
    raise ValueError(
        f"group_by must be one of {', '.join(GROUP_BY)}, None (grouped when the chart of "
        f"every item passes GitHub's limits) or False (every item), not {group_by!r}"
    )


def chart_size(chart: str) -> tuple[int, int]:
    """The edges and characters of a chart, as GitHub's limits count them."""
    return sum(1 for line in chart.splitlines() if _is_edge(line)), len(chart)


def github_chart(
    graph: EstateGraph, *, title: str | None = None, group_by: GroupBy = None
) -> tuple[str, str | None]:
    """The chart an export writes and the key it is grouped by (None: every item).

    `group_by` None: every item when that chart fits GitHub's limits, else grouped by
    profile group (a chart of more edges than GitHub draws is grouped without being
    written item by item first); a key: grouped by it; False: every item."""
    group_by = check_group_by(group_by)
    if group_by is None:
        chart, group_by = _auto(graph, title)
        if chart is not None:
            return chart, None
    if group_by:
        return to_mermaid(graph, title=title, group_by=group_by), group_by
    return to_mermaid(graph, title=title), None


def auto_grouping(graph: EstateGraph, *, title: str | None = None) -> str | None:
    """What `github_chart` groups by when not told: None when the chart of every item
    fits GitHub's limits, else `group`."""
    return _auto(graph, title)[1]


def _auto(graph: EstateGraph, title: str | None) -> tuple[str | None, str | None]:
    """The chart of every item and None when it fits GitHub's limits, else (None, `group`);
    a graph of more edges than GitHub draws is never written item by item to find out."""
    if graph.number_of_edges() > GITHUB_MAX_EDGES:
        return None, "group"
    chart = to_mermaid(graph, title=title)
    return (chart, None) if fits_github(chart) else (None, "group")


def write_mermaid(
    graph: EstateGraph,
    path: str | os.PathLike[str],
    *,
    title: str | None = None,
    group_by: GroupBy = None,
) -> Path:
    """`.mmd`: the chart alone; `.md`: a Markdown page with a fenced `mermaid` block.

    `group_by`: see `github_chart` (by default, grouped by profile group only when the
    chart of every item is past GitHub's limits). A chart written past them warns."""
    path = Path(path)
    markdown = path.suffix.lower() == ".md"
    chart, used = github_chart(graph, title=None if markdown else title, group_by=group_by)
    edges, characters = chart_size(chart)
    if edges > GITHUB_MAX_EDGES or characters > GITHUB_MAX_TEXT:
        advice = (
            "export a filtered subset, or group it (group_by='group', --group-by group)"
            if used is None
            else "export a filtered subset, or group it by another key"
        )
        warnings.warn(
            f"{path.name}: {edges:,} edges and {characters:,} characters; GitHub renders "
            f"Mermaid up to {GITHUB_MAX_EDGES} edges and {GITHUB_MAX_TEXT:,} characters: " + advice,
            UserWarning,
            stacklevel=3,  # the caller of `export`
        )
    if markdown:
        heading = escape(redact_text(title or "Integration topology")) or "Integration topology"
        note = ""
        if used is not None:
            note = f"Grouped by {grouping_name(used)}: each box counts the items it stands for"
            if group_by is None:
                note += (
                    f" (the chart of every item passes GitHub's limits of {GITHUB_MAX_EDGES} "
                    f"edges and {GITHUB_MAX_TEXT:,} characters)"
                )
            note += ".\n\n"
        text = f"# {heading}\n\n{note}```mermaid\n{chart}```\n"
    else:
        text = chart
    path.write_text(text, encoding="utf-8")
    return path


_Node = TypeVar("_Node", bound=Hashable)
"""A node of the graph or of the grouped view a chart is made of."""


def _ids(graph: nx.Graph[_Node]) -> dict[_Node, str]:
    """A short Mermaid id per node (`p1`, `c2`...) of a graph or a grouped view."""
    counters: dict[str, int] = {}
    ids: dict[_Node, str] = {}
    for node, data in graph.nodes(data=True):
        prefix = _PREFIX.get(str(data.get("kind")), "k")
        counters[prefix] = counters.get(prefix, 0) + 1
        ids[node] = f"{prefix}{counters[prefix]}"
    return ids


def _declare(graph: EstateGraph, node: str, ids: dict[str, str]) -> str:
    return _shape(ids[node], graph.nodes[node].get("kind"), node_label(graph, node))


def _shape(mermaid_id: str, kind: Any, label: str) -> str:
    """`p1["label"]` in the shape of its kind, the label redacted and cut short."""
    opening, closing = _SHAPE.get(str(kind), ("[", "]"))
    text = redact_text(label)
    if len(text) > _MAX_LABEL:
        text = text[: _MAX_LABEL - 1] + "…"
    return f"{mermaid_id}{opening}{mermaid_text(text)}{closing}"


def _partner_groups(graph: EstateGraph) -> dict[str, list[str]]:
    """Partner -> the nodes that reach that partner only (its channels first)."""
    partners = [n for n, data in graph.nodes(data=True) if data.get("kind") == "partner"]
    owner: dict[str, set[str]] = {}
    for partner in partners:
        stack = [partner]
        seen = {partner}
        while stack:
            for other in graph.pred[stack.pop()]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        for node in seen:
            owner.setdefault(node, set()).add(partner)
    groups: dict[str, list[str]] = {partner: [] for partner in partners}
    for node in graph:
        owners = owner.get(node, set())
        if len(owners) == 1 and _reaches_only_partners(graph, node, owners):
            groups[next(iter(owners))].append(node)
    return {partner: members for partner, members in groups.items() if members}


def _reaches_only_partners(graph: EstateGraph, node: str, owners: set[str]) -> bool:
    """A node belongs in its partner's box unless it also leads somewhere else (a profile
    with an internal response, say): then it stays outside, between the boxes."""
    stack, seen = [node], {node}
    while stack:
        current = stack.pop()
        successors = list(graph.succ[current])
        if not successors and current not in owners:
            return False
        for other in successors:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return True


def _styles(graph: EstateGraph, ids: dict[str, str], links: dict[str, list[int]]) -> list[str]:
    return _class_lines(dict(graph.nodes), ids, links)  # node -> its data


def _class_lines(
    nodes: dict[_Node, dict[str, Any]], ids: dict[_Node, str], links: dict[str, list[int]]
) -> list[str]:
    """classDef and class lines (colour by kind and channel type, inactive faded, unresolved
    red) and linkStyle lines (colour by direction) for nodes with `kind`, `type`, `active`,
    `resolved`."""
    lines = []
    classes: dict[str, list[str]] = {}
    for node, data in nodes.items():
        kind = str(data.get("kind"))
        name = kind
        if kind == "channel":
            type_name = str(data.get("type") or "unknown")
            name = "channel_" + type_name.removeprefix("IntegrationPartnerChannel")
            name = "".join(char for char in name if char.isalnum() or char == "_")
        if data.get("resolved") is False:
            name = "unresolved"
        classes.setdefault(name, []).append(ids[node])
        if not is_active(data) and data.get("resolved") is not False:
            classes.setdefault("inactive", []).append(ids[node])
    order = sorted(classes, key=lambda name: (name == "inactive", name))  # inactive wins
    for name in order:
        if name == "unresolved":
            red = UNRESOLVED_COLOUR
            look = f"fill:#FFFFFF,stroke:{red},color:{red},stroke-dasharray:4 3"
        elif name == "inactive":
            look = "fill:#EEEEEE,color:#777777,stroke-dasharray:4 3"
        else:
            kind, _, type_name = name.partition("_")
            fill = node_colour(kind, type_name or None)
            look = f"fill:{fill},stroke:#FFFFFF,color:{text_colour(fill)}"
        lines.append(f"  classDef {name} {look}")
    for name in order:
        lines.append(f"  class {','.join(classes[name])} {name}")
    for direction, indexes in links.items():
        if indexes:
            lines.append(
                f"  linkStyle {','.join(map(str, indexes))} stroke:{LINE_COLOURS[direction]}"
            )
    return lines
