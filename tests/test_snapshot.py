"""Snapshot file names as templates of the fetch time: filled, checked, never a colon."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

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
