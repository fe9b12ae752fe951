"""Issue 44, item 7: deeply nested groups cut once, not once per level tried.

Grouping by profile group cuts the group paths to as many levels as fit one column. It cut
every path at every depth in turn, which made the HTML export cubic in the depth (710 s
for groups nested 800 deep); now a tree of the paths counts the groups at every depth in
one pass and each path is cut once.
"""

from __future__ import annotations

import random

import pytest

import iptoolkit as ipt
from iptoolkit.topology import grouping
from iptoolkit.topology.grouping import MAX_PER_COLUMN, _fitting_depth
from iptoolkit.topology.view import grouped_view


def _depth_by_cutting(paths: set[str], limit: int) -> int:
    """The definition: the most levels at which the cut paths make at most `limit` groups."""
    depth = max((path.count("/") + 1 for path in paths), default=1)
    while depth > 1 and len({"/".join(p.split("/")[:depth]) for p in paths}) > limit:
        depth -= 1
    return depth


def test_the_depth_counted_in_one_pass_is_the_depth_found_by_cutting() -> None:
    rng = random.Random(7)
    for _ in range(2_000):
        paths = {
            "/".join(rng.choice(["A", "B", "C", ""]) for _ in range(rng.randint(1, 6)))
            for _ in range(rng.randint(0, 40))
        }
        limit = rng.randint(1, 20)
        assert _fitting_depth(paths, limit) == _depth_by_cutting(paths, limit), (paths, limit)


def _nested(depth: int) -> ipt.Estate:
    raw = [dict(record.raw) for record in ipt.demo_estate(n_profiles=depth, seed=1).records]
    for index, profile in enumerate(raw):
        profile["group"] = "/".join(f"g{level}" for level in range(index + 1))
    return ipt.Estate.from_raw(raw)


def test_groups_nested_deep_are_cut_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    deep = _nested(120)
    cuts: list[str] = []
    original = grouping._cut

    def counted(path: str, depth: int) -> str:
        cuts.append(path)
        return original(path, depth)

    monkeypatch.setattr(grouping, "_cut", counted)
    grouped = grouped_view(ipt.build_graph(deep), "group")
    assert len(cuts) == len(set(cuts)) == 120  # each path once (before: once per level tried)
    profiles = [data for _, data in grouped.nodes.items() if data["kind"] == "profile"]
    assert len(profiles) <= MAX_PER_COLUMN["profile"]
    fitting = _depth_by_cutting({p["group"] for p in deep.raw_profiles}, MAX_PER_COLUMN["profile"])
    assert 1 < fitting < 120
    assert max(str(data["label"]).count("/") for data in profiles) == fitting - 1
