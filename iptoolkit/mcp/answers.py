"""The tools' answers, worked out from a loaded estate with no MCP in sight.

Each function takes a `Loaded` estate and the tool's arguments and returns one of the
`schemas` models; bad input raises `ValueError` (an unknown id
`resolve.UnknownItemError`, with close matches), which the server turns into a tool error.
They read what the Python API reads (records, the graph, `query.reach`, `audit`, `filters`), so
an answer here is the Python answer, paged and cut (`cursors`). Masking secrets is the
server's last step.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..auditing import BUILTIN_RULES, KINDS, SEVERITIES, Findings
from ..auditing.registry import check_selector
from ..core.selection import Filter
from ..support.names import NO_TYPE, did_you_mean, type_label, type_matches
from ..support.redact import redact_fields
from .answer_models import (
    Edge,
    FindingRow,
    FindingsPage,
    ImpactAnswer,
    ItemAnswer,
    Listed,
    NeighbourhoodAnswer,
    PathRow,
    PathsAnswer,
    PathStep,
    ProfilePage,
    ProfileRow,
    Ref,
    RuleCount,
    SummaryAnswer,
    UsedByPage,
)
from .cursors import TEXT_LIMIT, cut, page

if TYPE_CHECKING:
    from collections.abc import Hashable

    from ..core.estate import Estate
    from ..core.records import ProfileRecord
    from ..query.graph import EstateGraph
    from .store import Loaded

__all__ = [
    "summary",
    "find_profiles",
    "get_item",
    "where_used",
    "impact",
    "neighbourhood",
    "findings",
]

TOP = 20
"""Rows kept of the summary's larger tables (profiles by partner, by group)."""
TYPES_TOP = 100
"""Rows kept of the summary's tables of types (a platform has some dozens; an estate whose
classes are each another is not answered with thousands)."""
IN_ROW = 10
"""Channels and partners listed in one profile's row."""
FINDING_TEXT = 500
FINDING_NODES = 10


def ref(graph: EstateGraph, node: str) -> Ref:
    data = graph.nodes[node]
    kind_type = data.get("agent_type") if data.get("kind") == "profile" else data.get("type")
    return Ref(
        node=node,
        name=data.get("name"),
        type=type_label(kind_type) if kind_type else None,
        active=data.get("active"),
    )


def summary(loaded: Loaded, names: list[str]) -> SummaryAnswer:
    """The estate's counts, with profiles by partner and by group (the largest first)."""
    counts = loaded.estate.summary()
    by_partner, by_group = loaded.estate.derived("mcp.by_partner_group", _by_partner_group)
    shown = {"profiles_by_partner": by_partner, "profiles_by_group": by_group}
    cut_tables = [f"{key} ({len(table):,})" for key, table in shown.items() if len(table) > TOP]
    types = {key: counts[key] for key in ("agent_types", "channel_types")}
    cut_types = [f"{key} ({len(t):,})" for key, t in types.items() if len(t) > TYPES_TOP]
    said = []
    if cut_tables:
        said.append(
            f"the {TOP} largest rows of {' and '.join(cut_tables)} are shown; find_profiles "
            "with partners=[...] or groups=[...] counts any other"
        )
    if cut_types:
        said.append(
            f"the {TYPES_TOP} largest rows of {' and '.join(cut_types)} are shown; "
            "where_used with type=... counts any other"
        )
    note = "; ".join(said) or None
    return SummaryAnswer(
        snapshot=loaded.name,
        snapshots=names,
        **{key: counts[key] for key in _SUMMARY_COUNTS if key not in types},
        **{key: dict(_largest(table)[:TYPES_TOP]) for key, table in types.items()},
        fetched_at=loaded.fetched_at.isoformat() if loaded.fetched_at else None,
        profiles_by_partner=dict(list(by_partner.items())[:TOP]),
        profiles_by_group=dict(list(by_group.items())[:TOP]),
        findings=loaded.findings.counts(),
        findings_by_code=rule_counts(loaded.findings),
        note=note,
    )


_SUMMARY_COUNTS = (
    "source_url",
    "profiles",
    "active_profiles",
    "problems",
    "channels",
    "unresolved_channels",
    "partners",
    "conflicts",
    "agent_types",
    "channel_types",
)


def _largest(table: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(table.items(), key=lambda item: -item[1])


def _by_partner_group(estate: Estate) -> tuple[dict[str, int], dict[str, int]]:
    partners: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    for record in estate.records:
        groups[record.group or NO_TYPE] += 1
        for key in record.partners:
            partner = estate.partners.get(key)
            name = getattr(partner, "name", None) if partner is not None else None
            partners[name or str(key)] += 1
    return dict(partners.most_common()), dict(groups.most_common())


def find_profiles(loaded: Loaded, chosen: Filter, limit: int, cursor: str | None) -> ProfilePage:
    """The profiles `chosen` selects, a page of compact rows."""
    from ..query.filters import select, unjudged, unjudged_note

    positions = select(loaded.estate, chosen)
    shown, next_cursor = page(positions, limit, cursor)
    records = loaded.estate.records
    notes = [_why_none(loaded.estate, chosen)] if not positions and len(loaded.estate) else []
    left = unjudged(loaded.estate, chosen)
    if left:  # a faulty profile is reported, never dropped unsaid
        notes.append(unjudged_note(loaded.estate, left))
    return ProfilePage(
        snapshot=loaded.name,
        filter=chosen.describe(),
        total=len(positions),
        items=[profile_row(loaded.graph, records[position]) for position in shown],
        next_cursor=next_cursor,
        note="; ".join(notes) or None,
    )


def _why_none(estate: Estate, chosen: Filter) -> str:
    """Which value of a filter selecting nothing matches nothing, and what was perhaps meant
    (a misspelt partner reads as "no profile uses it" otherwise)."""
    from ..query.filters import unmatched

    missing = unmatched(estate, chosen)
    if not missing:
        return "each value of the filter matches some profiles; together they match none"
    said = "; ".join(f"{field} {value!r}{hint}" for field, value, hint in missing)
    return f"no profile matches {said}"


def profile_row(graph: EstateGraph, record: ProfileRecord) -> ProfileRow:
    channels = [f"channel:{key}" for key in record.channel_keys[:IN_ROW]]
    partners = [f"partner:{key}" for key in record.partners[:IN_ROW]]
    return ProfileRow(
        node=record.node,
        id=record.id,
        name=record.name,
        group=record.group,
        active=record.active,
        agent_type=record.agent_type,
        agent=type_label(record.agent_type) if record.agent_type else None,
        channels=[ref(graph, node) for node in channels if node in graph],
        partners=[ref(graph, node) for node in partners if node in graph],
        problem=record.problem.message if record.problem is not None else None,
    )


def get_item(loaded: Loaded, id: str, offset: int = 0, max_chars: int = TEXT_LIMIT) -> ItemAnswer:
    """One node by any name: its facts, what it links to, and its JSON (secrets masked)."""
    graph = loaded.graph
    node = loaded.resolve(id)
    data = graph.nodes[node]
    kind = data.get("kind")
    about = ref(graph, node)
    linked = _linked(graph, node, kind)
    channels = [ref(graph, other) for other in linked["channel"]]
    partners = [ref(graph, other) for other in linked["partner"]]
    more = [
        f"{len(found) - IN_ROW:,} more {what}s"
        for what, found in (("channel", channels), ("partner", partners))
        if len(found) > IN_ROW
    ]
    answer = ItemAnswer(
        snapshot=loaded.name,
        node=node,
        kind=str(kind),
        name=about.name,
        type=about.type,
        active=about.active,
        group=data.get("group"),
        partner=partners[0] if kind == "channel" and partners else None,
        channels=channels[:IN_ROW],
        partners=[] if kind == "channel" else partners[:IN_ROW],
        used_by=len(_where_used(graph, node)),
        more=(", ".join(more) + ": see neighbourhood") if more else None,
    )
    source = _json_of(data)
    if source is None:
        answer.note = "no JSON: a channel id that profiles name but none holds"
        return answer
    masked = redact_fields(source)
    text = json.dumps(masked, ensure_ascii=False, separators=(",", ":"))
    if offset == 0 and len(text) <= max_chars:
        answer.json_ = masked
        return answer
    answer.json_text, answer.note = cut(text, max_chars, offset, again=f"get_item with id={node!r}")
    return answer


def _linked(graph: EstateGraph, node: str, kind: Any) -> dict[str, list[str]]:
    """Channels and partners a node links to, each once, in graph order."""
    found: dict[str, dict[str, None]] = {"channel": {}, "partner": {}}
    if kind == "partner":
        steps = list(graph.pred[node])
    else:
        steps = list(graph.succ[node])
        if kind == "profile":  # through its agent and response units
            steps += [other for step in list(steps) for other in graph.succ[step]]
        steps += [other for step in list(steps) for other in graph.succ[step]]
    for other in steps:
        other_kind = graph.nodes[other].get("kind")
        if other_kind in found and other != node:
            found[other_kind][other] = None
    return {key: list(value) for key, value in found.items()}


def _json_of(data: dict[str, Any]) -> Any:
    record = data.get("record")
    if record is not None:
        return record.raw
    source = data.get("model", data.get("json"))
    dump = getattr(source, "to_json_dict", None)
    return dump() if dump is not None else source


def _where_used(graph: EstateGraph, node: str) -> list[str]:
    from ..query.reach import where_used as used

    return used(graph, node)


def where_used(
    loaded: Loaded, id: str | None, type: str | None, limit: int, cursor: str | None
) -> UsedByPage:
    """The profiles reaching a node (or any node of a type), a page at a time."""
    from ..query.reach import where_used as used

    if (id is None) == (type is None):
        raise ValueError("give id or type, exactly one of them")
    graph = loaded.graph
    if type is not None:
        _check_type(graph, type)
    node = loaded.resolve(id) if id is not None else f"type:{type}"
    found = used(graph, node) if id is not None else used(graph, type=type)
    shown, next_cursor = page(found, limit, cursor)
    return UsedByPage(
        snapshot=loaded.name,
        node=node,
        total=len(found),
        items=[ref(graph, other) for other in shown],
        next_cursor=next_cursor,
    )


def _check_type(graph: EstateGraph, wanted: str) -> None:
    """A type no node has is refused with the close ones (a misspelt type would read as
    "nothing uses it")."""
    kinds = (data.get("type") for data in graph.nodes.values())
    types = {kind for kind in kinds if isinstance(kind, str)}
    if not any(type_matches(kind, wanted) for kind in types):
        known = sorted(types | {type_label(kind) for kind in types})
        hint = (
            did_you_mean(wanted, known) or f" (types: {', '.join(sorted(map(type_label, types)))})"
        )
        raise ValueError(f"no item of the graph has the type {wanted!r}{hint}")


def impact(loaded: Loaded, id: str | list[str], limit: int, cursor: str | None) -> ImpactAnswer:
    """What stops if a node (or several together) goes away, each list a page at a time
    (one cursor for all)."""
    from ..query.reach import impact as hit_by

    graph = loaded.graph
    asked = id if isinstance(id, list) else [id]
    if not asked:
        raise ValueError("impact needs at least one id")
    chosen: list[Hashable] = list(dict.fromkeys(loaded.resolve(one) for one in asked))
    hit = hit_by(graph, chosen)
    node = hit.node
    found = {name: getattr(hit, name) for name in _IMPACT_LISTS}
    _, next_cursor = page(range(max(map(len, found.values()))), limit, cursor)
    start = int(cursor or 0)
    return ImpactAnswer(
        snapshot=loaded.name,
        node=node,
        nodes=hit.nodes,
        text=str(hit),
        **{
            name: Listed(total=len(nodes), items=[ref(graph, n) for n in nodes[start:][:limit]])
            for name, nodes in found.items()
        },
        next_cursor=next_cursor,
    )


_IMPACT_LISTS = ("lose_input", "partial_input", "lose_response", "responses", "partners")


def neighbourhood(
    loaded: Loaded, id: str, depth: int, limit: int, cursor: str | None
) -> NeighbourhoodAnswer:
    """The nodes around a node, a page at a time, with the edges between them."""
    from ..query.reach import neighbourhood as around

    graph = loaded.graph
    node = loaded.resolve(id)
    near = around(graph, node, depth)
    shown, next_cursor = page(list(near), limit, cursor)
    on_page = set(shown)
    edges = [
        Edge(source=source, target=target, kind=str(data.get("relation")))
        for source, target, data in near.edges(data=True)
        if source in on_page and target in on_page
    ]
    return NeighbourhoodAnswer(
        snapshot=loaded.name,
        node=node,
        depth=depth,
        total_nodes=near.number_of_nodes(),
        total_edges=near.number_of_edges(),
        nodes=[ref(graph, other) for other in shown],
        edges=edges,
        next_cursor=next_cursor,
    )


PATHS_LOOKED_FOR = 200
"""Paths the `paths` tool finds at most, to page through: beyond, `more` says so."""


def paths(
    loaded: Loaded, a: str, b: str, cutoff: int, limit: int, cursor: str | None
) -> PathsAnswer:
    """The paths between two nodes, shortest first, a page at a time."""
    from ..query.paths import paths as between

    graph = loaded.graph
    found = between(
        graph, loaded.resolve(a), loaded.resolve(b), limit=PATHS_LOOKED_FOR, cutoff=cutoff
    )
    rows = list(zip(found.paths, found.steps, strict=True))
    shown, next_cursor = page(rows, limit, cursor)
    return PathsAnswer.model_validate(
        {
            "snapshot": loaded.name,
            "from": found.a,
            "to": found.b,
            "cutoff": cutoff,
            "total": len(rows),
            "more": found.more,
            "longer": found.longer,
            "paths": [
                PathRow(
                    nodes=[ref(graph, node) for node in path],
                    steps=[PathStep(**vars(step)) for step in steps],
                )
                for path, steps in shown
            ],
            "next_cursor": next_cursor,
        }
    )


RULE_URI = "iptoolkit://rules/{code}"
"""The resource explaining a rule (why it matters, the remedy)."""
_RULES = {one.code: one for one in BUILTIN_RULES}


def rule_counts(found: Findings) -> list[RuleCount]:
    """Findings per rule code, most first, each with its title, severity and resource."""
    severity = {f.code: f.severity for f in reversed(found)}
    counted = sorted(found.by_code().items(), key=lambda item: (-item[1], item[0]))
    return [
        RuleCount(
            code=code,
            title=_RULES[code].title if code in _RULES else code,
            severity=severity[code],
            count=n,
            rule=RULE_URI.format(code=code),
        )
        for code, n in counted
    ]


def findings(
    loaded: Loaded,
    kind: str | None,
    severity: str | None,
    limit: int,
    cursor: str | None,
    code: str | None = None,
) -> FindingsPage:
    """The audit's findings of a kind, code (or family prefix, SEC) and severity (any when
    None), a page at a time."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind {kind!r} is not a kind of finding: {', '.join(KINDS)}")
    if severity is not None and severity not in SEVERITIES:
        raise ValueError(f"severity {severity!r} is not one of {', '.join(SEVERITIES)}")
    if code is not None:
        problem = check_selector(code, BUILTIN_RULES)
        if problem:
            raise ValueError(f"code: {problem}; codes: " + ", ".join(_RULES))
    found = loaded.findings.of(kind=kind, severity=severity, code=code)
    shown, next_cursor = page(found, limit, cursor)
    items = []
    for finding in shown:
        text, _ = cut(finding.text, FINDING_TEXT, again="")
        if len(finding.nodes) > FINDING_NODES:
            text += f" ({len(finding.nodes):,} nodes; the first {FINDING_NODES} listed)"
        items.append(
            FindingRow(
                code=finding.code,
                kind=finding.kind,
                severity=finding.severity,
                title=_RULES[finding.code].title if finding.code in _RULES else finding.kind,
                text=text,
                nodes=list(finding.nodes[:FINDING_NODES]),
                rule=RULE_URI.format(code=finding.code),
            )
        )
    return FindingsPage(
        snapshot=loaded.name,
        counts=loaded.findings.counts(),
        by_code=loaded.findings.by_code(),
        total=len(found),
        items=items,
        next_cursor=next_cursor,
    )
