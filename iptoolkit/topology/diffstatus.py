"""What a diff diagram shows: the union of two estates' graphs, each item marked added,
removed, changed or unchanged.

`plot_diff` draws the union (what `networkx.compose` of the old and the new graph gives,
built in place in the new graph, so removed items are drawn too) through the same views,
layout and drawing as `plot_topology`; this module only adds a `status` to the view's
nodes and edges, and in a grouped view a `tally` (status -> how many underlying items), so
the drawing can colour them.

Where the status comes from, most trusted first:

1. the diff's own changes: a profile, channel or partner node id (or a link
   `"source -> target"`) named by a `Change` gets that change's op;
2. the two graphs: a node or edge in the new graph only is added, in the old only removed;
   an agent or response unit in both whose JSON differs is changed (a diff names the
   profile, not the unit).

No matplotlib here: the drawing reads the attributes. A comparison of two installations
marks its map with statuses of its own (`comparestatus`): a `Marking` is the vocabulary a
marked map speaks, so one drawing serves both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .shared_union import UNIT_KINDS, json_differs, shared_union
from .style import STATUS_COLOURS, STATUS_LOOKS, STATUS_WORDS

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..query.graph import EstateGraph
    from .view import ViewGraph

__all__ = [
    "Status",
    "STATUSES",
    "Marking",
    "DIFF_MARKING",
    "DiffGraph",
    "diff_graph",
    "mark_view",
    "status_of_tally",
    "tally_of",
    "news_text",
    "TALLY_SIGNS",
]

Status = Literal["added", "removed", "changed", "unchanged"]
STATUSES: tuple[Status, ...] = ("added", "removed", "changed", "unchanged")
TALLY_SIGNS: tuple[tuple[Status, str], ...] = (
    ("added", "+"),
    ("removed", "\u2212"),
    ("changed", "~"),
)
"""How a group's label counts its members' news: `+2 \u22121 ~3`, then `!1` for breaking."""
Edge = tuple[str, str]


@dataclass(frozen=True)
class Marking:
    """The statuses a marked map speaks of (a diff's, `DIFF_MARKING`; a comparison's,
    `comparestatus.compare_marking`): in the legend's order, the last the one with nothing
    to say (`plain`), how a node and a link of each look, what the legend calls it, the
    signs a group's news counts them by, and the status of a group whose members differ."""

    statuses: tuple[str, ...]
    looks: Mapping[str, tuple[str, str]]
    """Status -> (fill, outline) of a node."""
    colours: Mapping[str, str]
    """Status -> colour of a link."""
    words: Mapping[str, str]
    signs: tuple[tuple[str, str], ...]
    mixed: str

    @property
    def plain(self) -> str:
        """The status of what did not change (`unchanged`, `same`)."""
        return self.statuses[-1]


DIFF_MARKING = Marking(
    STATUSES, STATUS_LOOKS, STATUS_COLOURS, STATUS_WORDS, TALLY_SIGNS, mixed="changed"
)
"""A diff's statuses: added, removed, changed, unchanged (`plot_diff`'s)."""


@dataclass
class DiffGraph:
    """The union graph of a diff (or of a comparison's two installations) and the status
    of each of its nodes and node pairs, in the words of its `marking`."""

    graph: EstateGraph
    nodes: dict[str, str]
    edges: dict[Edge, str]
    breaking: frozenset[Hashable] = frozenset()
    """Nodes and node pairs a breaking change names, or whose profile it affects: drawn
    so that they stand out."""
    marking: Marking = DIFF_MARKING

    def counts(self) -> Counter[str]:
        """Nodes per status (what the title and tests count)."""
        return Counter(self.nodes.values())


def diff_graph(
    diff: EstateDiff,
    graphs: tuple[EstateGraph, EstateGraph] | None = None,
    *,
    shared: EstateGraph | Literal[True] | None = None,
) -> DiffGraph:
    """Build both estates' graphs (or take them built: `graphs`, old and new, which are
    left as they are), compose them and mark every node and edge. `shared`: the estates
    share their unchanged profiles' JSON (a timeline's snapshots), so the union is made
    from the new estate's graph (`shared`, left as it is; True: built here) and the
    profiles that differ (`shared_union`); no old graph is built."""
    from ..models import gc_paused
    from ..query.graph import build_graph, release, structural_copy

    if shared is not None:
        union, nodes, edges = shared_union(diff.old, diff.new, None if shared is True else shared)
    elif graphs is None:
        old, union = build_graph(diff.old), build_graph(diff.new)
        nodes, edges = _composed(old, union)
        release(old)  # dropped: no cycle left for the collector to find
    else:  # built already (a timeline keeps them, a file reads details from them): the
        with gc_paused():  # union gains on a copy of the new one's structure alone
            union = structural_copy(graphs[1])
        nodes, edges = _composed(graphs[0], union)
    named: dict[str, Status] = {}
    for op in ("changed", "removed", "added"):  # added and removed win over changed
        named.update(dict.fromkeys(diff.keys(op), op))
    for node, found in nodes.items():
        nodes[node] = named.get(str(node), found)
    for u, v in edges:
        edges[(u, v)] = named.get(f"{u} -> {v}", edges[(u, v)])
    return DiffGraph(union, nodes, edges, _breaking(diff, union))


def _composed(old: EstateGraph, union: EstateGraph) -> tuple[dict[str, str], dict[Edge, str]]:
    """`networkx.compose(old, new)` in `union` (a copy of the new graph's structure, ours
    to change), and each node and node pair added, removed, changed or unchanged."""
    nodes, edges = _statuses(old, union)
    union.add_nodes_from((node, data) for node, data in old.nodes(data=True) if node not in nodes)
    for node in old:
        nodes.setdefault(node, "removed")
    gone = [(u, v, k, d) for u, v, k, d in old.edges(keys=True, data=True) if (u, v) not in edges]
    for u, v, key, data in gone:  # each under its key, as add_edges_from would add it
        union.add_edge(u, v, key, **data)
    edges.update(((u, v), "removed") for u, v, _, _ in gone)
    return nodes, edges


def _statuses(old: EstateGraph, new: EstateGraph) -> tuple[dict[str, str], dict[Edge, str]]:
    """Each node and node pair of `new` added (not in `old`) or unchanged, an agent or
    response unit whose JSON differs changed. Read from networkx's own maps: their public
    views cost a call per item (at 10,000 profiles 0.1 s of a timeline's jump)."""
    from ..query.graph import graph_maps

    old_nodes, old_links = graph_maps(old)
    new_nodes, new_links = graph_maps(new)
    nodes: dict[str, str] = {}
    for node, data in new_nodes.items():
        before = old_nodes.get(node)
        if before is None:
            status: Status = "added"
        elif data.get("kind") in UNIT_KINDS and json_differs(before.get("json"), data.get("json")):
            status = "changed"
        else:
            status = "unchanged"
        nodes[node] = status
    edges: dict[Edge, str] = {}
    for u, near in new_links.items():
        linked = old_links.get(u, {})
        for v in near:
            edges[(u, v)] = "unchanged" if v in linked else "added"
    return nodes, edges


def _breaking(diff: EstateDiff, union: EstateGraph) -> frozenset[Hashable]:
    """What breaking changes name: their items, their links (as node pairs), the active
    profiles that stop (a deactivated channel's users, a lost link's profile)."""
    found: set[Hashable] = set()
    for change in diff.of(severity="breaking"):
        if change.kind == "link":
            source, _, target = change.key.partition(" -> ")
            found.add((source, target))
        elif change.kind != "schema":
            found.add(change.key)
        if change.op != "removed" or change.kind == "link":
            # a removed channel lists its rewired users too; those left behind lost a
            # link of their own, ringed through it
            found.update(f"profile:{key}" for key in change.profiles)
    return frozenset(item for item in found if isinstance(item, tuple) or item in union)


def status_of_tally(tally: Counter[str], marking: Marking = DIFF_MARKING) -> str:
    """One status for a group: its members' when they agree, else the marking's `mixed`
    (`changed`) if any has news (the label then says how many of each)."""
    present = [status for status in marking.statuses if tally.get(status)]
    if len(present) == 1:
        return present[0]
    return marking.mixed if any(s != marking.plain for s in present) else marking.plain


def tally_of(members: Iterable[Hashable], marked: DiffGraph) -> tuple[Counter[str], int]:
    """How many of `members` have each status, and how many a breaking change names."""
    members = tuple(members)
    plain = marked.marking.plain
    tally: Counter[str] = Counter(marked.nodes.get(str(m), plain) for m in members)
    return tally, sum(member in marked.breaking for member in members)


def news_text(tally: Counter[str], breaking: int, marking: Marking = DIFF_MARKING) -> str:
    """A group's news as its label says them: `+2 \u22121 ~3 !1` (empty: nothing changed)."""
    signs = marking.signs
    news = " ".join(f"{sign}{tally[status]:,}" for status, sign in signs if tally[status])
    if breaking:
        news += f" !{breaking:,}"
    return news.strip()


def mark_view(view: ViewGraph, marked: DiffGraph) -> None:
    """Give every node and edge of a view (detail or grouped) its `status`, `tally` and
    `breaking` (how many of its members a breaking change names).

    A view node lists the graph nodes it stands for in `members`; an edge of the view
    stands for the graph's edges between its ends' members.
    """
    group_of: dict[str, Hashable] = {}
    for key, data in view.nodes(data=True):
        data["tally"], data["breaking"] = tally_of(data["members"], marked)
        data["status"] = status_of_tally(data["tally"])
        group_of.update(dict.fromkeys(data["members"], key))
    for data in view.edges.values():
        data["tally"] = Counter()
        data["breaking"] = 0
    for (u, v), status in marked.edges.items():
        a, b = group_of.get(u), group_of.get(v)
        if a is not None and b is not None and view.has_edge(a, b):
            view.edges[a, b]["tally"][status] += 1
            view.edges[a, b]["breaking"] += (u, v) in marked.breaking
    for data in view.edges.values():
        data["status"] = status_of_tally(data["tally"])
