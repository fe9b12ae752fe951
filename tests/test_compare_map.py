"""A comparison of two installations on the map (issue 43): `ipt.show_topology(comparison)`
and `ipt.export(comparison, "x.html")` draw both in one, each item marked by its kind of
difference; the demo's planted differences are exactly what the map marks."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.comparing.comparison import Comparison
from iptoolkit.demo.environment import TEST_HOSTS
from iptoolkit.query.graph import build_graph
from iptoolkit.topology.comparestatus import COMPARE_STATUSES, comparison_graph
from iptoolkit.topology.diffstatus import status_of_tally

from .hostile_estate import SECRETS, hostile_changed, hostile_estate
from .test_offline import payload_of
from .view_helpers import data_of, sigma_of

pytest.importorskip("ipysigma")

from iptoolkit.widgets import show_topology  # noqa: E402

SECRET = "planted-1-s3cr3t"
ITEMS = ("profile", "channel", "partner")


@cache
def _planted() -> tuple[ipt.Estate, ipt.Estate]:
    prod = ipt.demo_estate(300)
    return prod, ipt.demo_environment(prod, plant=True)


def _comparison() -> Comparison:
    prod, test = _planted()
    return ipt.compare(prod, test, names=("prod", "test"), substitute=list(TEST_HOSTS.items()))


def test_the_map_marks_exactly_the_planted_differences() -> None:
    result = _comparison()
    prod, test = _planted()
    planted = {(p["kind"], p["status"], tuple(p["key"])) for p in test.info.extra["planted"]}
    assert {(d.kind, d.status, d.key) for d in result.differences} == planted
    marked = comparison_graph(result)
    # each difference's item marked with its status: B's node, or A's where only A holds it
    wanted = {(d.b or d.a, d.status) for d in result.differences}
    shown = {
        (node, status)
        for node, status in marked.nodes.items()
        if status != "same" and marked.graph.nodes[node]["kind"] in ITEMS
    }
    assert shown == wanted
    # nothing else marked but the agents and units of a profile only one side holds
    only = {d.b or d.a for d in result.differences if d.status.startswith("only-in")}
    for node, status in marked.nodes.items():
        if status != "same" and marked.graph.nodes[node]["kind"] not in ITEMS:
            assert marked.graph.nodes[node]["profile"] in only, node
    # a link differs only at a planted item: the profiles only one side has, the rewired unit
    rewired = next(d.b for d in result.differences if d.status == "wired-differently")
    for (u, v), status in marked.edges.items():
        if status != "same":
            ends = {marked.graph.nodes[n].get("profile", n) for n in (u, v)}
            assert ends & (only | {rewired}), (u, v)


def test_matched_items_are_drawn_once() -> None:
    result = _comparison()
    prod, test = _planted()
    marked = comparison_graph(result)
    a_only = [n for n, s in marked.nodes.items() if s == "only-in-a"]
    assert marked.graph.number_of_nodes() == build_graph(test).number_of_nodes() + len(a_only)
    assert Counter(marked.nodes.values())["same"] > 0.9 * marked.graph.number_of_nodes()
    assert set(marked.a_ids.values()) <= set(build_graph(prod).nodes)


def test_every_level_is_drawn_in_the_comparisons_colours() -> None:
    result = _comparison()
    view = show_topology(result)
    assert view.changes is not None
    marking = view.changes.marked_graph.marking
    marked = view.changes.marked_graph
    fills = {status: marking.looks[status][0] for status in COMPARE_STATUSES}
    for _ in range(3):  # the overview, then a group with differences, then inside it
        data, graph = data_of(view), sigma_of(view).graph
        seen: Counter[str] = Counter()
        for key, members in data.members.items():
            if not members:
                continue
            status = status_of_tally(Counter(marked.nodes[str(m)] for m in members), marking)
            assert graph.nodes[key]["color"] == fills[status], key
            seen[status] += 1
        assert set(seen) - {"same"}, seen
        legend = view._controls.legend.value
        assert all(marking.words[status] in legend for status in seen), (seen, legend)
        news = [k for k in data.members if k.startswith("group:") and k in seen_news(view)]
        if not news:
            break
        view.expand(news[0])
    view.close()


def seen_news(view: Any) -> set[str]:
    """The level's nodes drawn in another colour than the `same` fill."""
    assert view.changes is not None
    same = view.changes.marked_graph.marking.looks["same"][0]
    graph = sigma_of(view).graph
    return {key for key in data_of(view).members if graph.nodes[key]["color"] != same}


def test_a_click_lists_exactly_the_fields_that_differ_masked() -> None:
    result = _comparison()
    secret = next(d for d in result.differences if any(f.secret for f in d.fields))
    view = show_topology(result, group_by=False)
    sigma_of(view).selected_node = secret.b
    said = view._controls.info.value
    paths = set(re.findall(r"<th[^>]*>(\$[^<]*)</th>", said))
    assert paths == {f.path for f in secret.fields}
    assert "Differences" in said and "**********" in said and SECRET not in said
    view.close()


def test_the_html_file_holds_the_comparison(tmp_path: Path) -> None:
    result = _comparison()
    path = ipt.export(result, tmp_path / "prod-vs-test.html")
    payload = payload_of(path)
    text = path.read_text(encoding="utf-8") + json.dumps(payload, ensure_ascii=False)
    assert SECRET not in text and "Bearer planted" not in text
    statuses = [row[0] for row in payload["changes"]["statuses"]]
    assert statuses == list(COMPARE_STATUSES)
    words = [row[3] for row in payload["changes"]["statuses"]]
    assert "only in prod" in words and "only in test" in words
    removed = next(d for d in result.differences if d.status == "only-in-a")
    assert removed.name in text  # the item only A holds, with its details from A
    with pytest.raises(ValueError, match="a comparison exports as one of"):
        ipt.export(result, tmp_path / "x.graphml")


def test_a_hostile_comparison_shows_no_secret_and_no_markup(tmp_path: Path) -> None:
    result = ipt.compare(hostile_estate(), hostile_changed())
    assert result.differences
    view = show_topology(result, group_by=False)
    assert view.changes is not None
    for node in view.changes.map.sections:
        if node in sigma_of(view).graph.nodes:
            sigma_of(view).selected_node = node
            said = view._controls.info.value
            assert "<script" not in said.lower() and "<img" not in said.lower()
            for secret in SECRETS:
                assert secret not in said
    view.close()
    path = ipt.export(result, tmp_path / "hostile.html")
    text = path.read_text(encoding="utf-8") + json.dumps(payload_of(path), ensure_ascii=False)
    for secret in SECRETS:
        assert secret not in text
    assert "<script>alert" not in path.read_text(encoding="utf-8").lower()
