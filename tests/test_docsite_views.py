"""The docs site's interactive views (`docsite/views.py`): each page's payload is the
offline view's, and the work pages share (levels laid out, items' details) is done once a
run, however many pages reach it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.docsite import diagrams
from iptoolkit.query import reach
from iptoolkit.viewmodel import drill
from iptoolkit.viewmodel.topology_data import view_data
from iptoolkit.viewmodel.topology_fit import Canvas

SMALL = Canvas.of(220, 160)
"""A canvas small enough that a site of 150 profiles drills three levels deep: its group
pages open levels their parents' pages open too."""


@pytest.fixture
def estate() -> ipt.Estate:
    return ipt.demo_estate(150, seed=4)


def test_each_part_is_laid_out_once_and_each_item_detailed_once(
    estate: ipt.Estate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid: Counter[tuple[tuple[tuple[Hashable, Any], ...], str | None]] = Counter()
    asked: Counter[str] = Counter()
    drawing = [False]
    impact, write_view = reach.impact, diagrams.write_view

    def counted_view_data(graph: Any, *, group_by: str | None, **options: Any) -> Any:
        if drawing[0]:
            # a part by its nodes and their groups (name ranges are groups of their own)
            laid[(tuple(graph.nodes(data="group")), group_by)] += 1
        return view_data(graph, group_by=group_by, **options)

    def counted_impact(graph: Any, node: str, *args: Any, **options: Any) -> Any:
        if drawing[0]:
            asked[node] += 1
        return impact(graph, node, *args, **options)

    def counted_write_view(*args: Any) -> Any:
        drawing[0] = True
        try:
            return write_view(*args)
        finally:
            drawing[0] = False

    monkeypatch.setattr(diagrams, "VIEW_CANVAS", SMALL)
    monkeypatch.setattr(drill, "view_data", counted_view_data)
    monkeypatch.setattr(reach, "impact", counted_impact)
    monkeypatch.setattr(diagrams, "write_view", counted_write_view)
    ipt.write_docs(estate, tmp_path / "site", workers=1)

    views = list((tmp_path / "site" / "docs").rglob("*.view.js"))
    assert len(views) > 10
    assert len(laid) > len(views)  # pages drill down: more levels than pages
    assert [part for part, times in laid.items() if times > 1] == []
    assert len(asked) > 100
    assert [node for node, times in asked.items() if times > 1] == []


def test_every_page_payload_is_the_offline_views(
    estate: ipt.Estate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from iptoolkit.docsite.views import SharedWork, page_payload
    from iptoolkit.offline.view import view_payload
    from iptoolkit.topology.view import GroupedViews

    compared: list[int] = []
    compared_grouped: list[int] = []
    write_view = diagrams.write_view

    def checked(part: Any, path: Path, work: SharedWork, views: GroupedViews) -> Path:
        assert views.graph is part
        if views._views:  # the SVG's grouped view, not made again
            compared_grouped.append(1)
        expected = view_payload(
            part,
            work.model,
            canvas=SMALL,
            title="",
            lines=[],
            max_nodes=diagrams.VIEW_MAX_NODES,
            every_item=False,
        )
        assert page_payload(part, work, diagrams.VIEW_MAX_NODES, views) == expected, path.name
        compared.append(len(expected["levels"]))
        return write_view(part, path, work, views)

    monkeypatch.setattr(diagrams, "VIEW_CANVAS", SMALL)
    monkeypatch.setattr(diagrams, "write_view", checked)
    ipt.write_docs(estate, tmp_path / "site", workers=1)
    assert len(compared) > 10
    assert max(compared) > 3  # some page drills down
    assert compared_grouped  # some page's first level is its SVG's grouped view


def test_a_page_takes_the_grouped_view_its_svg_made_and_shows_the_same(
    estate: ipt.Estate, monkeypatch: pytest.MonkeyPatch
) -> None:
    from iptoolkit.docsite.views import SharedWork, page_payload
    from iptoolkit.offline.view import view_payload
    from iptoolkit.topology import view as topology_view
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    model = ExplorerModel(estate)
    part = model.graph
    expected = view_payload(
        part,
        model,
        canvas=SMALL,
        title="",
        lines=[],
        max_nodes=diagrams.VIEW_MAX_NODES,
        every_item=False,
    )
    views = topology_view.GroupedViews(part)
    drawn = views.view("group")  # what the page's SVG and Mermaid chart drew
    made: list[Any] = []
    merged = topology_view._merged

    def counted(graph: Any, *args: Any) -> Any:
        made.append(graph)
        return merged(graph, *args)

    monkeypatch.setattr(topology_view, "_merged", counted)
    work = SharedWork(model, SMALL)
    payload = page_payload(part, work, diagrams.VIEW_MAX_NODES, views)
    assert payload == expected
    assert made and all(graph is not part for graph in made)  # levels below, not the part
    assert views.view("group") is drawn  # kept for the page, not released


def test_no_two_circles_of_a_page_view_overlap() -> None:
    """The overview page of 40 profiles: its 21 rows share the docs canvas's 460 px, 17 px
    apart (room for a label), and its grouped circles were sized by their counts alone, up
    to 11 px a radius: Finance, Sales and Production overlapped, and so did the five
    response units. Each level's circles, in the pixels of the canvas it is laid out for."""
    from itertools import combinations
    from math import hypot

    from iptoolkit.docsite.views import SharedWork, page_payload
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    model = ExplorerModel(ipt.demo_estate(40))
    work = SharedWork(model, diagrams.VIEW_CANVAS)
    payload = page_payload(model.graph, work, diagrams.VIEW_MAX_NODES)
    names = payload["strings"]
    for level in payload["levels"]:
        overlapping = [
            (names[a[6]], names[b[6]])
            for a, b in combinations(level["nodes"], 2)
            if hypot(a[0] - b[0], a[1] - b[1]) < a[2] + b[2]
        ]
        assert overlapping == [], names[level["title"]]
    assert len(payload["levels"]) > 1
    assert any(node[2] >= 6 for node in payload["levels"][0]["nodes"])  # sizes still tell
