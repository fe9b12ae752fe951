"""`ipt.export(diff, path)`: a diff written in the format its file name asks for.

| suffix                 | what                                                     |
|------------------------|----------------------------------------------------------|
| `.md`                  | a changelog for a documentation page (`to_markdown`)     |
| `.json`                | the machine form (`to_json`)                             |
| `.csv`                 | one row per change (`to_frame`)                          |
| `.png`, `.svg`, `.pdf` | the diff diagram (`plot_diff`; its options pass through) |

The text forms are the diff's own renderings, so a file says exactly what the notebook
and the command line say; values in a diff are masked already (`change.estate_diff`). The CSV
(`csv_frame`, which `iptoolkit diff --format csv` writes too) writes control characters
as escapes (`escape_unprintable`) and neutralises formulas unless `csv_safe=False`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..support.printable import escape_unprintable
from .figures import DIAGRAM_FORMATS

if TYPE_CHECKING:
    from pathlib import Path

    import pandas

    from ..change.estate_diff import EstateDiff

__all__ = ["DIFF_FORMATS", "write_diff", "csv_frame"]

DIFF_FORMATS: dict[str, str] = {
    "md": "changelog (Markdown)",
    "json": "changes (JSON)",
    "csv": "one row per change (CSV)",
    **{name: f"diff diagram ({name.upper()})" for name in DIAGRAM_FORMATS},
}
_IMAGES = frozenset(DIAGRAM_FORMATS)


def write_diff(diff: EstateDiff, path: Path, format: str | None, options: dict[str, Any]) -> Path:
    """Write `diff` to `path` as `format` (default: from the suffix); return the path."""
    name = (format or path.suffix).lower().lstrip(".")
    if name not in DIFF_FORMATS:
        allowed = ", ".join(f".{suffix}" for suffix in DIFF_FORMATS)
        what = f"format {format!r}" if format else f"file name {path.name!r}"
        raise ValueError(f"a diff exports as one of {allowed}; cannot write the {what}")
    if name == "csv":
        unknown = sorted(set(options) - {"csv_safe"})
        if unknown:
            raise TypeError(f"export of a diff to .csv takes no option {', '.join(unknown)}")
        frame = csv_frame(diff, csv_safe=options.get("csv_safe", True))
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(path, index=False)
        return path
    if options and name not in _IMAGES:
        raise TypeError(f"export of a diff to .{name} takes no option {', '.join(sorted(options))}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if name in _IMAGES:
        from ..plot.diff_diagram import plot_diff
        from .figures import save_figure

        return save_figure(plot_diff(diff, **options), path, name)
    text = diff.to_markdown() if name == "md" else diff.to_json()
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return path


def csv_frame(diff: EstateDiff, *, csv_safe: bool = True) -> pandas.DataFrame:
    """The diff's frame as its CSV holds it: every text with its control characters as
    escapes (an id's `\\r` or ESC), formulas neutralised when `csv_safe`."""
    from .table_files import csv_safe_frame

    frame = diff.to_frame()
    for column in frame.columns:
        frame[column] = frame[column].map(
            lambda value: escape_unprintable(value) if isinstance(value, str) else value
        )
    return csv_safe_frame(frame) if csv_safe else frame
