"""The interactive view's spacing rules, drill-down and neighbourhoods, without a browser
(`viewmodel/topology_fit.py`, `viewmodel/drill.py`, `TopologyView`'s levels). The browser half
(a 2,000-profile group drilled into, in the app) is tests/browser/test_app_team_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

import networkx as nx
import pytest

from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_estate
from iptoolkit.query.graph import build_graph
from iptoolkit.query.reach import group_graph, node_positions
from iptoolkit.support.printable import LABEL_COUNT
from iptoolkit.topology.style import KIND_GLYPHS
from iptoolkit.viewmodel.drill import (
    auto_view,
    expand_nodes,
    neighbourhood_nodes,
    tallest_column,
)
from iptoolkit.viewmodel.topology_data import (
    PORT_SUFFIX,
    ViewData,
    hover_names,
    shared_path,
    view_data,
)
from iptoolkit.viewmodel.topology_fit import (
    CHAR_PX,
    CIRCLE_GAP_PX,
    EDGE_PX,
    LABEL_OFFSET_PX,
    LEFT_PX,
    NODE_PX,
    PADDING_PX,
    RIGHT_PX,
    SCROLL_PAGES,
    SHORTEST_NAME_CHARS,
    Canvas,
    circles_kept,
    cut_apart,
    cut_to_px,
    fits,
    keep_circles_apart,
    label_budget,
    label_gaps,
    label_px,
    least_px,
)

pytest.importorskip("ipysigma")

from iptoolkit.widgets import TopologyView  # noqa: E402

from .view_helpers import around_of, data_of, graph_of, sigma_of  # noqa: E402

CANVAS = Canvas(600, 1.8)


@pytest.fixture(scope="module")
def estate() -> Estate:
    return demo_estate(n_profiles=300, seed=7)


@pytest.fixture(scope="module")
def graph(estate: Estate) -> nx.MultiDiGraph[str]:
    return build_graph(estate)


def _drawn(data: ViewData) -> list[tuple[str, dict[str, Any]]]:
    """The nodes a reader sees (no ports)."""
    return [(k, a) for k, a in data.graph.nodes(data=True) if a.get("kind") != "port"]


def _profile_groups(data: ViewData) -> dict[str, tuple[Hashable, ...]]:
    return {k: data.members[k] for k, a in _drawn(data) if a["kind"] == "profile"}


# -- spacing rules ------------------------------------------------------------------------


def test_labels_end_before_the_edges_and_the_next_column(graph: nx.MultiDiGraph[str]) -> None:
    for data in (
        view_data(graph, group_by="group", canvas=CANVAS),
        auto_view(graph.subgraph(list(graph)[:60]).copy(), canvas=CANVAS),
    ):
        assert data.camera is not None, "a view that fits is laid out for its canvas"
        columns = sorted({a["x"] for _, a in _drawn(data)})
        for left, right in zip(columns, columns[1:], strict=False):
            widest = max(label_px(a["label"]) for _, a in _drawn(data) if a["x"] == left)
            label_end = left + LABEL_OFFSET_PX + widest
            assert label_end + EDGE_PX / 2 <= right, (left, right, widest)
        # every edge leaves from a port after its left node's label, never from the node
        for u, v in data.graph.edges():
            assert u.endswith(PORT_SUFFIX), (u, v)
            owner = data.graph.nodes[u.removesuffix(PORT_SUFFIX)]
            column_labels = max(
                label_px(a["label"]) for _, a in _drawn(data) if a["x"] == owner["x"]
            )
            assert data.graph.nodes[u]["x"] >= owner["x"] + column_labels
            assert data.graph.nodes[v]["x"] > data.graph.nodes[u]["x"]


def test_rows_are_far_enough_apart_for_a_label(graph: nx.MultiDiGraph[str]) -> None:
    data = view_data(graph, group_by="group", canvas=CANVAS)
    by_column: dict[float, list[float]] = {}
    for _, a in _drawn(data):
        by_column.setdefault(a["x"], []).append(a["y"])
    for ys in by_column.values():
        ys.sort()
        assert all(b - a >= 12 for a, b in zip(ys, ys[1:], strict=False))  # 12 px labels


def test_circles_of_neighbours_shrink_until_they_are_apart() -> None:
    """Two groups of 11 px a radius in rows 17 px apart (room for a label) keep their 4 px
    and as much above it as leaves `CIRCLE_GAP_PX` between them; the whole view shrinks
    alike (the smaller circle of another column too), and circles apart keep their size."""
    assert circles_kept([[(0.0, 11.0), (17.0, 11.0)]], 4.0) == pytest.approx(0.5)
    assert circles_kept([[(0.0, 11.0), (40.0, 11.0)], [(0.0, 4.0), (5.0, 4.0)]], 4.0) == 1.0
    nodes = [
        {"x": 0.0, "y": 0.0, "size": 11.0},
        {"x": 0.0, "y": -17.0, "size": 11.0},
        {"x": 200.0, "y": 0.0, "size": 8.0},
        {"x": 200.0, "y": -17.0, "size": 3.0},
    ]
    keep_circles_apart(nodes, 4.0)
    assert [node["size"] for node in nodes] == [7.5, 7.5, 6.0, 3.0]
    assert 17.0 - 7.5 - 7.5 == CIRCLE_GAP_PX


def test_what_is_drawn_fits_the_canvas_at_the_start_camera(graph: nx.MultiDiGraph[str]) -> None:
    data = view_data(graph, group_by="group", canvas=CANVAS)
    xs = [a["x"] for _, a in _drawn(data)]
    ys = [a["y"] for _, a in _drawn(data)]
    right = max(a["x"] + LABEL_OFFSET_PX + label_px(a["label"]) for _, a in _drawn(data))
    # one unit is one pixel at the start camera (see topology_fit.camera): the width of
    # the nodes and labels and the height of the nodes are within the canvas's
    assert right - min(xs) + NODE_PX <= CANVAS.inner_width
    assert max(ys) - min(ys) <= CANVAS.height - 2 * PADDING_PX


@pytest.mark.parametrize(("width", "lines"), [(526, 2), (806, 2), (1206, 1)])
def test_the_start_camera_keeps_the_margins_either_side(width: int, lines: int) -> None:
    """Where sigma shows the drawing at the start camera (as `first_view.overview_svg`
    projects it: sigma fits every node, the invisible ones drawing second lines too),
    `LEFT_PX` stays free left of the first column's nodes (ipysigma's buttons stand
    there) and `RIGHT_PX` right of the last label."""
    canvas = Canvas.of(width, 600, lines=lines)
    data = auto_view(build_graph(demo_estate(n_profiles=300, seed=7)), canvas=canvas)
    assert data.camera is not None and data.size is not None
    nodes = [a for _, a in data.graph.nodes(data=True)]
    xs, ys = [a["x"] for a in nodes], [a["y"] for a in nodes]
    extent = max(max(xs) - min(xs), max(ys) - min(ys))
    centre = (min(xs) + max(xs)) / 2 + (data.camera["x"] - 0.5) * extent
    shown = (centre - data.size[0] / 2, centre + data.size[0] / 2)
    radius = {id(a): a["size"] / data.camera["ratio"] ** 0.5 for a in nodes}  # as drawn, px
    left = min(a["x"] - radius[id(a)] for a in nodes if a.get("kind") != "port")
    # sigma starts a label 3 px right of its node's circle
    right = max(a["x"] + radius[id(a)] + 3 + label_px(str(a["label"])) for a in nodes if a["label"])
    assert left - shown[0] >= LEFT_PX - 0.5, (left - shown[0], shown)
    assert shown[1] - right >= RIGHT_PX - 0.5, (shown[1] - right, shown)


def test_labels_are_cut_only_when_the_canvas_is_too_narrow_where_most_is_kept() -> None:
    # one label a column: whole where the canvas is wide enough
    alone: dict[float, list[str]] = {
        0: ["Sales (55)"],
        1: ["Inbound orders from Valley Chemicals"],
        2: ["AS2 (3)"],
    }
    assert label_budget(alone, Canvas(600, 3.0)) == {
        column: label_px(texts[0]) for column, texts in alone.items()
    }
    # too narrow: the room goes to the columns with the largest share of their labels cut,
    # each name keeps its first characters and every count stays whole
    many = [f"Cron agents of type {n} ({n})" for n in range(10, 30)]
    one = ["Danube Chemicals GmbH & Co. KG"]
    labels: dict[float, list[str]] = {0: ["Finance (90)", "Procurement (23)"], 1: many, 2: one}
    canvas = Canvas(400, 1.5)
    budget = label_budget(labels, canvas)
    gaps = label_gaps(3)  # each label's offset and port, the edges, the first nodes' room
    assert gaps > 2 * (EDGE_PX + LABEL_OFFSET_PX) + LABEL_OFFSET_PX
    assert sum(budget.values()) + gaps == pytest.approx(canvas.inner_width)
    assert abs(budget[1] - budget[2]) <= CHAR_PX  # every label cut in both: widened alike
    assert budget[0] == pytest.approx(least_px("Procurement (23)"))  # half whole: it waits
    assert budget[1] < max(label_px(text) for text in many)
    for column, texts in labels.items():
        assert budget[column] >= min(least_px(text) for text in texts)
        for text in texts:
            cut = cut_to_px(text, budget[column])
            assert label_px(cut) <= budget[column] + 0.01
            assert cut.startswith(text[:SHORTEST_NAME_CHARS].rstrip())  # a name, not "…"
            count = LABEL_COUNT.search(text)
            assert count is None or cut.endswith(f"({count.group(1)})")  # never cut
    # narrower still: the canvas grows (it scrolls) rather than cut names to nothing
    narrow = label_budget(labels, Canvas(400, 0.8))
    assert sum(narrow.values()) + label_gaps(3) > Canvas(400, 0.8).inner_width


def test_labels_are_measured_in_the_fonts_pixels() -> None:
    # DejaVu Sans at 12 px: "i" is narrow, "W" wide; a cut label ends in "…" and fits
    assert label_px("iiii") < 20 < label_px("WWWW")
    assert label_px("Finance (2,367, 243 inactive)") == pytest.approx(177, abs=6)
    cut = cut_to_px("Inbound ORDERS from Valley Chemicals (AS2)", 120)
    assert cut.endswith("\u2026") and label_px(cut) <= 120 < label_px(cut + "xx")
    assert cut_to_px("AP (12)", 120) == "AP (12)"


def test_labels_that_would_read_the_same_once_cut_keep_their_ends() -> None:
    names = {
        1: "Oberland Retail AS2 inbound orders",
        2: "Oberland Retail AS2 inbound invoices",
        3: "Oberland Retail SFTP outbound",
        4: "Cost centers",
    }
    cut = cut_apart(names, dict.fromkeys(names, 110.0))
    assert cut[4] == "Cost centers"  # fits: whole
    assert len({cut[1], cut[2], cut[3]}) == 3, cut  # told apart
    assert cut[1].startswith("Ober") and cut[1].endswith("orders")
    assert all(label_px(cut[key]) <= 110 for key in names)
    alone = cut_apart({1: names[1]}, {1: 110.0})  # no namesake: cut at its end, as before
    assert alone[1] == cut_to_px(names[1], 110.0)


def test_a_count_is_never_cut_the_name_before_it_is() -> None:
    labels = ("HTTP agents (724)", "Finance (2,367, 243 inactive)", "■ Sales/Orders (1,312)")
    for label in labels:
        number = re.search(r" \((\d{1,3}(?:,\d{3})*)", label).group(1)  # type: ignore[union-attr]
        for room in (40.0, 70.0, 100.0, label_px(label) - 1):
            cut = cut_to_px(label, room)
            kept = re.search(r" \((\d{1,3}(?:,\d{3})*)[,)]", cut)
            assert kept and kept.group(1) == number and cut.endswith(")"), (label, room, cut)
            assert cut[0] == label[0]
    # the rest of a count goes before the name is cut to less than half its room
    assert cut_to_px("■ Finance (90, 8 inactive)", 120.0) == "■ Finance (90)"
    assert cut_to_px("■ Finance (90, 8 inactive)", 160.0) == "■ Finance (90, 8 inactive)"
    assert cut_to_px("HTTP agents (724)", 200.0) == "HTTP agents (724)"
    assert cut_to_px("(724) agents", 40.0).endswith("\u2026")  # no count at its end: cut


def test_a_middle_cut_keeps_where_a_label_differs_from_its_namesake() -> None:
    archives = {43: "Archive (custom) #43", 44: "Archive (custom) #44", 7: "Archive (custom) #7"}
    cut = cut_apart(archives, dict.fromkeys(archives, 90.0))
    assert [cut[key].rsplit("\u2026", 1)[1] for key in archives] == ["#43", "#44", "#7"], cut
    assert all(label.startswith("Archive") and label_px(label) <= 90 for label in cut.values())
    routes = {
        1: "Mosel Retail AS2 inbound ORDERS to SAP",
        2: "Mosel Retail AS2 inbound DESADV to SAP",
    }
    cut = cut_apart(routes, dict.fromkeys(routes, 150.0))
    assert "ORDERS" in cut[1] and "DESADV" in cut[2], cut  # the word that differs, whole


def test_a_narrow_view_names_each_cut_label_whole_for_the_hover(
    graph: nx.MultiDiGraph[str],
) -> None:
    data = view_data(graph, group_by=None, canvas=Canvas(400, 1.5))  # about 600 px wide
    labels = {key: a["label"] for key, a in _drawn(data)}
    cut = [label for label in labels.values() if "\u2026" in label]
    assert cut, "nothing cut at 600 px"
    assert set(cut) - set(data.hover) == {
        label for label in cut if list(labels.values()).count(label) > 1
    }  # every cut label drawn once has its whole name
    for label in cut:
        if label in data.hover:
            whole = data.hover[label]
            assert "\u2026" not in whole and whole.startswith(label.split("\u2026")[0])
    # a label two nodes share says nothing on hover: it stands for neither
    assert hover_names([("A…", "A one"), ("A…", "A two"), ("B", "B")]) == {}


def test_kinds_are_told_apart_by_a_shape_written_before_the_label(
    graph: nx.MultiDiGraph[str],
) -> None:
    data = view_data(graph, group_by="group", canvas=CANVAS)
    for _, a in _drawn(data):
        glyph = a["label"].split(" ", 1)[0]
        assert glyph in KIND_GLYPHS.values()
    kinds = {a["label"][0] for _, a in _drawn(data)}
    assert len(kinds) == 5  # profile, agent, response, channel, partner: five shapes


# -- drill-down ---------------------------------------------------------------------------


def test_opening_a_big_group_shows_its_subgroups_then_node_by_node(estate: Estate) -> None:
    view = TopologyView(estate, height=600, aspect=1.8)
    finance = set(data_of(view).members["group:profile:Finance"])
    view.expand("group:profile:Finance")
    groups = _profile_groups(data_of(view))
    assert len(groups) > 1 and all(k.startswith("group:profile:Finance/") for k in groups)
    assert set().union(*map(set, groups.values())) == finance  # every member, once
    assert [level.title for level in view.trail] == ["Finance"]
    steps = 0
    while data_of(view).group_by is not None:  # the biggest group, level after level
        biggest = max(_profile_groups(data_of(view)).items(), key=lambda kv: len(kv[1]))[0]
        view.expand(biggest)
        steps += 1
        assert steps < 5
    assert len(view.trail) >= 2 and data_of(view).camera is not None  # fitted
    tallest = tallest_column(graph_of(view).subgraph(data_of(view).members).copy())
    assert fits(tallest, CANVAS, pages=SCROLL_PAGES)  # on a canvas that scrolls, at most
    view.go_to(1)
    assert [level.title for level in view.trail] == ["Finance"]
    view.back()
    assert not view.expanded and data_of(view).group_by == "group"


def test_a_drilled_groups_subgroups_are_drawn_without_its_path(estate: Estate) -> None:
    view = TopologyView(estate, height=600, aspect=1.8)
    view.expand("group:profile:Finance")
    drawn = {k: data_of(view).graph.nodes[k] for k in _profile_groups(data_of(view))}
    glyph = KIND_GLYPHS["profile"]
    for key, attributes in drawn.items():
        subgroup = key.removeprefix("group:profile:Finance/")
        assert attributes["label"].startswith(f"{glyph} {subgroup} (")  # "■ AP (12)"
        assert attributes["crumb"] == f"Finance/{subgroup}"  # the breadcrumb, the address
    assert shared_path(["Finance/AP", "Finance/AR/x"]) == "Finance/"
    assert shared_path(["Finance", "Finance/AP"]) == shared_path(["AP", "AR"]) == ""


def test_a_view_too_tall_for_the_canvas_is_grouped(graph: nx.MultiDiGraph[str]) -> None:
    assert not fits(tallest_column(graph), CANVAS)
    assert auto_view(graph, canvas=CANVAS).group_by == "group"
    one_profile = {next(n for n in graph if n.startswith("profile:"))}
    small = graph.subgraph(one_profile | nx.descendants(graph, next(iter(one_profile))))
    assert auto_view(small.copy(), canvas=CANVAS).group_by is None


# -- neighbourhood ------------------------------------------------------------------------


def test_neighbourhood_depth_follows_edges_either_way(graph: nx.MultiDiGraph[str]) -> None:
    partner = next(n for n in graph if n.startswith("partner:") and graph.pred[n])
    one = neighbourhood_nodes(graph, partner, 1)
    assert one == {partner, *graph.pred[partner], *graph.succ[partner]}
    two = neighbourhood_nodes(graph, partner, 2)
    assert one < two
    linked = {*graph.edges(), *((v, u) for u, v in graph.edges())}  # either way
    assert all(any((a, b) in linked for b in one) for a in two - one)
    assert neighbourhood_nodes(graph, partner, 0) == {partner}
    with pytest.raises(KeyError, match="no item"):
        neighbourhood_nodes(graph, "partner:nowhere", 1)


def test_focus_then_expand_a_node_in_place(estate: Estate) -> None:
    view = TopologyView(estate, height=600, aspect=1.8)
    graph = graph_of(view)
    partner = next(n for n in graph if n.startswith("partner:") and graph.pred[n])
    view.focus(partner)
    around = view.neighbourhood
    assert around is not None and around.depth == 1 and around.centre == partner
    assert set(data_of(view).graph) >= set(around.shown)
    assert data_of(view).graph.nodes[partner]["halo"] > 0  # the centre ringed
    channel = next(n for n in around.shown if isinstance(n, str) and n.startswith("channel:"))
    sigma_of(view).selected_node = channel  # a click expands in place...
    grown = view.neighbourhood
    assert grown is not None and grown.shown == frozenset(
        expand_nodes(graph, set(around.shown), channel)
    )
    assert len(view.trail) == 1  # ...on the same level
    view._controls.depth.value = 2  # a deeper neighbourhood of the same centre
    assert around_of(view).depth == 2
    assert around_of(view).shown == frozenset(neighbourhood_nodes(graph, partner, 2))
    view.back()
    assert view.neighbourhood is None and not view.expanded


def test_details_open_an_items_neighbourhood_in_the_topology_tab(estate: Estate, tmp_path) -> None:
    from iptoolkit.widgets import Explorer

    explorer = Explorer(estate, folder=tmp_path, debounce=0, static_copy=False)
    partner = next(n for n in explorer.model.graph if n.startswith("partner:"))
    explorer.show_detail(partner)
    assert not explorer.detail.around_button.disabled
    explorer.detail.around_button.click()
    assert explorer.tabs.selected_index == 0
    assert around_of(explorer.topology).centre == partner
    assert "around" in explorer.topology._controls.status.value
    explorer.close()


def test_profiles_nothing_splits_are_opened_by_ranges_of_names(graph: nx.MultiDiGraph[str]) -> None:
    alike = graph.copy()
    alike.remove_nodes_from([n for n, a in graph.nodes(data=True) if a["kind"] == "partner"])
    for node, attributes in graph.nodes(data=True):
        if attributes["kind"] == "profile":
            alike.nodes[node].update(group="Same", agent_type="SFTPAgentSettings")
    data = auto_view(alike, canvas=CANVAS)
    groups = _profile_groups(data)
    named = [key for key in groups if "by name" in key]  # past 13: "other groups"
    assert len(named) > 1 and len(named) >= len(groups) - 1, list(groups)
    assert all(graph.nodes[n].get("group") != "Same" for n in graph if n.startswith("profile:"))
    view = TopologyView(alike, height=600, aspect=1.8)
    first = named[0]
    view.expand(first)
    assert data_of(view).group_by is None and data_of(view).camera is not None
    ys = [a["y"] for _, a in _drawn(data_of(view))]
    # each range fits the canvas, or the few canvases a panel scrolls through
    assert max(ys) - min(ys) <= CANVAS.inner_height * SCROLL_PAGES + 1e-6


def test_a_part_cut_by_positions_is_the_part_cut_by_a_walk(graph: nx.MultiDiGraph[str]) -> None:
    """`group_graph` given the graph's positions (a caller opening many groups) gives the
    same part, in the same order, as the walk of the whole graph."""
    positions = node_positions(graph)
    profiles = [n for n, a in graph.nodes(data=True) if a.get("kind") == "profile"]
    for members in (profiles[:40], profiles[-3:], profiles[::7]):
        walked = group_graph(graph, members)
        sorted_part = group_graph(graph, members, positions=positions)
        assert list(sorted_part.nodes(data=True)) == list(walked.nodes(data=True))
        assert list(sorted_part.edges(keys=True, data=True)) == list(
            walked.edges(keys=True, data=True)
        )
        assert list(walked) != sorted(walked)  # the graph's order is not the names'


def test_the_picked_line_names_an_item_by_its_node_id_and_a_group_by_nothing_internal() -> None:
    """A group's key (`group:partner:...`) is the view's own and names nothing a reader
    can use; one item is shown with the node id the API and the search take."""
    from iptoolkit.viewmodel.topology_fit import Canvas
    from iptoolkit.viewmodel.topology_html import info_html

    graph = build_graph(demo_estate(n_profiles=300, seed=7))
    data = auto_view(graph, canvas=Canvas(620, 1.6, 2))
    groups = [key for key, members in data.members.items() if len(members) > 1]
    items = [key for key, members in data.members.items() if len(members) == 1]
    assert groups and items
    for key in groups:
        assert "group:" not in info_html(data, key) and key not in info_html(data, key)
    item = items[0]
    assert f"({data.members[item][0]})" in info_html(data, item)
