"""`Change`: one difference between two snapshots, with its kinds, ops and severities.

The record every part of `change/` reads: `diff.py` and the schema changes make them,
`model.py` holds them in an `EstateDiff`, `render.py` writes them out. A change is one of:

- kind `"profile" | "channel" | "partner"`: an item added, removed, or changed at one JSON
  path inside it (`$.inputAgentSettings.timeout`);
- kind `"link"`: an edge of the graph added or removed, key `"source -> target"`;
- kind `"schema"`: a class or field that appears or disappears between the snapshots.

Values are masked as in every export (`redact.redact_fields`), so a diff never shows a
secret. Severity: `"breaking"`, `"notable"` or `"cosmetic"`, by the one table of rules in
`severity.RULES` (breaking: an active profile stops receiving or delivering something).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..support.redact import redact_text

__all__ = ["Change", "ChangeKind", "ChangeOp", "Severity", "KINDS", "OPS", "SEVERITIES"]

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
