"""The Explorer builds each costly thing once (issue 42: at 100,000 profiles a graph and a
grouped view take seconds each): the estate graph, each grouping's keys, the overview's
grouped view, shared by the live topology, the static copy and a resized canvas. Counted
by wrapping the functions that make them; the pictures stay what they were."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit.query.graph as graph_module
import iptoolkit.topology.view as view_module
from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.query.graph import build_graph
from iptoolkit.topology.view import GroupedViews, grouped_view, profile_group_count
from iptoolkit.viewmodel.diagram import overview_png, render_png
from iptoolkit.viewmodel.drill import auto_view
from iptoolkit.viewmodel.topology_fit import Canvas

pytest.importorskip("ipysigma")

from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.topology.view import _resized  # noqa: E402

COUNTED = (
    (graph_module, "build_graph"),
    (view_module, "group_keys"),
    (view_module, "_reach"),
    (view_module, "_merged"),
)


@pytest.fixture(scope="module")
def big() -> Estate:
    return demo_estate(n_profiles=300, seed=7)  # grouped at the Explorer's canvas


@pytest.fixture()
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each function of `COUNTED` is called from now on."""
    counted: Counter[str] = Counter()
    for module, name in COUNTED:
        original = getattr(module, name)

        def wrapper(
            *args: Any, _f: Callable[..., Any] = original, _n: str = name, **kwargs: Any
        ) -> Any:
            counted[_n] += 1
            return _f(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)
    return counted


@pytest.fixture()
def explorer(big: Estate, tmp_path: Path, calls: Counter[str]) -> Iterator[Explorer]:
    x = Explorer(big, folder=tmp_path)
    yield x
    x.close()


def test_the_explorer_builds_one_graph_and_one_grouped_view(
    explorer: Explorer, calls: Counter[str]
) -> None:
    assert explorer.topology.data is not None and explorer.topology.data.group_by == "group"
    assert explorer.diagram_png  # the static copy is drawn: from the same view
    assert calls == {"build_graph": 1, "group_keys": 1, "_reach": 1, "_merged": 1}
    assert explorer.topology.graph is explorer.model.graph  # the one Details asks too


def test_a_resized_canvas_lays_the_same_view_out_again(
    explorer: Explorer, calls: Counter[str]
) -> None:
    before = dict(calls)
    first = explorer.topology.data
    _resized(explorer.topology, 1400)  # the front end reports the canvas's width
    assert explorer.topology.data is not first  # laid out again...
    assert calls == before  # ...from the view made once


def test_returning_to_the_whole_estate_builds_nothing_again(
    explorer: Explorer, calls: Counter[str]
) -> None:
    explorer.filter = Filter(active=True)  # a subset: its own graph, once for both
    explorer.refresh()
    subset = dict(calls)
    assert subset["build_graph"] == 2 and subset["_merged"] <= 2
    explorer.filter = Filter()
    explorer.refresh()
    assert calls == subset


def test_the_shared_static_copy_is_the_picture_plot_topology_draws(big: Estate) -> None:
    views = GroupedViews(build_graph(big))
    assert overview_png(views) == render_png(big)  # grouped: the view shared
    small = big.subset(Filter(groups=["Finance"], active=False))
    assert overview_png(GroupedViews(build_graph(small))) == render_png(small)  # node by node


def test_grouped_views_are_the_views_grouped_view_makes(big: Estate) -> None:
    graph = build_graph(big)
    views = GroupedViews(graph)
    for group_by in ("group", "agent_type", "partner"):
        assert views.profile_groups(group_by) == profile_group_count(graph, group_by)
        shared, fresh = views.view(group_by), grouped_view(graph, group_by)
        assert list(shared.nodes(data=True)) == list(fresh.nodes(data=True))
        assert list(shared.edges(data=True)) == list(fresh.edges(data=True))
        assert views.view(group_by) is shared  # made once
        assert views.profile_groups(group_by) == profile_group_count(graph, group_by)
    canvas = Canvas(600, 2.0)
    fresh_data, shared_data = (
        auto_view(graph, canvas=canvas),
        auto_view(graph, canvas=canvas, views=views),
    )
    assert list(shared_data.graph.nodes(data=True)) == list(fresh_data.graph.nodes(data=True))
    assert shared_data.members == fresh_data.members


def test_the_table_is_made_when_its_tab_is_first_shown(explorer: Explorer) -> None:
    assert "frame" not in vars(explorer.model)  # the Topology tab is shown: no table yet
    assert explorer.table.widget.view == {}  # nothing sent
    explorer.tabs.selected_index = explorer.tabs.titles.index("Table")
    assert "frame" in vars(explorer.model)
    assert explorer.table.widget.view["rows"] and explorer.table.widget.view["version"] == 1
    explorer.tabs.selected_index = 0
    explorer.filter = Filter(active=False)  # while hidden: waits again...
    assert explorer.table.tab.stale
    frame = explorer.table.frame  # ...unless code asks for it
    assert frame is not None and len(frame) == len(explorer.selection)
