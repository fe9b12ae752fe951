"""Text, JSON, CSV and Markdown reports: one line or row per finding."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ...support.csvio import csv_safe, csv_text
from ...support.jsonio import indented_json
from ...support.markdown import code, escape
from ...support.names import plural
from ...support.redact import redact_text
from .context import ReportContext, shown

__all__ = ["text_report", "table_report", "json_report", "csv_report", "markdown_report",
           "statistics", "totals", "CUT"]  # fmt: skip

_COLUMNS = ("code", "severity", "kind", "title", "item", "path", "line", "column", "text",
            "nodes", "fingerprint")  # fmt: skip


def text_report(context: ReportContext) -> str:
    """`where: CODE [severity] text`, one line per finding, as `ruff check` prints."""
    lines = [
        f"{shown(context.where(f))}: {f.code} [{f.severity}] {shown(f.text)}" for f in context.found
    ]
    return "\n".join(lines) + ("\n" if lines else "")


def table_report(context: ReportContext) -> str:
    """The older `findings` table: a SEVERITY, KIND, TEXT header, then one row a finding."""
    found = context.found
    if not found:
        return "No findings.\n"
    width = max(len("KIND"), *(len(f.kind) for f in found))
    lines = [f"{'SEVERITY':<8} {'KIND':<{width}}  TEXT"]
    lines += [f"{f.severity:<8} {f.kind:<{width}}  {shown(f.text)}" for f in found]
    return "\n".join(lines) + "\n"


CUT = re.compile(r" and [\d,]+ more\b")
"""How a finding's text says it names only the first of its items."""


def totals(context: ReportContext) -> str:
    """`Found 12 findings (2 errors, 10 warnings); 40 hidden by the baseline.`"""
    found = context.found
    by = Counter(f.severity for f in found)
    said = ", ".join(plural(by[s], s) for s in ("error", "warning", "info") if by[s])
    line = f"Found {plural(len(found), 'finding')}" + (f" ({said})" if said else "")
    if found.hidden:
        line += f"; {found.hidden:,} hidden by the baseline"
    if found.suppressed:
        line += f"; {found.suppressed:,} suppressed by the configuration"
    return line + "."


def statistics(context: ReportContext) -> str:
    """Counts per code, most first, with severity and title (`--statistics`)."""
    counted = Counter(f.code for f in context.found)
    severity = {f.code: f.severity for f in reversed(context.found)}
    lines = [
        f"{n:>7,}  {code:<8} [{severity[code]}] {context.rule_of[code].title}"
        if code in context.rule_of else f"{n:>7,}  {code}"
        for code, n in sorted(counted.items(), key=lambda item: (-item[1], item[0]))
    ]  # fmt: skip
    return "\n".join(lines) + ("\n" if lines else "")


def json_report(context: ReportContext) -> str:
    """A JSON list of findings, each with its code, severity, kind, title, text, item,
    nodes, JSON path, line and fingerprint."""
    rows = [context.row(f) for f in context.found]
    return indented_json(rows) + "\n"


def csv_report(context: ReportContext) -> str:
    """One CSV row per finding (nodes separated by spaces); formulas neutralised, control
    characters written as escapes (`shown`)."""
    table: list[Iterable[object]] = [_COLUMNS]
    for finding in context.found:
        row = context.row(finding)
        row["nodes"] = " ".join(row["nodes"])
        table.append([_cell(row[name]) for name in _COLUMNS])
    return csv_text(table)


def _cell(value: object) -> object:
    """A spreadsheet cell that cannot be read as a formula (`csv_safe`), with no control
    character (`shown`)."""
    return csv_safe(shown(value)) if isinstance(value, str) else value


def markdown_report(context: ReportContext) -> str:
    """A Markdown table of the findings (for a pull request comment or a job summary);
    every text from the estate escaped by the one escaper (`iptoolkit.support.markdown`)."""

    def text(value: object) -> str:
        return escape(redact_text(str(value))) if value not in (None, "") else "–"

    lines = [f"## {text(totals(context))}", ""]
    if context.found:
        lines.append("| Code | Severity | Rule | Item | Where | Finding |")
        lines.append("|---|---|---|---|---|---|")
        lines += [
            f"| {code(f.code)} | {f.severity} | {text(context.title(f))} | {text(f.item)} | "
            f"{text(context.where(f))} | {text(f.text)} |"
            for f in context.found
        ]
    return "\n".join(lines) + "\n"
