"""plot_diff and export(diff): the union topology coloured by what changed, and the files."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402

import iptoolkit as ipt  # noqa: E402
from iptoolkit.change.estate_diff import Change, EstateDiff  # noqa: E402
from iptoolkit.plot.topology import LargeDiagramWarning  # noqa: E402
from iptoolkit.query.graph import build_graph  # noqa: E402
from iptoolkit.topology.diffstatus import diff_graph, mark_view, status_of_tally  # noqa: E402
from iptoolkit.topology.style import STATUS_COLOURS  # noqa: E402
from iptoolkit.topology.view import grouped_view  # noqa: E402

from .change_cases import dated, next_week  # noqa: E402
from .plot_helpers import dash_patterns, edge_colours, face_colours, offsets  # noqa: E402

GREEN, RED, AMBER = (STATUS_COLOURS[s].lower() for s in ("added", "removed", "changed"))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def week() -> EstateDiff:
    return next_week(dated(ipt.demo_estate(n_profiles=300, seed=0)))


def _node_colours(figure) -> Counter[str]:
    """How many markers of each fill colour the figure draws."""
    found: Counter[str] = Counter()
    for collection in figure.axes[0].collections:
        if isinstance(collection, PathCollection):
            colours = face_colours(collection)
            found.update(colours * (len(offsets(collection)) if len(colours) == 1 else 1))
    return found


def _line_colours(figure) -> dict[str, list[Sequence[float] | None]]:
    """Edge colour -> the dash patterns of the lines drawn in it (None: solid)."""
    found: dict[str, list[Sequence[float] | None]] = {}
    for collection in figure.axes[0].collections:
        if isinstance(collection, LineCollection):
            colour = edge_colours(collection)[0]
            found.setdefault(colour, []).extend(dash_patterns(collection))
    return found


def test_every_item_gets_the_status_of_its_change(week):
    marked = diff_graph(week)
    removed = {c.key for c in week.of(op="removed")}
    added = {c.key for c in week.of(op="added")}
    assert {n for n, s in marked.nodes.items() if s == "removed" and n.startswith("profile:")} == (
        removed
    )
    assert {
        n for n, s in marked.nodes.items() if s == "added" and n.startswith("profile:")
    } == added
    assert marked.nodes["channel:40012"] == "changed"
    edited = week.of(op="changed", kind="profile")[0].key
    assert marked.nodes[edited] == "changed"
    # units follow the graphs: a removed profile's agent is gone, an edited agent changed
    for key in removed:
        assert marked.nodes[key.replace("profile:", "agent:")] == "removed"
        assert marked.edges[(key, key.replace("profile:", "agent:"))] == "removed"
    assert marked.nodes[edited.replace("profile:", "agent:")] == "changed"
    # removed items are in the union: the old graph's nodes are all there
    assert set(build_graph(week.old)) <= set(marked.graph)
    assert marked.counts()["unchanged"] > 10 * sum(
        n for s, n in marked.counts().items() if s != "unchanged"
    )


def test_a_link_change_wins_over_the_graphs(week):
    """The diff is the authority on links: an edge in both graphs named removed is removed."""
    marked = diff_graph(week)
    u, v = next(edge for edge, status in marked.edges.items() if status == "unchanged")
    linked = EstateDiff(week.old, week.new, (Change("link", f"{u} -> {v}", "removed", "breaking"),))
    assert diff_graph(linked).edges[(u, v)] == "removed"


def test_groups_tally_their_members(week):
    marked = diff_graph(week)
    view = grouped_view(marked.graph, "group")
    mark_view(view, marked)
    profiles = [d for d in view.nodes.values() if d["kind"] == "profile"]
    assert sum(d["tally"]["added"] for d in profiles) == 2
    assert sum(d["tally"]["removed"] for d in profiles) == 2
    assert sum(d["tally"]["changed"] for d in profiles) == 1
    assert sum(d["count"] for d in profiles) == 302  # 300 - 2 + 2, plus the 2 removed
    assert all(d["status"] == "changed" for d in profiles if d["tally"]["added"])
    assert status_of_tally(Counter(added=3)) == "added"
    assert status_of_tally(Counter(unchanged=3, removed=1)) == "changed"
    assert status_of_tally(Counter(unchanged=3)) == "unchanged"


def test_only_changed_draws_each_change_in_its_colour(week):
    figure = ipt.plot_diff(week, only_changed=True)
    nodes = _node_colours(figure)
    assert nodes[GREEN] == 2 + 2 + 2  # two added profiles, their agents and response units
    assert nodes[AMBER] >= 3  # the edited profile, its agent, the deactivated channel
    lines = _line_colours(figure)
    assert GREEN in lines and RED in lines
    assert all(dashes is not None for dashes in lines[RED])  # removed links are dashed
    texts = [t.get_text() for t in figure.texts]
    assert texts[0].startswith("Changes: 2026-11-16 09:00 → 2026-11-23 09:00")
    assert "profiles 2 added, 2 removed, 1 changed" in texts[0] and "1 breaking" in texts[0]
    legend = [t.get_text() for t in figure.legends[0].get_texts()]
    assert legend[:4] == ["added", "removed", "changed", "unchanged"]
    labels = {t.get_text() for t in figure.axes[0].texts}
    assert {"New feed 1", "New feed 2"} <= labels


def test_a_large_estate_is_drawn_as_groups_with_tallies(week):
    figure = ipt.plot_diff(week)
    labels = [t.get_text() for t in figure.axes[0].texts]
    assert any(label.endswith(": −1)") or "−1" in label for label in labels)
    assert any("+1" in label for label in labels)
    assert "Profiles by group (302)" in labels
    assert _node_colours(figure)[AMBER] >= 3


def test_no_change_is_all_faded(week):
    same = EstateDiff(week.old, week.old, ())
    with pytest.warns(LargeDiagramWarning):  # 300 profiles node by node: too tall to read
        figure = ipt.plot_diff(same, group_by=False, labels="none")
    colours = _node_colours(figure)
    assert colours and not ({GREEN, RED, AMBER} & set(colours))
    assert "no change" in figure.texts[0].get_text()


def test_it_draws_into_given_axes(week):
    figure, ax = plt.subplots(figsize=(8, 5))
    assert ipt.plot_diff(week, ax=ax, only_changed=True, title="mine") is figure
    assert ax.get_title(loc="left") == "mine"


def test_it_wants_a_diff(week):
    with pytest.raises(TypeError, match="expected an EstateDiff"):
        ipt.plot_diff(week.old)
    with pytest.raises(ValueError, match="group_by"):
        ipt.plot_diff(week, group_by="colour")


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_export_draws_the_diff(week, tmp_path, suffix):
    path = ipt.export(week, tmp_path / f"changes.{suffix}", only_changed=True)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:400]
    if suffix == "svg":
        assert "New feed 1" in data.decode()


def test_export_names_the_suffixes_a_diff_takes(week, tmp_path):
    suffixes = r"\.md, \.json, \.csv, \.html, \.png, \.svg.*changes\.xlsx"
    with pytest.raises(ValueError, match=suffixes):
        ipt.export(week, tmp_path / "changes.xlsx")
    with pytest.raises(TypeError, match="takes no option only_changed"):
        ipt.export(week, tmp_path / "changes.md", only_changed=True)


def test_export_writes_the_diffs_own_renderings(week, tmp_path):
    import pandas as pd

    markdown = ipt.export(week, tmp_path / "changes.md").read_text(encoding="utf-8")
    assert markdown.rstrip("\n") == week.to_markdown().rstrip("\n")
    written = json.loads(ipt.export(week, tmp_path / "changes.json").read_text(encoding="utf-8"))
    assert written == json.loads(week.to_json())
    assert len(written["changes"]) == len(week)
    frame = pd.read_csv(ipt.export(week, tmp_path / "changes.csv"))
    assert len(frame) == len(week)
    assert sorted(frame["key"]) == sorted(change.key for change in week)


def test_breaking_changes_are_ringed_and_their_links_drawn_in_the_breaking_colour():
    from iptoolkit.topology.style import BREAKING_COLOUR
    from iptoolkit.topology.view import detail_view
    from tests.factories import ACME, agent, channel, estate_of, profile

    def user(pid: str, ch: dict[str, Any] | None) -> dict[str, Any]:
        return profile(pid, agent=agent("SFTP", channels=[ch] if ch else []))

    ch5 = channel(5, partner=ACME)
    # P1 loses its only channel (breaking), P2 is rewired to channel 9 (notable)
    result = ipt.diff(
        estate_of(user("P1", ch5), user("P2", ch5)),
        estate_of(user("P1", None), user("P2", channel(9, partner=ACME))),
    )
    marked = diff_graph(result)
    assert ("agent:P1", "channel:5") in marked.breaking and "profile:P1" in marked.breaking
    assert "profile:P2" not in marked.breaking and ("agent:P2", "channel:5") not in marked.breaking
    view = detail_view(marked.graph)
    mark_view(view, marked)
    assert view.nodes["profile:P1"]["breaking"] and not view.nodes["profile:P2"]["breaking"]
    figure = ipt.plot_diff(result)
    ring = BREAKING_COLOUR.lower()
    rings = [
        c for c in figure.axes[0].collections
        if isinstance(c, PathCollection) and ring in edge_colours(c)
    ]  # fmt: skip
    lines = [
        c for c in figure.axes[0].collections
        if isinstance(c, LineCollection) and ring in edge_colours(c)
    ]  # fmt: skip
    assert rings and lines
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert "breaking" in legend
