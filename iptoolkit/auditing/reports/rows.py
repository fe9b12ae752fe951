"""Text, JSON, CSV and Markdown reports: one line or row per finding."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable

from ...support.comment_fit import fit, left_out
from ...support.csvio import csv_safe, csv_text
from ...support.jsonio import indented_json
from ...support.markdown import code, escape
from ...support.names import plural
from ...support.redact import redact_text
from ..finding import Finding, severity_rank
from .context import ReportContext, shown

__all__ = ["text_report", "table_report", "json_report", "json_rows_report", "csv_report",
           "markdown_report", "statistics", "totals", "CUT", "SCHEMA_VERSION"]  # fmt: skip

SCHEMA_VERSION = 1
"""The version of `json_report`'s shape (`docs/schemas/audit.schema.json`): raised when a
field is added, removed or changes meaning, so a reader can tell which shape it holds."""

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
    """`{"schema_version": 1, "summary": {...}, "findings": [...]}`: the counts, and each
    finding with its code, severity, kind, title, text, item, nodes, JSON path, line and
    fingerprint (`docs/schemas/audit.schema.json`)."""
    found = context.found
    by = Counter(f.severity for f in found)
    summary = {
        "text": totals(context),
        "findings": len(found),
        "severity": {severity: by[severity] for severity in ("error", "warning", "info")},
        "hidden": found.hidden,
        "suppressed": found.suppressed,
    }
    rows = [context.row(f) for f in found]
    document = {"schema_version": SCHEMA_VERSION, "summary": summary, "findings": rows}
    return indented_json(document) + "\n"


def json_rows_report(context: ReportContext) -> str:
    """The older `findings` command's JSON: the list of findings alone, as it always was."""
    return indented_json([context.row(f) for f in context.found]) + "\n"


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
    every text from the estate escaped by the one escaper (`iptoolkit.support.markdown`).
    With `context.limit`, a report that would pass it keeps the worst findings that fit
    and says first what it left out, by severity and rule, and where the whole report is."""

    def text(value: object) -> str:
        return escape(redact_text(str(value))) if value not in (None, "") else "–"

    found = list(context.found)
    rows = [
        f"| {code(f.code)} | {f.severity} | {text(context.title(f))} | {text(f.item)} | "
        f"{text(context.where(f))} | {text(f.text)} |"
        for f in found
    ]

    def render(kept: Collection[int] | None) -> str:
        lines = [f"## {text(totals(context))}", ""]
        shown = set(range(len(rows)) if kept is None else kept)
        if len(shown) < len(rows):
            left = [f for n, f in enumerate(found) if n not in shown]
            lines += [_left_out(left, context.details), ""]
        if shown:
            lines.append("| Code | Severity | Rule | Item | Where | Finding |")
            lines.append("|---|---|---|---|---|---|")
            lines += [row for n, row in enumerate(rows) if n in shown]
        return "\n".join(lines) + "\n"

    ranks = [severity_rank(f.severity) for f in found]
    return fit(render, [len(row) for row in rows], ranks, context.limit)


def _left_out(left: list[Finding], details: str | None) -> str:
    """`600 findings (550 warnings, 50 info): 300 DAT004, 200 HYG001, ...`."""
    by_severity = Counter(f.severity for f in left)
    by_code = Counter(f.code for f in left)
    codes = ", ".join(f"{n:,} {name}" for name, n in sorted(by_code.items(), key=_most))
    said = ", ".join(
        plural(by_severity[s], s) for s in ("error", "warning", "info") if by_severity[s]
    )
    return left_out([f"{plural(len(left), 'finding')} ({said}): {codes}"], details)


def _most(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]
