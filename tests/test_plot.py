"""Topology diagrams and summary charts: what is drawn, how it is laid out, that it repeats."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from collections.abc import Hashable
from itertools import pairwise

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

import iptoolkit as ipt  # noqa: E402
from iptoolkit.plot import layered_layout, plot_summary, plot_topology  # noqa: E402
from iptoolkit.plot.labels import fit, place_labels, text_width  # noqa: E402
from iptoolkit.plot.summary import summary_counts  # noqa: E402
from iptoolkit.support.printable import shorten  # noqa: E402
from iptoolkit.topology.layout import count_crossings  # noqa: E402
from iptoolkit.topology.style import IN_COLOUR, OUT_COLOUR, UNRESOLVED_COLOUR  # noqa: E402
from iptoolkit.topology.view import detail_view, focus_set, grouped_view  # noqa: E402

from .factories import ACME, GLOBEX, agent, channel, estate_of, profile, tiny_estate, unit  # noqa: E402
from .plot_helpers import (  # noqa: E402
    HALO,
    dash_patterns,
    edge_colours,
    face_colours,
    haloed,
    offsets,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def tiny() -> ipt.Estate:
    """Two partners, an inactive profile, a channel named by an id nobody holds."""
    return tiny_estate()


@pytest.fixture(scope="module")
def demo300() -> ipt.Estate:
    return ipt.demo_estate(n_profiles=300, seed=0)


def _png(figure, dpi: int = 50) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def _points(ax) -> list[tuple[float, float, str]]:
    """(x, y, face colour) of every marker that is not a highlight halo."""
    found = []
    for collection in ax.collections:
        if not isinstance(collection, PathCollection):
            continue
        colours = face_colours(collection) or ["none"]
        for index, (x, y) in enumerate(offsets(collection)):
            colour = colours[min(index, len(colours) - 1)]
            if colour != HALO:
                found.append((float(x), float(y), colour))
    return found


def _label_boxes(figure, ax=None) -> list[Bbox]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    ax = ax or figure.axes[0]
    return [text.get_window_extent(renderer) for text in ax.texts if text.get_text()]


# -- the layout ---------------------------------------------------------------------------


def test_barycentre_sweeps_remove_avoidable_crossings():
    graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    # two profiles, each with its own agent, channel and partner, listed crosswise
    for node, kind in [
        ("profile:A", "profile"),
        ("profile:B", "profile"),
        ("agent:B", "agent"),
        ("agent:A", "agent"),
        ("channel:2", "channel"),
        ("channel:1", "channel"),
        ("partner:1", "partner"),
        ("partner:2", "partner"),
    ]:
        graph.add_node(node, kind=kind)
    graph.add_edges_from(
        [
            ("profile:A", "agent:A"),
            ("profile:B", "agent:B"),
            ("agent:A", "channel:1"),
            ("agent:B", "channel:2"),
            ("channel:1", "partner:1"),
            ("channel:2", "partner:2"),
        ]
    )
    columns: list[list[Hashable]] = [
        ["profile:A", "profile:B"],
        ["agent:B", "agent:A"],
        ["channel:2", "channel:1"],
        ["partner:1", "partner:2"],
    ]
    assert count_crossings(columns, graph) == 2
    placed = layered_layout(graph)
    assert placed.crossings == 0
    assert count_crossings(placed.columns, graph) == 0
    assert {node: x for node, (x, _) in placed.pos.items()} == {
        "profile:A": 0,
        "profile:B": 0,
        "agent:A": 1,
        "agent:B": 1,
        "channel:1": 2,
        "channel:2": 2,
        "partner:1": 3,
        "partner:2": 3,
    }


def test_layout_keeps_nodes_a_row_apart_and_repeats(demo300):
    graph = ipt.build_graph(ipt.demo_estate(n_profiles=40))
    first, second = layered_layout(graph), layered_layout(graph)
    assert first.pos == second.pos
    for column in first.columns:
        rows = [first.pos[node][1] for node in column]
        assert all(b - a >= 1 - 1e-9 for a, b in pairwise(rows)), "nodes overlap"
    start: list[list[Hashable]] = [[n for n in graph if first.pos[n][0] == c] for c in range(4)]
    assert first.crossings < count_crossings(start, graph) / 2


# -- labels -------------------------------------------------------------------------------


def test_shorten_and_fit():
    assert shorten("Inbound orders from Acme", 100) == "Inbound orders from Acme"
    assert shorten("Inbound orders from Acme", 10) == "Inbound o…"
    assert len(shorten("x" * 50, 12)) == 12
    text = "Inbound orders from a partner with a very long name indeed"
    fitted = fit(text, 100, lambda t: text_width(t, 8))
    assert fitted.endswith("…") and text_width(fitted, 8) <= 100


def test_fit_never_cuts_a_count() -> None:
    """A count is kept whole and the name before it cut ("Cron Cloud Storage agents (8, 1
    inac…" read as another number in the demo's topology.png); where the whole count would
    crowd the name out, its first number alone."""

    def width(text: str) -> float:
        return text_width(text, 8)

    label = "Cron Cloud Storage agents (8, 1 inactive)"
    room = width("Cron Cloud Storage agents (8, 1 inac…")
    fitted = fit(label, room, width)
    assert fitted.endswith("… (8, 1 inactive)") and width(fitted) <= room
    assert fitted.startswith("Cron Cloud")
    narrow = width("Cron Cloud… (8, 1 inac")
    fitted = fit(label, narrow, width)
    assert fitted.endswith("… (8)") and width(fitted) <= narrow, fitted
    assert fit("HTTP agents (724)", width("HTTP agents (72"), width).endswith("… (724)")


def test_labels_are_thinned_where_they_would_collide():
    from iptoolkit.plot.labels import LabelSpec

    specs = [
        LabelSpec(
            node=i,
            text=f"node {i}",
            column=0,
            row=i * 0.5,
            side="left",
            room_pts=200,
            priority=(0, -i),
        )  # fmt: skip
        for i in range(10)
    ]
    kept = place_labels(specs, row_pts=10, font_pts=8)  # 0.5 row = 5 pt < a line
    rows = [spec.row for spec, _ in kept]
    assert 0 < len(kept) < 10
    assert all(b - a >= 8 * 1.15 / 10 for a, b in pairwise(rows))


def test_empty_estate_gives_a_figure():
    figure = plot_topology(ipt.Estate.from_raw([]))
    assert figure.texts[0].get_text().startswith("Integration topology: 0 profiles")
    assert _png(figure)


def test_an_empty_selection_says_so_instead_of_a_blank_canvas():
    """`iptoolkit plot snap.json --partner nobody` draws a diagram a reader understands."""
    figure = plot_topology(ipt.Estate.from_raw([]))
    words = [text.get_text() for text in figure.axes[0].texts]
    assert any("nothing to draw" in text.lower() for text in words), words


def test_every_node_of_a_small_estate_is_drawn_once(tiny):
    graph = ipt.build_graph(tiny)
    figure = plot_topology(tiny)
    points = _points(figure.axes[0])
    assert len(points) == graph.number_of_nodes()
    assert len(set(points)) == len(points)
    # four columns, profiles left of partners
    xs = {x for x, _, _ in points}
    assert xs == {0.0, 1.0, 2.0, 3.0}


def test_in_and_out_edges_differ_in_colour_and_style(tiny):
    ax = plot_topology(tiny).axes[0]
    looks: dict[str, set[bool]] = {}
    for collection in ax.collections:
        if isinstance(collection, LineCollection):
            colour = edge_colours(collection)[0]
            dashes = dash_patterns(collection)[0]
            looks.setdefault(colour, set()).add(dashes is not None)
    assert IN_COLOUR.lower() in looks and OUT_COLOUR.lower() in looks
    assert looks[OUT_COLOUR.lower()] == {True}  # dashed
    assert False in looks[IN_COLOUR.lower()]  # solid (and dotted for ids)


def test_inactive_faded_and_unresolved_marked(tiny):
    ax = plot_topology(tiny).axes[0]
    dashed = [
        c
        for c in ax.collections
        if isinstance(c, PathCollection) and dash_patterns(c)[0] is not None
    ]
    assert dashed, "inactive nodes have a dashed outline"
    colours = {colour for _, _, colour in _points(ax)}
    assert UNRESOLVED_COLOUR.lower() in colours  # channel 999 is held by no profile
    labels = {text.get_text() for text in ax.texts}
    assert "id 999 not found" in labels
    assert ax.get_legend() is None and plot_topology(tiny).legends  # legend on the figure


def test_labels_never_overlap_in_detail_and_grouped_views(demo300):
    small = ipt.demo_estate(n_profiles=60)
    cramped, ax = plt.subplots(figsize=(7, 3))  # far too small: labels must be left out
    plot_topology(small, ax=ax)
    headers = 4
    for figure in (plot_topology(small), plot_topology(demo300), cramped):
        boxes = sorted(_label_boxes(figure), key=lambda b: (b.x0, b.y0))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                if b.x0 >= a.x1:
                    break
                assert a.y1 <= b.y0 + 0.5 or b.y1 <= a.y0 + 0.5, "labels overlap"
        # and none is lost for it: at its own size every node drawn (or group) has its
        # label; cramped, some are left out, not all
        labels, nodes = len(boxes) - headers, len(_points(figure.axes[0]))
        if figure is cramped:
            assert 0 < labels < nodes, (labels, nodes)
        else:
            assert labels == nodes, (labels, nodes)


def test_figure_grows_with_the_graph():
    small = plot_topology(ipt.demo_estate(n_profiles=5)).get_size_inches()
    big = plot_topology(ipt.demo_estate(n_profiles=60)).get_size_inches()
    assert big[1] > small[1] * 2


def test_big_graphs_are_grouped_with_counts(demo300):
    figure = plot_topology(demo300)
    title = figure.texts[0].get_text()
    assert "300 profiles" in title and "grouped by group" in title
    graph = ipt.build_graph(demo300)
    assert len(_points(figure.axes[0])) < graph.number_of_nodes() / 5
    labels = " ".join(text.get_text() for text in figure.axes[0].texts)
    assert "Finance" in labels and "SFTP channels (" in labels


@pytest.mark.parametrize("key", ["group", "agent_type", "partner"])
def test_group_by_counts_every_member_once(demo300, key):
    graph = ipt.build_graph(demo300)
    view = grouped_view(graph, key)
    members = [m for _, data in view.nodes(data=True) for m in data["members"]]
    assert sorted(members) == sorted(graph.nodes)
    profiles = sum(d["count"] for _, d in view.nodes(data=True) if d["kind"] == "profile")
    assert profiles == 300
    assert plot_topology(graph, group_by=key).axes


def test_group_by_false_draws_every_node(tiny):
    graph = ipt.build_graph(tiny)
    assert len(_points(plot_topology(graph, group_by=False).axes[0])) == len(graph)


@pytest.mark.slow
def test_ten_thousand_profiles_give_a_legible_overview():
    estate = ipt.demo_estate(n_profiles=10_000)
    figure = plot_topology(estate)
    width, height = figure.get_size_inches()
    assert width < 20 and height < 20
    assert len(_points(figure.axes[0])) < 80
    assert "10,000 profiles" in figure.texts[0].get_text()


def test_same_estate_same_picture(tiny):
    first = _png(plot_topology(tiny))
    again = _png(plot_topology(estate_of(*tiny.raw_profiles)))
    assert hashlib.sha256(first).digest() == hashlib.sha256(again).digest()
    other = _png(plot_topology(estate_of(*tiny.raw_profiles[:2])))
    assert other != first


def test_draws_into_given_axes(tiny):
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    returned = plot_topology(tiny, ax=right, title="Right")
    assert returned is figure
    assert right.collections and not left.collections
    assert right.get_title(loc="left") == "Right"
    assert tuple(figure.get_size_inches()) == (12, 5)


def test_highlight_a_partner_marks_its_paths(tiny):
    graph = ipt.build_graph(tiny)
    ax = plot_topology(graph, highlight="partner:1").axes[0]
    # partner 1, channel 5, the agents of P1 and P3, P1 and P3
    assert haloed(ax) == 6


def test_highlight_accepts_an_impact_and_a_list(tiny):
    graph = ipt.build_graph(tiny)
    impact = ipt.impact(graph, "channel:5")  # channel 5, partner 1, P1 and its agent
    assert haloed(plot_topology(graph, highlight=impact).axes[0]) == 4
    assert haloed(plot_topology(graph, highlight=["profile:P1", "agent:P1"]).axes[0]) == 2
    with pytest.raises(nx.NodeNotFound):
        plot_topology(graph, highlight="partner:404")


def test_labels_option(tiny):
    headers = 4
    assert len(plot_topology(tiny, labels="none").axes[0].texts) == headers
    ids = {t.get_text() for t in plot_topology(tiny, labels="ids").axes[0].texts}
    assert "profile:P1" in ids
    with pytest.raises(ValueError, match="labels"):
        plot_topology(tiny, labels="some")  # type: ignore[arg-type]  # refused, as asked
    with pytest.raises(ValueError, match="group_by"):
        plot_topology(tiny, group_by="colour")
    with pytest.raises(ValueError, match="layout"):
        plot_topology(tiny, layout="spring")
    with pytest.raises(TypeError):
        plot_topology([1, 2, 3])  # type: ignore[arg-type]  # neither estate nor graph


def test_importing_the_plot_package_does_not_load_matplotlib():
    code = "import sys, iptoolkit.plot; assert 'matplotlib' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# -- summary ------------------------------------------------------------------------------


def test_summary_counts(tiny):
    counts = summary_counts(tiny)
    assert counts["agent_types"] == {"SFTP": (1, 1), "Fax": (1, 0)}
    assert counts["channel_types"] == {"AS2": (0, 1), "SFTP": (1, 0)}
    assert counts["activity"]["profiles"] == (2, 1)
    assert counts["groups"]["(no group)"] == (0, 1)


def test_summary_figure_has_four_charts_and_repeats(demo300):
    figure = plot_summary(demo300)
    assert len(figure.axes) == 4
    titles = [ax.get_title(loc="left") for ax in figure.axes]
    assert titles == [
        "Profiles by input agent type",
        "Channels by type",
        "Share active",
        "Profiles per group",
    ]
    widths = [bar.get_width() for bar in figure.axes[0].patches if isinstance(bar, Rectangle)]
    assert len(widths) == len(figure.axes[0].patches) and sum(widths) == 300
    assert _png(figure) == _png(plot_summary(demo300))


def test_summary_of_nothing():
    assert len(plot_summary(ipt.Estate.from_raw([])).axes) == 4


def test_group_by_agent_type_lumps_the_same_types_in_both_columns():
    """The profiles column and the agents column say "other agent types" of the same types:
    each profile group leads to the agent group of its own type, none to another."""
    types = [f"T{index:02d}" for index in range(24)]
    estate = estate_of(
        *(
            profile(f"P{type_}{copy}", agent=agent(type_))
            for count, type_ in enumerate(types)
            for copy in range(1 + count % 3)
        )
    )
    view = grouped_view(ipt.build_graph(estate), "agent_type")
    agents = {key for key, a in view.nodes(data=True) if a["kind"] == "agent"}
    for key, data in view.nodes(data=True):
        if data["kind"] != "profile":
            continue
        targets = {other for other in view.succ[key] if other in agents}
        wanted = data["label"].removesuffix(" profiles") + " agents"
        if data["label"] == "other agent types":
            wanted = "other agent types"
        assert {view.nodes[t]["label"] for t in targets} == {wanted}
        assert sum(view.nodes[t]["count"] for t in targets) == data["count"]


def test_highlight_of_a_partners_impact_keeps_the_paths_through_its_channels():
    """A partner takes its channels with it: they are part of what is highlighted, so the
    emphasised paths run from the profiles through the agents and channels to the partner."""
    c7 = channel(7, "SFTP", partner=GLOBEX)
    estate = estate_of(
        profile("P1", agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME)])),
        profile("P2", agent=agent("File"), units=[unit(channel=channel(6, "FTP", partner=ACME))]),
        profile("P3", agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME), c7])),
        profile("P4", agent=agent("SFTP", channels=[c7])),
    )
    graph = ipt.build_graph(estate)
    focus = focus_set(graph, ipt.impact(graph, "partner:1"))
    assert focus is not None
    assert {"channel:5", "channel:6", "agent:P1", "response:P2:0", "partner:1"} <= focus
    assert {"profile:P3", "agent:P3"} <= focus  # loses part of its input: on a cut path
    assert "channel:7" not in focus and "profile:P4" not in focus and "partner:2" not in focus
    view = detail_view(graph, focus)
    assert view.edges["agent:P1", "channel:5"]["focus"]
    assert view.edges["response:P2:0", "channel:6"]["focus"]
    assert not view.edges["agent:P3", "channel:7"]["focus"]


def test_dollar_signs_in_names_are_drawn_as_typed_not_as_formulas(tmp_path) -> None:
    """matplotlib reads `$...$` as a formula: an unknown command stopped the drawing (and
    with it the docs site), `$x^2$` drew as a power. Names are drawn as typed."""
    import iptoolkit as ipt

    raw = [dict(profile) for profile in ipt.demo_estate(n_profiles=12, seed=1).raw_profiles]
    raw[0]["name"], raw[1]["name"] = "$\\nosuch{$", "$x^2$ price"
    estate = ipt.Estate.from_raw(raw)
    figure = ipt.plot_topology(estate, group_by=False)
    figure.savefig(tmp_path / "topology.png")  # raised ParseFatalException before
    texts = [t for t in figure.findobj() if isinstance(t, Text)]
    drawn = {t.get_text(): t.get_parse_math() for t in texts}
    assert drawn.get("$x^2$ price") is False and drawn.get("$\\nosuch{$") is False
    ipt.plot_summary(estate).savefig(tmp_path / "summary.png")
    import matplotlib

    assert matplotlib.rcParams["text.parse_math"] is True  # the user's setting untouched
