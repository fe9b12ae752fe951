"""Snapshot file names as templates of the fetch time: filled, checked, never a colon."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.core.snapshot import NAME_FIELDS, check_name_template, dated_path

# 06:15:07 in UTC+2 is 04:15:07 UTC: names use UTC, whatever zone the time came in
WHEN = datetime(2026, 11, 23, 6, 15, 7, tzinfo=timezone(timedelta(hours=2)))


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("snapshots/{date}.json.gz", "snapshots/2026-11-23.json.gz"),
        ("snapshots/{datetime}.json", "snapshots/2026-11-23T041507Z.json"),
        ("{date}/{time}.json", "2026-11-23/041507.json"),
        ("x{{y}}-{date}.json", "x{y}-2026-11-23.json"),
        ("plain.json", "plain.json"),
    ],
)
def test_fields_are_filled_from_the_fetch_time_in_utc(template: str, expected: str) -> None:
    assert dated_path(template, WHEN) == Path(expected)


def test_every_field_is_safe_in_a_file_name_and_sorts_by_time() -> None:
    later = WHEN + timedelta(days=40, hours=7)
    for name in NAME_FIELDS:
        early, late = (
            str(dated_path("{" + name + "}", WHEN)),
            str(dated_path("{" + name + "}", later)),
        )
        assert not set(early) & set(':/\\<>|?*"') and early != late
        if name != "time":
            assert early < late


def test_no_time_means_now() -> None:
    before = datetime.now(UTC).strftime("%Y-%m-%d")
    name = str(dated_path("{date}", None))
    assert name in {before, datetime.now(UTC).strftime("%Y-%m-%d")}


@pytest.mark.parametrize(
    ("template", "named"),
    [
        ("snapshots/{day}.json", "{day}"),
        ("{date:%Y}.json", "{date:%Y}"),
        ("{date!r}.json", "{date!r}"),
        ("{}.json", "{}"),
        ("x{y.json", "braces"),
        ("x}.json", "braces"),
    ],
)
def test_a_wrong_template_names_what_is_wrong(template: str, named: str) -> None:
    with pytest.raises(ValueError, match="file name|braces") as caught:
        check_name_template(template)
    assert named in str(caught.value) and template in str(caught.value)
    if named != "braces":
        assert "{date}, {time}, {datetime}" in str(caught.value)


def test_the_format_name_written_in_files_is_kept(tmp_path: Path) -> None:
    """Files name their format `iptoolkit.snapshot`, whatever the module is called: a
    snapshot written before the module moved to `core/` keeps its header when loaded."""
    path = tmp_path / "old.json"
    path.write_text(
        '{"format": "iptoolkit.snapshot", "version": 1, "fetched_at": "2026-10-01T02:15:00Z",'
        ' "source_url": "https://platform.example", "profiles": [{"id": "P1"}]}'
    )
    estate = ipt.load(path)
    assert estate.info.source_url == "https://platform.example"
    assert estate.info.fetched_at is not None and estate.info.fetched_at.year == 2026
    written = tmp_path / "new.json"
    estate.save(written)
    assert json.loads(written.read_text())["format"] == "iptoolkit.snapshot"


@pytest.mark.parametrize(
    ("version", "said"),
    [(99, "version 99 is newer than this iptoolkit reads (1)"), ("1", "not a whole number")],
)
def test_a_snapshot_of_a_version_not_read_here_is_refused(
    tmp_path: Path, version: object, said: str
) -> None:
    """A newer format read as ours could drop what it added, silently: refused, naming
    the version and what to do."""
    import re

    path = tmp_path / "next.json"
    document = {"format": "iptoolkit.snapshot", "version": version, "profiles": []}
    path.write_text(json.dumps(document))
    with pytest.raises(ipt.ParseError, match=re.escape(said)) as caught:
        ipt.load(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("fetched_at", ["not-a-date", 12345, True, {"at": "2026-10-01"}])
def test_a_fetch_time_that_is_no_iso_text_is_refused(tmp_path: Path, fetched_at: object) -> None:
    """A `fetched_at` that is not an ISO date-time is refused whatever its JSON type: a
    number dropped silently left the snapshot dated by its file's modification time (the
    archive placed it among the others by when the file was copied)."""
    path = tmp_path / "odd.json"
    document = {"format": "iptoolkit.snapshot", "version": 1, "fetched_at": fetched_at}
    path.write_text(json.dumps({**document, "profiles": [{"id": "P1"}]}))
    with pytest.raises(ipt.ParseError, match="'fetched_at' is not an ISO date-time") as caught:
        ipt.load(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("name", ["missing.json", "missing.json.gz"])
def test_a_missing_file_is_a_file_not_found_error_and_a_parse_error(
    tmp_path: Path, name: str
) -> None:
    """`except FileNotFoundError` catches it, as `ipt.history` raises it; the command line's
    `ParseError` and the message are as they were."""
    path = tmp_path / name
    with pytest.raises(FileNotFoundError) as caught:
        ipt.load(path)
    assert isinstance(caught.value, ipt.ParseError)
    assert str(caught.value) == f"{path}: cannot read the file (No such file or directory)"
    with pytest.raises(FileNotFoundError):
        ipt.compare(ipt.demo_estate(3), path)


def test_a_file_that_cannot_be_read_otherwise_is_no_file_not_found_error(tmp_path: Path) -> None:
    with pytest.raises(ipt.ParseError, match="cannot read the file") as caught:
        ipt.load(tmp_path)  # a folder
    assert not isinstance(caught.value, FileNotFoundError)
