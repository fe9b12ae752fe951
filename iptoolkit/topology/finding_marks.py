"""Findings on the map: each item of a diagram marked by the worst severity of the audit's
findings that name it (`Finding.nodes`), as plain data every picture reads.

`worst_by_node` reads the findings once; `mark_view` writes the worst severity on each
node of a view (`finding`: a group takes the worst of its members), which the legend
(`legend.legend_items`), the printed diagram (`plot/draw.py`, a ring) and the interactive
view (`viewmodel/topology_findings.py`, the node's outline) turn into marks. No matplotlib,
no widget here.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING

from ..auditing.finding import SEVERITIES, severity_rank

if TYPE_CHECKING:
    from ..auditing.finding import Finding
    from .view import ViewGraph

__all__ = [
    "SEVERITY_COLOURS",
    "findings_by_node",
    "worst_by_node",
    "worst_of",
    "mark_view",
    "finding_label",
]

SEVERITY_COLOURS: dict[str, str] = {
    "error": "#D00000",  # red
    "warning": "#E69500",  # amber, darker than the response units' orange
    "info": "#3A7BD5",  # blue, paler than the input agents'
}
"""The ring (printed) or outline (interactive) of an item by its worst finding."""


def findings_by_node(found: Iterable[Finding]) -> dict[str, list[Finding]]:
    """Node id -> the findings that name it, worst first (the audit's order within)."""
    by_node: dict[str, list[Finding]] = {}
    for finding in found:
        for node in dict.fromkeys(finding.nodes):
            by_node.setdefault(node, []).append(finding)
    for listed in by_node.values():
        listed.sort(key=lambda f: severity_rank(f.severity))
    return by_node


def worst_by_node(found: Iterable[Finding]) -> dict[str, str]:
    """Node id -> the worst severity of the findings that name it."""
    worst: dict[str, str] = {}
    for finding in found:
        for node in finding.nodes:
            known = worst.get(node)
            if known is None or severity_rank(finding.severity) < severity_rank(known):
                worst[node] = finding.severity
    return worst


def worst_of(nodes: Iterable[Hashable], worst: Mapping[str, str]) -> str | None:
    """The worst severity among `nodes` (None: no finding names any of them)."""
    found = [worst[node] for node in nodes if isinstance(node, str) and node in worst]
    return min(found, key=severity_rank) if found else None


def mark_view(view: ViewGraph, worst: Mapping[str, str]) -> int:
    """Write `finding` (the worst severity of its members' findings) on each node of a
    view (`topology.view`) that has one; how many were marked."""
    marked = 0
    for _, data in view.nodes(data=True):
        severity = worst_of(data.get("members", ()), worst)
        if severity is not None:
            data["finding"] = severity
            marked += 1
    return marked


def finding_label(severity: str) -> str:
    """The legend's words for a ring of `severity`."""
    return f"findings: worst is {severity}" if severity in SEVERITIES else severity
