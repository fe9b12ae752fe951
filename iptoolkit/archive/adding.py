"""Adding a snapshot: reading the source, placing it in time, diffing it, in one transaction.

`parsed_source` reads a snapshot file before the archive is opened (a file faulty outside
its profiles fails there); `add_snapshot` builds the estate (a profile text stored as valid
is not validated again), finds its fetch time, and stores it unless the same content with
the same time is stored already. A snapshot fetched before the newest takes its place in
time: the later ones move one `seq` on, and the one after it is diffed again against it.
`Recent` is what an `Archive` object remembers of its own adds, so that the next add and
`last_diff` need not build an estate the archive just stored.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import duckdb

from ..models import ParseError, loads_json
from ..support.jsonio import dumps_json
from .ddl import SNAPSHOT_COUNTS
from .lookup import with_digest
from .opening import one_row
from .retrieval import listing, snapshot_at_seq, stored_estate
from .rows import SnapshotRows, snapshot_rows, text_digests
from .writes import valid_versions, write_changes, write_runs, write_versions

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from ..core.snapshot import SnapshotJSON

__all__ = ["Recent", "add_snapshot", "parsed_source"]


@dataclass
class Recent:
    """What an `Archive` object remembers of its own adds."""

    newest: tuple[int, Estate] | None = None
    """The id and estate of the newest snapshot, once added: the next add diffs against it
    without building it again, and `Archive.estate` returns it."""
    diffs: dict[int, EstateDiff] = field(default_factory=dict)
    """The diff computed by the last add that made one, by snapshot id (`last_diff`)."""

    def estate(self, snapshot_id: int | None) -> Estate | None:
        """The estate of `snapshot_id` when it is the newest one remembered."""
        newest = self.newest
        return newest[1] if newest is not None and newest[0] == snapshot_id else None

    def added(self, estate: Estate, inserted: _Inserted) -> None:
        """Remember a committed add: its diff, with both whole estates when the one before
        is the remembered one, and its estate when it is the newest snapshot."""
        if inserted.diff is not None:
            old = self.estate(inserted.previous)
            diff = inserted.diff
            self.diffs = {}
            if old is not None:  # else `last_diff` builds it from the archive
                from ..change.estate_diff import EstateDiff

                self.diffs[inserted.snapshot_id] = EstateDiff(old, estate, diff.changes, diff.notes)
        if inserted.newest:
            self.newest = (inserted.snapshot_id, estate)


class _Inserted(NamedTuple):
    """What one insert stored: the new id, the snapshot before it and the diff from it
    (None for the first in time), and whether it is the newest snapshot."""

    snapshot_id: int
    previous: int | None
    diff: EstateDiff | None
    newest: bool


def parsed_source(source: Any) -> SnapshotJSON | None:
    """A snapshot file's JSON with each profile's text (checked by `add_snapshot`), or
    None for an estate; a file whose text is faulty outside its profiles raises here,
    before the archive is opened."""
    from ..core.estate import Estate, not_estate_or_path
    from ..core.snapshot import read_snapshot_json
    from ..models.parsing import listing_issues

    if isinstance(source, Estate):
        return None
    if not isinstance(source, str | os.PathLike):
        raise not_estate_or_path(source, "Archive.add: source")
    parsed = read_snapshot_json(source, texts=True)
    try:
        listing_issues(parsed.at, parsed.duplicates)
    except ParseError as exc:
        raise ParseError(f"{source}: {exc}", issues=exc.issues) from None
    return parsed


def add_snapshot(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    source: Any,
    parsed: SnapshotJSON | None,
    recent: Recent,
) -> int:
    """Store a snapshot (an estate, or a file `parsed_source` read) in the archive at
    `path` in one transaction, and return its id: the id it has when the same content
    with the same fetch time is stored already."""
    estate, rows = _estate_rows(con, source, parsed)
    fetched = _fetch_time(source, estate)
    found = with_digest(con, rows.digest)
    if found is not None:
        return found
    con.execute("BEGIN TRANSACTION")
    try:
        inserted = _insert(con, path, estate, rows, fetched, recent)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    recent.added(estate, inserted)
    return inserted.snapshot_id


def _estate_rows(
    con: duckdb.DuckDBPyConnection, source: Any, parsed: SnapshotJSON | None
) -> tuple[Estate, SnapshotRows]:
    """The estate to add and its rows. A profile whose exact text the archive stored as
    valid is not checked again (its verdict is stored with it), and the texts are the
    file's own, not written again."""
    from ..core.estate import Estate
    from ..models.parsing import listing_of

    if parsed is None:
        return source, snapshot_rows(source)
    texts = parsed.texts
    if texts is None:
        raw = listing_of(parsed.items, parsed.at, parsed.duplicates)
        estate = Estate.from_raw(raw, info=parsed.info)
        return estate, snapshot_rows(estate)
    digests = text_digests(texts)
    valid = valid_versions(con, digests)
    known = {position for position, one in enumerate(digests) if one in valid}
    raw = listing_of(parsed.items, parsed.at, parsed.duplicates, known_valid=known)
    estate = Estate.from_raw(raw, info=parsed.info)
    return estate, snapshot_rows(estate, texts, digests)


def _fetch_time(source: Any, estate: Estate) -> tuple[datetime, str]:
    """The fetch time (UTC) of the snapshot to add, and where that time comes from."""
    fetched = estate.info.fetched_at
    if fetched is not None:
        moment = fetched if fetched.tzinfo is not None else fetched.replace(tzinfo=UTC)
        try:
            return moment.astimezone(UTC), "header"
        except OverflowError:  # 9999-12-31T23:00-05:00 is in the year 10000 in UTC
            where = f"{source}: " if isinstance(source, str | os.PathLike) else ""
            raise ValueError(
                f"{where}fetched_at {fetched.isoformat()} is outside the years 1 to 9999 "
                "in UTC, which the archive keeps its times in"
            ) from None
    if isinstance(source, str | os.PathLike):
        return datetime.fromtimestamp(Path(source).stat().st_mtime, tz=UTC), "file mtime"
    return datetime.now(UTC), "added"


def _insert(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    estate: Estate,
    rows: SnapshotRows,
    fetched: tuple[datetime, str],
    recent: Recent,
) -> _Inserted:
    """Write one snapshot (its versions, runs, row and changes) in the open transaction;
    `fetched`: its fetch time and where that comes from."""
    snapshot_id = int(one_row(con, "SELECT coalesce(max(snapshot_id), 0) + 1 FROM snapshots")[0])
    seq, newest = _make_room(con, fetched[0])
    before = listing(con, seq - 1)
    version_ids = write_versions(con, estate, rows, before)
    write_runs(con, seq, version_ids, rows.keys, newest=seq > newest, before=before)
    previous = snapshot_at_seq(con, seq - 1)
    diff = None
    if previous is not None:
        diff = _diff_to(con, path, (previous, seq - 1), before, estate, rows, recent)
    _insert_row(con, snapshot_id, seq, fetched, estate, rows, diff)
    if diff is not None:
        write_changes(con, snapshot_id, diff)
    following = snapshot_at_seq(con, seq + 1)
    if following is not None:  # its predecessor is now this one: diff again
        _diff_again(con, following, estate, stored_estate(con, path, following))
    return _Inserted(snapshot_id, previous, diff, following is None)


def _make_room(con: duckdb.DuckDBPyConnection, fetched_at: datetime) -> tuple[int, int]:
    """The place in time (`seq`) of a snapshot fetched at `fetched_at`, after every one
    fetched at or before it, and the newest place before the add; the later snapshots
    (and their runs' bounds) move one place on."""
    seq = int(
        one_row(
            con,
            "SELECT coalesce(max(seq), 0) + 1 FROM snapshots WHERE fetched_at <= ?",
            [fetched_at],
        )[0]
    )
    newest = int(one_row(con, "SELECT coalesce(max(seq), 0) FROM snapshots")[0])
    if seq <= newest:  # in the middle: later snapshots move one place on
        for sql in (
            "UPDATE snapshots SET seq = seq + 1 WHERE seq >= ?",
            "UPDATE runs SET first_seq = first_seq + 1 WHERE first_seq >= ?",
            "UPDATE runs SET last_seq = last_seq + 1 WHERE last_seq >= ?",
        ):
            con.execute(sql, [seq])
    return seq, newest


def _insert_row(
    con: duckdb.DuckDBPyConnection,
    snapshot_id: int,
    seq: int,
    fetched: tuple[datetime, str],
    estate: Estate,
    rows: SnapshotRows,
    diff: EstateDiff | None,
) -> None:
    """The snapshot's row: its place, fetch time, header, digest, timeline counts and the
    notes of its diff."""
    from ..estate_history import timeline_counts

    counts = timeline_counts(estate, rows.texts)
    con.execute(
        "INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            snapshot_id,
            seq,
            *fetched,
            estate.info.source_url,
            estate.info.toolkit_version,
            dumps_json(rows.header).decode(),
            rows.digest,
            datetime.now(UTC),
            *(counts[name] for name in SNAPSHOT_COUNTS),
            dumps_json(counts["agent_types"]).decode(),
            dumps_json(list(diff.notes) if diff is not None else []).decode(),
        ],
    )


def _diff_to(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    previous: tuple[int, int],
    before: Sequence[tuple[Any, ...]],
    estate: Estate,
    rows: SnapshotRows,
    recent: Recent,
) -> EstateDiff:
    """`ipt.diff` from the snapshot before (`previous`: its id and seq) to `estate`: from
    the profiles that changed (`incremental.py`) when it applies, else of the two whole
    estates."""
    from ..core.snapshot import info_of
    from .incremental import incremental_diff

    previous_id, previous_seq = previous
    header = one_row(con, "SELECT header FROM snapshots WHERE snapshot_id = ?", [previous_id])[0]
    listed = [(v, k, one) for _, v, k, _, _, one in before]
    found = incremental_diff(con, previous_seq, listed, info_of(loads_json(header)), estate, rows)
    if found is not None:
        return found
    old = recent.estate(previous_id)
    if old is None:
        old = stored_estate(con, path, previous_id)
    return _whole_diff(old, estate)


def _diff_again(
    con: duckdb.DuckDBPyConnection, snapshot_id: int, before: Estate, estate: Estate
) -> None:
    """Replace the stored changes and notes of `snapshot_id` (its estate: `estate`) by its
    diff from `before`, the snapshot now before it."""
    again = _whole_diff(before, estate)
    con.execute("DELETE FROM changes WHERE snapshot_id = ?", [snapshot_id])
    write_changes(con, snapshot_id, again)
    con.execute(
        "UPDATE snapshots SET notes = ? WHERE snapshot_id = ?",
        [dumps_json(list(again.notes)).decode(), snapshot_id],
    )


def _whole_diff(old: Estate, new: Estate) -> EstateDiff:
    from ..change.diff import diff

    return diff(old, new)
