"""`iptoolkit mcp --archive FILE`: any stored snapshot by id or date, and the history tool."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.snapshot import SnapshotInfo

pytest.importorskip("mcp")
pytest.importorskip("duckdb")
from mcp import ClientSession  # noqa: E402

from iptoolkit.archive import Archive  # noqa: E402
from tests.test_mcp import TOOLS, _error, _ok, _run  # noqa: E402

START = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def test_an_archive_serves_every_date_and_the_history_of_an_item(tmp_path: Path) -> None:
    base = ipt.demo_estate(40, seed=8)
    weeks = [ipt.Estate.from_raw(list(base.raw_profiles), info=SnapshotInfo(fetched_at=START))]
    for week in (1, 2):
        later = ipt.demo_changes(weeks[-1], seed=week)
        info = SnapshotInfo(fetched_at=START + timedelta(days=7 * week))
        weeks.append(ipt.Estate.from_raw(list(later.raw_profiles), info=info))
    archive = Archive(tmp_path / "estate.duckdb")
    for estate in weeks:
        archive.add(estate)
    changed = next(c for c in ipt.diff(weeks[0], weeks[1]).changes if c.kind == "channel")

    async def script(session: ClientSession) -> dict[str, Any]:
        tools = await session.list_tools()
        return {
            "tools": {tool.name for tool in tools.tools},
            "history": await session.call_tool("history", {"id": changed.key}),
            "timeline": await session.call_tool("history", {"limit": 2}),
            "first": await session.call_tool("summary", {"snapshot": "2026-10-02"}),
            "unknown": await session.call_tool("summary", {"snapshot": "2020-01-01"}),
        }

    results = _run(["--archive", str(archive.path)], script)
    assert results["tools"] == TOOLS | {"diff", "compare", "history"}
    log = _ok(results["history"])
    assert log["item"] == changed.key
    expected = archive.log(changed.key)
    assert [e["event"] for e in log["log"]] == list(expected.event)
    assert [e["snapshot"] for e in log["log"]] == [f"archive@{n}" for n in expected.snapshot]
    timeline = _ok(results["timeline"])
    assert timeline["total"] == 3 and timeline["next_cursor"] == "2"
    assert [row["profiles"] for row in timeline["timeline"]] == [len(weeks[2]), len(weeks[1])]
    first = _ok(results["first"])
    assert first["snapshot"] == "archive@1" and first["profiles"] == len(weeks[0])
    assert "no snapshot fetched at or before 2020-01-01" in _error(results["unknown"])


def test_summary_of_a_stored_snapshot_says_the_time_history_says(tmp_path: Path) -> None:
    """A snapshot whose header names no fetch time is stamped by the archive as it is added:
    `history` said that time while `summary` said `fetched_at: null`; both say it now."""
    archive = Archive(tmp_path / "estate.duckdb")
    archive.add(ipt.demo_estate(20, seed=3))  # a demo estate's header has no time
    assert archive.estate(1).info.fetched_at is None

    async def script(session: ClientSession) -> dict[str, Any]:
        return {
            "summary": await session.call_tool("summary", {"snapshot": "archive@1"}),
            "timeline": await session.call_tool("history", {}),
        }

    results = _run(["--archive", str(archive.path)], script)
    [row] = _ok(results["timeline"])["timeline"]
    stored = archive.snapshots.fetched_at.iloc[0].isoformat()
    assert row["fetched_at"] == stored
    assert _ok(results["summary"])["fetched_at"] == stored


def test_snapshots_named_from_an_archive_are_kept_a_few_least_recently_used(
    tmp_path: Path,
) -> None:
    """Naming snapshot after snapshot (`archive@N`, a date) keeps the newest two loaded at
    start and at most `ARCHIVED_KEPT` others: the least recently asked one is let go, its
    estate and its diffs freed, and loaded again when named."""
    import gc
    import weakref

    from iptoolkit.mcp.store import ARCHIVED_KEPT, Store

    estate = ipt.demo_estate(20, seed=2)
    archive = Archive(tmp_path / "estate.duckdb")
    for day in range(ARCHIVED_KEPT + 4):
        estate = ipt.demo_changes(estate, seed=day) if day else estate
        info = SnapshotInfo(fetched_at=START + timedelta(days=day))
        archive.add(ipt.Estate.from_raw(list(estate.raw_profiles), info=info))
    store = Store.from_paths([], archive=archive)
    newest = len(archive)
    assert store.names == [f"archive@{newest - 1}", f"archive@{newest}"]
    freed = {}
    for snapshot_id in range(1, ARCHIVED_KEPT + 1):
        asked = store.get(f"archive@{snapshot_id}")
        store.diff(asked, store.current)  # a diff holds both estates
        freed[snapshot_id] = weakref.ref(asked.estate)
    del asked
    assert store.get("archive@1").name == "archive@1"  # asked again: the most recent now
    date = (START + timedelta(days=ARCHIVED_KEPT)).date().isoformat()
    assert store.get(date).name == f"archive@{ARCHIVED_KEPT + 1}"  # by date: a new one
    gc.collect()
    assert freed[2]() is None  # the least recently asked, and its diff, let go
    assert all(freed[n]() is not None for n in freed if n != 2)
    assert sorted(store.names) == sorted(
        [f"archive@{n}" for n in (1, *range(3, ARCHIVED_KEPT + 2), newest - 1, newest)]
    )
    assert store.current.name == f"archive@{newest}"  # the newest two stay
    again = store.get("archive@2")  # named again: loaded again, whole
    assert again.estate.raw_profiles == archive.estate(2).raw_profiles
    assert len(store.loaded) == ARCHIVED_KEPT + 2
