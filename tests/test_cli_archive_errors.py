"""Every error of the archive commands (and of `docs --previous ARCHIVE@DATE`) is one line
on stderr and exit code 2, through the host's policy: a missing or foreign file, an `--at`
naming no snapshot (a date before the first, an id beyond the last, digits that are not
ASCII), a query DuckDB refuses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.core.snapshot import SnapshotInfo

pytest.importorskip("duckdb")
import duckdb  # noqa: E402

from iptoolkit.archive import Archive, ArchiveQueryError, NoSnapshotError  # noqa: E402

START = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An archive of two snapshots a week apart, the newer as a file, a file that is no
    DuckDB file, a DuckDB file that is no archive, an empty folder."""
    folder = tmp_path_factory.mktemp("archive-errors")
    first = ipt.demo_estate(12, seed=4)
    estates = [first, ipt.demo_changes(first, seed=1)]
    archive = Archive(folder / "estate.duckdb")
    for week, estate in enumerate(estates):
        info = SnapshotInfo(source_url="demo", fetched_at=START + timedelta(days=7 * week))
        archive.add(ipt.Estate.from_raw(list(estate.raw_profiles), info=info))
    (folder / "bogus.duckdb").write_text("not a database")
    other = duckdb.connect(str(folder / "other.duckdb"))
    other.execute("CREATE TABLE t (x INTEGER)")
    other.close()
    (folder / "empty").mkdir()
    return {
        "archive": archive.path,
        "current": estates[1].save(folder / "current.json"),
        "bogus": folder / "bogus.duckdb",
        "other": folder / "other.duckdb",
        "missing": folder / "missing.duckdb",
        "empty": folder / "empty",
        "site": folder / "site",
        "out": folder / "out.json",
    }


CASES = {
    "sql, an unknown table": (
        ["archive", "sql", "SELECT * FROM nope", "--archive", "{archive}"],
        "the query failed: Catalog Error: Table with name nope does not exist!",
    ),
    "sql, bad syntax": (
        ["archive", "sql", "SELEC 1", "--archive", "{archive}"],
        'the query failed: Parser Error: syntax error at or near "SELEC"',
    ),
    "sql, an empty query": (
        ["archive", "sql", "", "--archive", "{archive}"],
        "the query is empty: give a statement that returns rows",
    ),
    "sql, only a comment": (
        ["archive", "sql", " /* which week broke? */ ", "--archive", "{archive}"],
        "the query is empty: give a statement that returns rows",
    ),
    "export, a date before the first snapshot": (
        ["archive", "export", "--archive", "{archive}", "--at", "2020-01-01", "-o", "{out}"],
        "no snapshot fetched at or before 2020-01-01 23:59 UTC (the first was fetched "
        "2026-10-01 06:00)",
    ),
    "export, an id beyond the last": (
        ["archive", "export", "--archive", "{archive}", "--at", "7", "-o", "{out}"],
        "no snapshot 7 (ids: 1, 2)",
    ),
    "export, a superscript digit": (
        ["archive", "export", "--archive", "{archive}", "--at", "²", "-o", "{out}"],
        "'²' is neither a snapshot id nor an ISO date",
    ),
    "export, an Arabic-Indic digit int() reads": (
        ["archive", "export", "--archive", "{archive}", "--at", "٢", "-o", "{out}"],
        "'٢' is neither a snapshot id nor an ISO date",
    ),
    "export into a missing folder": (
        ["archive", "export", "--archive", "{archive}", "-o", "{empty}/no/out.json"],
        "folder '{empty}/no' does not exist (-p/--mkdirs creates it)",
    ),
    "snapshots, no archive there": (
        ["archive", "snapshots", "--archive", "{missing}"],
        "missing.duckdb: no archive there",
    ),
    "timeline, not a DuckDB file": (
        ["archive", "timeline", "--archive", "{bogus}"],
        "bogus.duckdb: not a DuckDB file, so not an archive",
    ),
    "snapshots, a JSON snapshot given for the archive": (
        ["archive", "snapshots", "--archive", "{current}"],
        "current.json: not a DuckDB file, so not an archive",
    ),
    "log, a DuckDB file that is no archive": (
        ["archive", "log", "x", "--archive", "{other}"],
        "other.duckdb: a DuckDB file with other tables, not an iptoolkit archive",
    ),
    "log, an unknown item": (
        ["archive", "log", "no such item", "--archive", "{archive}"],
        "nothing in the graph is named 'no such item'",
    ),
    "compact, no file": (
        ["archive", "compact", "--archive", "{missing}"],
        "missing.duckdb: No such file or directory",
    ),
    "import, a folder without snapshots": (
        ["archive", "import", "{empty}", "--archive", "{missing}"],
        "empty: no snapshot (*.json, *.json.gz) there",
    ),
    "add into a foreign file": (
        ["archive", "add", "{current}", "--archive", "{bogus}"],
        "bogus.duckdb: not a DuckDB file",
    ),
    "docs --previous, no snapshot at that date": (
        ["docs", "{current}", "-o", "{site}", "--previous", "{archive}@2020-01-01"],
        "--previous: {archive}: no snapshot fetched at or before 2020-01-01 23:59 UTC",
    ),
    "docs --previous, an id beyond the last": (
        ["docs", "{current}", "-o", "{site}", "--previous", "{archive}@7"],
        "--previous: {archive}: no snapshot 7 (ids: 1, 2)",
    ),
    "docs --previous, a digit that is not ASCII": (
        ["docs", "{current}", "-o", "{site}", "--previous", "{archive}@٣"],
        "--previous: '٣' is neither a snapshot id",
    ),
    "export onto the archive itself": (  # it would replace every snapshot with one
        ["archive", "export", "--archive", "{archive}", "-o", "{archive}"],
        "estate.duckdb is also --archive, which the command reads: writing it would destroy it",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_error_is_one_line_and_exit_code_2(files: dict[str, Path], case: str) -> None:
    args, message = CASES[case]
    result = CliRunner().invoke(main, [arg.format(**files) for arg in args])
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), result.stderr
    assert message.format(**files) in result.stderr
    assert result.stdout == ""
    assert not files["out"].exists() and not files["site"].exists()


def test_the_python_api_names_its_errors(files: dict[str, Path]) -> None:
    archive = Archive(files["archive"])
    with pytest.raises(ArchiveQueryError, match="nope does not exist") as caught:
        archive.sql("SELECT * FROM nope")
    assert isinstance(caught.value.__cause__, duckdb.CatalogException)  # DuckDB's, whole
    with pytest.raises(ArchiveQueryError, match="the query is empty"):
        archive.sql("  ")  # DuckDB runs nothing and hands back no result
    with pytest.raises(NoSnapshotError, match="no snapshot 3"):
        archive.estate("3")
    with pytest.raises(ValueError, match="neither a snapshot id"):
        archive.snapshot_id("١")  # int("١") == 1: not an id
    assert archive.snapshot_id(" 2 ") == archive.snapshot_id(2) == 2


def test_an_id_read_from_the_snapshots_frame_names_its_snapshot(files: dict[str, Path]) -> None:
    """`archive.snapshots` hands ids as NumPy integers: they name snapshots as ints do,
    and what names none (a float, an object) is a TypeError saying what `at` takes."""
    archive = Archive(files["archive"])
    newest = archive.snapshots["snapshot_id"].iloc[-1]
    assert not isinstance(newest, int)  # numpy.int32 or int64
    assert archive.snapshot_id(newest) == 2
    assert archive.estate(newest).raw_profiles == archive.estate(2).raw_profiles
    for wrong in (2.0, object(), True):
        with pytest.raises(TypeError, match="at: a snapshot id, a date or a date-time, not"):
            archive.snapshot_id(wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "folder"),
    [(["archive", "add"], "archive"), (["watch"], "archive"), (["archive", "export"], "output")],
)
def test_mkdirs_says_whose_folder_it_makes(command: list[str], folder: str) -> None:
    """`-p` of `archive add` and `watch` makes the archive's folder, not an output's."""
    shown = CliRunner().invoke(main, [*command, "--help"], terminal_width=200).output
    assert f"Create the {folder}'s folder if it does not exist" in shown
