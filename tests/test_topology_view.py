"""The interactive topology view without a browser: its data (positions, colours, groups,
ids, highlight, secrets) and the widget's behaviour (clicks, expanding, the Explorer's tab).
The browser half is tests/browser/test_topology_browser.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator
from pathlib import Path

import networkx as nx
import pytest

from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_estate
from iptoolkit.plot.topology import MAX_DETAIL_NODES
from iptoolkit.query.filters import Filter
from iptoolkit.query.graph import build_graph
from iptoolkit.topology.layout import place_view
from iptoolkit.topology.legend import INACTIVE_FILL
from iptoolkit.topology.style import COLUMN_OF_KIND, KIND_COLOURS, KIND_GLYPHS, channel_colour
from iptoolkit.topology.view import detail_view, focus_set
from iptoolkit.viewmodel.explorer_html import FALLBACK_CLASS, legend_html, topology_fallback_html
from iptoolkit.viewmodel.topology_data import (
    FADED,
    ROWS_PER_CHARACTER,
    detail_node,
    mix,
    start_camera,
    view_data,
)
from iptoolkit.viewmodel.topology_wrap import two_lines

from .factories import ACME, GLOBEX, agent, channel, estate_of, profile, unit
from .view_helpers import data_of, graph_of, sigma_of

pytest.importorskip("ipysigma")

from iptoolkit.widgets import Explorer, TopologyView, show_topology  # noqa: E402

SECRET = "hunter2"


@pytest.fixture(scope="module")
def big() -> Estate:
    return demo_estate(n_profiles=300, seed=7)


@pytest.fixture(scope="module")
def small() -> Estate:
    return estate_of(
        profile(
            "P1",
            name="Orders in",
            agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME)]),
            units=[unit("Ftp", channel=channel(6, "FTP", partner=GLOBEX))],
        ),
        profile(
            "P2",
            name="Invoices out",
            active=False,
            agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME)]),
        ),
    )


def _kind_of(graph: nx.MultiDiGraph[str], node: str) -> str:
    return str(graph.nodes[node]["kind"])


def _text(label: str) -> str:
    """A drawn label without the shape written before it (`■ Orders in` -> `Orders in`)."""
    glyph, _, text = label.partition(" ")
    assert glyph in KIND_GLYPHS.values(), label
    return text


# -- the data -----------------------------------------------------------------------------


def test_detail_keys_are_estate_node_ids_in_their_layered_columns(small: Estate) -> None:
    graph = build_graph(small)
    data = view_data(graph, group_by=None)
    assert set(data.graph) == set(graph)
    assert all(data.item(key) == key for key in data.graph)
    placed = place_view(detail_view(graph), grouped=False)
    x_of_column: dict[int, float] = {}
    for key, attributes in data.graph.nodes(data=True):
        column = COLUMN_OF_KIND[_kind_of(graph, key)]
        assert x_of_column.setdefault(column, attributes["x"]) == attributes["x"]
        assert attributes["y"] == -placed.pos[key][1]  # rows downwards, sigma's y upwards
    columns = sorted(x_of_column)
    assert [x_of_column[c] for c in columns] == sorted(x_of_column.values())
    for left, right in zip(columns, columns[1:], strict=False):  # a column's labels fit
        longest = max(
            len(_text(attributes["label"]))
            for key, attributes in data.graph.nodes(data=True)
            if attributes["x"] == x_of_column[left]
        )
        gap = x_of_column[right] - x_of_column[left]
        assert gap >= longest * ROWS_PER_CHARACTER


def test_long_names_are_cut_and_their_column_makes_room(big: Estate) -> None:
    data = view_data(build_graph(big), group_by=None)
    pairs = [(_text(a["label"]), a["name"]) for _, a in data.graph.nodes(data=True)]
    cut = [(label, name) for label, name in pairs if label != name]
    assert cut and max(len(name) for _, name in cut) > 60  # the demo has long names...
    for label, name in cut:  # ...drawn cut to 48 characters, with an ellipsis
        assert len(label) <= 48 and label.endswith("…") and name.startswith(label[:-1])
    assert all(len(name) <= 48 for label, name in pairs if label == name)
    columns = sorted({attributes["x"] for _, attributes in data.graph.nodes(data=True)})
    gaps = [right - left for left, right in zip(columns, columns[1:], strict=False)]
    assert max(gaps) >= 48 * ROWS_PER_CHARACTER  # room for the longest drawn label


def test_colours_come_from_the_style(small: Estate) -> None:
    graph = build_graph(small)
    nodes = view_data(graph, group_by=None).graph.nodes
    assert nodes["profile:P1"]["color"] == KIND_COLOURS["profile"]
    assert nodes["partner:1"]["color"] == KIND_COLOURS["partner"]
    sftp = next(n for n in nodes if n.startswith("channel:") and "SFTP" in nodes[n]["label"])
    assert nodes[sftp]["color"] == channel_colour("SFTP")
    # an inactive profile: pale fill, its kind's colour as outline
    assert nodes["profile:P2"]["color"] == INACTIVE_FILL
    assert nodes["profile:P2"]["border"] == KIND_COLOURS["profile"]
    assert nodes["profile:P2"]["active"] is False


def test_big_selections_are_grouped_as_plot_topology_groups_them(
    big: Estate, small: Estate
) -> None:
    assert build_graph(big).number_of_nodes() > MAX_DETAIL_NODES
    assert data_of(TopologyView(big)).group_by == "group"
    assert data_of(TopologyView(big, group_by=False)).group_by is None
    assert data_of(TopologyView(small)).group_by is None
    assert data_of(TopologyView(small, group_by="agent_type")).group_by == "agent_type"
    with pytest.raises(ValueError, match="group_by"):
        TopologyView(small, group_by="colour")


def test_group_keys_map_back_to_every_estate_node_once(big: Estate) -> None:
    graph = build_graph(big)
    data = view_data(graph, group_by="group")
    members = [node for nodes in data.members.values() for node in nodes]
    assert Counter(members) == Counter(graph)  # every node in exactly one group
    assert all(key.startswith("group:") for key in data.graph)
    finance = data.graph.nodes["group:profile:Finance"]
    assert finance["count"] == len(data.members["group:profile:Finance"])
    assert _text(finance["label"]).startswith(f"Finance ({finance['count']}")


def test_expanding_a_group_shows_its_members_and_their_paths(big: Estate) -> None:
    view = TopologyView(big)
    overview = data_of(view)
    view.expand("group:profile:Finance")  # Finance opens on its subgroups...
    view.expand("group:profile:Finance/GL")  # ...and a small one node by node
    assert view.expanded and view.data is not overview
    members = set(overview.members["group:profile:Finance"])
    shown = {key for key, a in data_of(view).graph.nodes(data=True) if a["kind"] != "port"}
    graph = graph_of(view)
    profiles = {key for key in shown if key.startswith("profile:")}
    assert profiles and profiles <= members  # the group's profiles, node by node...
    reached = set().union(*(nx.descendants(graph, node) for node in profiles))
    assert shown == profiles | reached  # ...with what they reach, nothing else
    assert profiles == {m for m in members if graph.nodes[m]["group"].startswith("Finance/GL")}
    assert data_of(view).group_by is None and all(data_of(view).item(key) == key for key in shown)
    view.back()
    view.back()
    assert not view.expanded and view.data is overview
    with pytest.raises(KeyError, match="no group"):
        view.expand("group:profile:Nowhere")


def test_a_click_reports_the_estate_node_and_a_group_click_expands(big: Estate) -> None:
    picked: list[Hashable] = []
    view = show_topology(big, on_select=picked.append)
    sigma_of(view).selected_node = "group:profile:Finance"
    assert view.expanded and picked == []
    sigma_of(view).selected_node = "group:profile:Finance/Treasury"
    profile_key = next(key for key in data_of(view).graph if key.startswith("profile:"))
    clicked = sigma_of(view)
    clicked.camera_state = {"x": 0.3, "y": 0.7, "ratio": 0.4, "angle": 0.0}
    clicked.selected_node = profile_key
    assert picked == [profile_key] and view.selected == profile_key
    assert profile_key in view._controls.info.value  # the side panel names what was picked
    # drawn afresh where the reader was, with no selection of sigma's to fade the rest
    assert sigma_of(view) is not clicked and sigma_of(view).selected_node is None
    assert sigma_of(view).camera_state["ratio"] == 0.4


def test_highlight_fades_what_it_leaves_out(small: Estate) -> None:
    graph = build_graph(small)
    focus = focus_set(graph, "partner:2")
    data = view_data(graph, group_by=None, focus=focus)
    nodes = data.graph.nodes
    assert nodes["partner:2"]["halo"] > 0 and nodes["partner:2"]["zindex"] == 1
    assert nodes["partner:2"]["color"] == KIND_COLOURS["partner"]
    assert nodes["partner:1"]["halo"] == 0 and nodes["partner:1"]["zindex"] == 0
    assert nodes["partner:1"]["color"] == mix(KIND_COLOURS["partner"], FADED)
    assert "highlighted" in [item.label for item in data.legend]
    plain = view_data(graph, group_by=None)
    assert all(a["halo"] == 0 for _, a in plain.graph.nodes(data=True))
    assert plain.graph.nodes["partner:1"]["color"] == KIND_COLOURS["partner"]


def test_no_secret_in_labels_or_facts() -> None:
    leaky = estate_of(
        profile(
            "P1",
            name=f"sync https://bob:{SECRET}@files.example.com/in",
            agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME)]),
            units=[unit("Http", url=f"https://api.example.com/in?apikey={SECRET}")],
        )
    )
    graph = build_graph(leaky)
    detail = view_data(graph, group_by=None)
    text = repr(list(detail.graph.nodes(data=True)))
    assert "files.example.com" in text and "api.example.com" in text  # shown, masked
    assert SECRET not in text
    grouped = view_data(graph, group_by="group")
    assert SECRET not in repr(list(grouped.graph.nodes(data=True)))


def test_a_tall_detail_view_starts_at_its_top_zoomed_in(big: Estate) -> None:
    graph = build_graph(big)
    tall = view_data(graph, group_by=None)
    camera = start_camera(tall)
    assert camera["ratio"] < 0.5 and camera["y"] > 0.75
    assert start_camera(view_data(graph, group_by="group"))["ratio"] >= 1


def test_an_agent_click_opens_its_profile(small: Estate) -> None:
    graph = build_graph(small)
    agents = [n for n in graph if _kind_of(graph, n) in ("agent", "response")]
    assert len(agents) == 3
    for node in agents:
        owner = detail_node(graph, node)
        assert isinstance(owner, str)  # an estate node id
        assert _kind_of(graph, owner) == "profile" and graph.has_edge(owner, node)
    assert detail_node(graph, "partner:1") == "partner:1"


def test_legend_and_static_fallback_html(small: Estate) -> None:
    view = TopologyView(small)
    legend = legend_html(data_of(view).legend)
    assert "input agent" in legend and "SFTP channel" in legend and "inactive" in legend
    page = topology_fallback_html(view.png(), "2 profiles")
    assert FALLBACK_CLASS in page and "data:image/png;base64," in page


def test_the_view_is_a_widget_that_composes(small: Estate) -> None:
    """Placed as it is, as ipysigma's Sigma is: `VBox([view, ...])`; `.widget` (what older
    code placed) is the view itself."""
    import ipywidgets as W

    view = show_topology(small)
    assert isinstance(view, W.VBox) and view.widget is view
    page = W.VBox([W.HTML("above"), view])
    assert page.children[1] is view and "ipt-topology" in view._dom_classes
    state = page.get_state()
    assert state["children"][1] == f"IPY_MODEL_{view.model_id}"
    inner = [view.sigma, view._sigma_box, view._controls.legend]
    view.close()
    assert view.comm is None and all(widget.comm is None for widget in inner)


def test_the_view_lays_itself_out_again_for_the_width_its_front_end_reports(
    big: Estate,
) -> None:
    """The front end reports the view's width (`CanvasWidth`): the overview and every level
    opened are laid out for it; a narrow one takes labels on two lines (`topology_wrap`),
    a width too narrow even for those draws a wider canvas that scrolls (never narrower
    labels than `MIN_LABEL_CHARS`), a wide one fits its width."""
    view = TopologyView(big, height=600)
    view.expand("group:profile:Finance")
    opened = view.data
    view._width.width = 1400  # as the front end sets it
    assert view.canvas.width == 1400 and view.data is not opened
    wide = data_of(view).size
    assert wide is not None and wide[0] == 1400 and wide[1] >= 600
    assert [level.title for level in view.trail] == ["Finance"]  # the same level, relaid
    assert "sideways" not in view._controls.status.value
    view._width.width = 500
    narrow = data_of(view).size
    assert narrow is not None and narrow[0] <= 500  # labels on two lines, taller
    assert two_lines(data_of(view).graph.nodes) and narrow[1] > 600
    camera, sigma = data_of(view).camera, view.sigma
    assert camera is not None and sigma is not None
    assert sigma.renderer_settings["maxCameraRatio"] == camera["ratio"]  # no zooming out
    assert "sideways" not in view._controls.status.value
    view._width.width = 300
    narrower = data_of(view).size
    assert narrower is not None and narrower[0] > 300  # grown: the panel scrolls sideways
    assert "scroll it sideways" in view._controls.status.value  # and says so
    view.go_to(0)
    back = data_of(view).size
    assert back is not None and back[0] > 300
    view._width.width = 0  # a hidden tab: nothing to lay out for
    assert view.canvas.width > 0
    view.close()


def test_no_picture_shows_before_it_is_laid_out_for_the_reported_width(big: Estate) -> None:
    """Issue 42: the first frame is already for its width. A view displayed (the front end
    counts it) places no sigma widget while it knows only its default canvas; once its
    width is reported, the picture laid out for that width is placed, not the first one."""
    view = TopologyView(big, height=600)
    box = view._sigma_box
    first = view.sigma
    box._view_count = 1  # as the front end reports the box displayed
    assert first is not None and box._inner.children == ()  # no default-width frame
    view._width.width = 900  # as the front end reports its width
    assert view.sigma is not first and box._inner.children == (view.sigma,)
    assert view._width.laid_out_for == 900  # the front end shows the map from now on
    size = data_of(view).size
    assert size is not None and size[0] <= 900
    view.expand(next(key for key in data_of(view).members if data_of(view).item(key) is None))
    assert box._inner.children == (view.sigma,)  # later pictures show at once
    view.close()


def test_agents_around_a_channel_are_told_apart_by_their_profile(big: Estate) -> None:
    """Six profiles' "AS2 agent"s around one channel: each label says its profile."""
    view = TopologyView(big)
    view.focus("channel:40079")
    agents = [a["label"] for _, a in data_of(view).graph.nodes(data=True) if "agent" in a["label"]]
    assert len(agents) == 6 and len(set(agents)) == 6, agents
    assert all(label.startswith("\u25c0 AS2 agent \u00b7 P-") for label in agents), agents
    from iptoolkit.viewmodel.topology_fit import cut_to_px, label_px

    cut = cut_to_px(agents[0], label_px(agents[0]) - 30)  # short of room: the head goes first
    assert cut.endswith(agents[0][-8:]) and "\u2026 \u00b7 " in cut, cut
    view.update(big.subset(Filter(agent_types=["SFTP"])))  # profiles drawn: their lines say it
    assert data_of(view).group_by is None
    assert not [a for _, a in data_of(view).graph.nodes(data=True) if "\u00b7" in a["label"]]
    view.close()


# -- in the Explorer ----------------------------------------------------------------------


@pytest.fixture()
def explorer(big: Estate, tmp_path: Path) -> Iterator[Explorer]:
    x = Explorer(big, folder=tmp_path)
    yield x
    x.close()


def test_the_explorer_opens_on_the_topology_of_its_selection(
    explorer: Explorer, big: Estate
) -> None:
    assert explorer.tabs.titles[0] == "Topology" and explorer.tabs.selected_index == 0
    assert data_of(explorer.topology).group_by == "group"
    explorer.filter = Filter(active=False)
    profiles = {n for n in graph_of(explorer.topology) if n.startswith("profile:")}
    assert len(profiles) == len(explorer.selection)


def test_the_explorer_caches_view_data_per_filter(explorer: Explorer) -> None:
    first = explorer.topology.data
    explorer.filter = Filter(active=False)
    assert explorer.topology.data is not first
    explorer.filter = Filter()
    assert explorer.topology.data is first
    assert explorer.topology._levels._graph is None  # a cached view keeps no 10k graph alive...
    explorer.topology.expand("group:profile:Finance")  # ...and builds it when it must
    assert explorer.topology.graph is not None and explorer.topology.expanded


SMALL = Filter(active=False, groups=["Finance"])
"""A selection small enough to fit the canvas node by node."""


def test_a_click_in_the_explorer_opens_details_beside_the_map(explorer: Explorer) -> None:
    """Issue 42: the details open beside the map (below it in a narrow pane), never in its
    place: the Topology tab stays in front, the Details tab's content shown there too."""
    explorer.filter = SMALL  # few enough to be drawn node by node
    data = data_of(explorer.topology)
    partner = next(key for key in data.graph if key.startswith("partner:"))
    beside = explorer.beside
    assert "ipt-beside-empty" in beside.side._dom_classes  # nothing picked: a hint only
    sigma_of(explorer.topology).selected_node = partner
    assert explorer.tabs.selected_index == explorer.tabs.titles.index("Topology")
    assert explorer.detail.node == partner and beside.item == partner
    assert "ipt-beside-empty" not in beside.side._dom_classes
    assert explorer.detail.content in beside.side.children[2].children  # the tab's own
    assert "Partner" in explorer.detail.content.value
    explorer.beside.open_link("profile:P1")  # a name linked in the details: beside, too
    assert explorer.tabs.selected_index == 0 and beside.item == "profile:P1"
    beside.more.click()  # "Details tab": the same item there
    assert explorer.tabs.selected_index == explorer.tabs.titles.index("Details")
    assert explorer.detail.node == "profile:P1"
    explorer.beside.open_link(partner)  # in the Details tab, a link stays there
    assert explorer.tabs.selected_index == explorer.tabs.titles.index("Details")
    explorer.detail.clear()
    assert beside.item is None and "ipt-beside-empty" in beside.side._dom_classes


def test_the_node_picked_last_can_be_picked_again_and_goes_with_its_picture(
    explorer: Explorer,
) -> None:
    explorer.filter = SMALL
    partner = next(key for key in data_of(explorer.topology).graph if key.startswith("partner:"))
    sigma_of(explorer.topology).camera_state = {"x": 0.3, "y": 0.7, "ratio": 0.4, "angle": 0.0}
    sigma_of(explorer.topology).selected_node = partner
    first = explorer.topology.sigma
    assert explorer.topology.sigma is first  # details beside: the picture stays as it is
    explorer.tabs.selected_index = 1
    explorer.tabs.selected_index = 0  # back from another tab: a fresh canvas, nothing picked
    assert explorer.topology.sigma is not first
    assert sigma_of(explorer.topology).selected_node is None
    assert sigma_of(explorer.topology).camera_state["ratio"] == 0.4  # where the reader was
    explorer.detail.show("profile:P1")
    sigma_of(explorer.topology).selected_node = partner  # the same node again: its details
    assert explorer.detail.node == partner and explorer.tabs.selected_index == 0
    explorer.filter = Filter(active=True)  # another selection: the old pick is gone
    assert explorer.topology.selected is None and explorer.topology._controls.info.value == ""


def test_without_a_static_copy_no_png_is_drawn(
    big: Estate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from IPython.display import HTML

    from iptoolkit.widgets import static_copy as static_copy_module

    def no_drawing(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("the static PNG was drawn")

    monkeypatch.setattr(static_copy_module, "render_png", no_drawing)
    live = Explorer(big, folder=tmp_path, debounce=0, static_copy=False)
    updates: list[object] = []
    handle = type("Handle", (), {"update": lambda self, shown: updates.append(shown)})
    live._static_copy.handle = handle()
    live.filter = Filter(active=False)
    live.refresh()
    assert live.diagram_png is None and live.topology.data is not None
    assert updates, "the static copy was not updated"
    last = updates[-1]
    assert isinstance(last, HTML) and "filter: not active" in last.data  # it follows
    live.close()


def test_an_empty_selection_says_so(explorer: Explorer) -> None:
    explorer.filter = Filter(text="no profile has this text")
    assert "Nothing selected" in explorer.topology._controls.status.value


def test_a_hidden_topology_tab_follows_when_shown(explorer: Explorer) -> None:
    before = explorer.topology.data
    assert explorer.tabs.children[0] is explorer.beside.widget  # the view and details
    assert explorer.topology in explorer.beside.widget.children[1].children
    explorer.tabs.selected_index = 1
    explorer.filter = Filter(active=False)
    assert explorer.topology.data is before  # not drawn into a hidden tab
    explorer.tabs.selected_index = 0
    assert explorer.topology.data is not before


def test_explorer_without_diagram_draws_nothing(big: Estate, tmp_path: Path) -> None:
    x = Explorer(big, folder=tmp_path, diagram=False)
    try:
        x.filter = Filter(active=False)
        assert x.topology.sigma is None and x.diagram_png is None
        assert x.counts.startswith(f"{len(x.selection)} of ")
    finally:
        x.close()


def test_display_leaves_the_static_diagram_for_github(
    small: Estate, monkeypatch: pytest.MonkeyPatch
) -> None:
    import IPython.display
    from IPython.display import HTML

    shown: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **_: shown.append(obj))
    TopologyView(small)._ipython_display_()
    bundle, fallback = shown
    assert isinstance(bundle, dict) and isinstance(fallback, HTML)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "a live widget" in bundle["text/plain"]
    assert FALLBACK_CLASS in fallback.data and "data:image/png;base64," in fallback.data


def test_the_static_copy_of_a_huge_view_is_the_grouped_diagram(
    big: Estate, small: Estate, monkeypatch: pytest.MonkeyPatch
) -> None:
    import iptoolkit.viewmodel.diagram as diagram

    asked: list[dict[str, object]] = []
    monkeypatch.setattr(diagram, "render_png", lambda graph, **options: asked.append(options))
    TopologyView(big, group_by=False).png()
    TopologyView(small, group_by=False).png()
    assert [options["group_by"] for options in asked] == [None, False]
