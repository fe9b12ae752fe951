"""Which snapshot an `at=` names: an id, a date or date-time, or None for the newest.

Snapshots are ordered by fetch time (their `seq`), not by id: a snapshot added late takes
its place in time, so "on or before a moment" is the last by `seq` fetched by then.
"""

from __future__ import annotations

import numbers
from datetime import UTC, date, datetime
from datetime import time as clock
from pathlib import Path

import duckdb

from .opening import one_row

__all__ = ["At", "NoSnapshotError", "as_moment", "resolve", "with_digest"]

At = int | str | date | datetime | None
"""A snapshot id (int, or its ASCII digits), a date or date-time (ISO text too; a date means the
end of that day, UTC; a time without a zone is UTC), or None for the newest."""


class NoSnapshotError(LookupError):
    """The archive holds no snapshot that `at=` names (an id it does not hold, a moment
    before its first snapshot, or no snapshot at all); the message names the archive and
    what it holds."""


def with_digest(con: duckdb.DuckDBPyConnection, digest: str) -> int | None:
    """The id of the snapshot stored with `digest` (its content and fetch time,
    `rows.snapshot_rows`), None when none is."""
    found = con.execute("SELECT snapshot_id FROM snapshots WHERE digest = ?", [digest]).fetchone()
    return None if found is None else int(found[0])


def resolve(con: duckdb.DuckDBPyConnection, path: Path, at: At) -> int:
    """The id of the snapshot `at` names (see `At`) in the archive at `path` (named in the
    `NoSnapshotError` when there is none). An id written as text is ASCII digits: `int()`
    also reads other scripts' digits (`٣`), which no one types for an id."""
    if isinstance(at, str) and at.strip().isascii() and at.strip().isdigit():
        at = int(at.strip())
    if at is None:
        found = con.execute(
            "SELECT snapshot_id FROM snapshots ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        if found is None:
            raise NoSnapshotError(f"{path}: the archive holds no snapshot yet")
        return int(found[0])
    if isinstance(at, bool) or not isinstance(at, (numbers.Integral, str, date)):
        raise TypeError(f"at: a snapshot id, a date or a date-time, not {at!r}")
    if isinstance(at, numbers.Integral):  # an id from `Archive.snapshots` is NumPy's
        at = int(at)
        found = con.execute(
            "SELECT snapshot_id FROM snapshots WHERE snapshot_id = ?", [at]
        ).fetchone()
        if found is None:
            raise NoSnapshotError(f"{path}: no snapshot {at} (ids: {_ids(con)})")
        return at
    moment = as_moment(at)
    found = con.execute(
        "SELECT snapshot_id FROM snapshots WHERE fetched_at <= ? ORDER BY seq DESC LIMIT 1",
        [moment],
    ).fetchone()
    if found is None:
        first = one_row(con, "SELECT min(fetched_at) FROM snapshots")[0]
        since = f"the first was fetched {first:%Y-%m-%d %H:%M}" if first else "it is empty"
        raise NoSnapshotError(
            f"{path}: no snapshot fetched at or before {moment:%Y-%m-%d %H:%M} UTC ({since})"
        )
    return int(found[0])


def as_moment(at: str | date | datetime) -> datetime:
    """A date or date-time (or ISO text of one) as a UTC moment; a date is its day's end."""
    if isinstance(at, str):
        text = at.strip()
        try:
            at = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(
                f"{at!r} is neither a snapshot id nor an ISO date (2026-10-01) or date-time "
                "(2026-10-01T06:00:00Z)"
            ) from None
    if not isinstance(at, datetime):
        at = datetime.combine(at, clock.max, tzinfo=UTC)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _ids(con: duckdb.DuckDBPyConnection) -> str:
    """The archive's snapshot ids in time order, the first ten of them, for an error."""
    ids = [
        str(row[0])
        for row in con.execute("SELECT snapshot_id FROM snapshots ORDER BY seq").fetchall()
    ]
    if not ids:
        return "none"
    return ", ".join(ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
