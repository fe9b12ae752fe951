"""`ipt.history(archive)`: an archive as an `ipt.History`, its diffs read from the archive.

The counts of each snapshot and the changes of each pair were stored when the snapshots
were added; an `EstateDiff` asked for (`h.diffs[3]`) builds its two estates from the
archive, with the stored changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..change.estate_diff import Change, EstateDiff
from ..estate_history import COUNTS, History, PairDiffs, Snapshot
from ..models import loads_json
from .log import Stored
from .opening import one_row

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["archive_history", "ArchiveDiffs", "stored_diff", "stored_changes"]


def archive_history(archive: Stored) -> History:
    import pandas as pd

    with archive._connection() as con:
        rows = con.execute(
            "SELECT snapshot_id, fetched_at, time_from, " + ", ".join(COUNTS) + ", agent_types "
            "FROM snapshots ORDER BY seq"
        ).fetchall()
    snapshots = tuple(
        Snapshot(
            Path(f"{archive.path.name}@{row[0]}"),
            pd.Timestamp(row[1]).tz_convert("UTC").to_pydatetime(),
            row[2],
        )
        for row in rows
    )
    counts = [
        {**dict(zip(COUNTS, row[3:-1], strict=True)), "agent_types": loads_json(row[-1])}
        for row in rows
    ]
    history = History(snapshots, counts, ())
    history.diffs = ArchiveDiffs(archive, tuple(row[0] for row in rows))
    return history


class ArchiveDiffs(PairDiffs):
    """The diffs of consecutive snapshots of an archive, as `HistoryDiffs` offers them."""

    def __init__(self, archive: Stored, ids: tuple[int, ...]) -> None:
        self._archive = archive
        self._ids = ids
        self._changes: dict[int, tuple[Change, ...]] | None = None

    def __len__(self) -> int:
        return max(len(self._ids) - 1, 0)

    def _pair(self, position: int) -> EstateDiff:
        old = self._archive.estate(self._ids[position])
        new_id = self._ids[position + 1]
        new = self._archive.estate(new_id)
        return stored_diff(self._archive, new_id, old, new, self.changes(position))

    def changes(self, index: int) -> tuple[Change, ...]:
        """The stored changes of one pair (nothing loaded)."""
        if self._changes is None:
            self._changes = stored_changes(self._archive)
        return self._changes.get(self._ids[index + 1], ())


def stored_diff(
    archive: Stored,
    snapshot_id: int,
    old: Estate,
    new: Estate,
    changes: tuple[Change, ...] | None = None,
) -> EstateDiff:
    """The diff stored for a snapshot against the one before it, between their estates
    read already: its changes (`changes`, when read already) and its notes."""
    with archive._connection() as con:
        (notes,) = one_row(con, "SELECT notes FROM snapshots WHERE snapshot_id = ?", [snapshot_id])
    if changes is None:
        changes = stored_changes(archive, snapshot_id).get(snapshot_id, ())
    return EstateDiff(old, new, changes, tuple(loads_json(notes)))


def stored_changes(
    archive: Stored, snapshot_id: int | None = None
) -> dict[int, tuple[Change, ...]]:
    """The changes stored for each snapshot (against the one before it), in diff order."""
    where = "" if snapshot_id is None else " WHERE snapshot_id = ?"
    with archive._connection() as con:
        rows = con.execute(
            "SELECT snapshot_id, kind, key, op, severity, path, old, new, reason, name, "
            "profiles, cause FROM changes" + where + " ORDER BY snapshot_id, number",
            [] if snapshot_id is None else [snapshot_id],
        ).fetchall()
    found: dict[int, list[Change]] = {}
    for sid, kind, key, op, severity, path, old, new, reason, name, profiles, cause in rows:
        found.setdefault(sid, []).append(
            Change(
                kind,
                key,
                op,
                severity,
                path,
                None if old is None else loads_json(old),
                None if new is None else loads_json(new),
                reason or "",
                name or "",
                tuple(loads_json(profiles)) if profiles else (),
                cause,
            )
        )
    return {sid: tuple(changes) for sid, changes in found.items()}
