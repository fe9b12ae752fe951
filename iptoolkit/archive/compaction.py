"""Compacting an archive file: giving back the free blocks DuckDB reuses but never returns.

`Archive.compact` copies the live data into a fresh file and puts it in the old one's
place; an add does it by itself when `mostly_free` says so (see `FREE_SHARE`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import duckdb

from .opening import one_row

__all__ = ["FREE_SHARE", "compact_file", "mostly_free"]

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
    size, total, _, free = one_row(
        con,
        "SELECT block_size, total_blocks, used_blocks, free_blocks FROM pragma_database_size()",
    )
    return bool(free * size > _FREE_MIN_BYTES and free > total * FREE_SHARE)


def compact_file(
    path: Path,
    connection: Callable[[], AbstractContextManager[duckdb.DuckDBPyConnection]],
    *,
    if_mostly_free: bool = False,
) -> tuple[int, int]:
    """Rewrite the archive at `path` without its free blocks, holding its lock (a
    connection from `connection`) while copying; its size before and after, in bytes.
    `if_mostly_free`: only when `mostly_free`."""
    before = path.stat().st_size
    if if_mostly_free:
        with connection() as con:
            if not mostly_free(con):
                return before, before
    fresh = path.with_name(f".{path.name}.compact")
    fresh.unlink(missing_ok=True)
    with connection() as con:  # the lock is held while copying
        con.execute("CHECKPOINT")
        name = one_row(con, "SELECT current_database()")[0]
        quoted = str(fresh).replace("'", "''")
        con.execute(f"ATTACH '{quoted}' AS compacted")
        try:
            identifier = '"' + str(name).replace('"', '""') + '"'  # the file's name, quoted
            con.execute(f"COPY FROM DATABASE {identifier} TO compacted")
        finally:
            con.execute("DETACH compacted")
        os.replace(fresh, path)
    return before, path.stat().st_size
