"""A finding (one thing a rule found, on one item) and a list of them.

A finding names its rule by `code` (`SEC006`) and by `kind`, the rule's name
(`weak_as2_algorithm`), which the eleven checks older than codes were filtered by and still
are. `key` is what it is about apart from its rule (a node id, an endpoint): with the code
it makes the `fingerprint` that baselines and SARIF use to recognise a finding across runs,
so it never holds counts or names that an unrelated edit would change.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import pandas

__all__ = ["Severity", "SEVERITIES", "LEGACY_KINDS", "Finding", "Findings", "severity_rank"]

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


LEGACY_KINDS = (
    "parse_problem",
    "duplicate_profile_id",
    "profile_without_id",
    "channel_conflict",
    "partner_conflict",
    "unresolved_channel",
    "active_profile_inactive_channel",
    "inactive_profile_active_channel",
    "partner_without_active_channel",
    "no_response_path",
    "duplicate_endpoint",
)
"""The eleven kinds the audit had before codes, in their old order (now rules' names)."""


def severity_rank(severity: str) -> int:
    """0 for error, 1 warning, 2 info: sorting by it puts the worst first."""
    return SEVERITIES.index(severity)


@dataclass(frozen=True)
class Finding:
    """One thing worth a look: what (`kind`, `code`), how bad, in words, the nodes involved,
    and where in the listing (`profile` position, `path` inside that profile)."""

    kind: str
    severity: Severity
    text: str
    nodes: tuple[str, ...] = ()
    code: str = ""
    key: str = ""
    """What identifies the finding apart from its rule (`channel:20:signingAlgorithm`);
    defaults to the first node."""
    profile: int | None = None
    """Position in the listing of the profile where it was found, when one is."""
    path: str | None = None
    """JSON path inside that profile (`$.inputAgentSettings.channels[0]`)."""

    def __str__(self) -> str:
        code = f"{self.code} " if self.code else ""
        return f"{code}[{self.severity}] {self.text}"

    @property
    def item(self) -> str:
        """The item the finding is about: its first node (else its key)."""
        return self.nodes[0] if self.nodes else self.key

    @property
    def fingerprint(self) -> str:
        """16 hex digits of SHA-256 over code (or kind) and key: the same finding in a
        reordered or otherwise edited listing has the same fingerprint."""
        what = f"{self.code or self.kind}\x1f{self.key or self.item}"
        return hashlib.sha256(what.encode("utf-8")).hexdigest()[:16]


class Findings(list[Finding]):
    """A list of findings, errors first, with a table view and filters.

    `hidden` counts the findings a baseline hid, `suppressed` those a configured
    suppression hid (both 0 unless the audit was given one)."""

    hidden: int = 0
    suppressed: int = 0

    def to_frame(self) -> pandas.DataFrame:
        """One row per finding: severity, kind, text, nodes (a list of node ids), code,
        item, path."""
        import pandas as pd

        rows = [(f.severity, f.kind, f.text, list(f.nodes), f.code, f.item, f.path) for f in self]
        columns = ["severity", "kind", "text", "nodes", "code", "item", "path"]
        return pd.DataFrame(rows, columns=columns)

    def counts(self) -> dict[str, int]:
        """How many findings of each kind: the eleven older kinds first, in their order
        (`LEGACY_KINDS`), then the others by code."""
        counted: dict[str, int] = {}
        code_of: dict[str, str] = {}
        for finding in self:
            counted[finding.kind] = counted.get(finding.kind, 0) + 1
            code_of.setdefault(finding.kind, finding.code)

        def order(kind: str) -> tuple[int, str]:
            if kind in LEGACY_KINDS:
                return (LEGACY_KINDS.index(kind), "")
            return (len(LEGACY_KINDS), code_of[kind])

        return {kind: counted[kind] for kind in sorted(counted, key=order)}

    def by_code(self) -> dict[str, int]:
        """How many findings of each code, in code order."""
        counted: dict[str, int] = {}
        for finding in self:
            counted[finding.code] = counted.get(finding.code, 0) + 1
        return dict(sorted(counted.items()))

    def of(
        self, *, kind: str | None = None, severity: str | None = None, code: str | None = None
    ) -> Findings:
        """The findings of one kind, severity and/or code (a code, a family prefix such
        as `SEC`, or a kind's name)."""
        return Findings(
            f
            for f in self
            if (kind is None or f.kind == kind)
            and (severity is None or f.severity == severity)
            and (code is None or code_matches(f, code))
        )

    def __str__(self) -> str:
        return "\n".join(str(finding) for finding in self)


def code_matches(finding: Finding, selector: str) -> bool:
    """Whether a finding answers to `selector`: its code, a prefix of it (`SEC`, `SEC0`),
    its kind, or `ALL`."""
    wanted = selector.strip()
    upper = wanted.upper()
    return (
        upper == "ALL"
        or wanted == finding.kind
        or (bool(upper) and bool(finding.code) and finding.code.startswith(upper))
    )
