"""The archive: byte-exact snapshots, deduplication, atomic adds, one writer, log and SQL
agreeing with `ipt.diff` and the Python API."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.snapshot import SnapshotInfo

from .factories import known_channel

pytest.importorskip("duckdb")
from iptoolkit.archive import Archive, ArchiveLockedError  # noqa: E402

START = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def _row(row: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """A row DuckDB's `fetchone` found (None: the query gave no row)."""
    assert row is not None, "no row"
    return row


def _dated(estate: ipt.Estate, when: datetime) -> ipt.Estate:
    info = SnapshotInfo(source_url="demo:seed=3", fetched_at=when, extra={"note": "x"})
    return ipt.Estate.from_raw(list(estate.raw_profiles), info=info)


@pytest.fixture(scope="module")
def weeks() -> list[ipt.Estate]:
    """Four weekly snapshots of a 60-profile demo estate, a week of changes apart."""
    found = [_dated(ipt.demo_estate(60, seed=3), START)]
    for week in range(1, 4):
        found.append(
            _dated(ipt.demo_changes(found[-1], seed=week), START + timedelta(days=7 * week))
        )
    return found


@pytest.fixture(scope="module")
def archive(weeks: list[ipt.Estate], tmp_path_factory: pytest.TempPathFactory) -> Archive:
    archive = Archive(tmp_path_factory.mktemp("archive") / "estate.duckdb")
    for estate in weeks:
        archive.add(estate)
    return archive


def test_every_snapshot_comes_back_byte_for_byte(
    archive: Archive, weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    for snapshot_id, estate in enumerate(weeks, start=1):
        original = estate.save(tmp_path / f"original-{snapshot_id}.json").read_bytes()
        exported = archive.export(tmp_path / f"exported-{snapshot_id}.json.gz", snapshot_id)
        assert gzip.decompress(exported.read_bytes()) == original
        fresh = Archive(archive.path)  # nothing cached: built from the file
        assert fresh.estate(snapshot_id).raw_profiles == estate.raw_profiles


def test_unchanged_profiles_are_stored_once(archive: Archive, weeks: list[ipt.Estate]) -> None:
    from iptoolkit.support.jsonio import dumps_json

    distinct = {dumps_json(raw) for estate in weeks for raw in estate.raw_profiles}
    listed = sum(len(estate) for estate in weeks)
    versions = archive.sql("SELECT count(*) AS n FROM versions").n[0]
    runs = archive.sql("SELECT count(*) AS n FROM runs").n[0]
    assert versions == len(distinct) < listed
    assert runs < listed  # an unchanged profile is one run over the weeks, not four rows
    assert archive.sql("SELECT count(*) AS n FROM profiles").n[0] == listed


def test_a_snapshot_added_twice_is_stored_once(
    archive: Archive, weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    before = len(archive)
    path = weeks[1].save(tmp_path / "again.json.gz")
    assert archive.add(path) == 2
    assert len(archive) == before


def test_a_snapshot_back_to_older_content_stores_no_version_again(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    """A, B, then A's profiles again (fetched later): the versions of A that B dropped are
    found among the stored ones by digest, not stored a second time."""
    from iptoolkit.support.jsonio import dumps_json

    archive = Archive(tmp_path / "back.duckdb")
    again = _dated(weeks[0], START + timedelta(days=14))
    for estate in (weeks[0], weeks[1], again):
        archive.add(estate)
    distinct = {dumps_json(raw) for estate in weeks[:2] for raw in estate.raw_profiles}
    counts = archive.sql("SELECT count(*) AS n, count(DISTINCT digest) AS d FROM versions")
    assert (counts.n[0], counts.d[0]) == (len(distinct), len(distinct))
    assert archive.estate(3).raw_profiles == weeks[0].raw_profiles


def test_identical_profiles_in_one_snapshot_are_one_version(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    """Two profiles of the same JSON in one snapshot are one stored version, listed twice."""
    raw = list(weeks[0].raw_profiles[:5])
    twins = ipt.Estate.from_raw([raw[0], *raw, raw[3]], info=weeks[0].info)
    archive = Archive(tmp_path / "twins.duckdb")
    snapshot_id = archive.add(twins)
    assert archive.sql("SELECT count(*) AS n FROM versions").n[0] == 5
    assert archive.sql("SELECT count(*) AS n FROM profiles").n[0] == 7
    assert Archive(archive.path).estate(snapshot_id).raw_profiles == twins.raw_profiles


def test_estate_at_a_date_is_the_one_fetched_at_or_before(
    archive: Archive, weeks: list[ipt.Estate]
) -> None:
    assert archive.estate("2026-10-08").info.fetched_at == weeks[1].info.fetched_at
    assert archive.estate(START + timedelta(days=20)).info.fetched_at == weeks[2].info.fetched_at
    assert archive.estate().info.fetched_at == weeks[3].info.fetched_at
    with pytest.raises(LookupError, match="no snapshot fetched at or before 2026-09-30"):
        archive.estate("2026-09-30")
    with pytest.raises(LookupError, match="no snapshot 99"):
        archive.estate(99)


def test_diff_and_log_agree_with_ipt_diff(archive: Archive, weeks: list[ipt.Estate]) -> None:
    for a, b in ((1, 2), (2, 3), (1, 4)):
        assert (
            archive.diff(a, b).to_dict()["changes"]
            == ipt.diff(weeks[a - 1], weeks[b - 1]).to_dict()["changes"]
        )
    pair = ipt.diff(weeks[1], weeks[2])
    for kind in ("profile", "channel", "partner"):
        for change in pair.of(kind=kind)[:3]:
            log = archive.log(change.key)
            row = log[log.snapshot == 3]
            expected = {"added": "appeared", "removed": "disappeared", "changed": "changed"}[
                change.op
            ]
            assert expected in set(row.event)
            paths = {c.path for c in pair.changes if c.key == change.key and c.path}
            changed = row[row.event == "changed"]
            assert set(changed.paths.iloc[0] if len(changed) else []) == paths


def test_log_names_items_as_the_resolver_does(archive: Archive, weeks: list[ipt.Estate]) -> None:
    channel_key = next(iter(weeks[0].channels))
    channel = known_channel(weeks[0], channel_key)
    by_id = archive.log(str(channel_key))
    assert by_id.attrs["item"] == f"channel:{channel_key}"
    assert by_id.event.iloc[0] == "appeared" and by_id.snapshot.iloc[0] == 1
    if channel.name:
        assert archive.log(channel.name.upper()).attrs["item"] == f"channel:{channel_key}"
    with pytest.raises(ipt.UnknownItemError, match="log"):
        archive.log("no-such-item-anywhere")


def test_sql_views_count_as_the_python_api(archive: Archive, weeks: list[ipt.Estate]) -> None:
    counts = archive.sql(
        "SELECT s.snapshot_id, "
        "(SELECT count(*) FROM profiles p WHERE p.snapshot_id = s.snapshot_id) AS profiles, "
        "(SELECT count(*) FROM profiles p WHERE p.snapshot_id = s.snapshot_id AND p.active) "
        "AS active, "
        "(SELECT count(*) FROM channels c WHERE c.snapshot_id = s.snapshot_id) AS channels, "
        "(SELECT count(*) FROM partners p WHERE p.snapshot_id = s.snapshot_id) AS partners, "
        "(SELECT count(*) FROM changes c WHERE c.snapshot_id = s.snapshot_id) AS changes "
        "FROM snapshots s ORDER BY s.seq"
    )
    for row, estate in zip(counts.itertuples(), weeks, strict=True):
        summary = estate.summary()
        assert (row.profiles, row.active, row.channels, row.partners) == (
            summary["profiles"],
            summary["active_profiles"],
            summary["channels"],
            summary["partners"],
        )
    assert list(counts.changes[1:]) == [
        len(ipt.diff(a, b)) for a, b in zip(weeks, weeks[1:], strict=False)
    ]
    positions = archive.sql("SELECT key FROM profiles WHERE snapshot_id = 3 ORDER BY position")
    assert list(positions.key) == [record.key for record in weeks[2].records]


def test_the_file_opens_without_iptoolkit(archive: Archive) -> None:
    code = textwrap.dedent(
        f"""
        import duckdb
        con = duckdb.connect({str(archive.path)!r}, read_only=True)
        print(con.execute("SELECT count(*) FROM profiles WHERE snapshot_id = 1").fetchone()[0])
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) == 60


def test_timeline_and_history_match_a_folder_history(
    archive: Archive, weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    for n, estate in enumerate(weeks):
        estate.save(tmp_path / f"week-{n}.json")
    folder = ipt.history(tmp_path)
    stored = ipt.history(archive)  # type: ignore[arg-type]  # an Archive is taken (its docs)
    columns = ["profiles", "active_profiles", "channels", "partners", "problems", "findings"]
    assert archive.timeline()[columns].equals(folder.timeline[columns])
    assert stored.severities()[["breaking", "notable", "cosmetic"]].equals(
        folder.severities()[["breaking", "notable", "cosmetic"]]
    )
    assert stored.diffs[1].to_dict()["changes"] == folder.diffs[1].to_dict()["changes"]
    with pytest.raises(ValueError, match=r"is an archive: ipt.Archive\(path\).history\(\)"):
        ipt.history(archive.path)  # read as a snapshot, it was "not UTF-8 text"


def test_a_snapshot_added_out_of_order_takes_its_place(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "out-of-order.duckdb")
    for index in (0, 2, 1):
        archive.add(weeks[index])
    assert list(archive.snapshots.snapshot_id) == [1, 3, 2]
    for snapshot_id, index in ((1, 0), (3, 1), (2, 2)):
        assert Archive(archive.path).estate(snapshot_id).raw_profiles == weeks[index].raw_profiles
    # the change stored for the later snapshot is now against the one added before it
    stored = archive.sql("SELECT count(*) AS n FROM changes WHERE snapshot_id = 2").n[0]
    assert stored == len(ipt.diff(weeks[1], weeks[2]))


_SLOW_ADD = """
import sys, time
import iptoolkit as ipt
from iptoolkit.archive import Archive, adding

archive = Archive(sys.argv[1])
real = adding.write_runs

def slow_runs(con, *args, **options):
    real(con, *args, **options)
    print("inside", flush=True)
    time.sleep(60)  # killed here, mid-transaction

adding.write_runs = slow_runs
archive.add(sys.argv[2])
"""


def test_an_add_killed_mid_transaction_leaves_the_archive_as_it_was(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    path = tmp_path / "killed.duckdb"
    Archive(path).add(weeks[0])
    snapshot = weeks[1].save(tmp_path / "week-1.json")
    child = subprocess.Popen(
        [sys.executable, "-c", _SLOW_ADD, str(path), str(snapshot)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "inside"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    archive = Archive(path)
    assert len(archive) == 1
    assert archive.estate(1).raw_profiles == weeks[0].raw_profiles
    assert archive.add(snapshot) == 2  # and it takes the next add as if nothing happened


def test_files_added_keep_their_bytes_and_only_new_texts_are_checked(
    weeks: list[ipt.Estate], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An added file's profiles are stored as the file holds them; a profile whose exact
    text the archive stored as valid is not checked again, a faulty one always is."""
    from iptoolkit.models import parsing
    from iptoolkit.models.fastcheck import profile_fault
    from iptoolkit.support.jsonio import dumps_json

    checked: list[bytes] = []
    real = profile_fault  # the check parsing calls

    def counting(item: object) -> object:
        checked.append(dumps_json(item))
        return real(item)

    monkeypatch.setattr(parsing, "profile_fault", counting)
    faulty = {"class": "core:IntegrationProfile", "id": "BAD-1", "active": "yes"}
    archive = Archive(tmp_path / "files.duckdb")
    stored_valid: set[bytes] = set()
    for n, week in enumerate(weeks):
        raw = [*week.raw_profiles, faulty] if n else list(week.raw_profiles)
        estate = ipt.Estate.from_raw(raw, info=week.info)
        path = estate.save(tmp_path / f"week-{n}.json.gz")
        texts = [dumps_json(profile) for profile in raw]
        checked.clear()
        snapshot_id = archive.add(path)
        assert sorted(checked) == sorted(text for text in texts if text not in stored_valid)
        stored_valid |= {text for text, r in zip(texts, estate.records, strict=True) if r.ok}
        exported = archive.export(tmp_path / f"out-{n}.json.gz", snapshot_id)
        assert gzip.decompress(exported.read_bytes()) == gzip.decompress(path.read_bytes())
        assert [p.index for p in archive.estate(snapshot_id).problems] == (
            [len(raw) - 1] if n else []
        )
        found = archive.snapshots.set_index("snapshot_id").loc[snapshot_id, "findings"]
        assert found == len(ipt.audit(estate))


def test_a_file_not_as_saved_is_stored_as_its_parsed_json(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    """A snapshot file written by another tool (indented) has no texts to read in place:
    its profiles are stored as `Estate.save` writes them, all checked."""
    import json

    path = tmp_path / "indented.json"
    document = json.loads(weeks[0].save(tmp_path / "saved.json").read_bytes())
    path.write_text(json.dumps(document, indent=2))
    archive = Archive(tmp_path / "indented.duckdb")
    snapshot_id = archive.add(path)
    assert archive.estate(snapshot_id).raw_profiles == weeks[0].raw_profiles
    assert archive.add(weeks[0]) == snapshot_id  # the same content: stored once


@pytest.mark.parametrize(
    "listing",
    [
        pytest.param(lambda raw: [], id="no profiles, a URL in the header"),
        pytest.param(lambda raw: [raw[0], None, raw[2], raw[3], None, raw[1]], id="nulls between"),
        pytest.param(lambda raw: [raw[0], [1, 2], raw[1], [1, 2]], id="lists as profiles"),
    ],
)
def test_odd_snapshot_files_are_stored_and_audited_as_loaded(
    listing: Any, weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    """What a file holds besides its profiles' objects (a header with a URL, items that
    are not objects, repeated) changes neither what is stored nor the findings counted."""
    raw = [dict(p) for p in weeks[0].raw_profiles[:4]]
    raw[1]["description"] = "see http://user:secret@plain.example.com/a"  # SEC001, SEC011
    info = SnapshotInfo(source_url="https://ipaas.example.com/api", fetched_at=START)
    estate = ipt.Estate.from_raw(listing(raw), info=info)
    path = estate.save(tmp_path / "odd.json")
    # a listing of one profile per line holds line breaks inside a list profile too
    path.write_bytes(path.read_bytes().replace(b"[1,2]", b"[\n1,\n2\n]"))
    loaded = ipt.load(path)
    archive = Archive(tmp_path / "odd.duckdb")
    snapshot_id = archive.add(path)
    assert archive.estate(snapshot_id).raw_profiles == loaded.raw_profiles
    found = archive.snapshots.set_index("snapshot_id").loc[snapshot_id, "findings"]
    assert found == len(ipt.audit(loaded))
    assert archive.add(loaded) == snapshot_id  # the same snapshot, however it came


def test_the_snapshots_frame_and_command_mask_a_source_urls_password(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    """A snapshot another tool wrote, its source URL holding a password and a token: the
    estate's summary masked it, the archive's snapshots frame (and command) did not."""
    from click.testing import CliRunner

    from iptoolkit.cli import main

    source = "https://admin:pw-in-source-5e1@platform.example/api?access_token=tok-in-source-9a2"
    info = SnapshotInfo(source_url=source, fetched_at=START)
    archive = Archive(tmp_path / "source.duckdb")
    archive.add(ipt.Estate.from_raw(list(weeks[0].raw_profiles), info=info))
    [shown] = archive.snapshots["source_url"]
    assert shown.startswith("https://admin:**") and "platform.example/api" in shown
    printed = CliRunner().invoke(main, ["archive", "snapshots", "--archive", str(archive.path)])
    assert printed.exit_code == 0 and "platform.example" in printed.output, printed.output
    for secret in ("pw-in-source-5e1", "tok-in-source-9a2"):
        assert secret not in shown and secret not in printed.output


_HOLD = """
import sys, time
import duckdb
con = duckdb.connect(sys.argv[1])
print("holding", flush=True)
time.sleep(60)
"""


def test_a_second_writer_is_told_which_file_is_in_use(
    weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    path = tmp_path / "busy.duckdb"
    Archive(path).add(weeks[0])
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "holding"
        started = time.monotonic()
        with pytest.raises(ArchiveLockedError, match=str(path)):
            Archive(path, lock_timeout=0.5).add(weeks[1])
        assert time.monotonic() - started < 10
    finally:
        child.kill()
        child.wait(timeout=30)
    assert Archive(path).add(weeks[1]) == 2


def test_not_an_archive_is_refused_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no archive"):
        Archive(tmp_path / "missing.duckdb").estate()
    bogus = tmp_path / "bogus.duckdb"
    bogus.write_text("not a database")
    with pytest.raises(OSError, match="bogus.duckdb"):
        Archive(bogus).estate()


def test_docs_describe_every_view_and_column_and_the_examples_run(archive: Archive) -> None:
    from iptoolkit.archive.ddl import VIEW_NAMES

    doc = (Path(__file__).resolve().parents[1] / "docs" / "archive.md").read_text(encoding="utf-8")
    for view in VIEW_NAMES:
        section = doc.split(f"\n## {view}\n", 1)[1].split("\n## ", 1)[0]
        columns = archive.sql(f"DESCRIBE {view}").column_name
        missing = [column for column in columns if f"`{column}`" not in section]
        assert not missing, (view, missing)
    examples = doc.split("```sql", 1)[1].split("```", 1)[0]
    for statement in filter(str.strip, examples.split(";")):
        archive.sql(statement)


def test_the_archive_commands_and_docs_previous_from_an_archive(
    archive: Archive, weeks: list[ipt.Estate], tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from iptoolkit.cli import main

    runner = CliRunner()
    where = ["--archive", str(archive.path)]
    out = tmp_path / "back.json"
    result = runner.invoke(
        main, ["archive", "export", *where, "--at", "2026-10-09", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "snapshot 2" in result.output
    assert out.read_bytes() == weeks[1].save(tmp_path / "week-1.json").read_bytes()
    folder = tmp_path / "snapshots"
    folder.mkdir()
    for n, estate in enumerate(weeks[:2]):
        estate.save(folder / f"{n}.json.gz")
    imported = tmp_path / "imported.duckdb"
    result = runner.invoke(main, ["archive", "import", str(folder), "--archive", str(imported)])
    assert result.exit_code == 0 and "2 of 2 snapshots added" in result.output, result.output
    result = runner.invoke(
        main, ["archive", "sql", "SELECT count(*) AS n FROM snapshots", "--archive", str(imported)]
    )
    assert result.output.split() == ["n", "2"]
    current = weeks[3].save(tmp_path / "current.json")
    site = tmp_path / "site"
    result = runner.invoke(
        main,
        [
            "docs",
            str(current),
            "-o",
            str(site),
            "--previous",
            f"{archive.path}@2026-10-16",
            "--jobs",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    changelog = (site / "docs" / "changes.md").read_text(encoding="utf-8")
    assert ipt.diff(weeks[2], weeks[3]).summary().split("\n")[0] in changelog
    missing = runner.invoke(
        main, ["docs", str(current), "-o", str(site), "--previous", "nowhere.json"]
    )
    assert missing.exit_code == 2 and "nowhere.json: no such file" in missing.output


def test_sql_cuts_wide_cells_and_csv_and_json_keep_them_whole(archive: Archive) -> None:
    """The README's query: a removed profile's change holds its whole JSON (`old`), and
    uncut each such row was a line of thousands of characters (68 MB at 10,000 profiles).
    The table shows `--max-width` characters of a cell, the cut marked `…`, as the duckdb
    shell does; `--max-width 0`, `--csv` and `--json` show it whole."""
    import csv
    import io
    import json

    from click.testing import CliRunner

    from iptoolkit.cli import main

    width = 40  # the default, as `archive sql --help` and the README say
    query = "SELECT * FROM changes WHERE severity = 'breaking'"
    stored = archive.sql(query)
    whole = max(stored.old.dropna(), key=len)
    assert len(whole) > 10 * width

    def run(*options: str, sql: str = query, code: int = 0) -> str:
        where = ["--archive", str(archive.path)]
        result = CliRunner().invoke(main, ["archive", "sql", sql, *where, *options])
        assert result.exit_code == code, result.output
        return result.output

    table = run()
    lines = table.splitlines()
    assert len(lines) == len(stored) + 1
    assert whole not in table and whole[: width - 5] in table and "…" in table
    assert max(map(len, lines)) <= (width + 2) * len(stored.columns)
    assert whole in run("--max-width", "0")
    assert max(map(len, run("--max-width", "10").splitlines())) < max(map(len, lines))
    assert whole in [row["old"] for row in json.loads(run("--json"))]
    assert whole in [row["old"] for row in csv.DictReader(io.StringIO(run("--csv")))]
    assert "not both" in run("--csv", "--json", code=2)
    hostile = "SELECT 'red' || chr(27) || '[31m' || chr(10) || 'line' AS name"
    assert run(sql=hostile).splitlines()[1].strip() == "red\\x1b[31m\\nline"
    assert json.loads(run("--json", sql=hostile)) == [{"name": "red\x1b[31m\nline"}]


def test_without_duckdb_the_error_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['duckdb'] = None\n"
        "import iptoolkit as ipt\n"
        "try:\n    ipt.Archive\nexcept ModuleNotFoundError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install -e '.[archive]'" in out.stdout


def test_compact_keeps_every_snapshot_and_view(weeks: list[ipt.Estate], tmp_path: Path) -> None:
    archive = Archive(tmp_path / "compact.duckdb")
    for estate in weeks:
        archive.add(estate)
    counts = archive.sql("SELECT snapshot_id, count(*) AS n FROM profiles GROUP BY ALL ORDER BY 1")
    before, after = archive.compact()
    assert after <= before and archive.path.stat().st_size == after
    again = Archive(archive.path)
    assert again.sql(
        "SELECT snapshot_id, count(*) AS n FROM profiles GROUP BY ALL ORDER BY 1"
    ).equals(counts)
    for snapshot_id, estate in enumerate(weeks, start=1):
        assert again.estate(snapshot_id).raw_profiles == estate.raw_profiles
    assert again.add(weeks[-1]) == 4  # still one archive: the same snapshot is not added twice


def test_archive_files_are_made_of_small_blocks(weeks: list[ipt.Estate], tmp_path: Path) -> None:
    """Each add leaves a partly filled block per table it appends to: with DuckDB's 256 KiB
    blocks a year of nightly adds was half free space; a compacted file keeps small ones."""
    import duckdb

    from iptoolkit.archive.opening import BLOCK_SIZE

    archive = Archive(tmp_path / "blocks.duckdb")
    for estate in weeks[:2]:
        archive.add(estate)
    archive.compact()
    with duckdb.connect(str(archive.path), read_only=True) as con:  # plain DuckDB reads it
        assert _row(con.execute("PRAGMA database_size").fetchone())[2] == BLOCK_SIZE == 16_384
        assert _row(con.execute("SELECT count(*) FROM snapshots").fetchone())[0] == 2


def test_an_add_compacts_a_file_gone_mostly_free(
    weeks: list[ipt.Estate], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody has to remember `compact`: an add gives the free blocks back once they are a
    large share of the file (here any share, so that a small archive shows it)."""
    import duckdb

    from iptoolkit.archive import compaction

    def free_blocks(path: Path) -> int:
        with duckdb.connect(str(path), read_only=True) as con:
            found = _row(con.execute("SELECT free_blocks FROM pragma_database_size()").fetchone())
            assert isinstance(found[0], int)
            return found[0]

    left = Archive(tmp_path / "left.duckdb")
    for estate in weeks:
        left.add(estate)
    assert free_blocks(left.path) > 0  # the defaults leave a small archive alone
    monkeypatch.setattr(compaction, "FREE_SHARE", 0.0)
    monkeypatch.setattr(compaction, "_FREE_MIN_BYTES", 0)
    tidy = Archive(tmp_path / "tidy.duckdb")
    for estate in weeks:
        tidy.add(estate)
    assert free_blocks(tidy.path) == 0
    assert tidy.path.stat().st_size < left.path.stat().st_size
    assert [Archive(tidy.path).estate(n).raw_profiles for n in (1, 2, 3, 4)] == [
        estate.raw_profiles for estate in weeks
    ]


def test_a_file_named_with_quotes_compacts_and_takes_adds(
    weeks: list[ipt.Estate], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB names the database after the file: `week "44".duckdb` is the database
    `week "44"`, which the copy must quote as an identifier. Unquoted, compact said the
    file was damaged, and an add that compacted raised after storing its snapshot."""
    from iptoolkit.archive import compaction

    archive = Archive(tmp_path / 'it\'s week "44".duckdb')
    archive.add(weeks[0])
    before, after = archive.compact()
    assert after <= before
    monkeypatch.setattr(compaction, "FREE_SHARE", 0.0)
    monkeypatch.setattr(compaction, "_FREE_MIN_BYTES", 0)
    assert archive.add(weeks[1]) == 2  # compacts after, as a file gone mostly free
    assert [archive.estate(n).raw_profiles for n in (1, 2)] == [
        estate.raw_profiles for estate in weeks[:2]
    ]
