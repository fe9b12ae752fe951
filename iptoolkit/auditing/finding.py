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
    """A list of findings, errors first, with a table view and filters. Its repr (and a
    notebook's view) counts them and shows the first few; `print` lists every one.

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

    def __repr__(self) -> str:
        """Counts by severity and code and the first few findings, never all of them: the
        10,000-profile demo's findings were 413 KB of text in a notebook. Each text is
        masked as the reports mask it; `print(findings)` still lists every one."""
        if not self:
            return f"<Findings: none{_hidden_note(self)}>"
        lines = [f"<Findings: {_counted(self)}{_hidden_note(self)}", f"  by code: {_codes(self)}"]
        lines += [f"  {_shown(finding)}" for finding in self[:_FIRST]]
        lines.append(f"  {_more(self)}>")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """What `__repr__` says, as a notebook shows it (every text masked and escaped)."""
        from html import escape

        rows = "".join(
            f"<tr><td>{escape(f.code)}</td><td>{escape(f.severity)}</td>"
            f"<td>{escape(_masked(f.text))}</td></tr>"
            for f in self[:_FIRST]
        )
        table = f"<table><tbody>{rows}</tbody></table>" if rows else ""
        head = _counted(self) if self else "none"
        return (
            "<div class='iptoolkit-findings'>"
            f"<b>Findings</b>: {escape(head + _hidden_note(self))}"
            + (f"<br>by code: {escape(_codes(self))}" if self else "")
            + table
            + (f"<small>{escape(_more(self))}</small>" if self else "")
            + "</div>"
        )


_FIRST = 5
"""The findings a repr shows; the rest are counted."""
_CODES = 12
"""The codes a repr counts by name; the rest together."""


def _counted(found: Findings) -> str:
    """`1,234 (12 errors, 300 warnings, 922 info)`."""
    by_severity = {severity: 0 for severity in SEVERITIES}
    for finding in found:
        by_severity[finding.severity] += 1
    said = ", ".join(
        f"{count:,} {severity}{'s' if count != 1 and severity != 'info' else ''}"
        for severity, count in by_severity.items()
        if count
    )
    return f"{len(found):,} ({said})"


def _codes(found: Findings) -> str:
    """`DAT001 3, SEC006 400, ...`, the most frequent `_CODES` codes, the rest counted."""
    ranked = sorted(found.by_code().items(), key=lambda pair: (-pair[1], pair[0]))
    said = ", ".join(f"{code or '(no code)'} {count:,}" for code, count in ranked[:_CODES])
    rest = len(ranked) - _CODES
    return said + (f" and {rest:,} more codes" if rest > 0 else "")


def _hidden_note(found: Findings) -> str:
    hidden = [
        f"{count:,} {what}"
        for count, what in (
            (found.hidden, "hidden by the baseline"),
            (found.suppressed, "suppressed"),
        )
        if count
    ]
    return f"; {', '.join(hidden)}" if hidden else ""


def _more(found: Findings) -> str:
    """Where the rest is: the table, or the list itself."""
    rest = len(found) - _FIRST
    shown = f"{rest:,} more; " if rest > 0 else ""
    return f"{shown}.to_frame() for a table, or iterate (.of(code=...) picks some)"


def _masked(text: str) -> str:
    """A finding's text as the reports write it: credentials masked, control characters
    escaped, on one line and cut."""
    from ..support.printable import escape_unprintable, shorten
    from ..support.redact import redact_text

    return shorten(escape_unprintable(redact_text(text)), 160)


def _shown(finding: Finding) -> str:
    code = f"{finding.code} " if finding.code else ""
    return f"{code}[{finding.severity}] {_masked(finding.text)}"


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
