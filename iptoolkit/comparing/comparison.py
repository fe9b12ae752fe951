"""The result of a comparison of two installations: the `Comparison`.

Plain data and counting: `engine.py` builds it, `render.py` writes it out (the methods
below call it; render reads a comparison through a protocol and never names this class,
so the two do not import each other); the command line, the MCP server and the docs site
read it. Its records (`Difference`, `Match`) are in `difference.py`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..change.record import SEVERITIES
from . import render
from .difference import (
    KINDS,
    STATUSES,
    Difference,
    FieldDiff,
    How,
    ItemKind,
    Match,
    Status,
    key_text,
)

if TYPE_CHECKING:
    from ..auditing.config import Suppression
    from ..core.estate import Estate

__all__ = [
    "ItemKind",
    "Status",
    "How",
    "KINDS",
    "STATUSES",
    "Match",
    "FieldDiff",
    "Difference",
    "Comparison",
    "key_text",
]


@dataclass(frozen=True)
class Comparison:
    """What differs between installation `a` and installation `b` (say, test and
    production), items matched by natural keys, most severe first.

    `known` holds the differences a known-difference rule hid, each with its rule;
    `notes` what a reader must know about the comparison itself."""

    a: Estate
    b: Estate
    differences: tuple[Difference, ...]
    matches: tuple[Match, ...]
    known: tuple[tuple[Difference, Suppression], ...] = ()
    notes: tuple[str, ...] = ()
    names: tuple[str, str] = ("A", "B")
    """What the two installations are called in reports (`test`, `prod`)."""
    ignored: int = 0
    """Fields that differed and that the ignore rules and substitutions silenced."""

    def __len__(self) -> int:
        return len(self.differences)

    def __bool__(self) -> bool:
        return bool(self.differences)

    def of(
        self, *, kind: ItemKind | None = None, status: Status | None = None
    ) -> tuple[Difference, ...]:
        """The differences of one kind and/or status."""
        return tuple(
            d
            for d in self.differences
            if (kind is None or d.kind == kind) and (status is None or d.status == status)
        )

    def counts(self) -> dict[str, Any]:
        """Differences per kind and status, per severity, matches per kind and how."""
        by: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
        for d in self.differences:
            by[d.kind][d.status] += 1
        matched: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
        for m in self.matches:
            matched[m.kind][m.how] += 1
        severities = Counter(d.severity for d in self.differences)
        return {
            **{kind: {status: by[kind][status] for status in STATUSES} for kind in KINDS},
            "matched": {kind: dict(matched[kind]) for kind in KINDS},
            "severity": {severity: severities[severity] for severity in SEVERITIES},
            "differences": len(self.differences),
            "known": len(self.known),
            "ignored_fields": self.ignored,
        }

    # -- written out (render.py) ----------------------------------------------------------

    def summary(self) -> str:
        """One line: "same" or "3 profiles only in test, 2 changed; ...", notes after."""
        return render.summary(self)

    def to_text(self) -> str:
        """Counts first, then every difference (`iptoolkit compare`)."""
        return render.to_text(self)

    def to_markdown(self, *, limit: int | None = None, details: str | None = None) -> str:
        """For a pull-request comment: the summary, details folded in `<details>`; with a
        `limit` (`COMMENT_LIMIT`), the worst that fit and what was left out."""
        return render.to_markdown(self, limit=limit, details=details)

    def to_dict(self) -> dict[str, Any]:
        """`{"summary": {...}, "differences": [...]}`: the machine form."""
        return render.to_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        return render.to_json(self, indent=indent)

    def to_csv(self) -> str:
        """One row per field that differs (one per item without fields); formulas
        neutralised."""
        return render.to_csv(self)

    def __repr__(self) -> str:
        return f"<Comparison {self.summary().splitlines()[0]}>"
