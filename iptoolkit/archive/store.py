"""`ipt.Archive`: every snapshot of an estate in one DuckDB file, each profile's JSON once.

>>> archive = ipt.Archive("estate.duckdb")
>>> archive.add("snapshots/2026-11-23.json.gz")     # or an Estate; returns its snapshot id
>>> archive.snapshots                                # one row per snapshot (a DataFrame)
>>> archive.estate(at="2026-10-01")                  # the estate as fetched on or before
>>> archive.log("Fjord AS2")                         # when an item appeared, changed, went
>>> archive.sql("SELECT count(*) FROM profiles WHERE snapshot_id = 3")

Storage: a profile's exact JSON is stored once by its content (`versions`); which versions
a snapshot holds, in which order, is stored as runs over consecutive snapshots (`runs.py`),
so a profile unchanged for a year costs one row. Each add also stores `ipt.diff` from the
snapshot before it (`changes`) and the counts of `ipt.history`'s timeline, so `log` and
`timeline` read tables instead of loading a year of estates.

An add is one transaction: killed half-way, the archive is as it was. The file is opened
for each operation and closed after (or held for a `with archive:` block), so a reader and
a nightly writer take turns; while another process holds it, an operation waits up to
`lock_timeout` seconds, then raises `ArchiveLockedError` naming the file.

`Archive` is the face; the work is done by its modules, each one job: `opening.py` (the
file, its lock, its format), `adding.py` (an add, with `writes.py` for the rows it writes),
`lookup.py` (which snapshot an `at=` names), `retrieval.py` (estates and tables read
back), `compaction.py` (giving free blocks back), and `log.py`/`history.py` (the readers
of the stored changes).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from .adding import Recent, add_snapshot, parsed_source
from .compaction import compact_file, mostly_free
from .lookup import At, NoSnapshotError, resolve, with_digest
from .opening import ArchiveDamagedError, ArchiveLockedError, one_row, open_archive
from .retrieval import snapshot_at_seq, snapshots_frame, stored_estate, timeline_frame

if TYPE_CHECKING:
    import pandas

    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from ..estate_history import History

__all__ = [
    "Archive",
    "ArchiveDamagedError",
    "ArchiveLockedError",
    "ArchiveQueryError",
    "At",
    "NoSnapshotError",
]


class ArchiveQueryError(ValueError):
    """DuckDB refused a query of `Archive.sql` (its syntax, a table or column it does not
    know, a value it cannot convert); the message is DuckDB's, without the line it points
    into, and the DuckDB error is its `__cause__`."""


class Archive:
    """Every snapshot of an estate in one DuckDB file (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str], *, lock_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.lock_timeout = lock_timeout
        self._held: duckdb.DuckDBPyConnection | None = None
        """The connection of a `with archive:` block, else None (each operation opens one)."""
        self._recent = Recent()
        """The newest estate and the last diff this object added (`adding.Recent`)."""

    def __repr__(self) -> str:
        return f"<Archive {self.path}>"

    def __enter__(self) -> Archive:
        self._held = open_archive(self.path, self.lock_timeout)
        return self

    def __exit__(self, *_: object) -> None:
        held, self._held = self._held, None
        if held is not None:
            held.close()

    # -- adding ---------------------------------------------------------------------------

    def add(self, source: Estate | str | os.PathLike[str]) -> int:
        """Store a snapshot (an estate, or a snapshot file) and return its id.

        The same content with the same fetch time is stored once: adding it again returns
        the id it has. A snapshot without a fetch time is placed by its file's modification
        time, or now for an estate. A file gone mostly free space is compacted after
        (outside a `with archive:` block, see `compact`).
        """
        parsed = parsed_source(source)
        with self._connection(create=True) as con:
            snapshot_id = add_snapshot(con, self.path, source, parsed, self._recent)
            crowded = self._held is None and mostly_free(con)
        if crowded:
            self.compact()
        return snapshot_id

    def compact(self, *, if_mostly_free: bool = False) -> tuple[int, int]:
        """Rewrite the file without its free blocks (DuckDB reuses them but never gives
        them back); returns its size before and after, in bytes. An add does it by itself
        when a quarter of the file is free (`compaction.mostly_free`); `if_mostly_free`:
        only then."""
        if self._held is not None:
            raise RuntimeError(f"{self.path}: compact outside a `with archive:` block")
        return compact_file(self.path, self._connection, if_mostly_free=if_mostly_free)

    # -- reading --------------------------------------------------------------------------

    def estate(self, at: At = None) -> Estate:
        """The estate as fetched at or before `at` (see `At`), every profile byte for byte
        as it was saved, with its snapshot header."""
        with self._connection() as con:
            snapshot_id = resolve(con, self.path, at)
            remembered = self._recent.estate(snapshot_id)
            if remembered is not None:
                return remembered
            return stored_estate(con, self.path, snapshot_id)

    def export(self, path: str | os.PathLike[str], at: At = None) -> Path:
        """Write the snapshot at `at` as a snapshot file (`.json` or `.json.gz`), as
        `Estate.save` wrote it."""
        return self.estate(at).save(path)

    @property
    def snapshots(self) -> pandas.DataFrame:
        """One row per snapshot, oldest first: id, fetch time, source, counts."""
        with self._connection() as con:
            return snapshots_frame(con)

    def __len__(self) -> int:
        with self._connection() as con:
            return int(one_row(con, "SELECT count(*) FROM snapshots")[0])

    def snapshot_id(self, at: At = None) -> int:
        """The id of the snapshot fetched at or before `at` (see `At`)."""
        with self._connection() as con:
            return resolve(con, self.path, at)

    def snapshot_of(self, estate: Estate) -> int | None:
        """The id of the stored snapshot that is `estate`, its content and fetch time byte
        for byte (as `add` finds it stored already); None when none is."""
        from .rows import snapshot_rows

        digest = snapshot_rows(estate).digest
        with self._connection() as con:
            return with_digest(con, digest)

    def last_diff(self, snapshot_id: int) -> EstateDiff | None:
        """The diff stored for a snapshot (against the one before it; None for the first),
        as computed when this object added it, else built from the archive."""
        if snapshot_id in self._recent.diffs:
            return self._recent.diffs[snapshot_id]
        from .history import stored_diff

        with self._connection() as con:
            found = con.execute(
                "SELECT s.seq FROM snapshots s WHERE snapshot_id = ?", [snapshot_id]
            ).fetchone()
            if found is None:
                raise NoSnapshotError(f"{self.path}: no snapshot {snapshot_id}")
            previous = snapshot_at_seq(con, found[0] - 1)
        if previous is None:
            return None
        return stored_diff(self, snapshot_id, self.estate(previous), self.estate(snapshot_id))

    def diff(self, a: At, b: At = None) -> EstateDiff:
        """`ipt.diff` from the snapshot at `a` to the one at `b` (default: the newest)."""
        from ..change.diff import diff

        return diff(self.estate(a), self.estate(b))

    def timeline(self) -> pandas.DataFrame:
        """`History.timeline` over the whole archive: one row per snapshot, its counts and
        profiles per input agent type (read from the archive, nothing loaded)."""
        with self._connection() as con:
            return timeline_frame(con)

    def history(self) -> History:
        """The archive as an `ipt.History` (`ipt.history(archive)` is the same): its diffs
        are the stored ones, each pair's estates built on demand."""
        from .history import archive_history

        return archive_history(self)

    def log(self, item: str) -> pandas.DataFrame:
        """Every snapshot in which a profile, channel or partner appeared, changed (with the
        JSON paths) or disappeared; `item` in any form `ipt.resolve_node` takes."""
        from .log import item_log

        return item_log(self, item)

    def sql(self, query: str, parameters: Sequence[Any] | None = None) -> pandas.DataFrame:
        """A query over the tables and views (docs/archive.md), as a DataFrame; a query
        DuckDB refuses raises `ArchiveQueryError` naming the file and DuckDB's reason.

        The file is opened read-only and nothing outside it is reachable (no file read or
        written, no `ATTACH`, no extension loaded): a query someone pasted cannot change
        the archive or reach the machine. Outside a `with archive:` block only, since
        DuckDB holds one configuration per file and process."""
        if self._held is not None:
            raise RuntimeError(f"{self.path}: sql outside a `with archive:` block")
        con = open_archive(self.path, self.lock_timeout, reader=True)
        try:
            result = con.execute(query, parameters)
            if result is None:  # no statement at all (blank, or a comment only)
                raise ArchiveQueryError(
                    f"{self.path}: the query is empty: give a statement that returns rows"
                )
            return result.df()
        except (duckdb.InterruptException, duckdb.InternalException):
            raise  # Ctrl-C, or a fault of DuckDB's own: not the query's
        except duckdb.Error as exc:
            raise ArchiveQueryError(f"{self.path}: the query failed: {_reason(exc)}") from exc
        finally:
            con.close()

    # -- the file -------------------------------------------------------------------------

    @contextmanager
    def _connection(self, *, create: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """The connection of a `with archive:` block, else one opened for this operation
        and closed after (`opening.open_archive`; `create`: make the file if missing).
        The readers (`log.py`, `history.py`) reach the file through it (`log.Stored`)."""
        if self._held is not None:
            with _named_errors(self.path):
                yield self._held
            return
        con = open_archive(self.path, self.lock_timeout, create=create)
        try:
            with _named_errors(self.path):
                yield con
        finally:
            con.close()


@contextmanager
def _named_errors(path: Path) -> Iterator[None]:
    """DuckDB's errors met while reading or writing the file (a disk full, a block whose
    checksum fails) as errors naming the file: they are the file's, not a query's."""
    try:
        yield
    except (duckdb.InterruptException, duckdb.ConstraintException):
        raise  # Ctrl-C; a constraint is iptoolkit's own fault to see whole
    except duckdb.IOException as exc:
        raise OSError(f"{path}: {_reason(exc)}") from exc
    except duckdb.Error as exc:
        raise ArchiveDamagedError(f"{path}: DuckDB cannot read it: {_reason(exc)}") from exc


def _reason(exc: BaseException) -> str:
    """DuckDB's message on one line, without the line of SQL it points into."""
    return " ".join(str(exc).split("\n\n", 1)[0].split()) or type(exc).__name__
