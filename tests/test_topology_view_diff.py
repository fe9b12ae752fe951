"""Issue 43, a diff on the interactive topology (`ipt.show_topology(diff)`), without a
browser: every level drawn (the overview, a group opened, the level below) in the colours
`plot_diff` gives its items' statuses, with the statuses' legend; a click on a changed item
says exactly the diff's field paths for it, masked; the PNG where no widget renders is the
diff's diagram. The colours are held to the HTML file's by `test_offline_changes`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable
from functools import cache
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.change.estate_diff import EstateDiff
from iptoolkit.topology.diffstatus import diff_graph, status_of_tally
from iptoolkit.topology.style import BREAKING_COLOUR
from iptoolkit.viewmodel.change_marks import BREAKING_RING_PX, diff_map

from .hostile_estate import SECRETS, hostile_changed, hostile_estate
from .test_offline_changes import FILLS
from .view_helpers import data_of, sigma_of

pytest.importorskip("ipysigma")

from iptoolkit.widgets import show_topology  # noqa: E402


@cache
def _week() -> EstateDiff:
    old = ipt.demo_estate()
    return ipt.diff(old, ipt.demo_changes(old, seed=1))


def _drawn_as_marked(view: Any, diff: EstateDiff) -> Counter[str]:
    """Each node the sigma widget draws has the fill of its items' status, and a ring in
    the breaking colour when a breaking change names one of them; the statuses (and
    `ringed`, how many were)."""
    marked, data = diff_graph(diff), data_of(view)
    graph = sigma_of(view).graph
    seen: Counter[str] = Counter()
    for key in data.graph.nodes:
        members = data.members.get(key)
        if not members:
            continue
        status = status_of_tally(Counter(marked.nodes[str(m)] for m in members))
        assert graph.nodes[key]["color"] == FILLS[status], key
        seen[status] += 1
        breaking = any(m in marked.breaking for m in members)
        assert (graph.nodes[key]["border"] == BREAKING_COLOUR) == breaking, key
        assert graph.nodes[key]["border_size"] == (BREAKING_RING_PX if breaking else 1.0), key
        seen["ringed"] += breaking
    return seen


def test_every_level_of_a_diff_is_drawn_in_its_statuses_colours() -> None:
    diff = _week()
    view = show_topology(diff)
    assert view.changes is not None and view.graph is view.changes.graph
    overview = _drawn_as_marked(view, diff)
    assert overview["changed"] and overview["unchanged"] and overview["ringed"]
    legend = view._controls.legend.value
    assert "changed, or a group with changes" in legend and "breaking" in legend
    group = next(key for key, s in _news(view) if key.startswith("group:profile:"))
    view.expand(group)
    assert _drawn_as_marked(view, diff)["changed"]
    while data_of(view).group_by is not None:  # down to the items, node by node
        view.expand(next(key for key, _ in _news(view) if key.startswith("group:profile:")))
    below = _drawn_as_marked(view, diff)
    assert set(below) - {"unchanged"}, below
    view.close()


def _news(view: Any) -> list[tuple[str, str]]:
    """The nodes of the level shown whose items changed, with their fill."""
    graph = sigma_of(view).graph
    return [
        (key, graph.nodes[key]["color"])
        for key in data_of(view).members
        if graph.nodes[key]["color"] != FILLS["unchanged"]
    ]


def test_a_click_on_a_changed_item_says_exactly_its_changed_paths() -> None:
    diff = _week()
    key = next(c.key for c in diff.of(op="changed") if c.kind == "profile")
    picked: list[Hashable] = []
    view = show_topology(diff, group_by=False, on_select=picked.append)
    sigma_of(view).selected_node = key
    assert picked == [key]
    said = view._controls.info.value
    shown = set(re.findall(r"<th[^>]*>(\$[^<]*)</th>", said))
    assert shown == {c.path for c in diff.changes if c.key == key and c.path}
    assert "Changes" in said
    view.close()


def test_a_click_on_an_agent_says_its_profiles_changes() -> None:
    diff = _week()
    view = show_topology(diff, group_by=False)
    graph = view.changes.graph if view.changes is not None else None
    assert graph is not None
    key = next(
        c.key
        for c in diff.of(op="changed")
        if c.kind == "profile" and c.path and c.path.startswith("$.inputAgent")
    )
    agent = next(n for n in graph.succ[key] if graph.nodes[n]["kind"] == "agent")
    view._picture.pick(agent)
    shown = set(re.findall(r"<th[^>]*>(\$[^<]*)</th>", view._controls.info.value))
    assert shown == {c.path for c in diff.changes if c.key == key and c.path}
    view.show(data_of(view))  # prepared data of an estate: the diff's marks go
    assert view.changes is None
    view.close()


def test_a_hostile_diff_shows_no_secret_and_escapes_its_names() -> None:
    diff = ipt.diff(hostile_estate(), hostile_changed())
    view = show_topology(diff, group_by=False)
    for key in [k for k in data_of(view).members if k.startswith("profile:")]:
        view._picture.pick(key)
        said = view._controls.info.value
        assert "<img" not in said and "Changes" in said
        assert not any(secret in said for secret in SECRETS)
    view.close()


def test_where_no_widget_renders_the_diffs_diagram_stands_in() -> None:
    view = show_topology(_week())
    png = view.png()
    assert png is not None and png.startswith(b"\x89PNG")
    view.close()


def test_the_explorer_since_an_older_estate_maps_what_changed_in_its_selection(
    tmp_path: Any,
) -> None:
    from iptoolkit.query.filters import Filter
    from iptoolkit.widgets import Explorer

    old = ipt.demo_estate()
    new = ipt.demo_changes(old, seed=1)
    old.save(tmp_path / "old.json")
    explorer = Explorer(new, since=tmp_path / "old.json", diagram=True, static_copy=False)
    explorer.tabs.selected_index = 0  # the Topology tab, shown
    explorer._topology_tab.set_visible(True)
    view = explorer.topology
    assert view.changes is not None
    _drawn_as_marked(view, ipt.diff(old, new))
    chosen = Filter(groups=["Finance"])
    explorer.filter = chosen
    assert view.changes is not None
    expected = ipt.diff(old.subset(chosen), new.subset(chosen))
    shown = view.changes.marked_graph.counts()
    assert shown == diff_map(expected).marked.counts() != diff_map(_week()).marked.counts()
    _drawn_as_marked(view, expected)
    explorer.close()
    with pytest.raises(TypeError, match="Explorer: since must be an Estate or a snapshot path"):
        Explorer(new, since=42)  # type: ignore[arg-type]
