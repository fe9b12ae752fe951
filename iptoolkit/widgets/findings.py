"""The Findings tab: the audit (`iptoolkit.auditing.findings`) of the current selection,
grouped by severity and rule code with counts, each rule's fold opening with why it matters
and what to do (its code carries the same as a tooltip), each finding's items as links to
their details. A menu of the codes found filters the tab to one rule or family.

The audit of 10,000 profiles takes a while (see `benchmarks/bench_explorer.py`), so a filter
change never waits for it: the findings are computed only while the tab is shown (when it
is opened, or when the selection changes while it is open), and kept per filter, so going
back to a filter seen before costs nothing. Long lists are cut ("... and 412 more"): the
command line and `ipt.findings(...).to_frame()` give every one.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..auditing import BUILTIN_RULES, SEVERITIES, Finding, Findings
from ..support.names import plural
from ..support.redact import redact_text
from ..support.shown_tab import ShownTab
from ..viewmodel.explorer_html import Link, link_html, node_text
from .links import LinkedHTML

if TYPE_CHECKING:
    from ..viewmodel.explorer_model import ExplorerModel, Selection

__all__ = ["FindingsPane", "findings_html", "FINDINGS_SHOWN", "ITEMS_SHOWN", "OPEN_UP_TO"]

FINDINGS_SHOWN = 25
"""Findings listed per kind and severity; the rest are counted."""
ITEMS_SHOWN = 8
"""Items linked per finding; the rest are counted."""
OPEN_UP_TO = 20
"""Findings shown unfolded; more are folded by kind (their counts are the overview)."""
_CACHED = 8
"""Filters whose findings are kept."""
_OPENABLE = ("profile", "channel", "partner")
_RULES = {one.code: one for one in BUILTIN_RULES}
_ALL_CODES = ""


class FindingsPane:
    """The selection's findings, computed when shown and cached per filter; a click on an
    item calls `on_open(node id)`."""

    def __init__(
        self,
        model: ExplorerModel,
        current: Callable[[], Selection],
        on_open: Callable[[str], None],
    ) -> None:
        self._model = model
        self._current = current
        self._cache: dict[str, Findings] = {}
        self.tab = ShownTab(self.refresh)
        """Computed only while the Explorer's Findings tab is shown."""
        self.content = LinkedHTML(
            "<p class='ipt-none'>The findings are computed when this tab is shown.</p>",
            on_open=on_open,
        )
        self.codes = W.Dropdown(
            options=[("All rules", _ALL_CODES)],
            value=_ALL_CODES,
            description="Rule",
            layout=W.Layout(width="max-content"),
        )
        self._quiet = False
        self.codes.observe(lambda _: self._show(), names="value")
        self.widget = W.VBox([self.codes, self.content], layout=W.Layout(width="100%"))
        self.widget.add_class("ipt-findings")

    def refresh(self) -> None:
        """Show the current selection's findings (from the cache when seen before)."""
        found = self.findings
        chosen = self.codes.value
        counted = found.by_code()
        options = [(f"All rules ({len(found):,})", _ALL_CODES)] + [
            (f"{code} {_title(code, found)} ({n:,})", code) for code, n in counted.items()
        ]
        self._quiet = True  # new options reset the value: one render, after both are set
        try:
            self.codes.options = options
            self.codes.value = chosen if chosen in counted else _ALL_CODES
        finally:
            self._quiet = False
        self._show()

    def _show(self) -> None:
        """Show the findings of the rule chosen (all when none), from the cache."""
        if self._quiet:
            return
        code = self.codes.value
        found = self.findings
        if code:
            found = found.of(code=code)
        self.content.value = findings_html(found, self._model.graph)

    @property
    def findings(self) -> Findings:
        """The audit of the current selection, cached per filter."""
        from ..auditing import findings

        selection = self._current()
        key = selection.filter.to_json()
        found = self._cache.get(key)
        if found is None:
            found = findings(selection.estate)
            if len(self._cache) >= _CACHED:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = found
        return found


def findings_html(found: Findings, graph: Any) -> str:
    """The findings by severity, then kind (counted), each kind a fold with its findings'
    text and item links (all open when there are `OPEN_UP_TO` findings or fewer, else
    folded: the counts are the overview); long lists cut with "... and N more"."""
    if not found:
        return "<p class='ipt-none'>The audit finds nothing to look at in this selection.</p>"
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in sorted(found, key=lambda f: f.code):
        groups.setdefault((finding.severity, finding.code or finding.kind), []).append(finding)
    by_severity = {s: sum(len(g) for (sev, _), g in groups.items() if sev == s) for s in SEVERITIES}
    said = ", ".join(plural(n, s) for s, n in by_severity.items() if n)
    hint = "" if len(found) <= OPEN_UP_TO else "; open a rule to see its findings"
    parts = [f"<p class='ipt-findings-total'>{plural(len(found), 'finding')} ({said}){hint}</p>"]
    opened = " open" if len(found) <= OPEN_UP_TO else ""
    for severity in SEVERITIES:
        for (sev, code), of_kind in groups.items():
            if sev != severity:
                continue
            items = "".join(_finding_html(finding, graph) for finding in of_kind[:FINDINGS_SHOWN])
            more = len(of_kind) - FINDINGS_SHOWN
            if more > 0:
                items += f"<li class='ipt-none'>… and {more:,} more</li>"
            kind = of_kind[0].kind
            parts.append(
                f"<details class='ipt-finding-kind' data-kind='{html.escape(kind)}' "
                f"data-code='{html.escape(code)}'{opened}>"
                f"<summary class='ipt-title'><span class='ipt-sev ipt-sev-{severity}'>"
                f"{severity}</span> {_code_html(code)} {html.escape(_title(code, of_kind))} "
                f"({len(of_kind):,})</summary>{_help_html(code)}"
                f"<ul class='ipt-finding-list'>{items}</ul></details>"
            )
    return "<div class='ipt-findings-body'>" + "".join(parts) + "</div>"


def _title(code: str, found: list[Finding]) -> str:
    """A rule's title; a finding of no known rule is titled by its kind."""
    rule = _RULES.get(code)
    return rule.title if rule else found[0].kind.replace("_", " ").capitalize()


def _code_html(code: str) -> str:
    """The code, with its rule's rationale as the tooltip."""
    rule = _RULES.get(code)
    tip = f" title='{html.escape(rule.rationale)}'" if rule else ""
    return f"<code class='ipt-code'{tip}>{html.escape(code)}</code>"


def _help_html(code: str) -> str:
    """Why the rule matters and what to do, at the top of its fold."""
    rule = _RULES.get(code)
    if rule is None:
        return ""
    return (
        f"<p class='ipt-rule-help'>{html.escape(rule.rationale)} <b>Remedy:</b> "
        f"{html.escape(rule.remedy)} <span class='ipt-none'>(docs/rules.md#"
        f"{html.escape(code.lower())})</span></p>"
    )


def _finding_html(finding: Finding, graph: Any) -> str:
    """Its text, and a link to each profile, channel and partner it names (an agent is
    named with its profile, which the link opens)."""
    items = [node for node in finding.nodes if _openable(graph, node)]
    links = ", ".join(link_html(Link(node, node_text(graph, node))) for node in items[:ITEMS_SHOWN])
    if len(items) > ITEMS_SHOWN:
        links += f" <span class='ipt-none'>… and {len(items) - ITEMS_SHOWN:,} more</span>"
    shown = f"<div class='ipt-finding-items'>{links}</div>" if links else ""
    return f"<li>{html.escape(redact_text(finding.text))}{shown}</li>"


def _openable(graph: Any, node: str) -> bool:
    return node in graph and graph.nodes[node].get("kind") in _OPENABLE
