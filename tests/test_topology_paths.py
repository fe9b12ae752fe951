"""How does A reach B in the Explorer and the app: the paths level of the topology (what
is off the paths faded), its buttons, the Details tab's, and the address (`from`, `to`)."""

from __future__ import annotations

import pytest

from iptoolkit.query.graph import build_graph
from iptoolkit.query.reach import induced_subgraph
from iptoolkit.viewmodel.drill import PATH_CONTEXT
from iptoolkit.viewmodel.topology_data import FADED, mix, view_data
from iptoolkit.widgets import Explorer, TopologyView

from .factories import ACME, agent, channel, estate_of, profile
from .test_graph import hand_estate

pytest.importorskip("ipysigma")


def _drawn(data):
    """Every node drawn (no port), with its drawing attributes."""
    return {k: a for k, a in data.graph.nodes(data=True) if a.get("kind") != "port"}


def test_a_path_view_fades_what_is_off_the_paths():
    graph = build_graph(hand_estate())
    view = TopologyView(graph)
    found = view.paths.show("P3", "P2", cutoff=10)
    assert found.paths and view.paths.shown is found
    level = view.trail[-1]
    assert level.paths is found and level.title == "paths: profile:P3 \u2192 profile:P2"
    drawn = _drawn(view.data)
    on_paths = set(found.nodes)
    assert on_paths < set(drawn), "every node of a path is drawn, with neighbours around"
    plain = _drawn(view_data(induced_subgraph(graph, set(drawn)), group_by=None))
    for key, attributes in drawn.items():
        assert (attributes["zindex"] == 1) == (key in on_paths), key
        if key in on_paths:
            assert attributes["color"] == plain[key]["color"], key
        else:  # faded as a highlight fades: the colour moved towards white
            assert attributes["color"] == mix(plain[key]["color"], FADED), key
            assert attributes["halo"] == 0
    assert drawn["profile:P3"]["halo"] > drawn["agent:P3"]["halo"] > 0, "the ends ringed"
    # a paths level is no group: the address's drill leaves it out; back goes up
    assert view.drill_path == ()
    view.back()
    assert view.paths.shown is None and not view.expanded
    view.close()


def test_the_canvas_buttons_pick_a_start_then_an_end():
    graph = build_graph(hand_estate())
    view = TopologyView(graph)
    controls = view._controls
    view.selected = "profile:P1"
    controls.from_here.click()
    assert view.paths.start == "profile:P1" and "paths from Orders in" in controls.status.value
    controls.picked("picked", around=False, path_from=view.paths.start_name())
    assert controls.to_here.layout.display is None and "Orders in" in controls.to_here.tooltip
    view.selected = "partner:2"
    controls.to_here.click()
    assert view.paths.shown is not None and view.paths.shown.b == "partner:2"
    assert view.paths.start is None
    # unrelated items: the status line says so, the view stays where it was
    view.go_to(0)
    none = view.paths.show("profile:P1", "P5")
    assert not none and not view.expanded and "no path between" in controls.status.value
    view.close()


def test_a_paths_view_through_a_busy_channel_draws_the_paths_alone():
    """Around a channel of more agents than `PATH_CONTEXT`, the neighbours would bury the
    path: it is drawn alone."""
    shared = channel(7, "SFTP", partner=ACME)
    users = PATH_CONTEXT + 10
    estate = estate_of(*(profile(f"P{i}", agent=agent(channels=[shared])) for i in range(users)))
    view = TopologyView(build_graph(estate))
    found = view.paths.show("P0", "P1")
    assert found.paths == [["profile:P0", "agent:P0", "channel:7", "agent:P1", "profile:P1"]]
    assert set(_drawn(view.data)) == set(found.nodes)
    view.close()


def test_the_explorer_shows_paths_from_details_and_the_address_keeps_them(tmp_path):
    from iptoolkit.app.address import query_of, view_of
    from iptoolkit.app.page import follow_address

    explorer = Explorer(hand_estate(), folder=tmp_path, debounce=0, static_copy=False)
    address, note = follow_address(explorer).children
    buttons = explorer.detail.paths
    explorer.show_detail("profile:P1")
    assert buttons.to_button.layout.display == "none"
    buttons.from_button.click()
    explorer.show_detail("profile:P2")
    assert buttons.to_button.layout.display is None
    buttons.to_button.click()
    assert explorer.tabs.selected_index == 0, "the paths are shown in the Topology tab"
    shown = explorer.topology.paths.shown
    assert shown is not None and (shown.a, shown.b) == ("profile:P1", "profile:P2")
    assert "from=profile:P1&to=profile:P2" in address.query
    explorer.close()

    # the address opens the same paths in a new page
    again = Explorer(hand_estate(), folder=tmp_path, debounce=0, static_copy=False)
    address, note = follow_address(again).children
    address.opened_with = "?from=profile:P1&to=partner:2"
    shown = again.topology.paths.shown
    assert shown is not None and shown.b == "partner:2" and note.value == ""
    assert address.query == query_of(again.filter, again.item, again.drill, (shown.a, shown.b))
    again.close()
    assert view_of("?from=P1").paths is None and "'to'" in view_of("?from=P1").problems[0]
