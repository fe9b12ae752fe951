"""Finding a graph node from whatever an assistant calls it: a node id, a bare id, a name.

`Lookup(graph).resolve(text)` accepts `channel:40003` (a node id), `40003` or `P-000017`
(a bare id of a profile, channel or partner), `partner:Acme Ltd` (a kind and a name) or
`acme ltd` (a name, in any case). What matches nothing raises `NotFound` naming the close
matches, what matches several raises `NotFound` naming them, so the assistant can ask
again with a node id. The tables are built once per estate.

Close matches come from rapidfuzz (its `QRatio`, then a plain substring search for a
fragment such as `acme`): difflib took 85 ms over the 21,000 names and ids of a
10,000-profile estate, rapidfuzz a tenth of that, inside a tool's 100 ms.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process, utils

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Lookup", "NotFound", "NAMED_KINDS", "close_matches"]

NAMED_KINDS = ("profile", "channel", "partner")
"""The kinds an assistant names by a bare id or a name (agents and response units are
named by node id, `agent:P1`, `response:P1:0`)."""
_SHOWN = 8
_CLOSE = 5
_CUTOFF = 60
"""The least `QRatio` (0 to 100) a close match has."""


def close_matches(text: str, choices: Sequence[str], n: int = _CLOSE) -> list[str]:
    """The `n` choices most like `text` (case and punctuation aside), best first; when
    none is alike as a whole, the choices containing `text` (a fragment: `acme`)."""
    found = process.extract(
        text, choices, scorer=fuzz.QRatio, processor=utils.default_process,
        limit=n, score_cutoff=_CUTOFF,
    )  # fmt: skip
    if found:
        return [choice for choice, _, _ in found]
    lowered = text.strip().lower()
    if len(lowered) < 3:
        return []
    return [choice for choice in choices if lowered in choice.lower()][:n]


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
        shown = []
        for word in close_matches(text, self._vocabulary):
            node = self._words[word]
            name = self.graph.nodes[node].get("name")
            shown.append(f"{node} ({name})" if name else node)
        return list(dict.fromkeys(shown))
