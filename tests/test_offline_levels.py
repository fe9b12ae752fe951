"""Laying out an HTML file's ~2,000 levels without the work that showed nothing: a
grouping refused is counted, not drawn; a group's part is found in one walk. Each short
cut is held here to the slow way it replaces."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import networkx as nx
import pytest

import iptoolkit as ipt
from iptoolkit.query.graph import EstateGraph, build_graph
from iptoolkit.query.reach import induced_subgraph
from iptoolkit.topology.view import GROUP_BY, grouped_view, profile_group_count
from iptoolkit.viewmodel import drill, topology_data
from iptoolkit.viewmodel.topology_data import group_graph
from iptoolkit.viewmodel.topology_fit import Canvas

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


def slow_group_graph(graph: EstateGraph, members: Sequence[Hashable]) -> EstateGraph:
    """The part a group opens on, as it was first written: a walk from each member."""
    chosen: set[str] = set()
    for node in members:
        if isinstance(node, str) and node in graph:
            chosen |= {node} | nx.ancestors(graph, node) | nx.descendants(graph, node)
    return induced_subgraph(graph, chosen)


def test_a_groups_part_is_what_walking_from_each_member_finds(graph: EstateGraph) -> None:
    nodes = list(graph.nodes)
    channels = [n for n in nodes if graph.nodes[n].get("kind") == "channel"]
    agents = [n for n in nodes if graph.nodes[n].get("kind") == "agent"]
    odd: list[Hashable] = [*agents[:3], "no such node", 7]
    for members in (profiles(graph)[:50], channels[:5], odd, []):
        fast, slow = group_graph(graph, members), slow_group_graph(graph, members)
        assert list(fast.nodes(data=True)) == list(slow.nodes(data=True))
        assert list(fast.edges(keys=True, data=True)) == list(slow.edges(keys=True, data=True))
        assert len(fast) > 0 or not members
