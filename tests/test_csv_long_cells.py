"""A cell past the `csv` module's field limit (128 KiB) is written, not refused.

`frame_csv` read pandas' CSV back with `csv.reader` to end its rows with `\\n`, and the
reader's default `field_size_limit` (131,072 characters) refused a longer cell: a group
named by a 100,000-character name (`NAME/sub NAME`) made `ipt.export(estate, "x.csv")` and
`iptoolkit diff --format csv` fail with `_csv.Error: field larger than field limit`.
A platform's free text is hostile input: its length too.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import iptoolkit as ipt
from iptoolkit.exporters.table_files import frame_csv

from .factories import ACME, agent, channel, profile

LONG = "=1+2 " + "L" * 200_000
"""A name past the limit, starting with a formula prefix (still guarded)."""


def read_back(text: str) -> list[list[str]]:
    """The rows of `text`, read by a reader whose limit takes the long cell (the limit is
    process-wide: raised only while this test reads, after the code under test ran)."""
    limit = csv.field_size_limit(10 * len(LONG))
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    finally:
        csv.field_size_limit(limit)


def _estate(name: str) -> ipt.Estate:
    return ipt.Estate.from_raw(
        [
            profile(
                "P1",
                name=name,
                group=f"{name}/sub {name}",
                agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME, name=name)]),
            )
        ]
    )


def test_a_long_name_exports_to_csv_whole_and_guarded(tmp_path: Path) -> None:
    written = ipt.export(_estate(LONG), tmp_path / "x.csv")  # raised _csv.Error before
    text = written.read_bytes().decode("utf-8")  # line ends as written
    header, row = read_back(text)
    assert row[header.index("name")] == "'" + LONG
    assert row[header.index("group")] == f"'{LONG}/sub {LONG}"
    assert text.count("\n") == 2 and "\r" not in text  # two rows, each ended by `\n`


def test_a_long_name_in_a_diff_exports_to_csv(tmp_path: Path) -> None:
    diff = ipt.diff(_estate("short"), _estate(LONG))
    written = ipt.export(diff, tmp_path / "changes.csv")  # raised _csv.Error before
    assert LONG[5:] in written.read_text(encoding="utf-8")


def test_frame_csv_ends_rows_with_lf_and_keeps_quoted_breaks() -> None:
    import pandas as pd

    frame = pd.DataFrame({"a": ["x\r\ny", 'q"\r\n"', LONG], "b": [1, 2, 3]})
    text = frame_csv(frame)
    assert text.count("\n") == 4 + 2  # four rows, two breaks inside cells
    assert text.endswith(",3\n")
    assert read_back(text) == [
        ["a", "b"],
        ["x\r\ny", "1"],
        ['q"\r\n"', "2"],
        [LONG, "3"],
    ]
