"""The archive against hostile SQL and files it did not write, from a real command line.

`archive sql` opens the file read-only with nothing outside it reachable: no file written
or read, no database attached, no row deleted. A snapshot whose rows were changed behind
the archive's back is refused, never exported short. A snapshot file timed past the year
9999 in UTC, a DuckDB file whose `meta` table claims the format over other tables, and
blocks DuckDB finds corrupt are one-line errors with exit code 2.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.core.snapshot import SnapshotInfo

pytest.importorskip("duckdb")
import duckdb  # noqa: E402

from iptoolkit.archive import Archive, ArchiveDamagedError  # noqa: E402

START = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`iptoolkit ARGS` in a process of its own, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "iptoolkit.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )


def one_line_error(run: subprocess.CompletedProcess[str], *parts: str) -> None:
    """Exit code 2, one line on stderr that says each of `parts`, nothing on stdout."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("Error: "), run.stderr
    for part in parts:
        assert part in run.stderr, (part, run.stderr)
    assert run.stdout == ""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[ipt.Estate]]:
    """An archive of two snapshots a week apart (30 profiles each)."""
    folder = tmp_path_factory.mktemp("guard")
    first = ipt.demo_estate(30, seed=3)
    estates = []
    for week, estate in enumerate([first, ipt.demo_changes(first, seed=1)]):
        info = SnapshotInfo(source_url="demo", fetched_at=START + timedelta(days=7 * week))
        estates.append(ipt.Estate.from_raw(list(estate.raw_profiles), info=info))
    archive = Archive(folder / "estate.duckdb")
    for estate in estates:
        archive.add(estate)
    return archive.path, estates


@pytest.fixture
def copy(stored: tuple[Path, list[ipt.Estate]], tmp_path: Path) -> Path:
    """A copy of the archive this test may spoil."""
    return Path(shutil.copy(stored[0], tmp_path / "estate.duckdb"))


def test_sql_cannot_write_read_files_or_change_the_archive(
    stored: tuple[Path, list[ipt.Estate]], copy: Path, tmp_path: Path
) -> None:
    written, attached = tmp_path / "out.csv", tmp_path / "other.duckdb"
    secret = tmp_path / "secret.txt"
    secret.write_text("a file beside the archive")
    refused = {  # from the command line, as the attack ran them
        f"COPY (SELECT json FROM profiles) TO '{written}'": "Permission Error",
        "DELETE FROM versions": "read-only mode",
    }
    for query, reason in refused.items():
        one_line_error(cli("archive", "sql", query, "--archive", str(copy)), reason)
    archive = Archive(copy)
    for query in (
        f"SELECT * FROM read_text('{secret}')",
        f"ATTACH '{attached}' AS other",
        "INSTALL httpfs",
        "SET enable_external_access = true",
        "SET autoload_known_extensions = true",
        "UPDATE snapshots SET profiles = 0",
        "DROP VIEW profiles",
    ):
        with pytest.raises(ValueError, match="the query failed"):
            archive.sql(query)
    assert not written.exists() and not attached.exists()
    with archive, pytest.raises(RuntimeError, match="sql outside a `with archive:` block"):
        archive.sql("SELECT 1")  # the block's connection is read-write: not for SQL
    total = sum(len(estate) for estate in stored[1])
    assert archive.sql("SELECT count(*) AS n FROM profiles").n[0] == total
    assert archive.estate(1).raw_profiles == stored[1][0].raw_profiles


def test_a_snapshot_short_of_its_stored_profiles_is_refused(copy: Path, tmp_path: Path) -> None:
    con = duckdb.connect(str(copy))  # an analyst with write access, outside iptoolkit
    con.execute(
        "DELETE FROM runs WHERE first_seq = 1 AND order_key IN "
        "(SELECT order_key FROM runs WHERE first_seq = 1 ORDER BY order_key LIMIT 5)"
    )
    con.close()
    out = tmp_path / "short.json"
    run = cli("archive", "export", "--archive", str(copy), "--at", "1", "-o", str(out))
    one_line_error(run, "snapshot 1 was stored with 30 profiles, but 25 are there now")
    assert not out.exists()
    with pytest.raises(ArchiveDamagedError, match="snapshot 1 was stored with 30"):
        Archive(copy).estate(START.date())


def _dated(stored: tuple[Path, list[ipt.Estate]], folder: Path, fetched_at: str) -> Path:
    """The first snapshot saved as a file whose header says `fetched_at`."""
    path = stored[1][0].save(folder / "dated.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    document["fetched_at"] = fetched_at
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.mark.parametrize("fetched_at", ["9999-12-31T23:00:00-05:00", "0001-01-01T00:30:00+05:00"])
def test_a_fetch_time_outside_the_utc_years_is_one_line(
    stored: tuple[Path, list[ipt.Estate]], copy: Path, tmp_path: Path, fetched_at: str
) -> None:
    path = _dated(stored, tmp_path, fetched_at)
    assert len(ipt.load(path)) == 30  # loading reads it; the archive keeps UTC
    run = cli("archive", "add", str(path), "--archive", str(copy))
    one_line_error(run, f"dated.json: fetched_at {fetched_at} is outside the years 1 to 9999")
    assert len(Archive(copy)) == 2


def _meta_only(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("CREATE TABLE meta(key VARCHAR, value VARCHAR)")
    con.execute("INSERT INTO meta VALUES ('format', 'iptoolkit.archive'), ('version', '1')")


def _meta_and_other_columns(con: duckdb.DuckDBPyConnection) -> None:
    _meta_only(con)
    con.execute("CREATE TABLE snapshots(snapshot_id VARCHAR, seq VARCHAR)")
    con.execute("INSERT INTO snapshots VALUES ('x', 'y')")


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_meta_only, "(no changes, channels, links"),
        (_meta_and_other_columns, "versions; other columns in snapshots)"),
    ],
)
def test_a_meta_table_claiming_the_format_is_not_enough(make, said: str, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "claims.duckdb"
    con = duckdb.connect(str(path))
    make(con)
    con.close()
    claim = "its meta table says iptoolkit archive format 1, but its tables are not an archive's"
    run = cli("archive", "export", "-o", str(tmp_path / "x.json"), "--archive", str(path))
    one_line_error(run, claim, said)
    for ask in (lambda a: a.log("P-000001"), lambda a: a.add(ipt.demo_estate(3, seed=1))):
        with pytest.raises(ArchiveDamagedError, match="not an archive's"):
            ask(Archive(path))


def test_a_corrupt_block_is_an_error_naming_the_file(
    stored: tuple[Path, list[ipt.Estate]], tmp_path: Path
) -> None:
    """Each block of a checkpointed archive spoilt in turn: the snapshot comes back whole,
    or an error naming the file, never DuckDB's own error (which names none)."""
    size = stored[0].stat().st_size
    failed = 0
    for offset in range(4096, size, 16384):
        spoilt = tmp_path / f"spoilt-{offset}.duckdb"
        data = bytearray(stored[0].read_bytes())
        data[offset + 4096 : offset + 4104] = b"\xff" * 8
        spoilt.write_bytes(bytes(data))
        try:
            back = Archive(spoilt).estate(1)
        except (OSError, ValueError) as exc:
            assert not isinstance(exc, duckdb.Error) and str(spoilt) in str(exc), repr(exc)
            failed += 1
        else:
            assert back.raw_profiles == stored[1][0].raw_profiles
    assert failed  # the sweep reached blocks the snapshot is read from
