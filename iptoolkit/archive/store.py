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
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from datetime import time as clock
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from ..models import Listing, ParseError, loads_json
from ..support.jsonio import dumps_json
from .rows import SnapshotRows, snapshot_rows, text_digests, use_rows
from .runs import order_keys
from .schema import FORMAT, FORMAT_VERSION, TABLES, VIEWS

if TYPE_CHECKING:
    import pandas

    from ..change.model import EstateDiff
    from ..core.estate import Estate
    from ..core.snapshot import SnapshotJSON
    from ..estate_history import History

__all__ = ["Archive", "ArchiveLockedError", "At"]

At = int | str | date | datetime | None
"""A snapshot id (int, or its digits), a date or date-time (ISO text too; a date means the
end of that day, UTC; a time without a zone is UTC), or None for the newest."""

_LOCKED = re.compile(r"Could not set lock on file|Conflicting lock", re.I)
_PID = re.compile(r"\(PID (\d+)\)")
_POLL = 0.1


class ArchiveLockedError(OSError):
    """Another process holds the archive file (a writer, or a reader mid-question)."""


class Archive:
    """Every snapshot of an estate in one DuckDB file (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str], *, lock_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.lock_timeout = lock_timeout
        self._held: duckdb.DuckDBPyConnection | None = None
        self._diffs: dict[int, EstateDiff] = {}
        """The diffs this object computed while adding, by snapshot id (`last_diff`)."""
        self._newest: tuple[int, Estate] | None = None
        """The estate of the newest snapshot, once built or added: the next add diffs
        against it without building it again."""

    def __repr__(self) -> str:
        return f"<Archive {self.path}>"

    def __enter__(self) -> Archive:
        self._held = self._open()
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
        time, or now for an estate.
        """
        parsed = _parsed(source)
        with self._connection(create=True) as con:
            estate, rows = _estate_rows(con, source, parsed)
            fetched_at, time_from = _fetch_time(source, estate)
            found = con.execute(
                "SELECT snapshot_id FROM snapshots WHERE digest = ?", [rows.digest]
            ).fetchone()
            if found is not None:
                return int(found[0])
            con.execute("BEGIN TRANSACTION")
            try:
                snapshot_id = self._insert(con, estate, rows, fetched_at, time_from)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            crowded = self._held is None and mostly_free(con)
        if crowded:
            self.compact()
        return snapshot_id

    def _insert(
        self,
        con: duckdb.DuckDBPyConnection,
        estate: Estate,
        rows: SnapshotRows,
        fetched_at: datetime,
        time_from: str,
    ) -> int:
        from ..estate_history import _counts

        snapshot_id = con.execute(
            "SELECT coalesce(max(snapshot_id), 0) + 1 FROM snapshots"
        ).fetchone()[0]  # type: ignore[index]
        # its place in time: after every snapshot fetched at or before it
        seq = con.execute(
            "SELECT coalesce(max(seq), 0) + 1 FROM snapshots WHERE fetched_at <= ?", [fetched_at]
        ).fetchone()[0]  # type: ignore[index]
        newest = con.execute("SELECT coalesce(max(seq), 0) FROM snapshots").fetchone()[0]  # type: ignore[index]
        if seq <= newest:  # in the middle: later snapshots move one place on
            for sql in (
                "UPDATE snapshots SET seq = seq + 1 WHERE seq >= ?",
                "UPDATE runs SET first_seq = first_seq + 1 WHERE first_seq >= ?",
                "UPDATE runs SET last_seq = last_seq + 1 WHERE last_seq >= ?",
            ):
                con.execute(sql, [seq])
        before = _listing(con, seq - 1)
        version_ids = self._versions(con, estate, rows, before)
        self._runs(con, seq, version_ids, rows.keys, newest=seq > newest, before=before)
        counts = _counts(estate, rows.texts)
        previous = self._snapshot_at_seq(con, seq - 1)
        diff = self._diff_to(con, previous, seq - 1, before, estate, rows) if previous else None
        con.execute(
            "INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                snapshot_id,
                seq,
                fetched_at,
                time_from,
                estate.info.source_url,
                estate.info.toolkit_version,
                dumps_json(rows.header).decode(),
                rows.digest,
                datetime.now(UTC),
                *(counts[name] for name in _COUNTS),
                dumps_json(counts["agent_types"]).decode(),
                dumps_json(list(diff.notes) if diff is not None else []).decode(),
            ],
        )
        if diff is not None:
            _store_changes(con, snapshot_id, diff)
            self._diffs = {}
            cached = self._newest
            if cached is not None and cached[0] == previous:  # else `last_diff` builds it
                from ..change.model import EstateDiff

                self._diffs[snapshot_id] = EstateDiff(cached[1], estate, diff.changes, diff.notes)
        following = self._snapshot_at_seq(con, seq + 1)
        if following is not None:  # its predecessor is now this one: diff again
            later = self._estate(con, following)
            again = _ipt_diff(estate, later)
            con.execute("DELETE FROM changes WHERE snapshot_id = ?", [following])
            _store_changes(con, following, again)
            con.execute(
                "UPDATE snapshots SET notes = ? WHERE snapshot_id = ?",
                [dumps_json(list(again.notes)).decode(), following],
            )
        if following is None:
            self._newest = (snapshot_id, estate)
        return snapshot_id

    def _versions(
        self,
        con: duckdb.DuckDBPyConnection,
        estate: Estate,
        rows: SnapshotRows,
        before: Sequence[tuple[Any, ...]] = (),
    ) -> list[int]:
        """The version id of each profile, storing the versions not stored yet; `before`:
        the listing of the snapshot before (`_listing`), whose versions most are."""
        import pandas as pd

        known = {row[5]: row[1] for row in before}
        known.update(known_versions(con, [one for one in rows.digests if one not in known]))
        next_id = con.execute("SELECT coalesce(max(version_id), 0) + 1 FROM versions").fetchone()[0]  # type: ignore[index]
        new_versions: list[tuple[Any, ...]] = []
        new_uses: list[tuple[Any, ...]] = []
        ids: list[int] = []
        for position, (one, record) in enumerate(zip(rows.digests, estate.records, strict=True)):
            found = known.get(one)
            if found is None:
                found = known[one] = next_id
                next_id += 1
                new_versions.append((found, *rows.version(position, record)))
                new_uses.extend((found, *use) for use in use_rows(record))
            ids.append(found)
        if new_versions:
            insert_rows(con, "versions", pd.DataFrame(new_versions, columns=_VERSION_COLUMNS))
        if new_uses:
            insert_rows(con, "uses", pd.DataFrame(new_uses, columns=_USE_COLUMNS))
        return ids

    def _runs(
        self,
        con: duckdb.DuckDBPyConnection,
        seq: int,
        version_ids: list[int],
        keys: list[str],
        *,
        newest: bool = True,
        before: Sequence[tuple[Any, ...]] | None = None,
    ) -> None:
        """Record which versions stand where in the snapshot at `seq` (see `runs.py`);
        `newest`: no snapshot comes after it. A run still in the newest snapshot is open
        (`last_seq` NULL), so a profile that does not change costs no write at all."""
        import pandas as pd

        if before is None:
            before = _listing(con, seq - 1)
        current = list(zip(version_ids, keys, strict=True))
        new_keys, kept = order_keys([((v, k), key) for _, v, k, key, *_ in before], current)
        continued = {
            (v, k, key) for (v, k), key, keep in zip(current, new_keys, kept, strict=True) if keep
        }
        extend, split, close = [], [], []
        for rowid, v, k, key, last, _ in before:
            if (v, k, key) in continued:
                if last == seq - 1:  # only in the middle: the newest's runs are open
                    extend.append(rowid)
            elif last is None and newest:
                close.append(rowid)
            elif last is None or last > seq:  # it spans this place: stops, resumes after
                split.append(rowid)
        for rowids, value in ((extend, seq), (close, seq - 1)):
            if rowids:
                con.execute(
                    "UPDATE runs SET last_seq = ? WHERE rowid IN (SELECT unnest(?::BIGINT[]))",
                    [value, rowids],
                )
        if split:
            con.execute(
                "INSERT INTO runs SELECT version_id, order_key, key, ? + 1, last_seq FROM runs "
                "WHERE rowid IN (SELECT unnest(?::BIGINT[]))",
                [seq, split],
            )
            con.execute(
                "UPDATE runs SET last_seq = ? - 1 WHERE rowid IN (SELECT unnest(?::BIGINT[]))",
                [seq, split],
            )
        fresh = [
            (v, key, k, seq, None if newest else seq)
            for (v, k), key, keep in zip(current, new_keys, kept, strict=True)
            if not keep
        ]
        if fresh:
            columns = ["version_id", "order_key", "key", "first_seq", "last_seq"]
            insert_rows(con, "runs", pd.DataFrame(fresh, columns=columns))

    def compact(self, *, if_mostly_free: bool = False) -> tuple[int, int]:
        """Rewrite the file without its free blocks (DuckDB reuses them but never gives
        them back); returns its size before and after, in bytes. An add does it by itself
        when a quarter of the file is free (`mostly_free`); `if_mostly_free`: only then."""
        if self._held is not None:
            raise RuntimeError(f"{self.path}: compact outside a `with archive:` block")
        before = self.path.stat().st_size
        if if_mostly_free:
            with self._connection() as con:
                if not mostly_free(con):
                    return before, before
        fresh = self.path.with_name(f".{self.path.name}.compact")
        fresh.unlink(missing_ok=True)
        with self._connection() as con:  # the lock is held while copying
            con.execute("CHECKPOINT")
            name = con.execute("SELECT current_database()").fetchone()[0]  # type: ignore[index]
            quoted = str(fresh).replace("'", "''")
            con.execute(f"ATTACH '{quoted}' AS compacted")
            try:
                con.execute(f'COPY FROM DATABASE "{name}" TO compacted')
            finally:
                con.execute("DETACH compacted")
            os.replace(fresh, self.path)
        return before, self.path.stat().st_size

    # -- reading --------------------------------------------------------------------------

    def estate(self, at: At = None) -> Estate:
        """The estate as fetched at or before `at` (see `At`), every profile byte for byte
        as it was saved, with its snapshot header."""
        with self._connection() as con:
            snapshot_id = self._resolve(con, at)
            cached = self._newest
            if cached is not None and cached[0] == snapshot_id:
                return cached[1]
            return self._estate(con, snapshot_id)

    def export(self, path: str | os.PathLike[str], at: At = None) -> Path:
        """Write the snapshot at `at` as a snapshot file (`.json` or `.json.gz`), as
        `Estate.save` wrote it."""
        return self.estate(at).save(path)

    @property
    def snapshots(self) -> pandas.DataFrame:
        """One row per snapshot, oldest first: id, fetch time, source, counts."""
        with self._connection() as con:
            return con.execute(
                "SELECT snapshot_id, fetched_at, time_from, source_url, "
                + ", ".join(_COUNTS)
                + ", added_at FROM snapshots ORDER BY seq"
            ).df()

    def __len__(self) -> int:
        with self._connection() as con:
            return int(con.execute("SELECT count(*) FROM snapshots").fetchone()[0])  # type: ignore[index]

    def snapshot_id(self, at: At = None) -> int:
        """The id of the snapshot fetched at or before `at` (see `At`)."""
        with self._connection() as con:
            return self._resolve(con, at)

    def last_diff(self, snapshot_id: int) -> EstateDiff | None:
        """The diff stored for a snapshot (against the one before it; None for the first),
        as computed when this object added it, else built from the archive."""
        if snapshot_id in self._diffs:
            return self._diffs[snapshot_id]
        from .history import stored_changes

        with self._connection() as con:
            found = con.execute(
                "SELECT s.seq, s.notes FROM snapshots s WHERE snapshot_id = ?", [snapshot_id]
            ).fetchone()
            if found is None:
                raise LookupError(f"{self.path}: no snapshot {snapshot_id}")
            previous = self._snapshot_at_seq(con, found[0] - 1)
        if previous is None:
            return None
        from ..change.model import EstateDiff

        changes = stored_changes(self, snapshot_id).get(snapshot_id, ())
        notes = tuple(loads_json(found[1]))
        return EstateDiff(self.estate(previous), self.estate(snapshot_id), changes, notes)

    def diff(self, a: At, b: At = None) -> EstateDiff:
        """`ipt.diff` from the snapshot at `a` to the one at `b` (default: the newest)."""
        return _ipt_diff(self.estate(a), self.estate(b))

    def timeline(self) -> pandas.DataFrame:
        """`History.timeline` over the whole archive: one row per snapshot, its counts and
        profiles per input agent type (read from the archive, nothing loaded)."""
        import pandas as pd

        from ..estate_history import COUNTS

        with self._connection() as con:
            rows = con.execute(
                "SELECT snapshot_id, fetched_at, time_from, "
                + ", ".join(COUNTS)
                + ", agent_types FROM snapshots ORDER BY seq"
            ).fetchall()
        types: dict[str, None] = {}
        decoded = [loads_json(row[-1]) for row in rows]
        for agent_types in decoded:
            types.update(dict.fromkeys(agent_types))
        records = [
            {
                "snapshot": row[0],
                "fetched_at": pd.Timestamp(row[1]).tz_convert("UTC"),
                "time_from": row[2],
                **dict(zip(COUNTS, row[3:-1], strict=True)),
                **{name: agent_types.get(name, 0) for name in types},
            }
            for row, agent_types in zip(rows, decoded, strict=True)
        ]
        return pd.DataFrame(
            records, columns=["snapshot", "fetched_at", "time_from", *COUNTS, *types]
        )

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
        """A query over the tables and views (docs/archive.md), as a DataFrame."""
        with self._connection() as con:
            return con.execute(query, parameters).df()

    # -- internals ------------------------------------------------------------------------

    def _estate(self, con: duckdb.DuckDBPyConnection, snapshot_id: int) -> Estate:
        from ..core.estate import Estate
        from ..core.snapshot import _info_of

        found = con.execute(
            "SELECT header, seq FROM snapshots WHERE snapshot_id = ?", [snapshot_id]
        ).fetchone()
        if found is None:
            raise LookupError(f"{self.path}: no snapshot {snapshot_id}")
        header, seq = found
        # one query, one byte string: the listing as `Estate.save` wrote it, and which of its
        # profiles were faulty (the others were valid when stored: nothing to check again)
        text, faulty = con.execute(
            "SELECT encode('[' || coalesce(string_agg(v.json, ',' ORDER BY r.order_key), '') "
            "|| ']'), "
            "coalesce(list(v.faulty ORDER BY r.order_key), []) "
            "FROM runs r JOIN versions v USING (version_id) "
            "WHERE r.first_seq <= ? AND (r.last_seq IS NULL OR r.last_seq >= ?)",
            [seq, seq],
        ).fetchone()  # type: ignore[misc]
        info = _info_of(loads_json(header))
        try:
            items = _stored_listing(text)
        except ValueError as exc:  # only a damaged file: the archive wrote this JSON
            raise ParseError(f"{self.path}: snapshot {snapshot_id}: damaged JSON ({exc})") from None
        suspects = frozenset(n for n, bad in enumerate(faulty) if bad)
        try:
            return Estate.from_raw(Listing(items, {}, suspects), info=info)
        except ParseError as exc:
            raise ParseError(
                f"{self.path}: snapshot {snapshot_id}: {exc}", issues=exc.issues
            ) from None

    def _diff_to(
        self,
        con: duckdb.DuckDBPyConnection,
        previous: int,
        previous_seq: int,
        before: Sequence[tuple[Any, ...]],
        estate: Estate,
        rows: SnapshotRows,
    ) -> EstateDiff:
        """`ipt.diff` from the snapshot before to `estate`: from the profiles that changed
        (`incremental.py`) when it applies, else of the two whole estates."""
        from ..core.snapshot import _info_of
        from .incremental import incremental_diff

        header = con.execute(
            "SELECT header FROM snapshots WHERE snapshot_id = ?", [previous]
        ).fetchone()[0]  # type: ignore[index]
        listing = [(v, k, one) for _, v, k, _, _, one in before]
        found = incremental_diff(
            con, previous_seq, listing, _info_of(loads_json(header)), estate, rows
        )
        if found is not None:
            return found
        cached = self._newest
        old = (
            cached[1]
            if cached is not None and cached[0] == previous
            else self._estate(con, previous)
        )
        return _ipt_diff(old, estate)

    @staticmethod
    def _snapshot_at_seq(con: duckdb.DuckDBPyConnection, seq: int) -> int | None:
        found = con.execute("SELECT snapshot_id FROM snapshots WHERE seq = ?", [seq]).fetchone()
        return None if found is None else int(found[0])

    def _resolve(self, con: duckdb.DuckDBPyConnection, at: At) -> int:
        """The snapshot id `at` names (see `At`)."""
        if isinstance(at, str) and at.strip().isdigit():
            at = int(at.strip())
        if at is None:
            found = con.execute(
                "SELECT snapshot_id FROM snapshots ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            if found is None:
                raise LookupError(f"{self.path}: the archive holds no snapshot yet")
            return int(found[0])
        if isinstance(at, int) and not isinstance(at, bool):
            found = con.execute(
                "SELECT snapshot_id FROM snapshots WHERE snapshot_id = ?", [at]
            ).fetchone()
            if found is None:
                raise LookupError(f"{self.path}: no snapshot {at} (ids: {self._ids(con)})")
            return at
        moment = as_moment(at)
        found = con.execute(
            "SELECT snapshot_id FROM snapshots WHERE fetched_at <= ? ORDER BY seq DESC LIMIT 1",
            [moment],
        ).fetchone()
        if found is None:
            first = con.execute("SELECT min(fetched_at) FROM snapshots").fetchone()[0]  # type: ignore[index]
            since = f"the first was fetched {first:%Y-%m-%d %H:%M}" if first else "it is empty"
            raise LookupError(
                f"{self.path}: no snapshot fetched at or before {moment:%Y-%m-%d %H:%M} UTC "
                f"({since})"
            )
        return int(found[0])

    @staticmethod
    def _ids(con: duckdb.DuckDBPyConnection) -> str:
        ids = [
            str(row[0])
            for row in con.execute("SELECT snapshot_id FROM snapshots ORDER BY seq").fetchall()
        ]
        return (
            ", ".join(ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
            if ids
            else "none"
        )

    @contextmanager
    def _connection(self, *, create: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        if self._held is not None:
            yield self._held
            return
        con = self._open(create=create)
        try:
            yield con
        finally:
            con.close()

    def _open(self, *, create: bool = True) -> duckdb.DuckDBPyConnection:
        """A connection, the tables made when the file is new; waits out another process
        holding the file for up to `lock_timeout` seconds."""
        if not create and not self.path.exists():
            raise FileNotFoundError(f"{self.path}: no archive there (add a snapshot to make one)")
        deadline = time.monotonic() + self.lock_timeout
        while True:
            try:
                con = duckdb.connect(str(self.path), config=_CONFIG)
                break
            except duckdb.IOException as exc:
                if not _LOCKED.search(str(exc)):
                    raise OSError(f"{self.path}: cannot open the archive: {exc}") from None
                if time.monotonic() >= deadline:
                    pid = _PID.search(str(exc))
                    holder = f" (process {pid.group(1)})" if pid else ""
                    raise ArchiveLockedError(
                        f"{self.path}: the archive is in use by another process{holder}; "
                        f"waited {self.lock_timeout:g} s (one writer at a time: try again "
                        "when it is done)"
                    ) from None
                time.sleep(_POLL)
            except duckdb.Error as exc:
                raise OSError(f"{self.path}: not a DuckDB archive ({exc})") from None
        try:
            _prepare(con, self.path)
        except BaseException:
            con.close()
            raise
        return con


BLOCK_SIZE = 16_384
"""Bytes per block of a new archive file (DuckDB's smallest; its default is 256 KiB). Each
add appends a few rows to five tables, and each table's new rows take a block of their own
until the next add rewrites it: with the default, a year of nightly adds left half the file
free blocks; with 16 KiB the slack is a sixteenth. A file's block size is fixed when it is
made and read from the file by any DuckDB (so `compact` also makes small blocks)."""

_CONFIG = {"default_block_size": str(BLOCK_SIZE)}

_COUNTS = ("profiles", "active_profiles", "channels", "partners", "problems", "findings")
_VERSION_COLUMNS = [
    "version_id",
    "digest",
    "json",
    "id",
    "name",
    "group",
    "active",
    "agent_type",
    "faulty",
]
_CHANGE_COLUMNS = [
    "snapshot_id",
    "number",
    "kind",
    "key",
    "op",
    "severity",
    "path",
    "old",
    "new",
    "reason",
    "name",
    "profiles",
    "cause",
]
_USE_COLUMNS = [
    "version_id",
    "role",
    "path",
    "unit",
    "channel_id",
    "channel_name",
    "channel_type",
    "channel_active",
    "partner_key",
    "partner_name",
]


def _stored_listing(text: bytes) -> list[Any]:
    """The profiles of a listing the archive wrote (a JSON array of them, UTF-8).

    Parsed as `read_json` parses compact text, without its proof that no key is given
    twice: `dumps_json` wrote every profile from a parsed object, which cannot hold one.
    """
    import jiter

    from ..models import gc_paused

    with gc_paused():
        return jiter.from_json(text, allow_inf_nan=False, cache_mode="all")


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, frame: pandas.DataFrame) -> None:
    """Append a frame's rows to a table (columns in the table's order). DuckDB reads
    `frame` by its name (a replacement scan), in the connection's open transaction."""
    con.execute(f"INSERT INTO {table} SELECT * FROM frame")


FREE_SHARE = 1 / 4
"""An add compacts the file when more than this share of its blocks is free. Appending to
a table rewrites its newest row group at the next checkpoint, and DuckDB merges small row
groups now and then, rewriting a large one: the freed blocks are reused but never given
back, and after a year of nightly adds they made about half the file. Compacting costs
a copy of the live data, about a second for a year of the 10,000-profile demo, and comes
every few weeks of nightly adds."""
_FREE_MIN_BYTES = 1 << 20
"""Below this much free space, nothing is compacted (a small archive is left alone)."""


def mostly_free(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the file (checkpointed now) has so much free space that an add should
    compact it (see `FREE_SHARE`)."""
    con.execute("CHECKPOINT")
    size, total, _, free = con.execute(
        "SELECT block_size, total_blocks, used_blocks, free_blocks FROM pragma_database_size()"
    ).fetchone()  # type: ignore[misc]
    return free * size > _FREE_MIN_BYTES and free > total * FREE_SHARE


def _listing(con: duckdb.DuckDBPyConnection, seq: int) -> list[tuple[Any, ...]]:
    """The runs of the snapshot at `seq`, in listing order: rowid, version id, key, order
    key, last seq, digest."""
    return con.execute(
        "SELECT r.rowid, r.version_id, r.key, r.order_key, r.last_seq, v.digest "
        "FROM runs r JOIN versions v USING (version_id) "
        "WHERE r.first_seq <= ? AND (r.last_seq IS NULL OR r.last_seq >= ?) ORDER BY r.order_key",
        [seq, seq],
    ).fetchall()


def valid_versions(con: duckdb.DuckDBPyConnection, digests: Sequence[str]) -> set[str]:
    """The digests among `digests` of versions stored as valid (not faulty)."""
    if not digests:
        return set()
    query = (
        "SELECT v.digest FROM versions v "
        "JOIN (SELECT unnest(?::VARCHAR[]) AS digest) d USING (digest) WHERE NOT v.faulty"
    )
    return {row[0] for row in con.execute(query, [list(dict.fromkeys(digests))]).fetchall()}


def known_versions(con: duckdb.DuckDBPyConnection, digests: Sequence[str]) -> dict[str, int]:
    """digest -> version id of the stored versions among `digests`."""
    if not digests:
        return {}
    query = (
        "SELECT v.digest, v.version_id FROM versions v "
        "JOIN (SELECT unnest(?::VARCHAR[]) AS digest) d USING (digest)"
    )
    return dict(con.execute(query, [list(dict.fromkeys(digests))]).fetchall())


def _prepare(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Make the tables and views of a new archive; check the format of an existing one.

    An archive's `meta` table is read straight away (the catalogue's information_schema
    costs a tenth of a second, as much as a whole `log`)."""
    try:
        found: dict[str, str] | None = dict(con.execute("SELECT key, value FROM meta").fetchall())
    except duckdb.CatalogException:
        found = None
    except duckdb.Error:
        raise ValueError(f"{path}: a DuckDB file, but not an iptoolkit archive") from None
    if found is not None:
        if found.get("format") != FORMAT:
            raise ValueError(f"{path}: a DuckDB file, but not an iptoolkit archive")
        if found.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"{path}: archive format {found.get('version')}, this iptoolkit reads "
                f"{FORMAT_VERSION}"
            )
        return
    if con.execute("SELECT table_name FROM information_schema.tables").fetchall():
        raise ValueError(f"{path}: a DuckDB file with other tables, not an iptoolkit archive")
    con.execute("BEGIN TRANSACTION")
    con.execute(TABLES)
    for name, (_, query) in VIEWS.items():
        con.execute(f"CREATE VIEW {name} AS {query}")
    con.execute("INSERT INTO meta VALUES ('format', ?), ('version', ?)", [FORMAT, FORMAT_VERSION])
    con.execute("COMMIT")


def _store_changes(con: duckdb.DuckDBPyConnection, snapshot_id: int, diff: EstateDiff) -> None:
    import pandas as pd

    rows = [
        (
            snapshot_id,
            number,
            change.kind,
            change.key,
            change.op,
            change.severity,
            change.path,
            None if change.old is None else dumps_json(change.old).decode(),
            None if change.new is None else dumps_json(change.new).decode(),
            change.reason,
            change.name,
            dumps_json(list(change.profiles)).decode() if change.profiles else None,
            change.cause,
        )
        for number, change in enumerate(diff.changes)
    ]
    if rows:
        insert_rows(con, "changes", pd.DataFrame(rows, columns=_CHANGE_COLUMNS))


def _ipt_diff(old: Estate, new: Estate) -> EstateDiff:
    from ..change.diff import diff

    return diff(old, new)


def _parsed(source: Any) -> SnapshotJSON | None:
    """A snapshot file's JSON with each profile's text (checked by `_estate_rows`), or
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
        listing = listing_of(parsed.items, parsed.at, parsed.duplicates)
        estate = Estate.from_raw(listing, info=parsed.info)
        return estate, snapshot_rows(estate)
    digests = text_digests(texts)
    valid = valid_versions(con, digests)
    known = {position for position, one in enumerate(digests) if one in valid}
    listing = listing_of(parsed.items, parsed.at, parsed.duplicates, known_valid=known)
    estate = Estate.from_raw(listing, info=parsed.info)
    return estate, snapshot_rows(estate, texts, digests)


def _fetch_time(source: Any, estate: Estate) -> tuple[datetime, str]:
    """The fetch time (UTC) of the snapshot to add, and where that time comes from."""
    fetched = estate.info.fetched_at
    if fetched is not None:
        moment = fetched if fetched.tzinfo is not None else fetched.replace(tzinfo=UTC)
        return moment.astimezone(UTC), "header"
    if isinstance(source, str | os.PathLike):
        return datetime.fromtimestamp(Path(source).stat().st_mtime, tz=UTC), "file mtime"
    return datetime.now(UTC), "added"


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
