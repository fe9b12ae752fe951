"""The rows an add writes: the profile versions not stored yet (with their uses), the runs
that end or begin at the new snapshot, and the changes of its diff.

Each function works in the connection's open transaction (`adding.py` opens and commits
it); none commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import duckdb

from ..support.jsonio import dumps_json
from .opening import one_row
from .rows import SnapshotRows, use_rows
from .runs import order_keys

if TYPE_CHECKING:
    import pandas

    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate

__all__ = [
    "insert_rows",
    "known_versions",
    "valid_versions",
    "write_changes",
    "write_runs",
    "write_versions",
]

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
_RUN_COLUMNS = ["version_id", "order_key", "key", "first_seq", "last_seq"]
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


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, frame: pandas.DataFrame) -> None:
    """Append a frame's rows to a table (columns in the table's order). DuckDB reads
    `frame` by its name (a replacement scan), in the connection's open transaction."""
    con.execute(f"INSERT INTO {table} SELECT * FROM frame")


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


def write_versions(
    con: duckdb.DuckDBPyConnection,
    estate: Estate,
    rows: SnapshotRows,
    before: Sequence[tuple[Any, ...]] = (),
) -> list[int]:
    """The version id of each profile, storing the versions not stored yet; `before`:
    the listing of the snapshot before (`retrieval.listing`), whose versions most are."""
    import pandas as pd

    known = {row[5]: row[1] for row in before}
    known.update(known_versions(con, [one for one in rows.digests if one not in known]))
    next_id = one_row(con, "SELECT coalesce(max(version_id), 0) + 1 FROM versions")[0]
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


def write_runs(
    con: duckdb.DuckDBPyConnection,
    seq: int,
    version_ids: list[int],
    keys: list[str],
    *,
    newest: bool = True,
    before: Sequence[tuple[Any, ...]] | None = None,
) -> None:
    """Record which versions stand where in the snapshot at `seq` (see `runs.py`);
    `newest`: no snapshot comes after it; `before`: the listing at `seq - 1`, when the
    caller has it. A run still in the newest snapshot is open (`last_seq` NULL), so a
    profile that does not change costs no write at all."""
    import pandas as pd

    from .retrieval import listing

    if before is None:
        before = listing(con, seq - 1)
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
        insert_rows(con, "runs", pd.DataFrame(fresh, columns=_RUN_COLUMNS))


def write_changes(con: duckdb.DuckDBPyConnection, snapshot_id: int, diff: EstateDiff) -> None:
    """Store the changes of `diff`, the diff from the snapshot before to `snapshot_id`, in
    diff order (read back by `history.stored_changes`)."""
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
