"""A `Comparison` written out: text (counts first), Markdown, JSON and CSV.

Pure functions of the comparison (its methods call them). Values were masked when it was
made; names, keys and ids are hostile text, escaped here for the format written: Markdown
by the one escaper (`support/markdown.py`, and `html.escape` inside `<summary>`), CSV
cells through the one formula rule and writer (`support/csvio.py`), text with control
characters dropped (`support/printable.py`); free text passes `redact_text`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Iterable
from functools import lru_cache
from typing import Any, Protocol

from ..change.record import SEVERITIES
from ..change.render import counted, short
from ..support.comment_fit import counted_by, fit, left_out
from ..support.csvio import csv_safe, csv_text
from ..support.jsonio import report_json
from ..support.markdown import code, escape
from ..support.names import agreeing, plural
from ..support.printable import drop_unprintable, shorten_pair
from ..support.redact import redact_fields, redact_text
from .difference import KINDS, STATUSES, Difference, Match, key_text


class Comparison(Protocol):
    """What these functions read of a comparison (`model.Comparison` is one): render
    names no model class, so its methods can call render without a circle of imports."""

    @property
    def a(self) -> Any: ...
    @property
    def b(self) -> Any: ...
    @property
    def differences(self) -> tuple[Difference, ...]: ...
    @property
    def matches(self) -> tuple[Match, ...]: ...
    @property
    def known(self) -> tuple[tuple[Difference, Any], ...]: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def names(self) -> tuple[str, str]: ...
    def counts(self) -> dict[str, Any]: ...
    def of(self, *, kind: Any = None, status: Any = None) -> tuple[Difference, ...]: ...


__all__ = [
    "summary",
    "to_text",
    "to_markdown",
    "to_dict",
    "to_json",
    "to_csv",
    "status_words",
    "value_pair",
    "CSV_COLUMNS",
    "SCHEMA_VERSION",
]

SCHEMA_VERSION = 1
"""The version of `to_dict`'s shape (`docs/schemas/compare.schema.json`): raised when a
field is added, removed or changes meaning, so a reader can tell which shape it holds."""

CSV_COLUMNS = (
    "severity",
    "kind",
    "status",
    "key",
    "name",
    "a_node",
    "b_node",
    "path",
    "a_value",
    "b_value",
    "reason",
)


def status_words(status: str, names: tuple[str, str]) -> str:
    """A status as people read it: `only in test`, `active in one only`."""
    return {
        "only-in-a": f"only in {names[0]}",
        "only-in-b": f"only in {names[1]}",
        "active-differs": "active in one only",
        "wired-differently": "wired differently",
        "changed": "changed",
        "ambiguous": "ambiguous key",
    }[status]


@lru_cache(maxsize=4096)
def _clean(text: str) -> str:
    """Hostile text for a terminal line: one line, no control characters, masked.
    Remembered: a report repeats its paths, reasons and values (36k differences of two
    100k-profile installations: 280k texts, most of them seen before; issue 45)."""
    return " ".join(drop_unprintable(redact_text(text)).split())


def summary(result: Comparison) -> str:
    """One line ("same: 299 profiles, 64 channels, 25 partners matched" or "2 profiles
    only in test, 1 changed; 1 channel changed; 1 breaking"), the notes after it."""
    a, b = (_clean(name) for name in result.names)
    counts = result.counts()
    if not result.differences:
        matched = ", ".join(plural(sum(counts["matched"][kind].values()), kind) for kind in KINDS)
        text = f"{a} and {b} match: {matched} matched"
    else:
        parts = []
        for kind in KINDS:
            found = [
                (status_words(s, (a, b)), counts[kind][s]) for s in STATUSES if counts[kind][s]
            ]
            if found:
                parts.append(counted(kind, found))
        severity = counts["severity"]
        parts.append(", ".join(f"{severity[s]:,} {s}" for s in SEVERITIES if severity[s]))
        text = "; ".join(parts)
    if result.known:
        text += f" ({len(result.known):,} known, hidden)"
    return text + "".join(f"\nNote: {_sentence(_clean(note))}" for note in result.notes)


def _sentence(text: str) -> str:
    """The note with a full stop, unless it ends as a sentence already (`remove it?`, a
    reason written with its own full stop)."""
    return text if text.endswith((".", "?", "!")) else text + "."


def to_text(result: Comparison) -> str:
    """Counts first, then each difference with its fields, most severe first."""
    a, b = (_clean(name) for name in result.names)
    counts = result.counts()
    said = summary(result)
    lines = [f"{a} vs {b}: {said}" if result.differences else said, ""]
    lines.append(f"{'':22}" + "".join(f"{kind + 's':>10}" for kind in KINDS))
    for status in STATUSES:
        row = [counts[kind][status] for kind in KINDS]
        lines.append(f"{status_words(status, (a, b)):22}" + "".join(f"{n:>10}" for n in row))
    matched = [sum(counts["matched"][kind].values()) for kind in KINDS]
    lines.append(f"{'matched':22}" + "".join(f"{n:>10}" for n in matched))
    manual = [counts["matched"][kind].get("manual", 0) for kind in KINDS]
    if any(manual):
        lines.append(f"{'  by the mapping':22}" + "".join(f"{n:>10}" for n in manual))
    for d in result.differences:
        lines.append("")
        lines.append(
            f"{d.severity:9} {d.kind:8} {status_words(d.status, (a, b))}: "
            f"{_clean(d.key_text)}  ({_clean(d.a or '-')} / {_clean(d.b or '-')})"
        )
        lines.append(f"    {_clean(d.reason)}")
        if d.expired:
            lines.append(f"    {_clean(d.expired)}")
        for f in d.fields:
            old, new = value_pair(f.a, f.b)
            lines.append(f"    {_clean(f.path)}: {_clean(old)} -> {_clean(new)}")
    return "\n".join(lines) + "\n"


def to_markdown(result: Comparison, *, limit: int | None = None, details: str | None = None) -> str:
    """For a pull-request comment: the summary and counts first, then each kind's
    differences folded in a `<details>` block. With a `limit` (`COMMENT_LIMIT` for a
    comment) a report that would pass it keeps the worst differences that fit and says
    first what it left out, and where the whole report is (`details`, a file name)."""
    names = result.names
    rows = [_markdown_row(d, names) for d in result.differences]
    ranks = [SEVERITIES.index(d.severity) for d in result.differences]

    def render(kept: Collection[int] | None) -> str:
        return _markdown(result, rows, kept, details)

    return fit(render, [len(row) for row in rows], ranks, limit)


def _markdown(
    result: Comparison, rows: list[str], kept: Collection[int] | None, details: str | None
) -> str:
    """The Markdown with the rows of `kept` (every row when None), and what it left out."""
    a, b = result.names
    counts = result.counts()
    first, *notes = summary(result).split("\n")
    lines = [f"## {escape(a)} vs {escape(b)}: {escape(first)}", ""]
    if notes:
        lines += [f"> {escape(note)}" for note in notes] + [""]
    shown = set(range(len(rows)) if kept is None else kept)
    if len(shown) < len(rows):
        lines += [_left_out(result, shown, details), ""]
    lines.append("| | profiles | channels | partners |")
    lines.append("|---|---:|---:|---:|")
    for status in STATUSES:
        row = " | ".join(str(counts[kind][status]) for kind in KINDS)
        lines.append(f"| {escape(status_words(status, (a, b)))} | {row} |")
    matched = " | ".join(str(sum(counts["matched"][k].values())) for k in KINDS)
    lines.append(f"| matched | {matched} |")
    for kind in KINDS:
        found = [n for n, d in enumerate(result.differences) if d.kind == kind]
        chosen = [n for n in found if n in shown]
        if not chosen:
            continue
        part = f", {len(chosen):,} shown" if len(chosen) < len(found) else ""
        differ = agreeing(len(found), "differ")  # `1 channel differs`, `6 profiles differ`
        title = html.escape(f"{plural(len(found), kind)} {differ}{part}", quote=False)
        # markdown="1": MkDocs' md_in_html reads the table inside (GitHub drops the attribute)
        lines += ["", f'<details markdown="1"><summary>{title}</summary>', ""]
        lines.append(f"| severity | status | {kind} | in {escape(a)} | in {escape(b)} | what |")
        lines.append("|---|---|---|---|---|---|")
        lines += [rows[n] for n in chosen]
        lines += ["", "</details>"]
    return "\n".join(lines) + "\n"


def _left_out(result: Comparison, shown: set[int], details: str | None) -> str:
    """`640 profile differences (640 notable); ...`: what a cut report leaves out."""
    left = [d for n, d in enumerate(result.differences) if n not in shown]
    what = [
        counted_by(
            f"{kind} difference",
            [(s, sum(1 for d in left if d.kind == kind and d.severity == s)) for s in SEVERITIES],
        )
        for kind in KINDS
        if any(d.kind == kind for d in left)
    ]
    return left_out(what, details)


def _markdown_row(d: Difference, names: tuple[str, str]) -> str:
    what = [escape(redact_text(d.reason))]
    if d.expired:
        what.append(escape(redact_text(d.expired)))
    what += [
        f"{_span(f.path)}: {_span(old)} → {_span(new)}"
        for f in d.fields[:10]
        for old, new in [value_pair(f.a, f.b)]
    ]
    if len(d.fields) > 10:
        what.append(f"and {len(d.fields) - 10} more fields")
    return (
        f"| {d.severity} | {escape(status_words(d.status, names))} | "
        f"{escape(redact_text(d.key_text))} | {_span(d.a) if d.a else '–'} | "
        f"{_span(d.b) if d.b else '–'} | {'<br>'.join(what)} |"
    )


def value_pair(a: Any, b: Any) -> tuple[str, str]:
    """The two sides of a field as short JSON, cut around where they differ."""
    return shorten_pair(short(a, _NO_CUT), short(b, _NO_CUT), _SHORT)


_SHORT = 60
"""Characters of a value shown in the text and Markdown (as the diff's `short`)."""
_NO_CUT = 1 << 62


def _span(text: str) -> str:
    """A code span fit for a table cell: GitHub splits cells even at a pipe inside one."""
    return code(redact_text(text)).replace("|", "\\|")


def to_dict(result: Comparison) -> dict[str, Any]:
    """`{"schema_version": 1, "summary": {...}, "differences": [...], "known": [...]}`: the
    machine form, described by `docs/schemas/compare.schema.json`."""
    a, b = result.names
    return {
        "schema_version": SCHEMA_VERSION,
        "summary": {
            "text": summary(result).split("\n", 1)[0],
            "names": {"a": redact_text(a), "b": redact_text(b)},
            **result.counts(),
            "notes": [redact_text(note) for note in result.notes],
            "a": _snapshot(result.a),
            "b": _snapshot(result.b),
        },
        "differences": [_difference(d) for d in result.differences],
        "known": [
            {
                **_difference(d),
                "known": {
                    "reason": redact_text(rule.reason),
                    "expires": rule.expires.isoformat() if rule.expires else None,
                },
            }
            for d, rule in result.known
        ],
    }


def _difference(d: Difference) -> dict[str, Any]:
    return {
        "kind": d.kind,
        "status": d.status,
        "key": [redact_text(part) for part in d.key],
        "name": redact_text(d.name),
        "a": d.a,
        "b": d.b,
        "severity": d.severity,
        "reason": redact_text(d.reason),
        "match": d.match,
        "fields": [
            {
                "path": f.path,
                "a": f.a,
                "b": f.b,
                "severity": f.severity,
                "reason": redact_text(f.reason),
                "wired": f.wired,
            }
            for f in d.fields
        ],
        "candidates": [[redact_text(part) for part in c] for c in d.candidates],
        "nodes": list(d.nodes),
        "expired": redact_text(d.expired) if d.expired else None,
    }


def _snapshot(estate: Any) -> dict[str, Any]:
    info = estate.info
    return {
        "source_url": redact_text(info.source_url) if info.source_url else None,
        "fetched_at": info.fetched_at.isoformat() if info.fetched_at else None,
        "profiles": len(estate.records),
    }


def to_json(result: Comparison, *, indent: int | None = 2) -> str:
    return report_json(redact_fields(to_dict(result)), indent)


def to_csv(result: Comparison) -> str:
    """One row per field that differs (one per item without fields); a cell a spreadsheet
    would run as a formula gets a leading `'`, one holding a line break is quoted."""
    table: list[Iterable[object]] = [CSV_COLUMNS]
    for d in result.differences:
        base = [d.severity, d.kind, d.status, key_text(d.key), d.name, d.a or "", d.b or ""]
        rows = [(f.path, _cell(f.a), _cell(f.b), f.reason) for f in d.fields] or [
            ("", "", "", d.reason)
        ]
        for row in rows:
            cells = [*base, *row]
            table.append([csv_safe(drop_unprintable(redact_text(str(c)))) for c in cells])
    return csv_text(table)


def _cell(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, default=str)
