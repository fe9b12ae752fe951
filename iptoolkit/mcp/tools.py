"""The tools an assistant calls: one method of `Tools` each, registered by `add_tools`.

A method's name, docstring and signature are the tool's name, description and input schema
(the SDK reads them from the bound method, so `self` is no argument of the tool). Each is a
thin function: it picks the estate (`snapshot`, else the current one), calls `answers` or
`changes` (or `picture`), and hands back the answer as structured content with its JSON as
text (`tool_result`). A bad argument or an unknown id becomes a tool error the assistant can
read and act on (`ToolError`), never a crash; every string of every answer, error messages
too, passes `redact_text` on its way out. Nothing here changes an estate or the platform.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

import networkx as nx
from mcp.server.mcpserver import Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from ..auditing import KINDS
from ..auditing.finding import Severity
from ..change.drift_report import DriftKind
from ..change.record import ChangeKind
from ..change.record import Severity as ChangeSeverity
from ..comparing.difference import ItemKind, Status
from ..core.selection import Filter
from ..query.filters import subset
from ..query.graph import build_graph
from ..support.names import plural
from ..support.redact import redact_text
from . import answers, archived, changes
from .answer_models import (
    ComparePage,
    DiffPage,
    DriftPage,
    FindingsPage,
    HistoryAnswer,
    ImpactAnswer,
    ItemAnswer,
    NeighbourhoodAnswer,
    PathsAnswer,
    ProfilePage,
    SummaryAnswer,
    UsedByPage,
)
from .cursors import DEFAULT_LIMIT, MAX_LIMIT, TEXT_LIMIT
from .picture import GroupBy, render_png
from .store import Loaded, Store

__all__ = ["Tools", "add_tools", "tool_result", "tool_error", "ERROR_LIMIT", "STRING_LIMIT"]

Snapshot = Annotated[
    str | None,
    Field(description="a loaded snapshot's name (summary lists them); the newest if omitted"),
]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description="items per page")]
Cursor = Annotated[str | None, Field(description="next_cursor of the previous page")]
_ID_WORDS = (
    "a node id (channel:40003), a bare id of a profile, channel or partner (40003, "
    "P-000017) or a name (Acme Ltd; any case)"
)
ItemId = Annotated[str, Field(description=_ID_WORDS)]
if TYPE_CHECKING:
    RuleKind = str
else:  # the rules' kinds as the schema's enum (a client sees the choices, not a prose list)
    RuleKind = Literal[KINDS]
FilterArg = Annotated[
    Filter | None,
    Field(
        description="which profiles: agent_types, channel_types (type names or short ones: "
        "SFTP, AS2), partners, channels (ids or names), groups (Finance selects its "
        "subgroups; * and ? patterns), tags, active (true/false), text (words in any "
        "name, URL, host); fields combine with AND, values in a field with OR; "
        "channel_types, partners and channels must hold of one channel (partners=[X], "
        "channel_types=[AS2]: profiles on an AS2 channel of X); none: all"
    ),
]
_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
_FETCHES = ToolAnnotations(read_only_hint=True, open_world_hint=True)


def add_tools(server: MCPServer, store: Store) -> None:
    """Register the tools over `store`, in the order an assistant lists them: `diff` only
    with two snapshots or more, `history` only with an archive, `refresh` only when the
    estate is fetched live."""
    tools = Tools(store)
    for tool in (
        tools.summary,
        tools.find_profiles,
        tools.get_item,
        tools.where_used,
        tools.impact,
        tools.neighbourhood,
        tools.paths,
        tools.findings,
        tools.schema_report,
    ):
        server.add_tool(tool, annotations=_READ_ONLY)
    server.add_tool(tools.draw_topology, annotations=_READ_ONLY, structured_output=False)
    if len(store.loaded) > 1:
        server.add_tool(tools.diff, annotations=_READ_ONLY)
        server.add_tool(tools.compare, annotations=_READ_ONLY)
    if store.archive is not None:
        server.add_tool(tools.history, annotations=_READ_ONLY)
    if store.fetch is not None:
        server.add_tool(tools.refresh, annotations=_FETCHES)


class Tools:
    """The tools over one `Store`, a method each (`add_tools` says which are offered)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def summary(self, snapshot: Snapshot = None) -> Annotated[CallToolResult, SummaryAnswer]:
        """Counts of the estate: profiles (active, with problems), channels, partners, input
        agent types, channel types, profiles by partner and by group, findings by kind and
        by rule code (with title and severity); and the snapshots loaded. Start here."""
        return tool_result(lambda: answers.summary(self.store.get(snapshot), self.store.names))

    def find_profiles(
        self,
        filter: FilterArg = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, ProfilePage]:
        """The profiles a filter selects, a page at a time: each with its id, name, group,
        activity, input agent type, channels and partners."""
        chosen = filter or Filter()
        return tool_result(
            lambda: answers.find_profiles(self.store.get(snapshot), chosen, limit, cursor)
        )

    def get_item(
        self,
        id: ItemId,
        offset: Annotated[int, Field(ge=0, description="where a long JSON text resumes")] = 0,
        max_chars: Annotated[int, Field(ge=200, le=50_000)] = TEXT_LIMIT,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, ItemAnswer]:
        """One profile, channel, partner, agent or response unit: its facts, channels,
        partners, how many profiles use it, and its JSON (secrets masked; a long JSON comes
        in parts, the note says how to read on)."""
        return tool_result(
            lambda: answers.get_item(self.store.get(snapshot), id, offset, max_chars)
        )

    def where_used(
        self,
        id: Annotated[str | None, Field(description=_ID_WORDS)] = None,
        type: Annotated[
            str | None,
            Field(description="instead of id: a type (SFTP, AS2, SFTPAgentSettings)"),
        ] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, UsedByPage]:
        """The profiles whose input or response path reaches a node (a channel, partner,
        agent...) or any node of a type. Activity does not matter here; see impact."""
        return tool_result(
            lambda: answers.where_used(self.store.get(snapshot), id, type, limit, cursor)
        )

    def impact(
        self,
        id: Annotated[
            str | list[str],
            Field(description=f"{_ID_WORDS}; or a list of them, gone together"),
        ],
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, ImpactAnswer]:
        """What stops if a node (channel, partner, agent, response unit, profile), or several
        together (both AS2 channels of a partner), go away: active profiles losing all or
        part of their input, losing a response path, and partners left without an active
        channel. Only active things stop."""
        return tool_result(lambda: answers.impact(self.store.get(snapshot), id, limit, cursor))

    def neighbourhood(
        self,
        id: ItemId,
        depth: Annotated[int, Field(ge=0, le=4, description="steps, edges either way")] = 1,
        limit: Limit = 50,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, NeighbourhoodAnswer]:
        """The nodes within `depth` steps of a node and the edges between them (around a
        partner: depth 1 its channels, 2 the agents and response paths on them, 3 their
        profiles). Edges point profile -> agent/response -> channel -> partner."""
        return tool_result(
            lambda: answers.neighbourhood(self.store.get(snapshot), id, depth, limit, cursor)
        )

    def paths(
        self,
        a: ItemId,
        b: ItemId,
        cutoff: Annotated[int, Field(ge=1, le=12, description="most steps a path takes")] = 8,
        limit: Limit = 10,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, PathsAnswer]:
        """How does A reach B: the simple paths between two nodes, edges followed either
        way, shortest first, each step with its relation and whether it goes along the
        edge (profile -> agent/response -> channel -> partner) or against it. No path:
        they are unrelated (or further apart than `cutoff`: then `longer` is true)."""
        return tool_result(
            lambda: answers.paths(self.store.get(snapshot), a, b, cutoff, limit, cursor)
        )

    def findings(
        self,
        kind: Annotated[RuleKind | None, Field(description="a rule's kind")] = None,
        severity: Annotated[Severity | None, Field(description="error, warning or info")] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
        code: Annotated[
            str | None,
            Field(description="a rule code (SEC006) or family prefix (SEC, OPS, DAT, HYG)"),
        ] = None,
    ) -> Annotated[CallToolResult, FindingsPage]:
        """The audit: security and operational risks and inconsistencies (weak AS2
        algorithms, plain FTP, unresolved channel ids, inactive channels in use...), each
        with its rule's code, title and severity, most severe first, with counts. Each
        rule is explained (why, remedy) at the resource named in `rule`."""
        return tool_result(
            lambda: answers.findings(self.store.get(snapshot), kind, severity, limit, cursor, code)
        )

    def schema_report(
        self,
        kind: Annotated[DriftKind | None, Field(description="all when omitted")] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        snapshot: Snapshot = None,
    ) -> Annotated[CallToolResult, DriftPage]:
        """Schema drift: what the snapshot holds that the API spec does not describe
        (unknown classes and fields, values of another type, declared fields always null or
        never sent), each with its JSON path and how many profiles hold it."""
        return tool_result(
            lambda: changes.schema_report(self.store.get(snapshot), kind, limit, cursor)
        )

    def draw_topology(
        self,
        filter: FilterArg = None,
        highlight: Annotated[
            str | None, Field(description="a node to stand out with its paths (any id form)")
        ] = None,
        group_by: Annotated[
            GroupBy,
            Field(
                description="group profiles by group, agent_type or partner; none: never; "
                "default: only large selections"
            ),
        ] = None,
        snapshot: Snapshot = None,
    ) -> list[Any]:
        """A PNG diagram of the selected profiles: profiles | agents and response units |
        channels | partners, left to right. Large selections are grouped, with counts."""
        return _drawing(self.store, filter or Filter(), highlight, group_by, snapshot)

    def diff(
        self,
        old: Annotated[
            str | None, Field(description="the older snapshot; default: the one before new")
        ] = None,
        new: Annotated[str | None, Field(description="default: the current snapshot")] = None,
        kind: Annotated[ChangeKind | None, Field(description="what changed")] = None,
        severity: Annotated[ChangeSeverity | None, Field(description="how much it matters")] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, DiffPage]:
        """What changed between two loaded snapshots: profiles, channels and partners
        added, removed or changed (field by field, at JSON paths), links of the graph,
        the schema; most severe first (breaking: an active profile loses its input or a
        response path...), with a one-line summary. Values are masked and cut."""
        return tool_result(
            lambda: changes.diff(self.store, old, new, kind, severity, limit, cursor)
        )

    def compare(
        self,
        a: Annotated[
            str | None,
            Field(
                description="a loaded snapshot of one installation (test); default, of two "
                "loaded: the first named"
            ),
        ] = None,
        b: Annotated[
            str | None,
            Field(description="a loaded snapshot of another (prod); default: the other one"),
        ] = None,
        kind: Annotated[ItemKind | None, Field(description="what differs")] = None,
        status: Annotated[Status | None, Field(description="how it differs")] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, ComparePage]:
        """What differs between two installations (test against production), items
        matched by what they are, not their ids: partners by name, channels by partner,
        type and name, profiles by group and name; references translated through the
        match. Each difference: only in a, only in b, changed (fields), active in one
        only, wired differently; most severe first. Values are masked and cut."""
        return tool_result(lambda: changes.compare(self.store, a, b, kind, status, limit, cursor))

    def history(
        self,
        id: Annotated[
            str | None, Field(description=_ID_WORDS + "; omit for the timeline only")
        ] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, HistoryAnswer]:
        """The archive's memory: with `id`, every stored snapshot in which that profile,
        channel or partner appeared, changed (which JSON paths, how severe) or
        disappeared; and the timeline of counts per snapshot, newest first. Any stored
        snapshot can be named in the other tools' `snapshot` as `archive@<id>`, by id,
        or by a date (the one fetched on or before it)."""
        return tool_result(lambda: archived.history(self.store, id, limit, cursor))

    def refresh(self) -> Annotated[CallToolResult, SummaryAnswer]:
        """Fetch the estate from the platform again (it becomes the current snapshot,
        named 'live') and return its summary. Takes as long as a fetch."""
        return tool_result(lambda: answers.summary(_refreshed(self.store), self.store.names))


def tool_result(compute: Callable[[], BaseModel]) -> CallToolResult:
    """Run a tool's computation: bad input becomes a tool error; strings leave masked. The
    answer is structured content, and the same as compact JSON text (what the assistant
    reads: a third shorter than the SDK's indented default)."""
    try:
        result = compute()
    except (ValueError, nx.NetworkXError) as exc:
        raise tool_error(exc) from None
    data = _bounded(result.model_dump(mode="json", by_alias=True))
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


ERROR_LIMIT = 1000
"""Characters of a tool error's message: an error repeats the argument it refuses, which
may be any length."""


def tool_error(exc: Exception) -> ToolError:
    """The tool error an assistant reads for bad input: masked, and cut when long."""
    text = redact_text(str(exc))
    if len(text) > ERROR_LIMIT:
        text = f"{text[:ERROR_LIMIT]}... (cut at {ERROR_LIMIT:,} of {len(text):,} characters)"
    return ToolError(text)


STRING_LIMIT = 1000
"""Characters of any one string of an answer (a name, a group, a type, a filter said back):
the platform's free text is any length, and `limit` rows of 100,000-character names would
be megabytes. A profile's JSON has its own bound (`max_chars`) and is not cut here."""
_OWN_BOUND = frozenset({"json", "json_text"})
"""Top-level fields bounded by the tool's own argument (`get_item`'s `max_chars`)."""


def _bounded(data: Any) -> Any:
    """An answer with every string masked, then cut to `STRING_LIMIT` (keys too), but for
    the fields that have a bound of their own."""
    if not isinstance(data, dict):
        return _masked(data)
    return {_masked(key): _masked(item, cut=key not in _OWN_BOUND) for key, item in data.items()}


def _masked(value: Any, *, cut: bool = True) -> Any:
    if isinstance(value, str):
        return _shortened(redact_text(value)) if cut else redact_text(value)
    if isinstance(value, dict):
        return {_masked(key, cut=cut): _masked(item, cut=cut) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item, cut=cut) for item in value]
    return value


def _shortened(text: str) -> str:
    """`text` cut to `STRING_LIMIT` characters, saying so (masked first: a cut secret
    would no longer have the shape that masks it)."""
    if len(text) <= STRING_LIMIT:
        return text
    return f"{text[:STRING_LIMIT]}... (cut at {STRING_LIMIT:,} of {len(text):,} characters)"


def _refreshed(store: Store) -> Loaded:
    """The live estate fetched again; the platform's refusal or absence is a tool error (the
    client's messages carry no credentials), and the estate served until now stays."""
    from ..client import ApiError

    try:
        return store.refresh()
    except (ApiError, OSError) as exc:
        raise ValueError(f"refresh failed, the last fetch is still served: {exc}") from None


def _drawing(
    store: Store, chosen: Filter, highlight: str | None, group_by: GroupBy, snapshot: str | None
) -> list[Any]:
    def compute() -> tuple[bytes, str]:
        loaded = store.get(snapshot)
        node = loaded.resolve(highlight) if highlight else None
        selected = subset(loaded.estate, chosen)  # as find_profiles selects, no warning
        graph = build_graph(selected)
        if node is not None and node not in graph:
            raise ValueError(f"{node} is not in the diagram of this filter ({chosen})")
        png, (width, height) = render_png(graph, highlight=node, group_by=group_by)
        said = (
            f"Topology of {plural(len(selected), 'profile')} ({chosen.describe()}) in snapshot "
            f"{loaded.name}; {width}x{height} px" + (f"; {node} highlighted" if node else "")
        )
        return png, said

    try:
        png, said = compute()
    except (ValueError, nx.NetworkXError) as exc:
        raise tool_error(exc) from None
    return [Image(data=png, format="png"), redact_text(said)]
