"""Opening an archive file: waiting out another process's lock, making or checking the tables.

DuckDB lets one process at a time open a file for writing, so `open_archive` retries for
up to the archive's `lock_timeout`, then raises `ArchiveLockedError` naming the file (and
the process holding it, when DuckDB says). A new file gets the tables and views of
`schema.py` and small blocks (`BLOCK_SIZE`); an existing one must be an iptoolkit archive
of this format. `one_row` reads the single row of an aggregate query.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from .schema import FORMAT, FORMAT_VERSION, TABLES, VIEWS

__all__ = ["ArchiveLockedError", "BLOCK_SIZE", "one_row", "open_archive"]


class ArchiveLockedError(OSError):
    """Another process holds the archive file (a writer, or a reader mid-question)."""


BLOCK_SIZE = 16_384
"""Bytes per block of a new archive file (DuckDB's smallest; its default is 256 KiB). Each
add appends a few rows to five tables, and each table's new rows take a block of their own
until the next add rewrites it: with the default, a year of nightly adds left half the file
free blocks; with 16 KiB the slack is a sixteenth. A file's block size is fixed when it is
made and read from the file by any DuckDB (so `compact` also makes small blocks)."""

_CONFIG: dict[str, str | bool | int | float | list[str]] = {"default_block_size": str(BLOCK_SIZE)}
_LOCKED = re.compile(r"Could not set lock on file|Conflicting lock", re.I)
_FOREIGN = re.compile(r"not a valid DuckDB database file", re.I)
_PID = re.compile(r"\(PID (\d+)\)")
_POLL = 0.1


def open_archive(
    path: Path, lock_timeout: float, *, create: bool = True
) -> duckdb.DuckDBPyConnection:
    """A connection to the archive at `path`, the tables made when the file is new; waits
    out another process holding the file for up to `lock_timeout` seconds. `create`: make
    the file when there is none (else FileNotFoundError)."""
    if not create and not path.exists():
        raise FileNotFoundError(f"{path}: no archive there (add a snapshot to make one)")
    deadline = time.monotonic() + lock_timeout
    while True:
        try:
            con = duckdb.connect(str(path), config=_CONFIG)
            break
        except duckdb.IOException as exc:
            if _FOREIGN.search(str(exc)):
                raise OSError(f"{path}: not a DuckDB file, so not an archive") from None
            if not _LOCKED.search(str(exc)):
                raise OSError(f"{path}: cannot open the archive: {exc}") from None
            if time.monotonic() >= deadline:
                pid = _PID.search(str(exc))
                holder = f" (process {pid.group(1)})" if pid else ""
                raise ArchiveLockedError(
                    f"{path}: the archive is in use by another process{holder}; "
                    f"waited {lock_timeout:g} s (one writer at a time: try again "
                    "when it is done)"
                ) from None
            time.sleep(_POLL)
        except duckdb.Error as exc:
            raise OSError(f"{path}: not a DuckDB archive ({exc})") from None
    try:
        _prepare(con, path)
    except BaseException:
        con.close()
        raise
    return con


def one_row(
    con: duckdb.DuckDBPyConnection, query: str, parameters: Sequence[Any] = ()
) -> tuple[Any, ...]:
    """The first row of a query known to answer one (an aggregate without GROUP BY, or a
    row known to be stored)."""
    row = con.execute(query, parameters).fetchone()
    if row is None:  # only for a query misused here: say which
        raise LookupError(f"no row for {query!r}")
    return row


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
