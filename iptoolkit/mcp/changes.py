"""The change-over-time tools' answers: schema drift of one snapshot, the diff of two, and
the comparison of two installations (`ipt.compare`: matched by natural keys, not ids).

As `answers`, with no MCP in sight: `ipt.schema_report` and `ipt.diff` (from
`iptoolkit.change`), paged, and a diff's long values (an added profile is the whole of it)
cut with a note naming the `get_item` call that shows them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .answer_models import ChangeRow, ComparePage, DifferenceRow, DiffPage, DriftPage, DriftRow
from .cursors import page

if TYPE_CHECKING:
    from ..change.estate_diff import Change
    from .store import Loaded, Store

__all__ = ["schema_report", "diff", "compare", "CHANGE_VALUE"]

CHANGE_VALUE = 300
"""Characters of a changed value's JSON shown in a diff (an added profile is all of it)."""


def schema_report(loaded: Loaded, kind: str | None, limit: int, cursor: str | None) -> DriftPage:
    """The schema drift report (`ipt.schema_report`), of one kind or all, a page at a time."""
    from ..change.drift_report import DRIFT_KINDS

    report = loaded.drift
    if kind is not None and kind not in DRIFT_KINDS:
        raise ValueError(f"kind {kind!r} is not a kind of drift: {', '.join(DRIFT_KINDS)}")
    rows = report.of(kind) if kind is not None else report.items
    shown, next_cursor = page(rows, limit, cursor)
    return DriftPage(
        snapshot=loaded.name,
        summary=report.summary(),
        counts=report.counts(),
        total=len(rows),
        items=[DriftRow.model_validate(row.to_dict()) for row in shown],
        next_cursor=next_cursor,
    )


def diff(
    store: Store,
    old: str | None,
    new: str | None,
    kind: str | None,
    severity: str | None,
    limit: int,
    cursor: str | None,
) -> DiffPage:
    """What changed from `old` to `new` (`ipt.diff`; by default the snapshot before the
    current one, and the current one), of a kind and severity, a page at a time."""
    from ..change.estate_diff import KINDS as CHANGE_KINDS
    from ..change.estate_diff import SEVERITIES as CHANGE_SEVERITIES

    newer = store.get(new)
    older = store.get(old) if old is not None else store.before(newer)
    if older is None:
        raise ValueError(
            f"no snapshot is older than {newer.name!r}: name old= (loaded: "
            f"{', '.join(store.names)})"
        )
    if older is newer:
        raise ValueError(f"old and new are the same snapshot, {newer.name!r}")
    if kind is not None and kind not in CHANGE_KINDS:
        raise ValueError(f"kind {kind!r} is not a kind of change: {', '.join(CHANGE_KINDS)}")
    if severity is not None and severity not in CHANGE_SEVERITIES:
        raise ValueError(f"severity {severity!r} is not one of {', '.join(CHANGE_SEVERITIES)}")
    found = store.diff(older, newer)
    rows = found.of(kind=kind, severity=severity)
    shown, next_cursor = page(rows, limit, cursor)
    return DiffPage(
        old=older.name,
        new=newer.name,
        summary=found.summary(),
        counts=found.counts(),
        notes=list(found.notes),
        total=len(rows),
        items=[_change_row(change, older.name, newer.name) for change in shown],
        next_cursor=next_cursor,
    )


def _change_row(change: Change, old: str, new: str) -> ChangeRow:
    row = change.to_dict()
    for side, snapshot in (("old", old), ("new", new)):
        text = json.dumps(row[side], ensure_ascii=False, separators=(",", ":"), default=str)
        if len(text) > CHANGE_VALUE:
            row[side] = (
                f"{text[:CHANGE_VALUE]}... (cut at {CHANGE_VALUE} of {len(text):,} characters: "
                f"get_item with id={change.key!r} and snapshot={snapshot!r} shows it)"
            )
    return ChangeRow.model_validate(row)


def compare(
    store: Store,
    a: str | None,
    b: str | None,
    kind: str | None,
    status: str | None,
    limit: int,
    cursor: str | None,
) -> ComparePage:
    """What differs between two loaded snapshots of different installations (test and
    prod), by natural keys, of a kind and status, a page at a time."""
    from ..comparing.difference import KINDS, STATUSES
    from ..comparing.render import to_dict

    a, b = _two_named(store, a, b)
    left, right = store.get(a), store.get(b)
    if left is right:
        raise ValueError(f"a and b are the same snapshot, {left.name!r}")
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
    if status is not None and status not in STATUSES:
        raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    found = store.comparison(left, right)
    rows = [
        row
        for row in to_dict(found)["differences"]
        if (kind is None or row["kind"] == kind) and (status is None or row["status"] == status)
    ]
    shown, next_cursor = page(rows, limit, cursor)
    for row in shown:
        for field in row["fields"]:
            for side in ("a", "b"):
                text = json.dumps(field[side], ensure_ascii=False, default=str)
                if len(text) > CHANGE_VALUE:
                    field[side] = f"{text[:CHANGE_VALUE]}... (cut)"
    return ComparePage(
        a=left.name,
        b=right.name,
        summary=found.summary(),
        counts=found.counts(),
        total=len(rows),
        items=[DifferenceRow.model_validate(row) for row in shown],
        next_cursor=next_cursor,
    )


def _two_named(store: Store, a: str | None, b: str | None) -> tuple[str, str]:
    """`a` and `b`, either left out meaning the other snapshot of the two loaded, in the
    order they were named (`iptoolkit mcp test.json prod.json`: a is test), as `diff`
    needs no names of two."""
    if a is not None and b is not None:
        return a, b
    names = store.names
    if len(names) != 2:
        raise ValueError(
            f"name a and b: {len(names)} snapshots are loaded ({', '.join(names)}), "
            "so which two to compare is not clear"
        )
    if a is None and b is None:
        return names[0], names[1]
    if a is not None:
        return a, names[0] if store.get(a).name == names[1] else names[1]
    assert b is not None
    return (names[0] if store.get(b).name == names[1] else names[1]), b
