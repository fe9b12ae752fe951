"""The data of a diff: the `EstateDiff` that holds the `Change` records (`record.py`).

Plain data and counting: `diff.py` builds it, `render.py` writes it out (the methods below
call it; render reads the diff through a protocol and never names this class, so the two
do not import each other), plots and the command line read it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import render
from .record import KINDS, OPS, SEVERITIES, Change, ChangeKind, ChangeOp, Severity

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pandas

    from ..core.estate import Estate

__all__ = [
    "Change",
    "ChangeKind",
    "ChangeOp",
    "Severity",
    "KINDS",
    "OPS",
    "SEVERITIES",
    "EstateDiff",
]


@dataclass(frozen=True)
class EstateDiff:
    """What changed from `old` to `new`: a list of `Change`, most severe first.

    `notes` holds what a reader must know about the comparison itself ("the two snapshots
    have no id in common: they may come from different platforms").
    """

    old: Estate
    new: Estate
    changes: tuple[Change, ...]
    notes: tuple[str, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.changes)

    def __bool__(self) -> bool:
        return bool(self.changes)

    def __iter__(self) -> Iterator[Change]:
        return iter(self.changes)

    def of(
        self,
        *,
        kind: ChangeKind | None = None,
        op: ChangeOp | None = None,
        severity: Severity | None = None,
    ) -> tuple[Change, ...]:
        """The changes of one kind, op and/or severity."""
        return tuple(
            change
            for change in self.changes
            if (kind is None or change.kind == kind)
            and (op is None or change.op == op)
            and (severity is None or change.severity == severity)
        )

    def counts(self) -> dict[str, Any]:
        """Items added, changed and removed per kind, and changes per severity.

        An item with several changed fields counts once as changed.
        """
        items: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
        seen: set[tuple[str, str, str]] = set()
        for change in self.changes:
            if (change.kind, change.key, change.op) in seen:
                continue
            seen.add((change.kind, change.key, change.op))
            items[change.kind][change.op] += 1
        severities = Counter(change.severity for change in self.changes)
        return {
            **{kind: {op: items[kind][op] for op in OPS} for kind in KINDS},
            "severity": {severity: severities[severity] for severity in SEVERITIES},
            "changes": len(self.changes),
        }

    def keys(self, op: ChangeOp) -> frozenset[str]:
        """Graph node ids (and link keys) of the items with this op: what `plot_diff` colours."""
        return frozenset(change.key for change in self.changes if change.op == op)

    # -- written out (render.py) ----------------------------------------------------------

    def summary(self) -> str:
        """Plan style: "3 profiles added, 5 changed, 1 removed; 2 channels deactivated;
        2 breaking", with the notes on lines after it."""
        return render.summary(self)

    def to_text(self) -> str:
        """The summary and every change by item, most severe first (`iptoolkit diff`)."""
        return render.to_text(self)

    def to_frame(self) -> pandas.DataFrame:
        """One row per change (pandas, loaded on first use)."""
        return render.to_frame(self)

    def to_markdown(self, *, limit: int | None = None, details: str | None = None) -> str:
        """A changelog for a documentation page, breaking changes first; with a `limit`
        (`COMMENT_LIMIT`, a pull-request comment), the worst that fit and what was left out."""
        return render.to_markdown(self, limit=limit, details=details)

    def to_dict(self) -> dict[str, Any]:
        """`{"summary": {...}, "changes": [...]}`: the machine form."""
        return render.to_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The machine form as JSON text."""
        return render.to_json(self, indent=indent)

    def _repr_html_(self) -> str:
        return render.to_html(self)

    def __repr__(self) -> str:
        first = self.summary().split("\n", 1)[0]
        return f"<EstateDiff {first}>"
