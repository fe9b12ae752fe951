"""Which group each item of a topology falls in (`group_keys`), and how many groups a
column may show before the smallest are merged into one "other" group (`cap_groups`):
the grouped view's (`view.grouped_view`) first two steps, apart from how it merges the
items and their edges.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from ..query.reach import reached
from ..support.names import type_label

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

__all__ = ["Key", "Reach", "MAX_PER_COLUMN", "group_keys", "cap_groups"]

Key = tuple[str, str, Any]
"""A group: (kind, label, type)."""
Reach = dict[str, AbstractSet[int]]
"""For every node, the profiles (by number) whose paths reach it."""

MAX_PER_COLUMN: dict[str, int] = {
    "profile": 14,
    "agent": 16,
    "response": 8,
    "channel": 12,
    "partner": 16,
}
"""Grouped nodes per kind before the smallest are merged into one "other" node: more
would turn the links between two columns into a mesh nobody can follow."""


def group_keys(graph: EstateGraph, group_by: str, *, profiles_only: bool = False) -> dict[str, Key]:
    """Each node's group (see `topology.view`); `profiles_only`: the profiles' alone, all
    that a count of subgroups needs (no other kind is ranked with them; agent types lump
    profiles with their agents): a drill-down counts subgroups it then refuses at most
    levels."""
    if profiles_only and group_by == "agent_type":
        raise ValueError("group_keys: agent types lump profiles with agents: profiles_only")
    keys: dict[str, Key] = {}
    given: Any = graph  # its node dicts as networkx keeps them: no view per node
    nodes: dict[str, dict[str, Any]] = given._node
    partner_names: dict[str, str] = {}
    if group_by == "partner" or not profiles_only:
        named = ((node, data) for node, data in nodes.items() if data.get("kind") == "partner")
        partner_names = {node: str(data.get("name") or node) for node, data in named}
    reaching = _partners_reached(graph, partner_names) if group_by == "partner" else {}
    typed: dict[tuple[str, Any, bool], Key] = {}  # each kind and type's key made once
    for node, data in nodes.items():
        kind = data.get("kind") or "other"
        if kind == "profile":
            keys[node] = ("profile", _profile_bucket(data, node, group_by, reaching), None)
        elif profiles_only:
            continue
        elif kind == "partner":
            keys[node] = ("partner", partner_names[node], node)
        else:
            kind_type = (kind, data.get("type"), data.get("resolved") is False)
            if kind_type not in typed:
                typed[kind_type] = _typed_key(*kind_type)
            keys[node] = typed[kind_type]
    if group_by == "group":
        keys = _shallower_groups(keys)
    return keys


def _typed_key(kind: str, type_name: Any, unresolved: bool) -> Key:
    """The group of an agent, response unit or channel: its kind and type."""
    if kind == "channel" and unresolved:
        return ("channel", "channel ids not found", None)
    if kind in ("agent", "response", "channel"):
        return (kind, f"{type_label(type_name)} {kind}s", type_name)
    return (kind, str(kind), None)


_COLUMN = {"profile": 0, "agent": 1, "response": 1, "channel": 2, "partner": 3}


def _partners_reached(graph: EstateGraph, partner_names: dict[str, str]) -> dict[str, set[str]]:
    """For each profile, the names of the partners its paths reach: in one pass against
    the edges, partners first, when every edge runs from a column to a later one (as
    `build_graph` makes them), else by a walk from each profile (a walk from each of
    100,000 profiles was a tenth of an HTML file's levels)."""
    given: Any = graph  # networkx's own dicts: no view per node or edge (a multigraph's
    nodes, succ = given._node, given._succ  # edge view yields each parallel edge)
    column = {node: _COLUMN.get(str(data.get("kind")), -1) for node, data in nodes.items()}
    if not all(0 <= column[u] < column[v] for u, targets in succ.items() for v in targets):
        return {
            node: {partner_names[p] for p in reached(graph.succ, [node]) if p in partner_names}
            for node, at in column.items()
            if at == 0
        }
    by_column: list[list[str]] = [[], [], [], []]
    for node, at in column.items():
        if at >= 0:
            by_column[at].append(node)
    found: dict[str, set[str]] = {}
    for in_column in reversed(by_column):
        for node in in_column:
            names = {partner_names[node]} if node in partner_names else set()
            for other in succ[node]:
                names |= found[other]
            found[node] = names
    return found


def _profile_bucket(
    data: dict[str, Any], node: str, group_by: str, reaching: dict[str, set[str]]
) -> str:
    if data.get("problem"):
        return "unreadable profiles"
    if group_by == "agent_type":
        agent_type = data.get("agent_type")
        return f"{type_label(agent_type)} profiles" if agent_type else "profiles without agent"
    if group_by == "partner":
        partners = sorted(reaching[node])
        if not partners:
            return "no partner"
        return partners[0] if len(partners) == 1 else "several partners"
    group = data.get("group")
    return group if isinstance(group, str) and group.strip() else "no group"


def _shallower_groups(keys: dict[str, Key]) -> dict[str, Key]:
    """Cut group paths to fewer levels until the profile groups fit in one column.

    `Finance/AP` and `Finance/GL` become `Finance`, which is also how a `Filter` selects
    a group with its subgroups. Each path is cut once, at the depth `_fitting_depth` finds.
    """
    paths = {key[1] for key in keys.values() if key[0] == "profile"}
    depth = _fitting_depth(paths, MAX_PER_COLUMN["profile"])
    cut = {path: _cut(path, depth) for path in paths}
    return {
        node: (key[0], cut[key[1]], key[2]) if key[0] == "profile" else key
        for node, key in keys.items()
    }


def _fitting_depth(paths: Iterable[str], limit: int) -> int:
    """The most levels of the group paths at which they make at most `limit` groups (at
    least 1), counted in one pass over a tree of their parts: cutting every path at every
    depth in turn was cubic in the depth (710 s for groups nested 800 deep)."""
    tree: dict[str, Any] = {}  # part -> the parts below it
    new_at: Counter[int] = Counter()  # distinct prefixes with this many parts
    ends_at: Counter[int] = Counter()  # paths of this many parts
    deepest = 1
    for path in paths:
        node = tree
        parts = path.split("/")
        for level, part in enumerate(parts, 1):
            if part not in node:
                node[part] = {}
                new_at[level] += 1
            node = node[part]
        ends_at[len(parts)] += 1
        deepest = max(deepest, len(parts))
    groups_at: dict[int, int] = {}
    shorter = 0  # a path with fewer parts than the depth stays whole: one group
    for level in range(1, deepest + 1):
        groups_at[level] = new_at[level] + shorter
        shorter += ends_at[level]
    depth = deepest
    while depth > 1 and groups_at[depth] > limit:
        depth -= 1
    return depth


def _cut(path: str, depth: int) -> str:
    parts = path.split("/")
    return "/".join(parts[:depth])


def cap_groups(
    keys: dict[str, Key],
    reach: Reach,
    limits: dict[str, int],
    group_by: str,
) -> dict[str, Key]:
    """Merge the smallest groups of each kind into one "other" group beyond `limit`.

    Partners are ranked by how many profiles reach them (their weight in the picture),
    everything else by how many members a group has. Ties go by name: deterministic.
    """
    sizes: Counter[Key] = Counter(keys.values())
    for key in sizes:
        if key[0] == "partner":
            sizes[key] = len(reach.get(key[2], ()))
    by_kind: dict[str, list[Key]] = {}
    for key in sizes:
        by_kind.setdefault(key[0], []).append(key)
    renamed: dict[Key, Key] = {}
    for kind, members in by_kind.items():
        limit = max(limits.get(kind, 12), 2)
        if len(members) <= limit:
            continue
        ranked = sorted(members, key=lambda key: (-sizes[key], key[1]))
        rest = ranked[limit - 1 :]
        noun = {
            "partner": "other partners",
            "profile": {
                "group": "other groups",
                "agent_type": "other agent types",
                "partner": "other partners",
            }[group_by],
            "agent": "other agent types",
            "response": "other response types",
            "channel": "other channel types",
        }.get(kind, f"other {kind}s")
        other: Key = (kind, noun, None)
        renamed.update({key: other for key in rest})
    if group_by == "agent_type":
        # One decision for both columns: a type is lumped into "other agent types" among
        # the profiles exactly when its agents are, so each profile group leads to its own.
        lumped = {key[1].removesuffix(" agents") for key in renamed if key[0] == "agent"}
        other_profiles: Key = ("profile", "other agent types", None)
        renamed = {key: new for key, new in renamed.items() if key[0] != "profile"}
        renamed.update(
            (key, other_profiles)
            for key in sizes
            if key[0] == "profile" and key[1].removesuffix(" profiles") in lumped
        )
    return {node: renamed.get(key, key) for node, key in keys.items()}
