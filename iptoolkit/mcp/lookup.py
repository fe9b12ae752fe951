"""Finding a graph node from whatever an assistant calls it: a node id, a bare id, a name.

`Lookup(graph).resolve(text)` accepts `channel:40003` (a node id), `40003` or `P-000017`
(a bare id of a profile, channel or partner), `partner:Acme Ltd` (a kind and a name) or
`acme ltd` (a name, in any case). What matches nothing raises `NotFound` naming the close
matches (difflib), what matches several raises `NotFound` naming them, so the assistant
can ask again with a node id. The tables are built once per estate.
"""

from __future__ import annotations

from collections import defaultdict
from difflib import get_close_matches
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Lookup", "NotFound", "NAMED_KINDS"]

NAMED_KINDS = ("profile", "channel", "partner")
"""The kinds an assistant names by a bare id or a name (agents and response units are
named by node id, `agent:P1`, `response:P1:0`)."""
_SHOWN = 8
_CLOSE = 5


class NotFound(ValueError):
    """Nothing (or more than one thing) answers to a name; `choices` are what might."""

    def __init__(self, message: str, choices: list[str]) -> None:
        self.choices = choices
        hint = f"; did you mean: {', '.join(choices[:_SHOWN])}" if choices else ""
        super().__init__(message + hint)


class Lookup:
    """Bare ids and lower-cased names -> node ids, per kind, for one graph."""

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.graph = graph
        self.by_key: dict[str, dict[str, list[str]]] = {k: defaultdict(list) for k in NAMED_KINDS}
        self.by_name: dict[str, dict[str, list[str]]] = {k: defaultdict(list) for k in NAMED_KINDS}
        self._words: dict[str, str] = {}
        """Every key and name as written -> a node it names, for suggestions."""
        for node, data in graph.nodes(data=True):
            kind = data.get("kind")
            if kind not in self.by_key:
                continue
            key = str(node).partition(":")[2]
            self.by_key[kind][key].append(node)
            self._words.setdefault(key, node)
            name = data.get("name")
            if isinstance(name, str) and name.strip():
                self.by_name[kind][name.strip().lower()].append(node)
                self._words.setdefault(name.strip(), node)
        self._vocabulary = list(self._words)

    def resolve(self, text: str | int) -> str:
        """The node id `text` names; `NotFound` with close matches or the candidates."""
        wanted = str(text).strip()
        if not wanted:
            raise NotFound("an empty id names nothing", [])
        if wanted in self.graph:
            return wanted
        kind, colon, rest = wanted.partition(":")
        kinds = (kind.lower(),) if colon and kind.lower() in NAMED_KINDS else NAMED_KINDS
        name = rest.strip() if len(kinds) == 1 else wanted
        found = [n for k in kinds for n in self.by_key[k].get(name, ())]
        if not found:
            found = [n for k in kinds for n in self.by_name[k].get(name.lower(), ())]
        found = list(dict.fromkeys(found))
        if len(found) == 1:
            return found[0]
        if found:
            raise NotFound(
                f"{wanted!r} names {len(found)} items; ask again with one node id", found
            )
        raise NotFound(f"nothing in this estate is called {wanted!r}", self.suggest(name))

    def suggest(self, text: str) -> list[str]:
        """Node ids (with their names) of the keys and names closest to `text`."""
        close = get_close_matches(text, self._vocabulary, n=_CLOSE, cutoff=0.6)
        lowered = text.lower()
        if not close and len(lowered) >= 3:  # a fragment: names containing it
            close = [word for word in self._vocabulary if lowered in word.lower()][:_CLOSE]
        shown = []
        for word in close:
            node = self._words[word]
            name = self.graph.nodes[node].get("name")
            shown.append(f"{node} ({name})" if name else node)
        return list(dict.fromkeys(shown))
