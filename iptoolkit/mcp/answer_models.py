"""What each MCP tool answers, as pydantic models: their JSON Schema is the tool's output
schema, so an assistant knows the shape of an answer before it asks.

Every item names its graph node id (`profile:P1`, `channel:40003`, `partner:1017`), which
any other tool accepts as `id`. Types are shown as people say them (`SFTP`, `AS2`), as
`names.type_label` writes them; `agent_type` keeps the canonical name filters accept too.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field

__all__ = [
    "Page",
    "Ref",
    "ProfileRow",
    "SummaryAnswer",
    "ProfilePage",
    "ItemAnswer",
    "UsedByPage",
    "Listed",
    "ImpactAnswer",
    "Edge",
    "NeighbourhoodAnswer",
    "PathStep",
    "PathRow",
    "PathsAnswer",
    "FindingRow",
    "FindingsPage",
    "DriftRow",
    "DriftPage",
    "ChangeRow",
    "DiffPage",
    "LogEvent",
    "TimelineRow",
    "HistoryAnswer",
]

_CURSOR = "pass this as `cursor` for the next page; null after the last page"
RowT = TypeVar("RowT", bound=BaseModel)


class Page(BaseModel, Generic[RowT]):
    """A page of a longer list: how long the list is, this page, where the next starts.
    Each page adds what it is a page of (its snapshot, filter or node)."""

    total: int
    items: list[RowT]
    next_cursor: str | None = Field(description=_CURSOR)


class Ref(BaseModel):
    """A node, in short: its id, name and type."""

    node: str
    name: str | None = None
    type: str | None = None
    active: bool | None = None


class ProfileRow(BaseModel):
    """One profile in a list: what tells it apart at a glance."""

    node: str
    id: str | int | None
    name: str | None
    group: str | None
    active: bool
    agent_type: str | None = Field(description="the input agent's canonical type name")
    agent: str | None = Field(description="the input agent's type as people say it")
    channels: list[Ref]
    partners: list[Ref]
    problem: str | None = Field(None, description="why the profile could not be read")


class SummaryAnswer(BaseModel):
    """Counts an analyst wants first; the larger tables keep their largest rows."""

    snapshot: str
    snapshots: list[str]
    source_url: str | None
    fetched_at: str | None
    profiles: int
    active_profiles: int
    problems: int
    channels: int
    unresolved_channels: int
    partners: int
    conflicts: int
    agent_types: dict[str, int]
    channel_types: dict[str, int]
    profiles_by_partner: dict[str, int]
    profiles_by_group: dict[str, int]
    findings: dict[str, int]
    findings_by_code: list[RuleCount] = Field(
        default_factory=list, description="findings per rule code, with title and severity"
    )
    note: str | None = None


class ProfilePage(Page[ProfileRow]):
    """A page of the profiles a filter selects."""

    snapshot: str
    filter: str
    note: str | None = Field(
        default=None,
        description="when nothing matches: which value, and close ones; faulty profiles "
        "the filter could not judge (left out)",
    )


class ItemAnswer(BaseModel):
    """One profile, channel, partner (or agent, response unit): facts, links, its JSON."""

    snapshot: str
    node: str
    kind: str
    name: str | None
    type: str | None
    active: bool | None
    group: str | None = None
    partner: Ref | None = None
    channels: list[Ref] = []
    partners: list[Ref] = []
    used_by: int = Field(description="how many profiles use it (see where_used)")
    more: str | None = Field(None, description="what the lists above leave out")
    json_: dict[str, Any] | list[Any] | None = Field(
        None, alias="json", description="its JSON, secrets masked, when short enough"
    )
    json_text: str | None = Field(None, description="a part of its JSON, when it is long")
    note: str | None = None


class UsedByPage(Page[Ref]):
    """A page of the profiles whose input or response path reaches a node."""

    snapshot: str
    node: str


class Listed(BaseModel):
    """A list and its length; `items` is the page asked for."""

    total: int
    items: list[Ref]


class ImpactAnswer(BaseModel):
    """What stops if a node goes away; only active profiles, units and channels stop."""

    snapshot: str
    node: str = Field(description="the node gone, or the nodes gone together joined by ' + '")
    nodes: list[str] = Field(description="every node gone")
    text: str
    lose_input: Listed = Field(description="active profiles that would receive nothing")
    partial_input: Listed = Field(description="profiles that lose some input channels")
    lose_response: Listed = Field(description="profiles that lose a response path")
    responses: Listed = Field(description="the response paths cut")
    partners: Listed = Field(description="partners left without an active channel")
    next_cursor: str | None = Field(description=_CURSOR)


class Edge(BaseModel):
    source: str
    target: str
    kind: str


class NeighbourhoodAnswer(BaseModel):
    """The nodes within `depth` steps of a node (edges followed either way)."""

    snapshot: str
    node: str
    depth: int
    total_nodes: int
    total_edges: int
    nodes: list[Ref]
    edges: list[Edge] = Field(description="the edges between the nodes of this page")
    next_cursor: str | None = Field(description=_CURSOR)


class PathStep(BaseModel):
    """One step of a path; `forward` false: the graph's edge points target -> source."""

    source: str
    target: str
    relation: str
    forward: bool


class PathRow(BaseModel):
    nodes: list[Ref] = Field(description="the path's nodes, from `from` to `to`")
    steps: list[PathStep]


class PathsAnswer(BaseModel):
    """The simple paths between two nodes (edges followed either way), shortest first."""

    snapshot: str
    from_: str = Field(alias="from")
    to: str
    cutoff: int = Field(description="the most steps a path may take")
    total: int = Field(description="paths found within the bounds")
    more: bool = Field(description="more paths within `cutoff` exist than were looked for")
    longer: bool = Field(description="paths longer than `cutoff` steps exist")
    paths: list[PathRow]
    next_cursor: str | None = Field(description=_CURSOR)


class FindingRow(BaseModel):
    code: str = Field(description="the rule's stable code (SEC006); filter findings by it")
    kind: str
    severity: str
    title: str = Field(description="the rule's title")
    text: str
    nodes: list[str]
    rule: str = Field(description="resource explaining the rule: why it matters, the remedy")


class RuleCount(BaseModel):
    """How many findings one rule has, with its title and severity."""

    code: str
    title: str
    severity: str
    count: int
    rule: str = Field(description="resource explaining the rule")


class FindingsPage(Page[FindingRow]):
    """A page of the audit's findings, most severe first."""

    snapshot: str
    counts: dict[str, int] = Field(description="findings of each kind, over the whole estate")
    by_code: dict[str, int] = Field(
        default_factory=dict, description="findings of each rule code, over the whole estate"
    )


class DriftRow(BaseModel):
    """One thing the snapshot holds that the spec does not describe (`ipt.schema_report`)."""

    kind: str
    type: str
    field: str | None
    path: str
    count: int
    profiles: int
    faulty: int
    examples: list[str]
    expected: str | None
    found: str | None
    example: str | None


class DriftPage(Page[DriftRow]):
    """A page of the schema drift report, with its one-line summary and counts per kind."""

    snapshot: str
    summary: str
    counts: dict[str, int] = Field(description="rows of each kind, over the whole report")


class ChangeRow(BaseModel):
    """One difference between two snapshots (`ipt.diff`); long values are cut."""

    kind: str
    key: str = Field(description="the item's node id, or `source -> target` for a link")
    op: str
    severity: str
    path: str | None
    old: Any = None
    new: Any = None
    reason: str
    name: str


class DiffPage(Page[ChangeRow]):
    """A page of what changed from one snapshot to another, most severe first."""

    old: str
    new: str
    summary: str
    counts: dict[str, Any] = Field(description="items added, changed, removed per kind")
    notes: list[str]


class DifferenceRow(BaseModel):
    """One item that differs between two installations (`ipt.compare`), matched by
    natural keys; long values are cut."""

    kind: str
    status: str = Field(
        description="only-in-a, only-in-b, changed, active-differs, wired-differently, ambiguous"
    )
    key: list[str] = Field(description="the natural key (group and name of a profile, ...)")
    name: str
    a: str | None = Field(description="its node id in a (null: not there)")
    b: str | None = Field(description="its node id in b (null: not there)")
    severity: str
    reason: str
    fields: list[dict[str, Any]] = Field(description="the fields that differ: path, a, b")
    candidates: list[list[str]] = Field(description="closest keys on the other side")
    expired: str | None = None


class ComparePage(Page[DifferenceRow]):
    """A page of what differs between two installations, most severe first."""

    a: str
    b: str
    summary: str
    counts: dict[str, Any] = Field(description="differences per kind and status, matches")


class LogEvent(BaseModel):
    """A snapshot in which an item appeared, changed or disappeared."""

    snapshot: str = Field(description="its name, for the other tools' `snapshot`")
    fetched_at: str
    event: str = Field(description="appeared, changed or disappeared")
    severity: str | None
    paths: list[str] = Field(description="the JSON paths that changed")
    reasons: list[str]


class TimelineRow(BaseModel):
    """The counts of one stored snapshot."""

    snapshot: str
    fetched_at: str
    profiles: int
    active_profiles: int
    channels: int
    partners: int
    problems: int
    findings: int


class HistoryAnswer(BaseModel):
    """An item's log over the archive (with `id`), and the archive's timeline, a page of
    snapshots at a time (newest first)."""

    item: str | None = Field(description="the node id the log is of")
    log: list[LogEvent]
    total: int = Field(description="snapshots in the archive")
    timeline: list[TimelineRow]
    next_cursor: str | None = Field(description=_CURSOR)
