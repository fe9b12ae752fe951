"""Findings on an offline view's map, as data: the worst severity on each node of each
level, and each item's findings.

The marks are the Explorer's (`topology.finding_marks`: the worst severity of the findings
that name a node; a group takes the worst of its members), written per level as
`[node index, severity index]` pairs, only for the nodes that have one. An item's findings
(those naming it, or its input agent or response units, which a click on them opens) are
`[code, severity index, text]`, worst first, code and text indices into the file's strings,
the text masked (`redact_text`) and shown by the script as text only. Only items with
findings carry any, and each at most `MAX_LISTED` (the count says how many in all): the
file stays small, and the Findings of the audit report list every one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..auditing.finding import SEVERITIES, severity_rank
from ..support.redact import redact_text
from ..topology.finding_marks import SEVERITY_COLOURS, finding_label, worst_of
from ..viewmodel.topology_data import detail_node
from .levels import Interned

if TYPE_CHECKING:
    from ..auditing.finding import Finding
    from ..query.graph import EstateGraph
    from ..viewmodel.topology_data import ViewData

__all__ = ["MAX_LISTED", "findings_json", "level_marks"]

MAX_LISTED = 20
"""Findings an item carries in the file, at most (worst first); the rest are counted."""


def findings_json(
    found: Iterable[Finding],
    item_of: Callable[[Hashable], int],
    graph: EstateGraph,
    strings: Interned,
) -> dict[str, Any]:
    """The payload's `findings`: `severities` (name, ring colour, legend words, in
    `SEVERITIES` order), `items` (item index -> its findings, see the module docstring)
    and `n` (item index -> how many in all, when more than listed)."""
    by_item: dict[int, list[Finding]] = {}
    for finding in found:
        items = dict.fromkeys(item_of(detail_node(graph, node)) for node in finding.nodes)
        for item in items:
            if item >= 0:
                by_item.setdefault(item, []).append(finding)
    listed: dict[str, list[list[int]]] = {}
    counts: dict[str, int] = {}
    for item in sorted(by_item):
        ordered = sorted(by_item[item], key=lambda f: severity_rank(f.severity))
        listed[str(item)] = [
            [
                strings(redact_text(f.code or f.kind)),
                SEVERITIES.index(f.severity),
                strings(redact_text(f.text)),
            ]
            for f in ordered[:MAX_LISTED]
        ]
        if len(ordered) > MAX_LISTED:
            counts[str(item)] = len(ordered)
    return {
        "severities": [[s, SEVERITY_COLOURS[s], finding_label(s)] for s in SEVERITIES],
        "items": listed,
        "n": counts,
    }


def level_marks(data: ViewData, worst: Mapping[str, str]) -> list[list[int]]:
    """`[node index, severity index]` for each node of a level that a finding names (a
    group: the worst of its members'), as `FindingMarks.marked` outlines them (a port,
    not drawn, has no members)."""
    marks = []
    for number, key in enumerate(data.graph.nodes):
        severity = worst_of(data.members.get(key, ()), worst)
        if severity is not None:
            marks.append([number, SEVERITIES.index(severity)])
    return marks
