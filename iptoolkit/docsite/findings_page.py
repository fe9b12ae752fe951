"""The findings page (every audit finding, by rule: code, title, why and what to do) and
the finding lines the partner pages share, whose codes link to their rule's section."""

from __future__ import annotations

from collections.abc import Iterable

from ..auditing import BUILTIN_RULES, SEVERITIES, Finding
from ..auditing.finding import severity_rank
from ..support.names import plural
from . import page_markdown as md
from .context import FINDINGS_PAGE, INDEX_PAGE, Context
from .full_lists import capped
from .sitemap import relative

__all__ = ["findings_page", "finding_lines", "rule_anchor", "rule_title", "FINDINGS_TITLE"]

FINDINGS_TITLE = "Findings: what deserves a look"
_NODES_SHOWN = 10
_RULES = {one.code: one for one in BUILTIN_RULES}


def rule_anchor(code: str) -> str:
    """The anchor of a rule's section on the findings page (`rule-sec006`)."""
    return f"rule-{code.lower()}"


def rule_title(code: str, kind: str) -> str:
    """A rule's title as the findings page heads its section (a plug-in's rule, unknown
    here: its name in words)."""
    rule = _RULES.get(code)
    return rule.title if rule is not None else kind.replace("_", " ")


def _code_link(page: str, finding: Finding) -> str:
    if not finding.code:
        return md.text(finding.kind)
    href = f"{relative(page, FINDINGS_PAGE) if page != FINDINGS_PAGE else ''}"
    return f"[`{finding.code}`]({href}#{rule_anchor(finding.code)})"


def finding_lines(ctx: Context, page: str, found: Iterable[Finding]) -> list[str]:
    """One list item per finding: severity, code (a link to its rule's explanation), its
    text, links to the items it names."""
    lines = []
    for finding in found:
        items = [ctx.link(page, node) for node in finding.nodes if node in ctx.graph]
        named = f" ({md.more(items, _NODES_SHOWN, 'named in the text')})" if items else ""
        lines.append(
            f"- **{finding.severity}** {_code_link(page, finding)}: {md.text(finding.text)}{named}"
        )
    return lines


def findings_page(ctx: Context) -> str:
    """Counts per rule (each a link to its section), then each rule's section: title,
    severity, why it matters and the remedy, and its findings."""
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
        return "\n".join(lines) + "\n"
    by_code: dict[str, list[Finding]] = {}
    for finding in sorted(found, key=lambda f: (severity_rank(f.severity), f.code)):
        by_code.setdefault(finding.code or finding.kind, []).append(finding)
    said = ", ".join(
        plural(n, s) for s in SEVERITIES if (n := sum(1 for f in found if f.severity == s))
    )
    lines += [f"By rule ({said}); each code links to its findings, why it matters and what "
              "to do:", ""]  # fmt: skip
    rows = [
        (
            f"[`{code}`](#{rule_anchor(code)})",
            md.text(rule_title(code, of_code[0].kind)),
            of_code[0].severity,
            f"{len(of_code):,}",
        )
        for code, of_code in by_code.items()
    ]
    lines += [md.table(["Code", "Rule", "Severity", "Findings"], rows), ""]
    for code, of_code in by_code.items():
        rule = _RULES.get(code)
        title = rule_title(code, of_code[0].kind)
        lines += [md.anchor_tag(rule_anchor(code)), "",
                  f"## {md.text(code)}: {md.text(title)} ({len(of_code):,})", ""]  # fmt: skip
        if rule is not None:
            lines += [
                f"`{rule.name}` · default severity **{rule.severity}**. {md.text(rule.rationale)}",
                "",
                f"**Remedy:** {md.text(rule.remedy)}",
                "",
            ]
        shown, cut = capped(ctx, page, of_code, "findings")
        lines.extend(finding_lines(ctx, page, shown))
        lines.extend(["", cut, ""] if cut else [""])
    return "\n".join(lines).rstrip("\n") + "\n"
