"""What the topology view's search offers: the items and groups a level draws, by name.

The search is the keyboard's way to every node of the canvas (sigma.js draws on WebGL:
nothing of it reaches the keyboard or a screen reader). It lists what a reader can pick,
named as the canvas names it, and never a port: the invisible node after a label that its
edges leave from (`topology_data.PORT_SUFFIX`). ipysigma's own search listed every node
by its key, so "Finance" answered `group:profile:Finance →` first, and picking that port
drew an empty picture. No widget here: the widget (`widgets/topology/node_search.py`)
shows these answers and reports the key picked.
"""

from __future__ import annotations

from typing import NamedTuple

from ..support.names import plural, type_label
from .topology_data import PORT_SUFFIX, ViewData

__all__ = ["SearchItem", "search_items", "picked_key"]

_KIND_WORDS = {
    "profile": "profile",
    "agent": "input agent",
    "response": "response unit",
    "channel": "channel",
    "partner": "partner",
}


class SearchItem(NamedTuple):
    """One answer the search can give: the view's node `key`, the `name` matched (a
    group's without its counts), the name `shown` and `what` it is."""

    key: str
    name: str
    shown: str
    what: str


def search_items(data: ViewData | None) -> list[SearchItem]:
    """The nodes of the view a reader can pick, in the view's order, ports left out."""
    if data is None:
        return []
    found = []
    for key, attributes in data.graph.nodes(data=True):
        kind = str(attributes.get("kind", ""))
        if kind == "port" or key not in data.members:
            continue
        shown = str(attributes.get("name") or attributes.get("label") or key)
        name = str(attributes.get("crumb") or shown)
        word = _KIND_WORDS.get(kind, kind or "item")
        if data.item(key) is None:  # a group of several
            what = f"group of {plural(len(data.members[key]), word)}"
        else:
            kind_type = attributes.get("type")
            what = f"{word}, {type_label(str(kind_type))}" if kind_type else word
        found.append(SearchItem(str(key), name, shown, what))
    return found


def picked_key(data: ViewData, key: str) -> str:
    """The node a key picked on the canvas stands for: a port stands for the node whose
    edges leave from it (never an empty pick)."""
    if key not in data.members and key.endswith(PORT_SUFFIX):
        return key.removesuffix(PORT_SUFFIX)
    return key
