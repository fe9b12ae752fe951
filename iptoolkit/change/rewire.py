"""Links removed and added, read as rewirings: which removed link another one replaces.

A migration removes links and adds others: profiles moved from channel 40049 to a new
gateway channel 40082 lose `agent:P1 -> channel:40049` and gain `agent:P1 ->
channel:40082`. Read link by link, every removal looks like an outage. A removed link is
*replaced* when a link was added from the same source (the same agent, the same response
unit, the same channel) to a node of the same kind: the profile still receives or
delivers, through another channel. Where a source lost several links and gained fewer,
links to a channel of the same partner are paired first, then the rest in order; what
stays unpaired is lost.

A profile's own links to its agent and response units are never paired: a response unit
removed is a response path lost, whatever unit is added beside it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from .links import UNPAIRED, Edge

__all__ = ["replacements", "kind_of"]

_PAIRED_SOURCES = ("agent:", "response:", "channel:")


def kind_of(node: str) -> str:
    """The kind of a graph node id (`channel` of `channel:17`)."""
    return node.partition(":")[0]


def replacements(
    removed: Iterable[Edge],
    added: Iterable[Edge],
    old_partner: Callable[[str], str | None],
    new_partner: Callable[[str], str | None],
) -> dict[Edge, Edge]:
    """Removed edge -> the added edge that takes its place (see the module docstring).

    `old_partner(node)` is the partner node of a channel node in the old snapshot,
    `new_partner` in the new one (None when unknown).
    """
    gained: dict[str, list[Edge]] = defaultdict(list)
    for edge in sorted(added):
        if edge[0].startswith(_PAIRED_SOURCES):
            gained[edge[0]].append(edge)
    lost: dict[str, list[Edge]] = defaultdict(list)
    for edge in sorted(removed):
        source = edge[0].removesuffix(UNPAIRED)
        if source == edge[0] and source in gained:
            lost[source].append(edge)
    found: dict[Edge, Edge] = {}
    for source, edges in lost.items():
        free = list(gained[source])
        for same_partner in (True, False):
            for edge in edges:
                if edge in found:
                    continue
                match = next(
                    (
                        new
                        for new in free
                        if kind_of(new[1]) == kind_of(edge[1])
                        and (not same_partner or _same(old_partner(edge[1]), new_partner(new[1])))
                    ),
                    None,
                )
                if match is not None:
                    found[edge] = match
                    free.remove(match)
    return found


def _same(old: str | None, new: str | None) -> bool:
    return old is not None and old == new
