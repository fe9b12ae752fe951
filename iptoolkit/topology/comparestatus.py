"""What a comparison's map shows: the two installations' graphs in one, each item marked by
its kind of difference (issue 43).

Installation B's graph is the base; A's items are drawn in B's ids where the comparison
matched them (`Match`: a profile, channel or partner; a matched profile's agent and its
response units by their place in it), so a matched item is drawn once. What only A holds
keeps A's id (suffixed `#a` where B uses the same id for something else), so it is drawn
too, as a diff's removed items are. Each node's status, most trusted first:

1. the comparison's differences: a difference's item (B's node, or A's translated) gets
   its status (`changed`, `active-differs`, `wired-differently`, `ambiguous`, `only-in-a`,
   `only-in-b`);
2. the graphs: a node or link only in A is `only-in-a`, only in B `only-in-b`;
3. anything else is `same`.

Values, names and ids stay the installations' own; the words of the legend name the
installations as the comparison names them (`test`, `prod`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..comparing.difference import STATUSES
from .diffstatus import DiffGraph, Edge, Marking
from .style import STATUS_COLOURS, STATUS_LOOKS, UNCHANGED_NODE, pale

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..query.graph import EstateGraph

__all__ = ["COMPARE_STATUSES", "compare_marking", "comparison_graph", "ComparedGraph"]

COMPARE_STATUSES: tuple[str, ...] = (*STATUSES, "same")
"""A comparison map's statuses in the legend's order (`comparing.STATUSES`, then `same`)."""
_ACTIVE, _WIRED, _AMBIGUOUS = "#0072B2", "#AA3377", "#6B6B6B"  # blue, purple, dark grey
_LOOKS: dict[str, tuple[str, str]] = {
    "only-in-a": STATUS_LOOKS["removed"],
    "only-in-b": STATUS_LOOKS["added"],
    "active-differs": (_ACTIVE, "#FFFFFF"),
    "wired-differently": (_WIRED, "#FFFFFF"),
    "changed": STATUS_LOOKS["changed"],
    "ambiguous": (pale(_AMBIGUOUS), _AMBIGUOUS),
    "same": (UNCHANGED_NODE, STATUS_COLOURS["unchanged"]),
}
_COLOURS = {
    "only-in-a": STATUS_COLOURS["removed"],
    "only-in-b": STATUS_COLOURS["added"],
    "active-differs": _ACTIVE,
    "wired-differently": _WIRED,
    "changed": STATUS_COLOURS["changed"],
    "ambiguous": _AMBIGUOUS,
    "same": STATUS_COLOURS["unchanged"],
}
_SIGNS = (
    ("only-in-a", "\u2212"),
    ("only-in-b", "+"),
    ("active-differs", "\u00b1"),
    ("wired-differently", "\u21c4"),
    ("changed", "~"),
    ("ambiguous", "?"),
)
_UNITS = ("agent", "response")


class Comparison(Protocol):
    """What the map reads of `ipt.compare`'s result (named by a protocol, as
    `plot_comparison` does: the comparing package loads the exporters)."""

    @property
    def a(self) -> Estate: ...
    @property
    def b(self) -> Estate: ...
    @property
    def names(self) -> tuple[str, str]: ...
    @property
    def differences(self) -> tuple[Any, ...]: ...
    @property
    def matches(self) -> tuple[Any, ...]: ...


def compare_marking(names: tuple[str, str]) -> Marking:
    """The statuses of a comparison of `names[0]` with `names[1]`, as its legend says them
    (as its reports do, `status_words`)."""
    from ..comparing.render import status_words

    words = {status: status_words(status, names) for status in COMPARE_STATUSES[:-1]}
    words["changed"] = "fields differ, or a group with differences"
    words["same"] = "the same"
    return Marking(COMPARE_STATUSES, _LOOKS, _COLOURS, words, _SIGNS, mixed="changed")


@dataclass
class ComparedGraph(DiffGraph):
    """A comparison's `DiffGraph`, with `a_ids`: a union node drawn from A -> A's own id."""

    a_ids: dict[str, str] = field(default_factory=dict)


def comparison_graph(comparison: Comparison) -> ComparedGraph:
    """Build both installations' graphs, draw A's into B's and mark every node and link."""
    from ..query.graph import build_graph, release

    a_graph, union = build_graph(comparison.a), build_graph(comparison.b)
    in_b = {str(node) for node in union}
    to_union = _translation(comparison, a_graph, in_b)
    _follow_dangling(a_graph, union, to_union)
    nodes: dict[str, str] = dict.fromkeys(in_b, "same")
    for node, data in a_graph.nodes(data=True):
        drawn = to_union[str(node)]
        if drawn not in in_b:
            union.add_node(drawn, **data)
            nodes[drawn] = "only-in-a"
    a_links = {(to_union[str(u)], to_union[str(v)]) for u, v in a_graph.edges()}
    edges: dict[Edge, str] = {}
    for u, v in union.edges():
        edges[(u, v)] = "same" if (u, v) in a_links else "only-in-b"
    for u, v, key, data in a_graph.edges(keys=True, data=True):
        ends = (to_union[str(u)], to_union[str(v)])
        if ends not in edges:
            union.add_edge(*ends, key, **data)
            edges[ends] = "only-in-a"
    for node in in_b - set(to_union.values()):
        nodes[node] = "only-in-b"
    breaking: set[Hashable] = set()
    for difference in comparison.differences:
        for node in _drawn_nodes(difference, to_union):
            if node in nodes:
                nodes[node] = difference.status
                if difference.severity == "breaking":
                    breaking.add(node)
    release(a_graph)
    a_ids = {drawn: a for a, drawn in to_union.items() if drawn not in in_b}
    marking = compare_marking(comparison.names)
    return ComparedGraph(union, nodes, edges, frozenset(breaking), marking, a_ids)


def _drawn_nodes(difference: Any, to_union: dict[str, str]) -> list[str]:
    """The union's nodes a difference names: B's node, else A's translated (an ambiguous
    key: every node it names, in either installation)."""
    if difference.b is not None:
        named = [difference.b]
    elif difference.a is not None:
        named = [to_union.get(difference.a, difference.a)]
    else:
        named = []
    return named + [to_union.get(node, node) for node in difference.nodes]


def _translation(comparison: Comparison, a_graph: EstateGraph, in_b: set[str]) -> dict[str, str]:
    """A's node -> the union's: B's id where the comparison matched the item (a matched
    profile's agent and units too, by their place), else A's own (`#a` added where B uses
    the id for another item)."""
    matched = {match.a_node: match.b_node for match in comparison.matches}
    profile_ids = {
        a.partition(":")[2]: b.partition(":")[2]
        for a, b in matched.items()
        if a.startswith("profile:")
    }
    out: dict[str, str] = {}
    for item, data in a_graph.nodes(data=True):
        node = str(item)
        drawn = matched.get(node)
        if drawn is None and data.get("kind") in _UNITS:
            drawn = _unit_in_b(node, profile_ids, in_b)
        if drawn is None:
            drawn = node if node not in in_b else f"{node}#a"
        out[node] = drawn
    return out


def _follow_dangling(a_graph: EstateGraph, b_graph: EstateGraph, to_union: dict[str, str]) -> None:
    """A reference to a channel neither installation holds has no key to match by: it is
    the one B's counterpart names at the same place (`path`), when that is dangling too."""
    for u, v, data in a_graph.edges(data=True):
        target = str(v)
        if a_graph.nodes[v].get("resolved", True) or to_union[target] in b_graph:
            continue
        source = to_union[str(u)]
        if source not in b_graph:
            continue
        for _, w, b_data in b_graph.out_edges(source, data=True):
            same_place = b_data.get("path") == data.get("path")
            if same_place and not b_graph.nodes[w].get("resolved", True):
                to_union[target] = str(w)


def _unit_in_b(node: str, profile_ids: dict[str, str], in_b: set[str]) -> str | None:
    """A matched profile's agent (`agent:P`) or unit (`response:P:N`) as B names it, when
    B holds it."""
    kind, _, rest = node.partition(":")
    profile, colon, place = rest.rpartition(":") if kind == "response" else (rest, "", "")
    b_profile = profile_ids.get(profile)
    if b_profile is None:
        return None
    drawn = f"{kind}:{b_profile}{colon}{place}"
    return drawn if drawn in in_b else None
