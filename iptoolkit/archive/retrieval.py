"""Reading snapshots back: a snapshot's listing and estate, its neighbours in time, the
archive's snapshot table and timeline.

A snapshot's profiles are the runs (`runs.py`) spanning its `seq`, in `order_key` order;
its estate is built from their stored JSON in one query, byte for byte as it was saved,
and only the profiles stored as faulty are validated again. A snapshot whose profiles are
not as many as were stored is refused (`ArchiveDamagedError`), never handed out short.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from ..models import Listing, ParseError, loads_json
from ..support.names import plural
from .ddl import SNAPSHOT_COUNTS
from .lookup import NoSnapshotError
from .opening import ArchiveDamagedError, one_row

if TYPE_CHECKING:
    import pandas

    from ..core.estate import Estate

__all__ = [
    "IN_SNAPSHOT",
    "checked_count",
    "listing",
    "snapshot_at_seq",
    "snapshots_frame",
    "stored_estate",
    "timeline_frame",
]


IN_SNAPSHOT = "r.first_seq <= ? AND (r.last_seq IS NULL OR r.last_seq >= ?)"
"""The runs (`runs r`) of the snapshot at a `seq`, given twice."""


def checked_count(path: Path, snapshot_id: int, stored: int, found: int) -> None:
    """Refuse a snapshot whose profiles are not as many as were stored (rows deleted or
    added behind the archive's back): never handed out short."""
    if found != stored:
        raise ArchiveDamagedError(
            f"{path}: snapshot {snapshot_id} was stored with {plural(stored, 'profile')}, but "
            f"{found:,} are there now: the archive was changed outside iptoolkit"
        )


def stored_estate(con: duckdb.DuckDBPyConnection, path: Path, snapshot_id: int) -> Estate:
    """The estate of a stored snapshot, with its header, every profile as it was saved;
    `path`: the archive's, named in the errors."""
    from ..core.estate import Estate
    from ..core.snapshot import info_of

    found = con.execute(
        "SELECT header, seq, profiles FROM snapshots WHERE snapshot_id = ?", [snapshot_id]
    ).fetchone()
    if found is None:
        raise NoSnapshotError(f"{path}: no snapshot {snapshot_id}")
    header, seq, stored = found
    # one query, one byte string: the listing as `Estate.save` wrote it, and which of its
    # profiles were faulty (the others were valid when stored: nothing to check again)
    text, faulty = one_row(
        con,
        "SELECT encode('[' || coalesce(string_agg(v.json, ',' ORDER BY r.order_key), '') "
        "|| ']'), "
        "coalesce(list(v.faulty ORDER BY r.order_key), []) "
        "FROM runs r JOIN versions v USING (version_id) "
        "WHERE " + IN_SNAPSHOT,
        [seq, seq],
    )
    checked_count(path, snapshot_id, stored, len(faulty))
    info = info_of(loads_json(header))
    try:
        items = _stored_listing(text)
    except ValueError as exc:  # only a damaged file: the archive wrote this JSON
        raise ParseError(f"{path}: snapshot {snapshot_id}: damaged JSON ({exc})") from None
    suspects = frozenset(n for n, bad in enumerate(faulty) if bad)
    try:
        return Estate.from_raw(Listing(items, {}, suspects), info=info)
    except ParseError as exc:
        raise ParseError(f"{path}: snapshot {snapshot_id}: {exc}", issues=exc.issues) from None


def _stored_listing(text: bytes) -> list[Any]:
    """The profiles of a listing the archive wrote (a JSON array of them, UTF-8).

    Parsed as `read_json` parses compact text, without its proof that no key is given
    twice: `dumps_json` wrote every profile from a parsed object, which cannot hold one.
    """
    import jiter

    from ..models import gc_paused

    with gc_paused():
        items: list[Any] = jiter.from_json(text, allow_inf_nan=False, cache_mode="all")
        return items


def listing(con: duckdb.DuckDBPyConnection, seq: int) -> list[tuple[Any, ...]]:
    """The runs of the snapshot at `seq`, in listing order: rowid, version id, key, order
    key, last seq, digest."""
    return con.execute(
        "SELECT r.rowid, r.version_id, r.key, r.order_key, r.last_seq, v.digest "
        "FROM runs r JOIN versions v USING (version_id) "
        f"WHERE {IN_SNAPSHOT} ORDER BY r.order_key",
        [seq, seq],
    ).fetchall()


def snapshot_at_seq(con: duckdb.DuckDBPyConnection, seq: int) -> int | None:
    """The id of the snapshot at place `seq` in time (1 the oldest), None past either end."""
    found = con.execute("SELECT snapshot_id FROM snapshots WHERE seq = ?", [seq]).fetchone()
    return None if found is None else int(found[0])


def snapshots_frame(con: duckdb.DuckDBPyConnection) -> pandas.DataFrame:
    """One row per snapshot, oldest first: id, fetch time, source, counts (`snapshots`).
    The source URL masked, as `Estate.summary` says it: a snapshot another tool wrote can
    hold a password in it, and this frame is what a notebook or `archive snapshots` shows."""
    from ..support.redact import redact_url

    frame = con.execute(
        "SELECT snapshot_id, fetched_at, time_from, source_url, "
        + ", ".join(SNAPSHOT_COUNTS)
        + ", added_at FROM snapshots ORDER BY seq"
    ).df()
    frame["source_url"] = [redact_url(url) if url else url for url in frame["source_url"]]
    return frame


def timeline_frame(con: duckdb.DuckDBPyConnection) -> pandas.DataFrame:
    """`History.timeline` read from the snapshot table: one row per snapshot, its counts
    and profiles per input agent type."""
    import pandas as pd

    from ..estate_history import COUNTS

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
    return pd.DataFrame(records, columns=["snapshot", "fetched_at", "time_from", *COUNTS, *types])
