"""Issue 43, a diff in the offline HTML file (`ipt.export(diff, "changes.html")`): every
level coloured as `plot_diff` marks its items (`diffstatus.diff_graph`, the diagram's own
statuses), each item the diff names coloured by its op wherever it is drawn alone, an
item's details opening with exactly the diff's field paths for it, a removed item's
details read from the older snapshot, and no secret in the file."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest

import iptoolkit as ipt
from iptoolkit.change.estate_diff import EstateDiff
from iptoolkit.change.record import ChangeOp
from iptoolkit.offline.changes_data import map_payload
from iptoolkit.offline.levels import drill_levels
from iptoolkit.offline.view import FILE_CANVAS
from iptoolkit.topology.diffstatus import diff_graph, status_of_tally
from iptoolkit.topology.style import STATUS_COLOURS, UNCHANGED_NODE, pale
from iptoolkit.viewmodel.change_marks import diff_map

from .hostile_estate import SECRETS, hostile_changed, hostile_estate
from .test_offline import payload_of

_OPS: tuple[ChangeOp, ...] = ("added", "removed", "changed")  # added and removed win
FILLS = {
    "added": STATUS_COLOURS["added"],
    "removed": pale(STATUS_COLOURS["removed"]),
    "changed": STATUS_COLOURS["changed"],
    "unchanged": UNCHANGED_NODE,
}
"""The fill `plot_diff` gives each status (`plot.looks._status_nodes`)."""


@cache
def _week() -> EstateDiff:
    old = ipt.demo_estate()
    return ipt.diff(old, ipt.demo_changes(old, seed=1))


@cache
def _payload() -> dict[str, Any]:
    return map_payload(diff_map(_week()), title="week", lines=["lines"])


def _fill(payload: dict[str, Any], node: list[Any]) -> str:
    return str(payload["palette"][node[3]])


def test_every_level_is_coloured_as_the_diff_diagram_marks_it() -> None:
    payload, marked = _payload(), diff_graph(_week())
    levels = drill_levels(marked.graph, FILE_CANVAS)[0]  # as the export lays them out
    assert len(levels) == len(payload["levels"]) > 1
    seen: Counter[str] = Counter()
    for level, out in zip(levels, payload["levels"], strict=True):
        for key, node in zip(level.data.graph.nodes, out["nodes"], strict=True):
            members = level.data.members.get(key)
            if not members:
                continue  # a port
            status = status_of_tally(Counter(marked.nodes[str(m)] for m in members))
            assert _fill(payload, node) == FILLS[status], (level.title, key)
            seen[status] += 1
    assert set(seen) == {"added", "removed", "changed", "unchanged"}, seen


def test_every_link_is_coloured_by_the_links_it_stands_for() -> None:
    from iptoolkit.viewmodel.topology_data import PORT_SUFFIX

    payload, marked = _payload(), diff_graph(_week())
    levels = drill_levels(marked.graph, FILE_CANVAS)[0]
    seen: Counter[str] = Counter()
    for level, out in zip(levels[:40], payload["levels"], strict=False):
        holder = {m: key for key, ms in level.data.members.items() for m in ms}
        for (u, v), edge in zip(level.data.graph.edges, out["edges"], strict=True):
            ends = {u.removesuffix(PORT_SUFFIX), v.removesuffix(PORT_SUFFIX)}
            tally: Counter[str] = Counter(
                state
                for (a, b), state in marked.edges.items()
                if {holder.get(a), holder.get(b)} == ends and holder.get(a) != holder.get(b)
            )
            status = status_of_tally(tally) if tally else "unchanged"
            assert payload["palette"][edge[2]] == STATUS_COLOURS[status], (level.title, u, v)
            seen[status] += 1
    assert {"added", "removed", "changed", "unchanged"} <= set(seen), seen


def test_each_item_the_diff_names_has_its_ops_colour_where_it_is_drawn_alone() -> None:
    payload, diff = _payload(), _week()
    op_of: dict[str, str] = {}
    for op in _OPS:
        for change in diff.of(op=op):
            if change.kind in ("profile", "channel", "partner"):
                op_of.setdefault(change.key, op)
    levels = drill_levels(diff_graph(diff).graph, FILE_CANVAS)[0]
    checked = set()
    for level, out in zip(levels, payload["levels"], strict=True):
        for key, node in zip(level.data.graph.nodes, out["nodes"], strict=True):
            members = level.data.members.get(key, ())
            if len(members) == 1 and members[0] in op_of:
                assert _fill(payload, node) == FILLS[op_of[members[0]]], key
                checked.add(members[0])
    profiles = {key for key in op_of if key.startswith("profile:")}
    assert profiles <= checked and {op_of[k] for k in checked} == set(_OPS)


def _sections(payload: dict[str, Any], node: str) -> list[dict[str, Any]]:
    item = next(i for i, row in enumerate(payload["items"]) if row[0] == node)
    return list(payload["details"][item])


def _fields(payload: dict[str, Any], section: dict[str, Any]) -> list[str]:
    return [orjson.loads(payload["strings"][row])[0] for row in section.get("f", ())]


def test_an_items_details_open_with_exactly_the_diffs_field_paths() -> None:
    payload, diff = _payload(), _week()
    changed = {c.key for c in diff.of(op="changed") if c.kind in ("profile", "channel")}
    assert len(changed) >= 10 and any(key.startswith("channel:") for key in changed)
    for key in sorted(changed):
        first = _sections(payload, key)[0]
        assert payload["strings"][first["t"]] == "Changes"
        paths = {c.path for c in diff.changes if c.key == key and c.path is not None}
        shown = {field for field in _fields(payload, first) if field.startswith("$")}
        assert shown == paths, key


def test_a_removed_item_shows_its_change_and_the_older_snapshots_fields() -> None:
    payload, diff = _payload(), _week()
    removed = next(c for c in diff.of(op="removed") if c.kind == "profile")
    sections = _sections(payload, removed.key)
    fields = _fields(payload, sections[0])
    links = {f"link {c.key} removed" for c in diff.changes if c.cause == removed.key}
    assert fields[0] == "profile removed" and set(fields[1:]) == links and links
    titles = [payload["strings"][s["t"]] for s in sections]
    assert "Input agent settings" in titles, titles  # read from the older snapshot
    texts = " ".join(payload["strings"][s["p"]] for s in sections if "p" in s)
    assert "not in this estate" not in texts


def test_no_secret_reaches_the_file(tmp_path: Path) -> None:
    diff = ipt.diff(hostile_estate(), hostile_changed())
    assert any(c.path and "value" in c.path for c in diff.changes)  # the pairs changed
    path = ipt.export(diff, tmp_path / "changes.html")
    page = path.read_text(encoding="utf-8")
    text = orjson.dumps(payload_of(path)).decode("utf-8")
    assert "Changes" in text and "hostile" in text  # the payload read, names and all
    for secret in SECRETS:
        assert secret not in page and secret not in text, secret


def test_export_writes_a_diff_as_html_and_names_a_wrong_option(tmp_path: Path) -> None:
    from iptoolkit.exporters import DIFF_FORMATS

    assert "html" in DIFF_FORMATS
    path = ipt.export(_week(), tmp_path / "changes.html", title="The week")
    assert "<title>The week</title>" in path.read_text(encoding="utf-8")
    payload = payload_of(path)
    assert payload["changes"]["statuses"][0][0] == "added"
    assert sum(len(level["changes"]) for level in payload["levels"]) > 10
    with pytest.raises(TypeError, match="takes no option colour"):
        ipt.export(_week(), tmp_path / "x.html", colour="red")


def test_a_diff_files_title_names_the_snapshots_and_its_line_counts(tmp_path: Path) -> None:
    """The counts once, under the title: twice, the title took two lines and pushed the map
    below a laptop's fold."""
    diff = _week()
    payload = payload_of(ipt.export(diff, tmp_path / "changes.html"))
    assert payload["title"].startswith("Changes: ") and " → " in payload["title"]
    assert "added" not in payload["title"] and "breaking" not in payload["title"]
    assert payload["lines"][0] == diff.summary().splitlines()[0].strip()


def test_a_files_map_reads_its_details_from_the_graphs_it_was_made_of() -> None:
    """`diff_map(diff, "build")` keeps both snapshots' graphs (in its estates' order), left
    as built; the file written from it is the one made without them, byte for byte."""
    from iptoolkit.query.graph import build_graph

    week = _week()
    made = diff_map(week, "build")
    assert made.graphs is not None and diff_map(week).graphs is None
    with_graphs = map_payload(made, title="week", lines=["lines"])
    assert orjson.dumps(with_graphs) == orjson.dumps(_payload())
    for estate, graph in zip(made.estates, made.graphs, strict=True):  # as built, after
        built = build_graph(estate)  # the union and the file: nothing written into them
        assert list(graph.nodes(data=True)) == list(built.nodes(data=True))
        assert list(graph.edges(keys=True, data=True)) == list(built.edges(keys=True, data=True))
