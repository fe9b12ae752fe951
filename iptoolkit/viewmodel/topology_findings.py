"""`FindingMarks`: findings on the interactive topology's map.

A toggle above the canvas; on, each item the audit's findings name is outlined in the
colour of the worst severity (a group: the worst of its members; `topology.finding_marks`,
the colours the printed diagram rings with), the legend says what the colours mean, and a
click on an item lists its findings with their codes on the line under the canvas. The
findings come from a source the view is given: the audit of the estate shown, or in the
Explorer the Findings tab's (the selection's audit, cached per filter), so the map and the
tab say the same.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..topology.finding_marks import (
    SEVERITY_COLOURS,
    findings_by_node,
    worst_by_node,
    worst_of,
)
from ..topology.legend import finding_legend
from .topology_data import ViewData

if TYPE_CHECKING:
    from ..auditing.finding import Finding

__all__ = ["FindingMarks", "FindingSource", "MARKED_BORDER_PX", "MAX_LISTED"]

FindingSource = Callable[[], Iterable["Finding"]]
MARKED_BORDER_PX = 3.0
"""The outline of an item with findings, in pixels (others keep sigma's 1)."""
MAX_LISTED = 8
"""Findings a click lists; the rest are counted (the Findings tab has them all)."""


class FindingMarks:
    """Whether the view marks findings (`on`), and what it marks: `marked(data)` is the
    view data with the marks, `listed(data, key)` the picked item's findings as HTML."""

    def __init__(self, source: FindingSource | None = None) -> None:
        self.on = False
        self._source = source
        self._by_node: dict[str, list[Finding]] | None = None
        self._worst: dict[str, str] | None = None

    def use(self, source: FindingSource | None) -> None:
        """Read findings from `source` from now on (the estate shown changed)."""
        self._source = source
        self._by_node = self._worst = None

    @property
    def available(self) -> bool:
        return self._source is not None

    @property
    def worst(self) -> dict[str, str]:
        """Node id -> the worst severity of its findings."""
        if self._worst is None:
            found = list(self._source()) if self._source is not None else []
            self._by_node = findings_by_node(found)
            self._worst = worst_by_node(found)
        return self._worst

    def marked(self, data: ViewData) -> ViewData:
        """`data` with each item a finding names outlined by its worst severity (a copy;
        the cached view data stays as it was), and the legend's lines for them."""
        worst = self.worst
        graph = data.graph.copy()
        shown: set[str] = set()
        for key, attributes in graph.nodes(data=True):
            severity = worst_of(data.members.get(key, ()), worst)
            attributes["border_size"] = 1.0
            if severity is None or attributes.get("kind") == "port":
                continue
            attributes["border"] = SEVERITY_COLOURS[severity]
            attributes["border_size"] = MARKED_BORDER_PX
            attributes["finding"] = severity
            shown.add(severity)
        return replace(data, graph=graph, legend=[*data.legend, *finding_legend(shown)])

    def listed(self, data: ViewData, key: str) -> str:
        """The findings of the item (or group) `key` as HTML: code, severity, text."""
        self.worst  # noqa: B018 - reads the findings on first use
        by_node = self._by_node or {}
        found = list(
            dict.fromkeys(
                f for node in data.members.get(key, ()) for f in by_node.get(str(node), ())
            )
        )
        if not found:
            return ""
        rows = [
            f"<li><span class='ipt-sev ipt-sev-{html.escape(f.severity)}'>"
            f"{html.escape(f.severity)}</span> <code>{html.escape(f.code or f.kind)}</code> "
            f"{html.escape(f.text)}</li>"
            for f in found[:MAX_LISTED]
        ]
        if len(found) > MAX_LISTED:
            rows.append(f"<li>and {len(found) - MAX_LISTED:,} more (the Findings tab)</li>")
        return f"<ul class='ipt-topology-findings'>{''.join(rows)}</ul>"
