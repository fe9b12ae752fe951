"""What a report is written from: the findings, the rules that ran, where the snapshot
is, and where each profile starts in it."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...support.printable import escape_unprintable
from ...support.redact import redact_text
from ..finding import Finding, Findings, severity_rank
from ..rule import Rule

__all__ = ["ReportContext", "FAILS", "shown", "names_a_profile", "named_profile"]

FAILS = {"error": 0, "warning": 1, "info": 2, "never": -1}
"""`--fail-on` as the worst rank (severity_rank) that fails: never fails nothing."""


def shown(text: str) -> str:
    """Text from the estate (a name, an id, a finding's words) as a report line for people
    shows it: credentials masked, control and bidi characters written as escapes (`\\x1b`,
    `\\r`), so that no id ends a line, rewrites one on a terminal, or breaks a CSV or XML."""
    return escape_unprintable(redact_text(text))


@dataclass
class ReportContext:
    """Findings with what reports say about them; `positions` maps a profile's position
    in the listing to its (line, column) in `snapshot` (a list: the profiles in order);
    `profiles` maps each profile's node id to its position, so that a finding found in no
    one profile (several agents on one URL, a channel id no profile holds) points at the
    first profile it names; `limit` and `details`: the Markdown report's room (a comment's,
    `COMMENT_LIMIT`) and the file holding the whole report (`markdown_report`)."""

    found: Findings
    rules: Sequence[Rule]
    snapshot: Path | None = None
    positions: Mapping[int, tuple[int, int]] | Sequence[tuple[int, int]] = field(
        default_factory=dict
    )
    fail_on: str = "warning"
    root: Path = field(default_factory=Path.cwd)
    profiles: Mapping[str, int] = field(default_factory=dict)
    limit: int | None = None
    details: str | None = None

    @functools.cached_property
    def rule_of(self) -> dict[str, Rule]:
        return {one.code: one for one in self.rules}

    def title(self, finding: Finding) -> str:
        one = self.rule_of.get(finding.code)
        return one.title if one else finding.kind.replace("_", " ")

    def position(self, finding: Finding) -> tuple[int, int] | None:
        """Where the finding's profile starts, else the first profile it names (by its
        node, or its agent's), in the snapshot file."""
        at = (
            finding.profile
            if finding.profile is not None
            else named_profile(finding, self.profiles)
        )
        return None if at is None else self._positions.get(at)

    @functools.cached_property
    def _positions(self) -> Mapping[int, tuple[int, int]]:
        given = self.positions
        return given if isinstance(given, Mapping) else dict(enumerate(given))

    @functools.cached_property
    def uri(self) -> str | None:
        """The snapshot's path relative to the working directory (as GitHub wants it),
        with forward slashes; absolute when it lies elsewhere."""
        if self.snapshot is None:
            return None
        path = self.snapshot.resolve()
        try:
            return path.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_uri()

    def where(self, finding: Finding) -> str:
        """`snapshot.json:12:1` (or the bare name, or the item when no file is known)."""
        name = self.uri if self.uri and not self.uri.startswith("file:") else (
            str(self.snapshot) if self.snapshot else "")  # fmt: skip
        at = self.position(finding)
        if name and at:
            return f"{name}:{at[0]}:{at[1]}"
        return name or redact_text(finding.item)

    def fails(self, finding: Finding) -> bool:
        """Whether the finding is at or above `fail_on`."""
        return severity_rank(finding.severity) <= FAILS[self.fail_on]

    def row(self, finding: Finding) -> dict[str, Any]:
        """One finding as a flat record (JSON, CSV): every text masked."""
        at = self.position(finding)
        return {
            "code": finding.code,
            "severity": finding.severity,
            "kind": finding.kind,
            "title": self.title(finding),
            "text": redact_text(finding.text),
            "item": redact_text(finding.item),
            "nodes": [redact_text(node) for node in finding.nodes],
            "path": finding.path,
            "profile": finding.profile,
            "line": at[0] if at else None,
            "column": at[1] if at else None,
            "fingerprint": finding.fingerprint,
        }


_PROFILE_NODES = ("profile:", "agent:")
"""The nodes that stand for one profile: its own, and its input agent's (same key)."""


def names_a_profile(finding: Finding) -> bool:
    """Whether the finding is in a profile or names one (a report then wants the lines)."""
    return finding.profile is not None or any(
        node.startswith(_PROFILE_NODES) for node in finding.nodes
    )


def named_profile(finding: Finding, profiles: Mapping[str, int]) -> int | None:
    """The position of the first profile a finding names, by node id (`profiles`)."""
    for node in finding.nodes:
        for prefix in _PROFILE_NODES:
            if node.startswith(prefix):
                at = profiles.get("profile:" + node[len(prefix) :])
                if at is not None:
                    return at
    return None
