"""An `EstateDiff` written out: a plan-style summary, HTML, a frame, Markdown and JSON.

Pure functions of the diff (the methods of `EstateDiff` call them), in the itables habit:
`to_*` functions, a thin display layer. Values were masked when the diff was made; here
they are only shortened for people (`short`), never for the machine forms. Ids, names,
paths and reasons are hostile input: the text and HTML forms write their control
characters as escapes (`escape_unprintable`: an id with `\\r` cannot rewrite a line on
a terminal), the Markdown form drops them (`support.markdown`); the machine forms (JSON,
the frame) keep them as they are.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Collection, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..support.comment_fit import counted_by, fit, left_out
from ..support.jsonio import report_json
from ..support.markdown import code, escape
from ..support.names import plural
from ..support.printable import escape_unprintable
from ..support.redact import redact_text
from .record import KINDS, SEVERITIES, Change
from .severity import TIMESTAMP_FIELDS
from .swaps import channel_words, is_channel

if TYPE_CHECKING:
    import pandas

__all__ = [
    "Diff",
    "summary",
    "summary_dict",
    "to_html",
    "to_frame",
    "to_markdown",
    "to_dict",
    "to_json",
    "short",
    "deactivated",
    "counted",
    "SCHEMA_VERSION",
]

SCHEMA_VERSION = 1
"""The version of `to_dict`'s shape (`docs/schemas/diff.schema.json`): raised when a field
is added, removed or changes meaning, so a reader can tell which shape it holds."""


class Diff(Protocol):
    """What these functions read of a diff (`EstateDiff` is one). Render names no model
    class, so `EstateDiff`'s methods can call it without a circle of imports."""

    @property
    def changes(self) -> tuple[Change, ...]: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def old(self) -> Any: ...
    @property
    def new(self) -> Any: ...
    def counts(self) -> dict[str, Any]: ...
    def of(
        self, *, kind: Any = None, op: Any = None, severity: Any = None
    ) -> tuple[Change, ...]: ...


FRAME_COLUMNS = (
    "severity",
    "kind",
    "key",
    "name",
    "op",
    "path",
    "old",
    "new",
    "reason",
    "profiles",
    "cause",
)
_PLAN_ORDER = ("added", "changed", "removed")
_NOUNS = {"schema": "schema element"}
"""What a summary counts of a kind, where the kind's name is not the noun: a schema change
is a class or field that appears or disappears."""
_HTML_ROWS = 200
_SHORT = 60


def deactivated(diff: Diff) -> dict[str, int]:
    """Items per kind whose `active` went from true to anything else."""
    found = {kind: 0 for kind in ("profile", "channel", "partner")}
    for change in diff.changes:
        if change.path == "$.active" and change.old is True and change.new is not True:
            found[change.kind] = found.get(change.kind, 0) + 1
    return found


def summary(diff: Diff) -> str:
    """The plan-style line: "3 profiles added, 5 changed, 1 removed; 2 channels
    deactivated; 2 breaking", and the notes after it."""
    if not diff.changes:
        text = "No changes."
    else:
        counts = diff.counts()
        parts = []
        for kind in KINDS:
            done = [(op, counts[kind][op]) for op in _PLAN_ORDER if counts[kind][op]]
            if done:
                parts.append(counted(_NOUNS.get(kind, kind), done))
        off = deactivated(diff)
        gone = [f"{plural(count, kind)} deactivated" for kind, count in off.items() if count]
        if gone:
            parts.append(", ".join(gone))
        severity = counts["severity"]
        parts.append(
            ", ".join(f"{severity[name]:,} {name}" for name in SEVERITIES if severity[name])
        )
        text = "; ".join(parts)
    notes = "".join(f"\nNote: {note}." for note in diff.notes)
    return text + notes


def summary_dict(diff: Diff) -> dict[str, Any]:
    """The summary of the machine form: counts, the line people read, notes, the snapshots."""
    return {
        "text": summary(diff).split("\n", 1)[0],
        **diff.counts(),
        "deactivated": deactivated(diff),
        "notes": list(diff.notes),
        "old": _snapshot(diff.old),
        "new": _snapshot(diff.new),
    }


def _snapshot(estate: Any) -> dict[str, Any]:
    info = estate.info
    return {
        "source_url": redact_text(info.source_url) if info.source_url else info.source_url,
        "fetched_at": info.fetched_at.isoformat() if info.fetched_at else None,
        "profiles": len(estate.records),
    }


def to_dict(diff: Diff) -> dict[str, Any]:
    """`{"schema_version": 1, "summary": {...}, "changes": [{kind, key, op, path, old, new,
    severity, ...}]}`, described by `docs/schemas/diff.schema.json`."""
    return {
        "schema_version": SCHEMA_VERSION,
        "summary": summary_dict(diff),
        "changes": [c.to_dict() for c in diff.changes],
    }


def to_json(diff: Diff, *, indent: int | None = 2) -> str:
    """The machine form as JSON text (values as received, masked)."""
    return report_json(to_dict(diff), indent, default=str)


def to_frame(diff: Diff) -> pandas.DataFrame:
    """One row per change; `old` and `new` as compact JSON text when they are objects or
    lists, so the frame is flat and writes to CSV as it reads."""
    import pandas as pd

    rows = [
        {
            **{name: getattr(change, name) for name in FRAME_COLUMNS},
            "old": _flat(change.old),
            "new": _flat(change.new),
            "profiles": _flat(list(change.profiles)),
        }
        for change in diff.changes
    ]
    return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))


def _flat(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return value


def counted(noun: str, counts: list[tuple[str, int]]) -> str:
    """ "3 profiles added, 5 changed": (what, how many) pairs, the first naming `noun`."""
    (first_word, first), *rest = counts
    return ", ".join([f"{plural(first, noun)} {first_word}", *(f"{n:,} {w}" for w, n in rest)])


def short(value: Any, limit: int = _SHORT) -> str:
    """A value as one short line of JSON ("…" when cut)."""
    if value is None:
        return "null"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def said(value: Any, path: str | None) -> str:
    """A changed value as people read it: a channel as `channel 40049 (Fjord Freight AS2)`,
    a timestamp (epoch milliseconds) with its date, anything else as `short` JSON."""
    if is_channel(value):
        return channel_words(value)
    text = short(value)
    name = _FIELD.search(path or "")
    if name and name.group(1) in TIMESTAMP_FIELDS and isinstance(value, int):
        when = _date(value)
        if when:
            text += f" ({when})"
    return text


_FIELD = re.compile(r"\.(\w+)$")
_EPOCH_MS = (946_684_800_000, 4_102_444_800_000)
"""Epoch milliseconds read as dates: 2000-01-01 to 2100-01-01."""


def _date(value: int) -> str:
    if not _EPOCH_MS[0] <= value < _EPOCH_MS[1]:
        return ""
    return datetime.fromtimestamp(value / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")


# -- for people ---------------------------------------------------------------------------


def _items(
    changes: Iterable[Change], diff: Diff
) -> list[tuple[Change, list[Change], list[Change]]]:
    """Changes grouped by item (kind, key, op), in the order the diff lists them: (the
    item's first change, its changes, the links its change made). A link whose cause is an
    item of the diff is folded under that item (under a heading of its own when the item
    has no change of the link's severity); any other link is an item of its own."""
    heads = _heads(diff)
    groups: dict[tuple[str, str, str], tuple[Change, list[Change], list[Change]]] = {}
    for change in changes:
        head = heads.get(change.cause) if change.kind == "link" and change.cause else None
        if head is not None:
            entry = groups.setdefault((head.kind, head.key, head.op), (head, [], []))
            entry[2].append(change)
        else:
            key = (change.kind, change.key, change.op)
            first, own, links = groups.get(key, (change, [], []))
            if not own and first is not change and first.kind != change.kind:
                first = change
            own.append(change)
            groups[key] = (own[0], own, links)
    return list(groups.values())


def _heads(diff: Diff) -> dict[str, Change]:
    """Item key -> the first change of that item (not a link), for folding links."""
    found: dict[str, Change] = {}
    for change in diff.changes:
        if change.kind != "link":
            found.setdefault(change.key, change)
    return found


def _title(change: Change) -> str:
    name = f" ({escape_unprintable(change.name)})" if change.name else ""
    return f"{change.kind} {escape_unprintable(change.key)}{name}"


def _field_line(change: Change) -> str:
    if not _valued(change):
        return escape_unprintable(change.path or "")
    before, after = said(change.old, change.path), said(change.new, change.path)
    return escape_unprintable(f"{change.path}: {before} -> {after}")


def _valued(change: Change) -> bool:
    """Whether a field's change has values to show: a schema change (a field or class
    appearing or going) has none, and `null -> null` read as a change of nothing."""
    return change.kind != "schema"


def to_text(diff: Diff) -> str:
    """The summary, then one block per item (`+` added, `-` removed, `~` changed), most
    severe first: what `iptoolkit diff` prints."""
    lines = [summary(diff)]
    sign = {"added": "+", "removed": "-", "changed": "~"}
    for severity in SEVERITIES:
        chosen = diff.of(severity=severity)
        if not chosen:
            continue
        lines += ["", f"{severity} ({len(chosen)}):"]
        for first, group, links in _items(chosen, diff):
            fields = [change for change in group if change.path]
            whole = [escape_unprintable(reason) for reason in _whole_reasons(group)]
            why = f"  [{'; '.join(whole)}]" if whole else ""
            lines.append(f"  {sign[first.op]} {_title(first)}{why}")
            for change in fields:
                reason = f"  [{escape_unprintable(change.reason)}]" if change.reason else ""
                lines.append(f"      {_field_line(change)}{reason}")
            for link in links:
                reason = f"  [{escape_unprintable(link.reason)}]" if _telling(link) else ""
                lines.append(f"      link {sign[link.op]} {escape_unprintable(link.key)}{reason}")
    return "\n".join(lines)


def to_markdown(diff: Diff, *, limit: int | None = None, details: str | None = None) -> str:
    """A changelog for a documentation page: the summary, then a section per severity
    (breaking first), an entry per item with its name, and its changed fields. With a
    `limit` (`COMMENT_LIMIT`, for a pull-request comment) a changelog that would pass it
    keeps the worst items that fit and says first what it left out, and where the whole
    changelog is (`details`, a file name)."""
    entries: list[tuple[str, str, int]] = []  # (severity, the item's Markdown, its changes)
    for severity in SEVERITIES:
        for first, group, links in _items(diff.of(severity=severity), diff):
            entries.append((severity, _markdown_item(first, group, links), len(group + links)))
    ranks = [SEVERITIES.index(severity) for severity, _, _ in entries]

    def render(kept: Collection[int] | None) -> str:
        return _markdown(diff, entries, kept, details)

    return fit(render, [len(text) for _, text, _ in entries], ranks, limit)


def _markdown(
    diff: Diff,
    entries: list[tuple[str, str, int]],
    kept: Collection[int] | None,
    details: str | None,
) -> str:
    """The changelog with the items of `kept` (every item when None), and what it left out."""
    old, new = _snapshot(diff.old), _snapshot(diff.new)
    lines = [
        "# Changes",
        "",
        _from_to(old, new),
        "",
        f"**{escape(summary(diff).split(chr(10), 1)[0])}**",
    ]
    lines += [f"\n> Note: {escape(note)}." for note in diff.notes]
    shown = set(range(len(entries)) if kept is None else kept)
    if len(shown) < len(entries):
        left = [entries[n] for n in range(len(entries)) if n not in shown]
        changes = [(s, sum(n for v, _, n in left if v == s)) for s in SEVERITIES]
        what = f"{counted_by('change', changes)} of {plural(len(left), 'item')}"
        lines += ["", left_out([what], details)]
    for severity in SEVERITIES:  # a section whose items are all left out keeps its count
        found = [n for n, entry in enumerate(entries) if entry[0] == severity]
        if not found:
            continue
        lines += ["", f"## {severity.capitalize()} ({len(diff.of(severity=severity))})", ""]
        lines += [entries[n][1] for n in found if n in shown]
    return "\n".join(lines) + "\n"


def _markdown_item(first: Change, group: list[Change], links: list[Change]) -> str:
    """An item of the changelog: its title line, then a line per changed field and link."""
    name = f" {escape(first.name)}" if first.name else ""
    whole = [escape(reason) for reason in _whole_reasons(group)]
    why = f": {'; '.join(whole)}" if whole else ""
    lines = [f"- **{first.kind} {first.op}**{name} ({code(first.key)}){why}"]
    for change in group:
        if change.path:
            what = code(change.path)
            if _valued(change):
                before, after = said(change.old, change.path), said(change.new, change.path)
                what += f": {code(before)} → {code(after)}"
            reason = f" ({escape(change.reason)})" if change.reason else ""
            lines.append(f"    - {what}{reason}")
    for link in links:
        reason = f" ({escape(link.reason)})" if _telling(link) else ""
        lines.append(f"    - link {link.op} {code(link.key)}{reason}")
    return "\n".join(lines)


def _telling(link: Change) -> bool:
    """A folded link's reason is worth showing when it is breaking: a rewiring is said by
    the change above it, a link added or removed with its item by the item."""
    return link.severity == "breaking" and bool(link.reason)


def _whole_reasons(group: list[Change]) -> list[str]:
    """The reasons of an item's changes as a whole, leaving out those that only repeat the
    kind and op the entry shows ("profile added")."""
    return [
        change.reason
        for change in group
        if not change.path and change.reason and change.reason != f"{change.kind} {change.op}"
    ]


def _from_to(old: dict[str, Any], new: dict[str, Any]) -> str:
    """The changelog's first line: which snapshots it compares. Two that say the same of
    where and when they came from (demo estates, files saved with no fetch time) are the
    older and the newer snapshot, not "from demo:seed=0 to demo:seed=0"."""
    if (_origin(old), old["fetched_at"]) != (_origin(new), new["fetched_at"]):
        return f"From {_where(old)} to {_where(new)}."
    when = f"fetched {old['fetched_at']}" if old["fetched_at"] else "with no fetch time recorded"
    return (
        f"From the older snapshot ({plural(old['profiles'], 'profile')}) to the newer "
        f"({plural(new['profiles'], 'profile')}), both read from {_origin(old)}, {when}."
    )


def _origin(snapshot: dict[str, Any]) -> str:
    """Where a snapshot came from, escaped: its source, or "a local snapshot"."""
    return escape(snapshot["source_url"] or "a local snapshot")


def _where(snapshot: dict[str, Any]) -> str:
    when = f" fetched {snapshot['fetched_at']}" if snapshot["fetched_at"] else ""
    return f"{_origin(snapshot)}{when} ({plural(snapshot['profiles'], 'profile')})"


def to_html(diff: Diff) -> str:
    """The summary and a compact table, breaking changes first, everything escaped."""

    def esc(text: str) -> str:
        return html.escape(escape_unprintable(text))

    rows = []
    colour = {"breaking": "#b00020", "notable": "#a15c00", "cosmetic": "#666"}
    for change in diff.changes[:_HTML_ROWS]:
        value = f"{esc(short(change.old))} → {esc(short(change.new))}" if change.path else change.op
        rows.append(
            f"<tr><td style='color:{colour[change.severity]}'>{change.severity}</td>"
            f"<td>{esc(change.kind)}</td><td><code>{esc(change.key)}</code>"
            f"{'<br>' + esc(change.name) if change.name else ''}</td>"
            f"<td><code>{esc(change.path or '')}</code></td><td>{value}</td>"
            f"<td>{esc(change.reason)}</td></tr>"
        )
    more = len(diff.changes) - _HTML_ROWS
    if more > 0:
        rows.append(f"<tr><td colspan='6'>… and {more} more (see to_frame())</td></tr>")
    notes = "".join(f"<br><i>Note: {esc(note)}.</i>" for note in diff.notes)
    table = (
        "<table><thead><tr><th>severity</th><th>kind</th><th>item</th><th>path</th>"
        f"<th>old → new</th><th>why</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        if rows
        else ""
    )
    head = esc(summary(diff).split("\n", 1)[0])
    return f"<div class='iptoolkit-diff'><b>Diff</b>: {head}{notes}{table}</div>"
