"""The audit's findings written for people and machines: text (as `ruff check` prints),
JSON, CSV, Markdown, SARIF 2.1.0 (GitHub code scanning) and JUnit XML (CI dashboards).

Every text passes `redact.redact_text`: a password inside a URL never reaches a report.
"""

from __future__ import annotations

from collections.abc import Callable

from .context import ReportContext
from .junit import junit_report
from .rows import (
    csv_report,
    json_report,
    json_rows_report,
    markdown_report,
    table_report,
    text_report,
)
from .sarif import sarif_report

__all__ = ["FORMATS", "ReportContext", "render"]

FORMATS: dict[str, Callable[[ReportContext], str]] = {
    "text": text_report,
    "json": json_report,
    "csv": csv_report,
    "md": markdown_report,
    "sarif": sarif_report,
    "junit": junit_report,
    "table": table_report,
    "rows": json_rows_report,
}
"""Report formats by name, as `iptoolkit audit --format` takes them (`table` and `rows`, its
JSON list of findings, are the older `findings` command's)."""


def render(context: ReportContext, output_format: str) -> str:
    """The report of `context` in a format of `FORMATS`."""
    return FORMATS[output_format](context)
