"""One way to name an item of the graph, everywhere: the command line, the queries, the
diagrams' `highlight`, the MCP tools.

An item is named by its node id (`channel:40003`, what `findings` and the graph print), by
its bare id or key (`40003`), by its kind and name (`partner:Acme Ltd`) or, for partners
and channels (and profiles, where the caller says so with `named`), by its name in any
case (`acme retail`) or, when no name is that, by its first words (`Mosel Retail` for
`Mosel Retail GmbH & Co. KG`, `names.starts_name`). A name, or a start, that fits several
items is refused with the items it could mean, and so is a bare id several profiles share
(`P1`: `profile:P1` and `profile:P1#7`, never the first alone); an unknown one with the
closest ids and names (`names.Vocabulary`: typos of a whole name or of its start), the
closest of each kind among them.

`ItemIndex(graph)` holds the tables (lower-cased names -> node ids, per kind, and the
bare ids and names close matches are looked for among, a `names.Vocabulary`): the MCP
server keeps one per estate, prepared, so that a tool answers in milliseconds.
`resolve_node` builds one per call unless `ref` is a node id already: the one-shot command
line and queries do not keep a graph's index, which would go stale if the graph changed
(a cache per graph object could not tell). A table made on first need is made whole
before it is stored, so threads sharing an index at worst make one twice.

>>> import iptoolkit as ipt
>>> G = ipt.build_graph(ipt.demo_estate(n_profiles=50))  # doctest: +SKIP
>>> ipt.resolve_node(G, "40003")  # doctest: +SKIP
'channel:40003'
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from ..support.arguments import texts
from ..support.names import NODE_KINDS, Vocabulary, starts_name

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .graph import EstateGraph

__all__ = [
    "resolve_node",
    "ItemIndex",
    "UnknownItemError",
    "AmbiguousItemError",
    "ID_KINDS",
    "NAMED_KINDS",
]

ID_KINDS = ("profile", "channel", "partner")
"""The kinds an item may be named by its bare id or key. An agent or response unit has its
profile's key, so it is named by its node id only (`agent:P1`, `response:P1:0`)."""

NAMED_KINDS = ("partner", "channel")
"""The kinds an item is named by its name (any case) unless the caller says otherwise:
profile names are many and often alike, so only the MCP tools accept them."""

_CLOSE = 5
"""Close matches an unknown item's error names."""

_LISTED = 10
"""The items an ambiguous name's error lists; it counts the rest."""


class UnknownItemError(nx.NodeNotFound, ValueError):
    """No item of the graph has that node id, id or name; `choices` are the close ones
    (node ids, each with its name), which the message names too. A `ValueError` as well,
    so that whoever turns bad input into an error message (the MCP tools) catches it."""

    def __init__(self, message: str, choices: Sequence[str] = ()) -> None:
        self.choices = list(choices)
        super().__init__(message)


class AmbiguousItemError(ValueError):
    """An id or name that fits several items; the message lists them (`labels`, or their
    node ids), the first `_LISTED` of many."""

    def __init__(
        self,
        ref: Any,
        nodes: Sequence[Hashable],
        head: str = "",
        *,
        labels: Sequence[str] | None = None,
        remedy: str = "give the node id",
    ) -> None:
        self.ref = ref
        self.nodes = tuple(nodes)
        kinds = " or ".join(dict.fromkeys(str(node).partition(":")[0] for node in self.nodes))
        listed = list(labels) if labels is not None else [str(node) for node in self.nodes]
        said = ", ".join(listed[:_LISTED])
        if len(listed) > _LISTED:
            said += f" and {len(listed) - _LISTED:,} more"
        super().__init__(f"{head}{ref!r} could be a {kinds}: {said}; {remedy}")


class ItemIndex:
    """Lower-cased names -> node ids, per kind, for one graph, and the words (bare ids and
    names as written) close matches are looked for among. Each table is made on first
    need (a bare id needs none: `kind:id` is the node id), so a one-shot question pays
    only for what it asks; keep the index of a graph that does not change."""

    def __init__(self, graph: EstateGraph) -> None:
        self.graph = graph
        self._names: dict[str, dict[str, list[str]]] = {}
        """kind -> lower-cased name -> the nodes of that name."""
        self._words: dict[str, tuple[dict[str, str], dict[str, str]]] = {}
        """kind -> (bare id -> node, name as written -> node), for suggestions."""
        self._vocabularies: dict[tuple[Any, ...], tuple[Vocabulary, dict[str, str]]] = {}
        self._sorted: dict[str, tuple[list[str], list[str]]] = {}
        """kind -> its names sorted, for finding those a text starts (`started`)."""
        self._profile_ids: dict[str, list[str]] | None = None
        """profile id -> the profile nodes of that id (`sharing_id`)."""

    def prepare(
        self, *, kinds: Iterable[str] = ID_KINDS, named: Iterable[str] = NAMED_KINDS
    ) -> ItemIndex:
        """Make now the tables that `resolve(kinds=, named=)` would make on first need."""
        kinds, named = _kinds(kinds, "kinds"), _kinds(named, "named")
        self._vocabulary(kinds, named)
        for kind in named:
            self._starts(kind)
        return self

    def resolve(
        self,
        ref: Hashable,
        *,
        kinds: Iterable[str] = ID_KINDS,
        named: Iterable[str] = NAMED_KINDS,
        what: str = "",
        elsewhere: Callable[[Hashable], str] | None = None,
    ) -> str:
        """The node id `ref` names: a node id, a bare id of `kinds`, a name of `named`, or
        `kind:name`. `what` (an option name, say) heads the error message. Raises
        `UnknownItemError` or `AmbiguousItemError`.

        A name of `named` that no item has may be the first words of one
        (`names.starts_name`): the item whose name it starts, if only one's does.

        `elsewhere(ref)` says where else an unknown `ref` is known ("in snapshot 'monday'
        as channel:17 (Acme AS2)", "" for nowhere): then the error says so instead of
        suggesting unrelated items of this graph."""
        kinds, named = (
            _kinds(kinds, "kinds", what or "resolve"),
            _kinds(named, "named", what or "resolve"),
        )
        found, (kinds, named, wanted, missing) = self._matches(ref, kinds, named)
        head = f"{what}: " if what else ""
        if len(found) == 1:
            return found[0]
        if found:
            raise AmbiguousItemError(ref, found, head)
        started = self.started(wanted, named=named)
        if len(started) == 1:
            return started[0]
        if started:
            labels = [self.label(node) for node in started]
            remedy = "give the node id or more of the name"
            kind = started[0].partition(":")[0]
            if sum(node.startswith(f"{kind}:") for node in started) == 1:  # one of its kind
                remedy += f", or its kind ({kind}:{wanted})"
            raise AmbiguousItemError(ref, started, head, labels=labels, remedy=remedy)
        where = elsewhere(ref) if elsewhere is not None else ""
        if where:
            raise UnknownItemError(f"{head}{missing}; it is {where}")
        choices = self.suggest(wanted, kinds=kinds, named=named) if wanted else []
        if not choices and len(kinds) == 1:  # `channel:12`: short ids are alike as node ids
            choices = self.suggest(f"{kinds[0]}:{wanted}", kinds=kinds, named=(), as_ids=True)
        raise UnknownItemError(f"{head}{missing}{_hint(choices)}", choices)

    def matches(
        self,
        ref: Hashable,
        *,
        kinds: Iterable[str] = ID_KINDS,
        named: Iterable[str] = NAMED_KINDS,
    ) -> list[str]:
        """Every node `ref` names exactly, as `resolve` reads it, without raising and
        without looking for close matches: none, one, or the several an ambiguous name
        fits (a search box asks this at every key)."""
        return self._matches(ref, _kinds(kinds, "kinds"), _kinds(named, "named"))[0]

    def _matches(
        self, ref: Hashable, kinds: Iterable[str], named: tuple[str, ...]
    ) -> tuple[list[str], tuple[tuple[str, ...], tuple[str, ...], str, str]]:
        """The nodes `ref` names, and how it was read: (kinds, named, the id or name
        wanted, what to say when nothing has it)."""
        if isinstance(ref, str) and ref in self.graph:
            return [ref], (tuple(kinds), named, str(ref), "")
        text = str(ref).strip()
        if text in self.graph:
            return [text], (tuple(kinds), named, text, "")
        prefix, colon, rest = text.partition(":")
        if colon and prefix.strip().lower() in NODE_KINDS:
            kind = prefix.strip().lower()
            kinds, named = (kind,), (kind,) if kind in named else ()
            wanted, missing = rest.strip(), f"no node {text!r} in the graph"
        else:
            kinds, wanted = tuple(kinds), text
            missing = f"nothing in the graph is named {text!r}" if text else "an empty id"
        found = [f"{kind}:{wanted}" for kind in kinds if f"{kind}:{wanted}" in self.graph]
        if f"profile:{wanted}" in found:  # the first of profiles sharing the id?
            at = found.index(f"profile:{wanted}")
            found[at : at + 1] = self.sharing_id(wanted)
        lowered = wanted.lower()
        self._index(named)
        found += [node for kind in named for node in self._names[kind].get(lowered, ())]
        return list(dict.fromkeys(found)), (kinds, named, wanted, missing)

    def sharing_id(self, profile_id: str) -> list[str]:
        """The profile nodes whose profile id is `profile_id`, in listing order: its
        node (`profile:P1`) and those of the later profiles given the same id (`P1#7`), for
        whom the bare id is ambiguous. Made once for every id on first need."""
        if self._profile_ids is None:
            ids: dict[str, list[str]] = defaultdict(list)
            for node, data in self.graph.nodes(data=True):
                if data.get("kind") == "profile" and data.get("id") is not None:
                    ids[str(data["id"])].append(node)
            self._profile_ids = ids
        return self._profile_ids.get(profile_id) or [f"profile:{profile_id}"]

    def started(self, text: str, *, named: Iterable[str] = NAMED_KINDS) -> list[str]:
        """The items of the `named` kinds whose names `text` is the first words of
        (`names.starts_name`), by kind (in the order of `named`), then by name."""
        first = " ".join(text.lower().split())
        if not first:
            return []
        found: list[str] = []
        for kind in named:
            spaced, names = self._starts(kind)
            at = bisect_left(spaced, first)  # the names starting so are together, sorted
            while at < len(spaced) and spaced[at].startswith(first):
                if starts_name(spaced[at], first):
                    found += self._names[kind][names[at]]
                at += 1
        return found

    def _starts(self, kind: str) -> tuple[list[str], list[str]]:
        """The names of `kind`, white space runs as one, sorted, and each as `_names`
        holds it: the ones a text starts are neighbours there."""
        if kind not in self._sorted:
            self._index((kind,))
            pairs = sorted((" ".join(name.split()), name) for name in self._names[kind])
            self._sorted[kind] = ([spaced for spaced, _ in pairs], [name for _, name in pairs])
        return self._sorted[kind]

    def suggest(
        self,
        text: str,
        *,
        kinds: Iterable[str] = ID_KINDS,
        named: Iterable[str] = NAMED_KINDS,
        as_ids: bool = False,
    ) -> list[str]:
        """The items whose bare ids (of `kinds`; node ids if `as_ids`) or names (of
        `named`) are closest to `text`, best first, each as `node id (name)`: the closest
        of each kind among them, so that five channels named after a partner leave room
        for the partner."""
        vocabulary, nodes = self._vocabulary(tuple(kinds), tuple(named), as_ids)
        ranked = list(dict.fromkeys(nodes[word] for word in vocabulary.closest(text, 4 * _CLOSE)))
        best_of_kind: dict[str, str] = {}
        for node in ranked:
            best_of_kind.setdefault(node.partition(":")[0], node)
        chosen = set(list(best_of_kind.values())[:_CLOSE])
        for node in ranked:
            if len(chosen) >= _CLOSE:
                break
            chosen.add(node)
        return [self.label(node) for node in ranked if node in chosen]

    def _vocabulary(
        self, kinds: tuple[str, ...], named: tuple[str, ...], as_ids: bool = False
    ) -> tuple[Vocabulary, dict[str, str]]:
        key = (kinds, named, as_ids)
        if key not in self._vocabularies:
            self._index(kinds + named)
            nodes: dict[str, str] = {}
            for kind in kinds:
                keys = self._words[kind][0]
                nodes.update({f"{kind}:{k}": n for k, n in keys.items()} if as_ids else keys)
            for kind in named:
                nodes.update(self._words[kind][1])
            self._vocabularies[key] = (Vocabulary(nodes), nodes)
        return self._vocabularies[key]

    def _index(self, wanted: Iterable[str]) -> None:
        """Make the tables of the `wanted` kinds not indexed yet, in one walk over the nodes."""
        kinds = {kind for kind in wanted if kind not in self._names}
        if not kinds:
            return
        named: dict[str, list[tuple[str, str]]] = {kind: [] for kind in kinds}
        for node, data in self.graph.nodes(data=True):
            kind = data.get("kind")
            if kind in kinds:
                name = data.get("name")
                named[kind].append((node, name.strip() if isinstance(name, str) else ""))
        names: dict[str, dict[str, list[str]]] = {}
        words: dict[str, tuple[dict[str, str], dict[str, str]]] = {}
        for kind, items in named.items():
            by_name: dict[str, list[str]] = defaultdict(list)
            spelled: dict[str, str] = {}
            for node, name in items:
                if name:
                    by_name[name.lower()].append(node)
                    spelled.setdefault(name, node)
            names[kind] = by_name
            words[kind] = ({node.partition(":")[2]: node for node, _ in items}, spelled)
        self._words.update(words)
        self._names.update(names)  # last: a kind in `_names` is indexed whole

    def label(self, node: str) -> str:
        """`node id (name)`, as suggestions name an item."""
        name = self.graph.nodes[node].get("name")
        return f"{node} ({name})" if isinstance(name, str) and name.strip() else str(node)


def resolve_node(
    graph: EstateGraph,
    ref: Hashable,
    *,
    kinds: Iterable[str] = ID_KINDS,
    named: Iterable[str] = NAMED_KINDS,
    what: str = "",
) -> str:
    """The node id that `ref` names (node id, bare id, `kind:name`, or partner or channel
    name); see `ItemIndex.resolve`. Raises `UnknownItemError` (a `networkx.NodeNotFound`)
    or `AmbiguousItemError` (a `ValueError`); `kinds` or `named` of a kind the graph has
    not, a `ValueError` naming it."""
    kinds = _kinds(kinds, "kinds", what or "resolve_node")
    named = _kinds(named, "named", what or "resolve_node")
    if isinstance(ref, str) and ref in graph:
        return ref
    return ItemIndex(graph).resolve(ref, kinds=kinds, named=named, what=what)


def _kinds(given: Iterable[str], name: str, what: str = "") -> tuple[str, ...]:
    """`kinds` or `named` as given: a str is one kind (`named="partner"`, not the letters
    p, a, r, ...), and a kind the graph has not is refused, naming the argument."""
    said = f"{what}: {name}" if what else name
    kinds = texts(given, said, "kinds of node (a str, or a list of str)")
    for kind in kinds:
        if kind not in NODE_KINDS:
            raise ValueError(f"{said}: unknown kind {kind!r}; known: {', '.join(NODE_KINDS)}")
    return kinds


def _hint(choices: Sequence[str]) -> str:
    """`; did you mean partner:2 (Globex)?`, or how to name an item when nothing is close."""
    if not choices:
        return "; name an item by node id, e.g. 'partner:17', id, or partner or channel name"
    return f"; did you mean {' or '.join(choices)}?"
