"""Issue 43, a timeline over the archive, without a browser: `ArchiveTimeline` reads each
snapshot's estate and the changes stored for it (the same as `ipt.diff` of the pair), an
item's history is its `Archive.log`; `Explorer(archive=...)` maps the snapshot chosen
with its changes marked, and a step back or forth keeps the drill level and the item
picked, while Details end with the item's history."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.estate import Estate
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.change_marks import diff_map
from iptoolkit.viewmodel.timeline import ArchiveTimeline

from .view_helpers import data_of

pytest.importorskip("ipysigma")

from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.timeline import BEFORE, NARROWED  # noqa: E402


@cache
def _weeks() -> tuple[Estate, Estate, Estate]:
    first = ipt.demo_estate(n_profiles=80, seed=3, fetched_at="2026-11-09T06:00:30")
    second = ipt.demo_changes(first, seed=1)
    return first, second, ipt.demo_changes(second, seed=2)


def _archive(tmp_path: Path) -> Path:
    path = tmp_path / "estate.duckdb"
    archive = ipt.Archive(path)
    for estate in _weeks():
        archive.add(estate)
    return path


def _counts(a: Estate, b: Estate) -> Any:
    return diff_map(ipt.diff(a, b)).marked.counts()


def _changed_profile(a: Estate, b: Estate) -> str:
    return sorted(
        change.key for change in ipt.diff(a, b).of(kind="profile", op="changed") if change.path
    )[0]


def test_a_timeline_reads_each_snapshot_its_stored_changes_and_an_items_history(
    tmp_path: Path,
) -> None:
    first, second, third = _weeks()
    timeline = ArchiveTimeline(_archive(tmp_path))
    assert len(timeline) == 3
    times = [moment.fetched_at for moment in timeline.moments]
    assert times == sorted(times)
    assert timeline.index_of(None) == 2
    assert timeline.index_of(timeline.moments[1].at) == 1
    assert timeline.changes(0) is None
    stored = timeline.changes(2)
    assert stored is not None
    assert stored.counts() == ipt.diff(second, third).counts()
    over_two = timeline.changes(2, since=0)
    assert over_two is not None and over_two.counts() == ipt.diff(first, third).counts()
    with pytest.raises(ValueError, match="since: a snapshot before"):
        timeline.changes(1, since=2)
    node = _changed_profile(second, third)
    section = timeline.history(node)
    log = timeline.archive.log(node)
    assert section is not None and section.fields is not None
    assert len(section.fields) == len(log)
    assert any(str(log.iloc[-1]["paths"][0]) in said for said in section.fields.values())
    assert timeline.history("profile:no-such-profile") is None


def test_maps_made_ahead_are_the_ones_made_when_asked_and_a_jump_says_what_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import iptoolkit.viewmodel.timeline as timeline_module

    path = _archive(tmp_path)
    ahead = ArchiveTimeline(path)
    assert ahead.unread(2) == [1, 2] and ahead.unread(0) == [0]
    assert ahead.unread(2, since=0) == [0, 2]
    ahead.prefetch(0)  # reads 1, maps 1 (since 0) in its thread
    made = ahead.marked_map(1)
    asked = ArchiveTimeline(path).marked_map(1)
    assert made is not None and asked is not None
    assert made.marked.nodes == asked.marked.nodes and made.marked.edges == asked.marked.edges
    assert made.sections == asked.sections and made.marked.breaking == asked.marked.breaking
    assert ahead.marked_map(1) is made  # kept
    assert ahead.marked_map(0) is None
    over_two = ahead.marked_map(2, since=0)
    assert over_two is not None
    assert over_two.marked.counts() == _counts(_weeks()[0], _weeks()[2])

    archive = ipt.Archive(path)  # six weeks: more than a timeline keeps read (four, here)
    for seed in (3, 4, 5):
        archive.add(ipt.demo_changes(archive.estate(), seed=seed))
    largest = int(archive.snapshots["profiles"].max())
    monkeypatch.setattr(timeline_module, "KEPT_PROFILES", timeline_module.KEPT_ESTATES * largest)
    explorer = Explorer(archive=path, at=ahead.moments[0].at, static_copy=False)
    bar = explorer.timeline
    assert bar is not None and len(bar.timeline) == 6 and bar.timeline.kept == 4
    bar.timeline._reader.submit(lambda: None).result()  # the four nearest the first, read
    assert bar.timeline.unread(3) == [] and bar.timeline.unread(5) == [4, 5]
    said: list[str] = []
    bar.progress.observe(lambda change: said.append(change["new"]), "value")
    bar.show(5)  # a jump: both snapshots it compares are read then, and the bar says so
    labels = [moment.label for moment in bar.timeline.moments]
    assert [label for label in labels if any(label in text for text in said)] == labels[4:6]
    assert not bar.progress.active  # gone once drawn
    said.clear()
    bar.timeline._reader.submit(lambda: None).result()  # a reader looking at the map
    bar.step(-1)  # read while the reader looked: nothing to say
    assert said == []
    explorer.close()

    # stepping back from the newest to the oldest reads each snapshot once, ahead
    explorer = Explorer(archive=path, static_copy=False)
    bar = explorer.timeline
    assert bar is not None
    bar.timeline._reader.submit(lambda: None).result()  # what it reads at first, read
    read: list[Any] = []
    real = bar.timeline._reads.estate  # what the reading thread reads with

    def counted(snapshot_id: int) -> Estate:
        read.append(snapshot_id)
        return real(snapshot_id)

    bar.timeline._reads.estate = counted  # type: ignore[method-assign]
    bar.progress.observe(lambda change: said.append(change["new"]), "value")
    for _ in range(5):
        bar.step(-1)
        bar.timeline._reader.submit(lambda: None).result()  # a reader looking at the map
    assert bar.index == 0 and said == []  # no step waited for a read
    moments = bar.timeline.moments  # 4 to 2 read at first (5: the Explorer's), 1, 0 ahead
    assert read == [moment.snapshot_id for moment in reversed(moments[:2])]
    explorer.close()


def test_a_jump_reads_what_it_needs_before_what_was_queued_ahead(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    archive = ipt.Archive(path)  # six weeks: a queue of reads ahead
    for seed in (3, 4, 5):
        archive.add(ipt.demo_changes(archive.estate(), seed=seed))
    timeline = ArchiveTimeline(path)
    ids = [moment.snapshot_id for moment in timeline.moments]
    gate, order = threading.Event(), []
    real = timeline._reads.estate

    def gated(snapshot_id: int) -> Estate:
        gate.wait(10)  # each read waits until the jump has asked for its own
        order.append(snapshot_id)
        return real(snapshot_id)

    timeline._reads.estate = gated  # type: ignore[method-assign]
    timeline.prefetch(5)  # reads 3 (held at the gate), then 4, a map, 5, 2, 1, 0 queued
    said: list[int] = []

    def reading(near: int) -> None:
        said.append(near)
        gate.set()

    timeline.read_now(1, said=reading)
    assert said == [0, 1]  # queued behind others: not begun, so read now, and said
    assert order[:3] == [ids[3], ids[0], ids[1]]  # after the read begun, not behind the queue
    assert timeline.estate(1).info.fetched_at == timeline.moments[1].fetched_at
    timeline.close()


def test_a_large_estates_timeline_keeps_two_snapshots_and_reads_nothing_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import iptoolkit.viewmodel.timeline as timeline_module

    path = _archive(tmp_path)
    assert ArchiveTimeline(path).kept == 3  # 80 profiles: all of them
    monkeypatch.setattr(timeline_module, "KEPT_PROFILES", 100)  # as 100,000 would be
    timeline = ArchiveTimeline(path)
    assert timeline.kept == 2 and not timeline.reads_ahead
    timeline.prefetch(1)
    assert timeline.unread(1) == [0, 1]  # nothing read ahead
    made = timeline.marked_map(2)
    assert made is not None and timeline.unread(2) == []
    timeline.estate(0)  # a third snapshot: one of the two goes, and the map holding it
    assert timeline.unread(2) == [2]  # the farthest from the moment last shown (1)
    assert timeline.marked_map(2) is not made  # made again, its snapshot read again
    assert timeline.unread(2) == []


def test_a_read_that_failed_is_tried_again_and_a_redraw_diffs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import iptoolkit.change.diff as diff_module

    path = _archive(tmp_path)
    timeline = ArchiveTimeline(path)
    reads = {"failed": 0}
    real = timeline._reads.estate

    def busy_once(snapshot_id: int) -> Estate:
        if not reads["failed"]:
            reads["failed"] += 1
            raise OSError("the archive is held by a writer")
        return real(snapshot_id)

    monkeypatch.setattr(timeline._reads, "estate", busy_once)
    assert timeline.estate(1).info.fetched_at == timeline.moments[1].fetched_at
    assert reads["failed"] == 1

    explorer = Explorer(archive=path, static_copy=False)
    explorer.tabs.selected_index = 0
    explorer._topology_tab.set_visible(True)
    bar = explorer.timeline
    assert bar is not None
    diffs: list[int] = []
    real_diff = diff_module.diff

    def counted(*args: Any, **kwargs: Any) -> Any:
        diffs.append(1)
        return real_diff(*args, **kwargs)

    monkeypatch.setattr(diff_module, "diff", counted)
    bar.show(2, since=0)  # changes over two weeks: one diff, for the status and the map
    explorer._topology_tab.invalidate()  # drawn again (a filter changed and back): none
    assert len(diffs) == 1
    explorer.close()


def test_the_newest_snapshot_is_read_once_and_its_graph_is_the_explorers(
    tmp_path: Path,
) -> None:
    path = _archive(tmp_path)
    explorer = Explorer(archive=path, static_copy=False)
    bar = explorer.timeline
    assert bar is not None
    timeline, newest = bar.timeline, len(bar.timeline) - 1
    assert timeline.graph(newest) is explorer.model.graph  # one graph of it, not two
    explorer.close()
    # an estate given beside the archive: held when it is one of the archive's snapshots
    other = ArchiveTimeline(path)
    second = other.moments[1].snapshot_id
    exported = ipt.load(ipt.Archive(path).export(tmp_path / "second.json", at=second))
    assert other.unread(1) == [0, 1]
    assert other.hold(exported, lambda: ipt.build_graph(exported))
    assert other.unread(1) == [0] and other.estate(1) is exported
    assert not other.hold(
        _weeks()[0].subset(Filter(active=True)), lambda: ipt.build_graph(_weeks()[0])
    )


def test_a_structural_copy_is_the_graph_and_grows_on_its_own() -> None:
    from iptoolkit.query.graph import build_graph, structural_copy

    graph = build_graph(_weeks()[0])
    copy = structural_copy(graph)
    assert list(copy.nodes(data=True)) == list(graph.nodes(data=True))
    assert list(copy.edges(keys=True, data=True)) == list(graph.edges(keys=True, data=True))
    assert list(copy.in_edges(keys=True)) == list(graph.in_edges(keys=True))
    assert copy.graph == graph.graph
    u, v = next(iter(graph.edges()))
    nodes, edges = graph.number_of_nodes(), graph.number_of_edges()
    copy.add_edge(u, v, "another")
    copy.add_edge(v, "profile:new")
    copy.remove_edge(u, v, next(iter(graph[u][v])))
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (nodes, edges)
    assert "profile:new" not in graph and "another" not in graph[u][v]
    target: Any = copy  # networkx's own maps: a pair's key dict is shared by both
    assert target._pred[v][u] is target._succ[u][v]


def test_the_explorer_steps_through_the_archive_keeping_its_level_and_item(
    tmp_path: Path,
) -> None:
    first, second, third = _weeks()
    explorer = Explorer(archive=_archive(tmp_path), static_copy=False)
    explorer.tabs.selected_index = 0  # the Topology tab, shown
    explorer._topology_tab.set_visible(True)
    view, bar = explorer.topology, explorer.timeline
    assert bar is not None and bar.index == 2
    assert view.changes is not None
    assert view.changes.marked_graph.counts() == _counts(second, third)
    group = next(key for key, members in data_of(view).members.items() if len(members) > 1)
    view.expand(group)
    path = view.drill_path
    assert path
    picked = next(key for key, members in data_of(view).members.items() if len(members) == 1)
    view._picture.pick(picked)
    item = view.selected
    assert item is not None
    bar.step(-1)
    assert bar.index == 1 and view.changes is not None
    assert view.changes.marked_graph.counts() == _counts(first, second)
    assert view.drill_path == path
    assert view.selected == item
    bar.step(-1)
    assert view.changes is None and bar.earlier.disabled  # the first: nothing to compare
    assert "the first" in bar.status.value
    assert [value for _, value in bar.since.options] == [BEFORE]  # nothing earlier to pick
    chosen = Filter(groups=[path[0].split("/")[0]])
    bar.show(2, since=0)
    assert [value for _, value in bar.since.options] == [BEFORE, 0, 1]  # the earlier ones
    assert bar.since_index == 0
    assert NARROWED not in bar.said
    explorer.filter = chosen
    assert bar.said.endswith(NARROWED) and "the filters keep" in bar.status.value
    assert view.changes is not None
    assert view.changes.marked_graph.counts() == _counts(first.subset(chosen), third.subset(chosen))
    explorer.close()


def test_details_end_with_the_items_history_and_at_picks_the_snapshot(tmp_path: Path) -> None:
    _, second, third = _weeks()
    path = _archive(tmp_path)
    node = _changed_profile(second, third)
    explorer = Explorer(archive=path, at=ArchiveTimeline(path).moments[1].day)
    assert explorer.timeline is not None and explorer.timeline.index == 1
    explorer.show_detail(node)
    shown = explorer.detail.content.value
    assert "History" in shown and "(snapshot " in shown
    assert shown.count("(snapshot ") == len(ipt.Archive(path).log(node))
    explorer.close()
    with pytest.raises(TypeError, match="an estate, or archive="):
        Explorer()


def test_the_moment_round_trips_through_the_address() -> None:
    from iptoolkit.app.address import query_of, view_of

    query = query_of(Filter(), moment=("2026-11-16T06:00:30Z", "2026-11-09"))
    assert query == "at=2026-11-16T06:00:30Z&since=2026-11-09"
    view = view_of("?" + query)
    assert view.moment == ("2026-11-16T06:00:30Z", "2026-11-09") and view.problems == ()
    assert view_of("?at=").moment == (None, None)


def test_the_app_page_opens_the_moment_its_address_names_and_follows_the_timeline(
    tmp_path: Path,
) -> None:
    pytest.importorskip("voila")
    from iptoolkit.app.page import follow_address

    path = _archive(tmp_path)
    moments = ArchiveTimeline(path).moments
    explorer = Explorer(archive=path, folder=tmp_path, debounce=0, static_copy=False)
    bar = explorer.timeline
    assert bar is not None
    address, note = follow_address(explorer).children
    address.opened_with = f"?at={moments[1].day}&since=1900-01-01"
    assert bar.index == 1 and bar.since_index is None  # the day's snapshot, since refused
    assert "address parameter since" in note.value and "no snapshot" in note.value
    assert address.query == f"at={moments[1].at}"
    bar.step(1)  # the newest: no `at` in the address
    assert address.query == ""
    bar.show(2, since=0)
    assert address.query == f"since={moments[0].at}"
    explorer.close()

    plain = Explorer(ipt.demo_estate(n_profiles=40), folder=tmp_path, static_copy=False)
    address, note = follow_address(plain).children
    address.opened_with = "?at=2026-11-16"
    assert "no archive" in note.value and "--archive" in note.value
    plain.close()


@pytest.mark.parametrize(
    ("extra", "said"),
    [(["SNAPSHOT"], "not both"), (["--since", "SNAPSHOT"], "Changes since")],
)
def test_explore_takes_an_archive_instead_of_a_snapshot_or_since(
    tmp_path: Path, extra: list[str], said: str
) -> None:
    pytest.importorskip("voila")
    from click.testing import CliRunner

    from iptoolkit.cli import main

    snapshot = tmp_path / "estate.json"
    _weeks()[0].save(snapshot)
    arguments = [str(snapshot) if word == "SNAPSHOT" else word for word in extra]
    result = CliRunner().invoke(
        main, ["explore", "--archive", str(_archive(tmp_path)), "--port", "0", *arguments]
    )
    assert result.exit_code == 2 and said in result.output, result.output


def test_explore_names_an_archive_it_cannot_read(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from click.testing import CliRunner

    from iptoolkit.cli import main

    empty = tmp_path / "empty.duckdb"
    with ipt.Archive(empty)._connection(create=True):  # made, and holding no snapshot
        pass
    result = CliRunner().invoke(main, ["explore", "--archive", str(empty), "--port", "0"])
    assert result.exit_code == 1 and "holds no snapshot" in result.output, result.output


def test_hostile_names_and_secrets_stay_inert_and_masked_in_the_history(tmp_path: Path) -> None:
    from iptoolkit.core.snapshot import SnapshotInfo

    from .hostile_estate import SECRETS, hostile_changed, hostile_estate

    path = tmp_path / "hostile.duckdb"
    archive = ipt.Archive(path)
    for day, estate in ((1, hostile_estate()), (2, hostile_changed())):
        info = SnapshotInfo(fetched_at=datetime(2026, 11, day, 6, tzinfo=UTC))
        archive.add(Estate.from_raw(list(estate.raw_profiles), info=info))
    explorer = Explorer(archive=path, static_copy=False)
    bar = explorer.timeline
    assert bar is not None and "breaking" in bar.said
    for node in explorer.model.profile_nodes:
        explorer.show_detail(node)
        shown = explorer.detail.content.value
        assert "History" in shown and "changed" in shown
        assert "<img" not in shown and "<script" not in shown
        assert not any(secret in shown for secret in SECRETS)
    assert "<" not in bar.status.value.removeprefix("<span>").removesuffix("</span>")
    explorer.close()
