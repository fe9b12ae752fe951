"""The details an offline view shows of each item: the Explorer's Details tab, as data.

The facts are the Details tab's own (`viewmodel.item_html.detail_sections`: fields, the
items named, where-used and impact), masked as it masks them (`viewmodel.explorer_html.field_rows`,
`redact_text` on every name), and written as compact JSON: an item named in a list is its
index in the file's item table, so a profile's partners cost a few digits, and a list is
cut where the Details tab cuts it (`limit`), its length kept.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from ..support.redact import redact_text
from ..viewmodel.explorer_html import Link, field_rows, node_text
from ..viewmodel.item_html import Section, detail_sections
from .levels import Interned

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..viewmodel.explorer_model import ExplorerModel

__all__ = ["DETAIL_KINDS", "ItemTable", "section_json"]

DETAIL_KINDS = ("profile", "channel", "partner")
"""What has details of its own (an agent or response unit shows its profile's)."""


class ItemTable:
    """The items of `graph` (or those of `nodes`) in one table: index -> node id, kind,
    name shown; `details()` their sections as the script reads them."""

    def __init__(self, graph: EstateGraph, nodes: Iterable[str] | None = None) -> None:
        self.graph = graph
        chosen: Iterable[str] = graph.nodes if nodes is None else nodes
        self.nodes: list[str] = [
            node for node in chosen if graph.nodes[node].get("kind") in DETAIL_KINDS
        ]
        self.index: dict[Hashable, int] = {node: number for number, node in enumerate(self.nodes)}

    def __call__(self, node: Hashable) -> int:
        """The index of an item (-1: not one of the table's)."""
        return self.index.get(node, -1)

    def rows(self) -> list[list[str]]:
        """Each item: node id, kind and the name the Explorer gives it, masked."""
        return [
            [
                redact_text(str(node)),
                str(self.graph.nodes[node].get("kind")),
                redact_text(node_text(self.graph, str(node))),
            ]
            for node in self.nodes
        ]

    def details(self, model: ExplorerModel, strings: Interned) -> list[list[Any]]:
        """Each item's details, as the Details tab shows them (the whole graph inside),
        every text but an item's name an index into `strings`."""
        inside = frozenset(str(node) for node in self.graph.nodes)
        return [
            [section_json(s, self, strings) for s in detail_sections(model, str(node), inside)]
            for node in self.nodes
        ]


def section_json(section: Section, table: ItemTable, strings: Interned) -> dict[str, Any]:
    """A section: `t` its title; `f` rows of fields (masked; each row `[field, value]` as
    JSON, one string: most rows repeat, `"commitEach": false`) and `l` links, `i` a
    list (item indices, or text as a one-element list) of `n` entries in all with its
    `note`, or `p` a paragraph with its CSS class `c`. Texts are indices into `strings`."""
    out: dict[str, Any] = {"t": strings(redact_text(section.title))}
    if section.fields is not None:
        out["f"] = [strings(_row_json(row)) for row in field_rows(section.fields)]
        out["l"] = [
            [strings(key), _entry(link, table, strings)] for key, link in section.links.items()
        ]
    elif section.items is not None:
        shown = section.items[: max(section.limit, 10)]
        out["i"] = [_entry(item, table, strings) for item in shown]
        out["n"] = len(section.items)
        if section.note:
            out["note"] = strings(redact_text(section.note))
    else:
        out["p"] = strings(redact_text(section.text or ""))
        out["c"] = strings(section.css)
    return out


@functools.lru_cache(maxsize=1 << 16)
def _row_json(row: tuple[str, str]) -> str:
    """A row of fields as one JSON string, kept: most rows repeat (`"commitEach": false`)."""
    return json.dumps(row, ensure_ascii=False)


def _entry(item: str | Link, table: ItemTable, strings: Interned) -> int | list[int]:
    """An item named: its index in the table, else its text (masked) as `[string]`."""
    if isinstance(item, Link):
        number = table(item.node)
        return number if number >= 0 else [strings(redact_text(item.text))]
    return [strings(redact_text(item))]
