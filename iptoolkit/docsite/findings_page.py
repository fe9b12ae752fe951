"""The findings page (every audit finding, by severity and kind) and the finding lines the
partner pages share."""

from __future__ import annotations

from collections.abc import Iterable

from ..audit import SEVERITIES, Finding
from ..names import plural
from . import markdown as md
from .context import FINDINGS_PAGE, INDEX_PAGE, Context
from .full_lists import capped
from .sitemap import relative

__all__ = ["findings_page", "finding_lines", "FINDINGS_TITLE"]

FINDINGS_TITLE = "Findings: what deserves a look"
_NODES_SHOWN = 10


def finding_lines(ctx: Context, page: str, found: Iterable[Finding]) -> list[str]:
    """One list item per finding: severity, kind, its text, links to the items it names."""
    lines = []
    for finding in found:
        items = [ctx.link(page, node) for node in finding.nodes if node in ctx.graph]
        named = f" ({md.more(items, _NODES_SHOWN, 'named in the text')})" if items else ""
        kind = finding.kind.replace("_", " ")
        lines.append(f"- **{finding.severity}**, {kind}: {md.text(finding.text)}{named}")
    return lines


def findings_page(ctx: Context) -> str:
    page = FINDINGS_PAGE
    found = ctx.findings
    lines = [
        f"# {md.text(FINDINGS_TITLE)}",
        "",
        f"[Overview]({relative(page, INDEX_PAGE)}) · {plural(len(found), 'finding')} in "
        f"{md.text(ctx.title)}",
        "",
    ]
    if not found:
        lines.append("The audit found nothing to look at.")
    for severity in SEVERITIES:
        of_severity = [f for f in found if f.severity == severity]
        if not of_severity:
            continue
        lines.extend([f"## {severity.capitalize()}s ({len(of_severity):,})", ""])
        kinds: dict[str, list[Finding]] = {}
        for finding in of_severity:
            kinds.setdefault(finding.kind, []).append(finding)
        for kind, of_kind in kinds.items():
            lines.extend([f"### {kind.replace('_', ' ').capitalize()} ({len(of_kind):,})", ""])
            shown, cut = capped(ctx, page, of_kind, "findings")
            lines.extend(finding_lines(ctx, page, shown))
            lines.extend(["", cut, ""] if cut else [""])
    return "\n".join(lines).rstrip("\n") + "\n"
