"""A diff on an offline view's map, as data (`ipt.export(diff, "changes.html")`).

The map is the topology of both snapshots in one (`topology.diffstatus.diff_graph`: what
was removed is drawn too), drilled into as the estate's own file is (`levels.drill_levels`
over that graph), each level coloured as `plot_diff` colours it before it is written
(`mark_level`): added green, removed pale with a red outline, changed amber, unchanged
grey; a group by its members (`status_of_tally`), a link by the links it stands for. Each
level also lists its news, `changes`: `[node index, status index, breaking members, news]`
for every node with some (`news` the group's `+2 −1 ~3 !1`, an index into the strings),
which `assets/changes.js` reads: a ring in the breaking colour, the news under a group, and
the "Changes only" toggle that fades what neither changed nor touches a change.

An item's details open with what changed (`change_section`: each field path the diff
names, before and after as the diff's text says them, masked as the diff masks them;
a link gained or lost under the item that made it), then the item as the newer
snapshot holds it, or, removed, as the older one held it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Literal

from ..change.render import said
from ..models import gc_paused
from ..query.graph import release
from ..topology.diffstatus import STATUSES, DiffGraph, diff_graph, news_text, status_of_tally
from ..topology.style import BREAKING_COLOUR, STATUS_COLOURS, UNCHANGED_NODE, pale
from ..viewmodel.item_html import Section, detail_sections
from ..viewmodel.topology_data import PORT_SUFFIX, ViewData
from .details_data import ItemTable, section_json
from .levels import Interned, drill_levels
from .view import FILE_CANVAS, levels_json, payload_dict

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..change.record import Change
    from ..viewmodel.explorer_model import ExplorerModel

__all__ = ["diff_payload", "mark_level", "change_section", "STATUS_LOOKS"]

STATUS_LOOKS: dict[str, tuple[str, str]] = {
    "added": (STATUS_COLOURS["added"], "#FFFFFF"),
    "removed": (pale(STATUS_COLOURS["removed"]), STATUS_COLOURS["removed"]),
    "changed": (STATUS_COLOURS["changed"], "#FFFFFF"),
    "unchanged": (UNCHANGED_NODE, STATUS_COLOURS["unchanged"]),
}
"""Status -> (fill, outline) of a node on the map, as `plot_diff` draws it."""
_WORDS = {
    "added": "added",
    "removed": "removed",
    "changed": "changed, or a group with changes",
    "unchanged": "unchanged",
}


def diff_payload(
    diff: EstateDiff,
    *,
    title: str,
    lines: list[str],
    group_by: str | Literal[False] | None = None,
) -> dict[str, Any]:
    """The payload of a diff's HTML file (see the module docstring): the estate file's
    parts, every level marked, and `changes` (the statuses' names and colours)."""
    from ..plot.topology import grouping
    from ..viewmodel.explorer_model import ExplorerModel
    from ..viewmodel.topology_data import view_data

    with gc_paused():
        marked = diff_graph(diff)
        union = marked.graph
        overview = None
        if group_by is not None:
            chosen = grouping(union, group_by) if group_by is not False else None
            overview = view_data(union, group_by=chosen, canvas=FILE_CANVAS)
        levels, opens = drill_levels(union, FILE_CANVAS, overview=overview)
        news = Interned()  # the strings: news first, then what levels_json adds
        marks = [mark_level(level.data, marked, news) for level in levels]
        table = ItemTable(union)
        palette = Interned()
        shown = levels_json(levels, opens, table, union, palette, news)
        for out, found in zip(shown, marks, strict=True):
            out.update(found)
            out["legend"] = news(json.dumps(_legend(found["changes"])))
        models = ExplorerModel(diff.new), ExplorerModel(diff.old)
        details = _details(table, diff, models, news)
        for level in levels:
            release(level.data.graph)
        release(union)
    payload = payload_dict(title, lines, FILE_CANVAS, palette, news, shown, table, details)
    payload["changes"] = {
        "statuses": [[s, STATUS_LOOKS[s][0], STATUS_LOOKS[s][1], _WORDS[s]] for s in STATUSES],
        "breaking": BREAKING_COLOUR,
    }
    return payload


def mark_level(data: ViewData, marked: DiffGraph, strings: Interned) -> dict[str, Any]:
    """Colour a level's nodes and links by status (their drawing attributes, before the
    level is written); return its news (`changes`, see the module docstring) and `near`,
    the nodes "Changes only" leaves unfaded: those with news, those a link joins to one,
    and the ports their links leave from."""
    nodes = data.graph.nodes
    status: dict[str, str] = {}
    news: list[list[int]] = []
    group_of: dict[Hashable, str] = {}
    for number, key in enumerate(nodes):
        members = data.members.get(key)
        if not members:  # a port, or a label's second line: drawn in no colour of its own
            continue
        tally: Counter[str] = Counter(marked.nodes.get(str(m), "unchanged") for m in members)
        breaking = sum(member in marked.breaking for member in members)
        status[key] = status_of_tally(tally)
        fill, outline = STATUS_LOOKS[status[key]]
        nodes[key]["color"], nodes[key]["border"] = fill, outline
        group_of.update(dict.fromkeys(members, key))
        if status[key] != "unchanged" or breaking:
            text = news_text(tally, breaking) if len(members) > 1 else ""
            news.append([number, STATUSES.index(status[key]), breaking, strings(text)])
    links = _link_tallies(marked, group_of)
    near = {key for key in status if status[key] != "unchanged"}
    near.update(key for key, members in data.members.items() if key in status and any(
        member in marked.breaking for member in members))  # fmt: skip
    touching = set(near)
    for u, v, attrs in data.graph.edges(data=True):
        ends = (_owner(u, status), _owner(v, status))
        link = links.get(ends) or links.get(ends[::-1])
        attrs["color"] = STATUS_COLOURS[status_of_tally(link) if link else "unchanged"]
        if ends[0] in near or ends[1] in near:
            touching.update(ends)
    index = {key: number for number, key in enumerate(nodes)}
    ports = {key for key in nodes if _owner(key, status) in touching}
    return {"changes": news, "near": sorted(index[key] for key in touching | ports)}


def _owner(key: str, status: dict[str, str]) -> str:
    """The node a port stands for (a link leaves from its node's port)."""
    if key.endswith(PORT_SUFFIX) and key[: -len(PORT_SUFFIX)] in status:
        return key[: -len(PORT_SUFFIX)]
    return key


def _link_tallies(
    marked: DiffGraph, group_of: dict[Hashable, str]
) -> dict[tuple[str, str], Counter[str]]:
    """Statuses of the union's links, counted between the level's nodes holding their ends."""
    tallies: dict[tuple[str, str], Counter[str]] = {}
    for (u, v), state in marked.edges.items():
        a, b = group_of.get(u), group_of.get(v)
        if a is not None and b is not None and a != b:
            tallies.setdefault((a, b), Counter())[state] += 1
    return tallies


def _legend(news: list[list[int]]) -> list[list[Any]]:
    """A level's legend (as `levels._legend_entry` writes one): the statuses it shows and
    breaking when some item is; the rest of the map is grey."""
    shown = {entry[1] for entry in news}
    entries: list[list[Any]] = []
    for index, name in enumerate(STATUSES):
        if index in shown or name == "unchanged":
            fill, outline = STATUS_LOOKS[name]
            entries.append([_WORDS[name], fill, outline, True, False, 0])
    if any(entry[2] for entry in news):
        entries.append(["breaking", "#FFFFFF", BREAKING_COLOUR, True, False, 0])
    return entries


def _details(
    table: ItemTable,
    diff: EstateDiff,
    models: tuple[ExplorerModel, ExplorerModel],
    strings: Interned,
) -> list[list[Any]]:
    """Each item's details: what changed, then the item as the newer snapshot holds it
    (or, removed, the older)."""
    by_item: dict[str, list[Change]] = {}
    for change in diff.changes:
        by_item.setdefault(change.cause if change.kind == "link" and change.cause else change.key,
                           []).append(change)  # fmt: skip
    insides = [frozenset(str(node) for node in model.graph.nodes) for model in models]
    out = []
    for node in table.nodes:
        side = 0 if node in models[0].graph else 1
        sections = detail_sections(models[side], str(node), insides[side])
        changes = by_item.get(str(node))
        if changes:
            sections.insert(0, change_section(changes))
        out.append([section_json(section, table, strings) for section in sections])
    return out


def change_section(changes: list[Change]) -> Section:
    """What changed of one item, as a table: each field path with its values before and
    after (`said`: masked as the diff masks them), an item or link added or removed by its
    op; each row says its severity."""
    rows: dict[str, str] = {}
    for change in changes:
        if change.kind == "link":
            field = f"link {change.key} {change.op}"
            text = change.reason or change.op
        elif change.path is None:
            field = f"{change.kind} {change.op}"
            text = change.reason or change.op
        else:
            field = change.path
            text = f"{said(change.old, change.path)} \u2192 {said(change.new, change.path)}"
        rows[field] = f"{text} ({change.severity})"
    return Section("Changes", fields=rows)
