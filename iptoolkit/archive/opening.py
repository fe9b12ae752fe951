"""Opening an archive file: waiting out another process's lock, making or checking the tables.

DuckDB lets one process at a time open a file for writing, so `open_archive` retries for
up to the archive's `lock_timeout`, then raises `ArchiveLockedError` naming the file (and
the process holding it, when DuckDB says). A new file gets the tables and views of
`schema.py`, small blocks (`BLOCK_SIZE`) and a storage format DuckDB 1.4 reads
(`STORAGE_VERSION`); an existing one must be an iptoolkit archive of this format, its
tables and views the archive's. A reader (`reader=True`, for `Archive.sql`) is read-only
and reaches nothing outside the file. `one_row` reads the single row of an aggregate query.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from .ddl import FORMAT, FORMAT_VERSION, TABLES, VIEWS

__all__ = [
    "ArchiveDamagedError",
    "ArchiveLockedError",
    "BLOCK_SIZE",
    "STORAGE_VERSION",
    "check_archive_file",
    "one_row",
    "open_archive",
]


class ArchiveLockedError(OSError):
    """Another process holds the archive file (a writer, or a reader mid-question)."""


class ArchiveDamagedError(ValueError):
    """The file holds what iptoolkit did not write there: a `meta` table claiming the
    format over other tables, a snapshot whose profiles are not as many as were stored,
    blocks DuckDB finds corrupt. The message names the file and what is wrong."""


BLOCK_SIZE = 16_384
"""Bytes per block of a new archive file (DuckDB's smallest; its default is 256 KiB). Each
add appends a few rows to five tables, and each table's new rows take a block of their own
until the next add rewrites it: with the default, a year of nightly adds left half the file
free blocks; with 16 KiB the slack is a sixteenth. A file's block size is fixed when it is
made and read from the file by any DuckDB (so `compact` also makes small blocks)."""

STORAGE_VERSION = "v1.4.0"
"""The DuckDB storage format a new archive file is written in: the oldest DuckDB that
`pyproject.toml` allows (`duckdb>=1.4`) reads it, and so do the `duckdb` command line and
the Python package of any version since. DuckDB 2 writes a format no 1.x reads unless told
(`storage_compatibility_version`); a file keeps the format it was made in, and `compact`
rewrites an older archive in this one. Not 1.3: DuckDB 1.3.2 opens a file DuckDB 2 wrote in
1.3's format but reads a string column that holds NULLs (DuckDB 2 compresses it as
DICT_FSST) as all NULL, without an error."""

_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "default_block_size": str(BLOCK_SIZE),
    "storage_compatibility_version": STORAGE_VERSION,
}
_READER: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "lock_configuration": True,
}
"""A connection for analysts' SQL (`open_reader`, read-only besides): no file but the
archive, no network, no extension loaded, and no setting changed back by the query."""
_LOCKED = re.compile(r"Could not set lock on file|Conflicting lock", re.I)
_FOREIGN = re.compile(r"not a valid DuckDB database file", re.I)
_PID = re.compile(r"\(PID (\d+)\)")
_POLL = 0.1


def open_archive(
    path: Path, lock_timeout: float, *, create: bool = True, reader: bool = False
) -> duckdb.DuckDBPyConnection:
    """A connection to the archive at `path`, the tables made when the file is new; waits
    out another process holding the file for up to `lock_timeout` seconds. `create`: make
    the file when there is none (else FileNotFoundError). `reader`: read-only, and nothing
    outside the file reachable (`_READER`), for SQL that someone else wrote."""
    if (reader or not create) and not path.exists():
        raise FileNotFoundError(f"{path}: no archive there (add a snapshot to make one)")
    check_archive_file(path)
    deadline = time.monotonic() + lock_timeout
    while True:
        try:
            if reader:
                con = duckdb.connect(str(path), read_only=True, config=_READER)
            else:
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
        except duckdb.ConnectionException as exc:
            raise OSError(
                f"{path}: this process holds the archive open already in another way "
                f"({' '.join(str(exc).split())})"
            ) from None
        except duckdb.Error as exc:
            raise OSError(f"{path}: not a DuckDB archive ({exc})") from None
    try:
        _prepare(con, path, create=not reader)
    except BaseException:
        con.close()
        raise
    return con


def check_archive_file(path: Path) -> None:
    """OSError unless `path` holds a DuckDB file (`DUCK` at byte 8) or nothing yet: DuckDB
    opens a JSON file as a database holding it as a table (`snapshot.json` given for an
    archive was "a DuckDB file with other tables"); `watch` asks before it fetches."""
    try:
        with path.open("rb") as file:
            head = file.read(12)
    except (FileNotFoundError, IsADirectoryError):
        return  # DuckDB makes it, or says what a folder is
    if head and head[8:12] != b"DUCK":
        raise OSError(f"{path}: not a DuckDB file, so not an archive")


def one_row(
    con: duckdb.DuckDBPyConnection, query: str, parameters: Sequence[Any] = ()
) -> tuple[Any, ...]:
    """The first row of a query known to answer one (an aggregate without GROUP BY, or a
    row known to be stored)."""
    row = con.execute(query, parameters).fetchone()
    if row is None:  # only for a query misused here: say which
        raise LookupError(f"no row for {query!r}")
    return row


def _prepare(con: duckdb.DuckDBPyConnection, path: Path, *, create: bool = True) -> None:
    """Make the tables and views of a new archive (`create`); check the format of an
    existing one, and that its tables and views are the archive's (a `meta` table that
    claims the format is not enough).

    An archive's `meta` table is read straight away (the catalogue's information_schema
    costs a tenth of a second, as much as a whole `log`; `duckdb_columns()` a hundredth)."""
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
        _check_layout(con, path)
        return
    if con.execute("SELECT table_name FROM information_schema.tables").fetchall():
        raise ValueError(f"{path}: a DuckDB file with other tables, not an iptoolkit archive")
    if not create:
        raise ValueError(f"{path}: an empty DuckDB file, not an iptoolkit archive")
    con.execute("BEGIN TRANSACTION")
    _create(con)
    con.execute("INSERT INTO meta VALUES ('format', ?), ('version', ?)", [FORMAT, FORMAT_VERSION])
    con.execute("COMMIT")


def _create(con: duckdb.DuckDBPyConnection) -> None:
    """The archive's tables and views, empty."""
    con.execute(TABLES)
    for name, (_, query) in VIEWS.items():
        con.execute(f"CREATE VIEW {name} AS {query}")


_COLUMNS = (
    "SELECT table_name, column_name, data_type FROM duckdb_columns() "
    "WHERE database_name = current_database() AND schema_name = 'main' "
    "ORDER BY table_name, column_index"
)


@functools.cache
def _layout() -> tuple[tuple[str, str, str], ...]:
    """Every column (table or view, name, type) of an archive of this format, read from
    one made in memory."""
    con = duckdb.connect(":memory:")
    try:
        _create(con)
        return tuple(con.execute(_COLUMNS).fetchall())
    finally:
        con.close()


def _check_layout(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a file whose `meta` says it is an archive but whose tables or views are not
    the archive's (missing, or other columns or types): every query would fail later, with
    a DuckDB error that names no file. Tables of its own beside them are left alone."""
    expected = _layout()
    names = {table for table, _, _ in expected}
    found = tuple(row for row in con.execute(_COLUMNS).fetchall() if row[0] in names)
    if found == expected:
        return
    have = {table: [row[1:] for row in found if row[0] == table] for table in names}
    want = {table: [row[1:] for row in expected if row[0] == table] for table in names}
    wrong = sorted(table for table in names if have[table] != want[table])
    missing = [table for table in wrong if not have[table]]
    other = [table for table in wrong if have[table]]
    said = "; ".join(
        f"{what} {', '.join(tables)}"
        for what, tables in (("no", missing), ("other columns in", other))
        if tables
    )
    raise ArchiveDamagedError(
        f"{path}: its meta table says iptoolkit archive format {FORMAT_VERSION}, but its "
        f"tables are not an archive's ({said})"
    )
