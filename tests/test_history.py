"""ipt.history: snapshots in fetch order, their counts, the diffs of consecutive pairs."""

from __future__ import annotations

import gc
import gzip
import json
import os
import weakref
from datetime import timedelta

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import iptoolkit as ipt  # noqa: E402
from iptoolkit import estate_history as history_module  # noqa: E402
from iptoolkit.auditing import findings  # noqa: E402
from iptoolkit.change.estate_diff import Change, EstateDiff  # noqa: E402
from iptoolkit.core.snapshot import SnapshotInfo  # noqa: E402
from iptoolkit.topology.style import STATUS_COLOURS  # noqa: E402

from .change_cases import WEEK_START, next_week  # noqa: E402
from .factories import known_channel  # noqa: E402
from .plot_helpers import face_colours, offsets  # noqa: E402

BREAKING = STATUS_COLOURS["removed"].lower()


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _week(estate: ipt.Estate, week: int) -> ipt.Estate:
    info = SnapshotInfo(fetched_at=WEEK_START + timedelta(days=7 * week), source_url="demo")
    return ipt.Estate.from_raw(list(estate.raw_profiles), info=info)


@pytest.fixture(scope="module")
def weeks() -> list[ipt.Estate]:
    """Four weekly estates: the demo, its "next week", five profiles fewer, unchanged."""
    first = _week(ipt.demo_estate(n_profiles=120, seed=3), 0)
    second = _week(next_week(first).new, 1)
    third = _week(ipt.Estate.from_raw(list(second.raw_profiles[5:])), 2)
    return [first, second, third, _week(third, 3)]


@pytest.fixture
def folder(tmp_path, weeks):
    """The weeks saved under names whose order is not the time order."""
    for name, estate in zip(["d.json.gz", "b.json", "c.json.gz", "a.json"], weeks, strict=True):
        estate.save(tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a snapshot")
    return tmp_path


def _fake_diff(old: ipt.Estate, new: ipt.Estate) -> EstateDiff:
    """Profiles added and removed, and a breaking change when channels were deactivated
    (enough to test History without the diff itself)."""
    a, b = {r.node for r in old.records}, {r.node for r in new.records}
    changes = [Change("profile", n, "added", "notable") for n in sorted(b - a)]
    changes += [Change("profile", n, "removed", "notable") for n in sorted(a - b)]
    off = [
        k for k in new.channels if not known_channel(new, k).active and known_channel(old, k).active
    ]
    changes += [Change("channel", f"channel:{k}", "changed", "breaking", "$.active") for k in off]
    return EstateDiff(old, new, tuple(changes))


@pytest.fixture
def counted(monkeypatch):
    """Count diffs and the estates alive while each is computed."""
    alive: weakref.WeakSet[ipt.Estate] = weakref.WeakSet()
    seen = {"diffs": 0, "most_alive": 0}
    load = history_module.load_for_history

    def tracking_load(path):
        estate = load(path)
        alive.add(estate)
        return estate

    def diff(old, new):
        gc.collect()
        seen["diffs"] += 1
        seen["most_alive"] = max(seen["most_alive"], len(alive))
        return _fake_diff(old, new)

    monkeypatch.setattr(history_module, "load_for_history", tracking_load)
    monkeypatch.setattr(history_module, "_diff", diff)
    return seen


def test_snapshots_are_in_fetch_order_with_their_counts(folder, weeks):
    h = ipt.history(folder)
    assert [s.path.name for s in h.snapshots] == ["d.json.gz", "b.json", "c.json.gz", "a.json"]
    assert [s.time_from for s in h.snapshots] == ["header"] * 4
    assert h.notes == ()
    timeline = h.timeline
    assert list(timeline["snapshot"]) == ["d.json.gz", "b.json", "c.json.gz", "a.json"]
    for name in ("profiles", "active_profiles", "channels", "partners", "problems"):
        assert list(timeline[name]) == [e.summary()[name] for e in weeks], name
    assert list(timeline["findings"]) == [len(findings(e)) for e in weeks]
    assert list(timeline["profiles"]) == [120, 120, 115, 115]
    for agent_type, count in weeks[2].summary()["agent_types"].items():
        assert timeline.loc[2, agent_type] == count
    assert str(timeline["fetched_at"].iloc[1]) == "2026-11-23 09:00:00+00:00"
    assert "b.json" in h._repr_html_() and "4 snapshots" in repr(h)


def test_a_snapshot_without_a_fetch_time_is_placed_by_its_file_time(folder, weeks):
    bare = folder / "listing.json"
    bare.write_text(json.dumps(list(weeks[0].raw_profiles)))
    between = (WEEK_START + timedelta(days=10)).timestamp()
    os.utime(bare, (between, between))
    h = ipt.history(folder)
    assert [s.path.name for s in h.snapshots][1:3] == ["b.json", "listing.json"]
    assert h.snapshots[2].time_from == "file mtime"
    assert h.notes == (
        "listing.json records no fetch time: placed by the file's modification time "
        "(2026-11-26 09:00 UTC)",
    )
    assert "modification time" in h._repr_html_()


def test_diffs_are_computed_once_holding_two_estates_at_most(folder, counted):
    h = ipt.history(folder)
    assert counted["diffs"] == 0  # nothing is diffed before it is asked for
    assert len(h.diffs) == 3
    severities = h.severities()
    assert counted["diffs"] == 3 and counted["most_alive"] <= 2
    assert list(severities["breaking"]) == [1, 0, 0]
    assert list(severities["notable"]) == [4, 5, 0]
    assert list(severities["new"]) == ["b.json", "c.json.gz", "a.json"]
    second = h.diffs[1]
    assert counted["diffs"] == 3  # handed out from the changes kept, not diffed again
    assert second.old.info.fetched_at == h.snapshots[1].fetched_at
    assert second.new.info.fetched_at == h.snapshots[2].fetched_at
    assert len(second.of(op="removed")) == 5
    assert [len(d) for d in h.diffs] == [5, 5, 0] and h.diffs[-1] is not None
    assert counted["diffs"] == 3


def test_one_diff_asked_first_is_kept(folder, counted):
    h = ipt.history(folder)
    assert len(h.diffs[0].of(op="added")) == 2
    assert counted["diffs"] == 1
    h.severities()
    assert counted["diffs"] == 3


def test_plot_history_marks_breaking_changes(folder, counted):
    figure = ipt.history(folder).plot_history()
    top, bottom = figure.axes[:2]
    marks = [c for c in top.collections if set(face_colours(c)) == {BREAKING}]
    assert len(marks) == 1 and len(offsets(marks[0])) == 1
    assert [t.get_text() for t in top.texts] == ["1 breaking"]
    lines = [str(line.get_label()) for line in bottom.get_lines()]
    assert [label for label in lines if not label.startswith("_")] == ["problems", "findings"]
    assert figure.texts[0].get_text().startswith("History of 4 snapshots, 2026-11-16 to 2026-12-07")
    drawn_legend = top.get_legend()
    assert drawn_legend is not None
    legend = [t.get_text() for t in drawn_legend.get_texts()]
    assert legend == ["profiles", "active profiles", "channels", "partners", "breaking changes"]


def test_a_single_snapshot_is_a_history_without_diffs(tmp_path, weeks):
    weeks[0].save(tmp_path / "only.json")
    h = ipt.history([tmp_path / "only.json"])
    assert len(h) == 1 and len(h.diffs) == 0 and h.severities().empty
    assert h.plot_history() is not None


def test_clear_errors(tmp_path, weeks):
    with pytest.raises(FileNotFoundError, match=r"no snapshot \(\*\.json, \*\.json\.gz\) in "):
        ipt.history(tmp_path)
    with pytest.raises(FileNotFoundError, match="no snapshot file .*missing.json"):
        ipt.history([tmp_path / "missing.json"])
    with pytest.raises(FileNotFoundError, match="empty list"):
        ipt.history([])
    weeks[0].save(tmp_path / "good.json")
    twice = [tmp_path / "good.json", tmp_path / "sub" / ".." / "good.json"]
    (tmp_path / "sub").mkdir()
    with pytest.raises(ValueError, match=r"good\.json is given twice"):  # no "no changes"
        ipt.history(twice)
    (tmp_path / "broken.json.gz").write_bytes(gzip.compress(b'{"profiles": [')[:-6])
    with pytest.raises(
        ipt.ParseError, match=r"history: cannot read a snapshot: .*broken\.json\.gz"
    ):
        ipt.history(tmp_path)


def test_with_the_real_diff(folder):
    """The weeks' changes as `ipt.diff` finds them."""
    h = ipt.history(folder)
    severities = h.severities()
    removed = [h.diffs[i].of(kind="profile", op="removed") for i in range(3)]
    assert [len(gone) for gone in removed] == [2, 5, 0]
    # an active profile removed stops, as one deactivated: breaking (severity.RULES)
    stops = [sum(change.old["active"] is True for change in gone) for gone in removed]
    assert list(severities["breaking"]) == [1 + stops[0], stops[1], 0]
    assert "channel:40012" in {c.key for c in h.diffs[0].of(severity="breaking")}


def test_the_diffs_have_a_short_repr_that_computes_none(folder, monkeypatch):
    h = ipt.history(folder)
    monkeypatch.setattr(history_module, "_diff", lambda *_: pytest.fail("a diff was made"))
    assert repr(h.diffs) == (
        "<HistoryDiffs: 3 diffs of consecutive snapshots; diffs[i] is i to i+1>"
    )
