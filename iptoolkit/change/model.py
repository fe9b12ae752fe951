"""The data of a diff: `Change` records and the `EstateDiff` that holds them.

Plain data, no computation: `diff.py` builds them, `render.py` writes them out, plots and
the command line read them. A change is one of:

- kind `"profile" | "channel" | "partner"`: an item added, removed, or changed at one JSON
  path inside it (`$.inputAgentSettings.timeout`);
- kind `"link"`: an edge of the graph added or removed, key `"source -> target"`;
- kind `"schema"`: a class or field that appears or disappears between the snapshots.

Values are masked as in every export (`redact.redact_fields`), so a diff never shows a
secret. Severity: `"breaking"`, `"notable"` or `"cosmetic"`, by the one table of rules in
`severity.RULES` (breaking: an active profile stops receiving or delivering something).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..redact import redact_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pandas

    from ..estate import Estate

ChangeKind = Literal["profile", "channel", "partner", "link", "schema"]
ChangeOp = Literal["added", "removed", "changed"]
Severity = Literal["breaking", "notable", "cosmetic"]

KINDS: tuple[ChangeKind, ...] = ("profile", "channel", "partner", "link", "schema")
OPS: tuple[ChangeOp, ...] = ("added", "removed", "changed")
SEVERITIES: tuple[Severity, ...] = ("breaking", "notable", "cosmetic")
"""Most severe first: reports list breaking changes before the others."""


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between two snapshots.

    `path` is the JSON path inside the item for a changed field (`None` for an item or a
    link added or removed); `old` and `new` are the values, masked (`None` on the side
    where there is nothing). `reason` says in words why the severity is what it is, for
    breaking and notable changes ("active profile P1 loses its input channel").
    """

    kind: ChangeKind
    key: str
    op: ChangeOp
    severity: Severity
    path: str | None = None
    old: Any = None
    new: Any = None
    reason: str = ""
    name: str = ""
    """The item's name as people know it (a profile's or channel's name), when it has one."""
    profiles: tuple[str, ...] = ()
    """Every profile the change affects (keys), in full: a reason may name only the first
    few, the machine forms (JSON, CSV) carry them all."""
    cause: str | None = None
    """For a link: the key of the item whose change made it (`profile:P1`, `channel:17`);
    reports for people show the link under that item's change."""

    def __post_init__(self) -> None:
        # a name (and a reason naming an item) may hold a URL with a password
        object.__setattr__(self, "name", redact_text(self.name))
        object.__setattr__(self, "reason", redact_text(self.reason))

    def to_dict(self) -> dict[str, Any]:
        """The machine form: the fields `--format json` prints, in this order."""
        return {
            "kind": self.kind,
            "key": self.key,
            "op": self.op,
            "path": self.path,
            "old": self.old,
            "new": self.new,
            "severity": self.severity,
            "reason": self.reason,
            "name": self.name,
            "profiles": list(self.profiles),
            "cause": self.cause,
        }


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
        from .render import summary

        return summary(self)

    def to_text(self) -> str:
        """The summary and every change by item, most severe first (`iptoolkit diff`)."""
        from .render import to_text

        return to_text(self)

    def to_frame(self) -> pandas.DataFrame:
        """One row per change (pandas, loaded on first use)."""
        from .render import to_frame

        return to_frame(self)

    def to_markdown(self) -> str:
        """A changelog for a documentation page, breaking changes first."""
        from .render import to_markdown

        return to_markdown(self)

    def to_dict(self) -> dict[str, Any]:
        """`{"summary": {...}, "changes": [...]}`: the machine form."""
        from .render import to_dict

        return to_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The machine form as JSON text."""
        from .render import to_json

        return to_json(self, indent=indent)

    def _repr_html_(self) -> str:
        from .render import to_html

        return to_html(self)

    def __repr__(self) -> str:
        first = self.summary().split("\n", 1)[0]
        return f"<EstateDiff {first}>"
