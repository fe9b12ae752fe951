"""Laying out an HTML file's ~2,000 levels without the work that showed nothing: a
grouping refused is counted, not drawn; a group's part is found in one walk; a graph
dropped is freed at once, not by the collector's passes over the estate; a part only read
shares the graph's dicts; a label budget ranks only the column it widened. Each short cut
is held here to the slow way it replaces."""

from __future__ import annotations

import bisect
import gc
import random
import weakref
from collections.abc import Hashable, Sequence
from typing import Any

import networkx as nx
import pytest

import iptoolkit as ipt
from iptoolkit.offline.view import view_payload
from iptoolkit.query.graph import EstateGraph, build_graph, release
from iptoolkit.query.reach import group_graph, induced_subgraph
from iptoolkit.topology.grouping import group_keys
from iptoolkit.topology.view import GROUP_BY, GroupedViews, grouped_view, profile_group_count
from iptoolkit.viewmodel import drill, topology_data
from iptoolkit.viewmodel.explorer_model import ExplorerModel
from iptoolkit.viewmodel.topology_fit import (
    CHAR_PX,
    MIN_LABEL_CHARS,
    Canvas,
    label_budget,
    label_gaps,
    label_px,
    least_px,
)

CANVAS = Canvas.of(860, 620)


@pytest.fixture(scope="module")
def graph() -> EstateGraph:
    return build_graph(ipt.demo_estate(400))


def one_group(graph: EstateGraph) -> EstateGraph:
    """The graph with every profile in one group: grouping by group is refused."""
    copy = graph.copy()
    for _, data in copy.nodes(data=True):
        if data.get("kind") == "profile":
            data["group"] = "Everyone"
    return copy


def profiles(graph: EstateGraph) -> list[str]:
    return [node for node, data in graph.nodes(data=True) if data.get("kind") == "profile"]


def drawn_profile_groups(view: nx.DiGraph[Any]) -> int:
    return sum(1 for data in view.nodes.values() if data["kind"] == "profile")


@pytest.mark.parametrize("group_by", GROUP_BY)
@pytest.mark.parametrize("limit", [None, 2, 3])
def test_profile_groups_are_counted_as_the_grouped_view_draws_them(
    graph: EstateGraph, group_by: str, limit: int | None
) -> None:
    limits = None if limit is None else {"profile": limit, "agent": limit, "partner": limit}
    parts = {
        "whole": graph,
        "one group": one_group(graph),
        "one profile": group_graph(graph, profiles(graph)[:1]),
        "a few": group_graph(graph, profiles(graph)[:7]),
    }
    for name, part in parts.items():
        drawn = drawn_profile_groups(grouped_view(part, group_by, max_per_column=limits))
        counted = profile_group_count(part, group_by, max_per_column=limits)
        assert counted == drawn, f"{name}: {counted} counted, {drawn} drawn"
        for once in (False, True):  # asked once: subgroups counted from the profiles alone
            views = GroupedViews(part, max_per_column=limits)
            shared = views.profile_groups(group_by, once=once)
            assert shared == drawn, f"{name}: {shared} counted by its views, {drawn} drawn"


def test_a_refused_grouping_is_not_laid_out(
    graph: EstateGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid_out: list[str | None] = []
    to_sigma = topology_data._to_sigma

    def counting(view: Any, group_by: str | None, **options: Any) -> Any:
        laid_out.append(group_by)
        return to_sigma(view, group_by, **options)

    monkeypatch.setattr(topology_data, "_to_sigma", counting)
    data = drill.auto_view(one_group(graph), canvas=CANVAS)
    assert data.group_by == "agent_type"
    assert laid_out == ["agent_type"], "the grouping by group, refused, was laid out"


def slow_induced_subgraph(graph: EstateGraph, chosen: set[str]) -> EstateGraph:
    """`induced_subgraph` as it was first written, with networkx's own calls."""
    ordered = [node for node in graph if node in chosen]
    result: EstateGraph = nx.MultiDiGraph(**graph.graph)
    result.add_nodes_from((node, graph.nodes[node]) for node in ordered)
    for source in ordered:
        for target, edges in graph.succ[source].items():
            if target in chosen:
                for key, data in edges.items():
                    result.add_edge(source, target, key, **data)
    return result


def slow_group_graph(graph: EstateGraph, members: Sequence[Hashable]) -> EstateGraph:
    """The part a group opens on, as it was first written: a walk from each member."""
    chosen: set[str] = set()
    for node in members:
        if isinstance(node, str) and node in graph:
            chosen |= {node} | nx.ancestors(graph, node) | nx.descendants(graph, node)
    return slow_induced_subgraph(graph, chosen)


def same_graph(fast: EstateGraph, slow: EstateGraph) -> None:
    """Equal as networkx holds them: nodes, edges, keys, data, and each order."""
    assert fast.graph == slow.graph
    assert list(fast.nodes(data=True)) == list(slow.nodes(data=True))
    assert list(fast.edges(keys=True, data=True)) == list(slow.edges(keys=True, data=True))
    for node in slow:
        assert list(fast.pred[node].items()) == list(slow.pred[node].items())
        assert list(fast.succ[node].items()) == list(slow.succ[node].items())


def test_an_induced_subgraph_is_the_one_networkx_calls_build(graph: EstateGraph) -> None:
    chosen = {node for number, node in enumerate(graph) if number % 3}
    fast = induced_subgraph(graph, chosen)
    same_graph(fast, slow_induced_subgraph(graph, chosen))
    node, (source, target, key) = next(iter(fast)), next(iter(fast.edges(keys=True)))
    fast.nodes[node]["name"] = fast.edges[source, target, key]["relation"] = "changed"
    assert graph.nodes[node].get("name") != "changed", "the copy shares node data"
    assert graph.edges[source, target, key].get("relation") != "changed"
    source_edge = next(iter(fast.succ[source][target]))
    fast.succ[source][target][source_edge]["weight"] = 7  # one dict seen from both ends
    assert fast.pred[target][source][source_edge]["weight"] == 7
    fast.add_edge(target, source, "new")
    assert not graph.has_edge(target, source, "new")


def test_a_part_of_a_part_is_cut_from_the_whole_graph_by_its_nodes_in_order(
    graph: EstateGraph,
) -> None:
    # the docs site keeps a level's part as its nodes and cuts it from the estate's graph
    part = induced_subgraph(graph, {node for number, node in enumerate(graph) if number % 3})
    inner = induced_subgraph(part, {node for number, node in enumerate(part) if number % 2})
    same_graph(induced_subgraph(graph, list(inner), ordered=True), inner)
    same_graph(induced_subgraph(graph, list(inner)), inner)
    shared = induced_subgraph(graph, list(inner), ordered=True, copy=False)  # read only
    same_graph(shared, inner)
    node, edge = next(iter(shared)), next(iter(shared.edges(keys=True)))
    assert shared.nodes[node] is graph.nodes[node]
    assert shared.edges[edge] is graph.edges[edge]


def test_a_groups_part_is_what_walking_from_each_member_finds(graph: EstateGraph) -> None:
    nodes = list(graph.nodes)
    channels = [n for n in nodes if graph.nodes[n].get("kind") == "channel"]
    agents = [n for n in nodes if graph.nodes[n].get("kind") == "agent"]
    odd: list[Hashable] = [*agents[:3], "no such node", 7]
    for members in (profiles(graph)[:50], channels[:5], odd, []):
        fast, slow = group_graph(graph, members), slow_group_graph(graph, members)
        same_graph(fast, slow)
        assert len(fast) > 0 or not members


def test_a_released_graph_is_freed_without_the_collector(graph: EstateGraph) -> None:
    part = group_graph(graph, profiles(graph)[:5])
    edges = list(part.edges(keys=True))  # networkx keeps the edge view in the graph
    assert part.in_degree(edges[0][1]) >= 1
    release(part)
    assert list(part.edges(keys=True)) == edges, "a view asked for again is made again"
    release(part)
    gone = weakref.ref(part)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del part
        assert gone() is None, "the graph waits for the collector"
    finally:
        if enabled:
            gc.enable()


def test_laying_out_a_files_levels_leaves_no_graph_to_the_collector(
    graph: EstateGraph,
) -> None:
    model = ExplorerModel(ipt.demo_estate(400))
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        view_payload(model.graph, model, title="t", lines=[])
        gc.collect()
        graphs = [item for item in gc.garbage if isinstance(item, nx.Graph)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert graphs == [], f"{len(graphs)} graphs were freed by the collector"


def slow_partner_bucket(graph: EstateGraph, profile: str) -> str:
    """A profile's group by partner, as first written: a walk from the profile."""
    if graph.nodes[profile].get("problem"):
        return "unreadable profiles"
    names = {
        str(graph.nodes[p].get("name") or p)
        for p in nx.descendants(graph, profile)
        if graph.nodes[p].get("kind") == "partner"
    }
    return "no partner" if not names else min(names) if len(names) == 1 else "several partners"


def test_profiles_are_grouped_by_the_partners_their_paths_reach(graph: EstateGraph) -> None:
    odd = graph.copy()  # a path through a node of no known kind: walked, not passed over
    lonely = next(p for p in profiles(odd) if slow_partner_bucket(odd, p) == "no partner")
    partner = next(n for n, data in odd.nodes(data=True) if data.get("kind") == "partner")
    odd.add_edge(lonely, "other:1", relation="input")
    odd.add_edge("other:1", partner, relation="belongs_to")
    uncapped = {"profile": 10**6, "partner": 10**6}
    for part in (graph, odd):
        view = grouped_view(part, "partner", max_per_column=uncapped)
        bucket = {
            member: data["label"]
            for data in view.nodes.values()
            if data["kind"] == "profile"
            for member in data["members"]
        }
        assert bucket == {p: slow_partner_bucket(part, p) for p in profiles(part)}
    assert bucket[lonely] != "no partner"


def test_a_level_names_each_label_cut_for_its_canvas_whole_with_its_room(
    graph: EstateGraph,
) -> None:
    # issue 42: the script draws more of a cut label as the zoom gives its column room
    from iptoolkit.viewmodel.topology_fit import label_px

    model = ExplorerModel(ipt.demo_estate(400))
    payload = view_payload(model.graph, model, canvas=Canvas.of(640, 620), title="t", lines=[])
    strings, overview = payload["strings"], payload["levels"][0]
    assert overview["uncut"], "nothing cut at 640 px"
    for node, whole, room in overview["uncut"]:
        drawn = strings[overview["nodes"][node][6]]
        assert "\u2026" in drawn and "\u2026" not in strings[whole]
        assert strings[whole].startswith(drawn.split("\u2026")[0])
        assert label_px(drawn) <= room + 1 < label_px(strings[whole]) + 1
    whole = {n for n, _, _ in overview["uncut"]}
    assert all("\u2026" not in strings[n[6]] for i, n in enumerate(overview["nodes"])
               if i not in whole and n[6] >= 0)  # fmt: skip


def test_a_shared_part_holds_the_graphs_own_dicts(graph: EstateGraph) -> None:
    chosen = {node for number, node in enumerate(graph) if number % 3}
    shared = induced_subgraph(graph, chosen, copy=False)
    same_graph(shared, slow_induced_subgraph(graph, chosen))
    node, (source, target) = next(iter(shared)), next(iter(shared.edges()))
    assert shared.nodes[node] is graph.nodes[node], "a shared part copied its node data"
    given: Any = graph  # networkx's own dicts: a pair's edges are one dict, not a copy
    part: Any = shared
    assert part._succ[source][target] is given._succ[source][target]
    assert part._pred[target][source] is given._succ[source][target]


def slow_label_budget(labels: dict[float, list[str]], canvas: Canvas) -> dict[float, float]:
    """`label_budget` as it was first written: every column ranked again at each step."""
    columns = sorted(labels)
    room = max(canvas.inner_width - label_gaps(len(columns)), 0.0)
    ordered = {c: sorted(label_px(text) for text in labels[c]) for c in columns}
    want = {c: (ordered[c][-1] if ordered[c] else 0.0) for c in columns}
    if sum(want.values()) <= room:
        return want
    cap = {c: min(want[c], max((least_px(t) for t in labels[c]), default=0.0)) for c in columns}
    grown = sum(max(cap[c], min(want[c], MIN_LABEL_CHARS * CHAR_PX)) for c in columns)
    spare = max(room, grown) - sum(cap.values())
    while spare > 1e-9:
        cut = {c: len(ordered[c]) - bisect.bisect_right(ordered[c], cap[c]) for c in columns}
        column = max(columns, key=lambda c: (cut[c] / len(ordered[c]), -cap[c]))
        if cut[column] == 0:
            break
        step = min(ordered[column][-cut[column]] - cap[column], spare, CHAR_PX)
        cap[column] += step
        spare -= step
    return cap


def test_a_label_budget_is_the_one_ranking_every_column_at_each_step_gives() -> None:
    words = ["AS2", "Cron SFTP", "Valley Chemicals", "Inbound", "orders", "HTTP", "x"]
    randomly = random.Random(45)
    for _ in range(300):
        labels = {
            float(column): [
                " ".join(randomly.choices(words, k=randomly.randint(1, 6)))
                + f" ({randomly.randint(1, 999)})" * randomly.randint(0, 1)
                for _ in range(randomly.randint(1, 12))
            ]
            for column in range(randomly.randint(1, 5))
        }
        canvas = Canvas.of(randomly.choice([200, 400, 600, 860, 1200]), 620)
        assert label_budget(labels, canvas) == slow_label_budget(labels, canvas), labels


def test_agent_type_groups_are_not_made_from_the_profiles_alone(graph: EstateGraph) -> None:
    with pytest.raises(ValueError, match="profiles_only"):
        group_keys(graph, "agent_type", profiles_only=True)


def test_the_file_reports_its_levels_and_details_counted(tmp_path: Any) -> None:
    """At 100k the file takes 38 s: its bar says the levels laid out, one by one, and every
    item's details, counted to their total, not a clock alone."""
    from iptoolkit.support.progress import reporting_to

    from .progress_helpers import Recorder

    shown = Recorder()
    estate = ipt.demo_estate(n_profiles=600, seed=4)
    with reporting_to(shown):
        ipt.export(estate, tmp_path / "x.html")
    log = shown.log
    levels = log.index(("stage", "Laying out the map's levels", None))
    laid_out = log[levels + 1]
    assert laid_out[0] == "advance" and laid_out[1] > 1  # the levels below the overview
    details = next(
        n for n, e in enumerate(log) if e[:2] == ("stage", "Writing each item's details")
    )
    total = log[details][2]
    items = ("profile", "channel", "partner")  # what has details of its own
    graph = ipt.build_graph(estate)
    assert total == sum(1 for _, data in graph.nodes(data=True) if data.get("kind") in items)
    assert log[details + 1] == ("advance", total)
