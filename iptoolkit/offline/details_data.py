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
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..support.progress import NO_PROGRESS, Progress
from ..support.redact import redact_text
from ..viewmodel.explorer_html import Link, PlainRows, field_rows, node_text
from ..viewmodel.item_html import Section, detail_sections, link_cache
from .levels import Interned

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..viewmodel.explorer_model import ExplorerModel

__all__ = [
    "DETAIL_KINDS",
    "Entries",
    "ItemTable",
    "Named",
    "SectionTexts",
    "section_json",
    "section_texts",
    "numbered",
    "mask_cache",
]

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

    def details(
        self, model: ExplorerModel, strings: Interned, progress: Progress = NO_PROGRESS
    ) -> list[list[Any]]:
        """Each item's details, as the Details tab shows them (the whole graph inside),
        every text but an item's name an index into `strings`; `progress` is told of
        every `_BATCH` items done."""
        inside = frozenset(str(node) for node in self.graph.nodes)
        # in one pass: what many items repeat (a link, a masked text, an item's entry) is
        # made once for all of them, not once per item that names it
        link, mask, entries = link_cache(self.graph, inside), mask_cache(), Entries(self, strings)
        rows: PlainRows = {}
        out: list[list[Any]] = []
        for number, node in enumerate(self.nodes, start=1):
            out.append(
                [
                    numbered(section_texts(s, mask, rows), self, strings, entries)
                    for s in detail_sections(model, str(node), inside, link)
                ]
            )
            if number % _BATCH == 0:
                progress.advance(_BATCH)
        progress.advance(len(out) % _BATCH)
        return out


_BATCH = 256
"""Items done between two reports to a progress bar (a bar's update per item of 100,000
would cost more than it tells)."""

Named = tuple[str | None, str]
"""An item a section names: its node (None: text only) and its text, masked."""


class SectionTexts(NamedTuple):
    """A section as the texts it writes (`section_json` less the numbering): the title;
    then fields (rows as JSON) and links (field, item), or items named (the shown ones, how
    many in all, the note), or a paragraph and its CSS class. The docs site keeps these
    once a run and numbers them per page (`docsite.views`)."""

    title: str
    rows: list[str] | None = None
    links: list[tuple[str, Named]] | None = None
    items: list[Named] | None = None
    total: int = 0
    note: str = ""
    text: str = ""
    css: str = ""


def section_json(section: Section, table: ItemTable, strings: Interned) -> dict[str, Any]:
    """A section: `t` its title; `f` rows of fields (masked; each row `[field, value]` as
    JSON, one string: most rows repeat, `"commitEach": false`) and `l` links, `i` a
    list (item indices, or text as a one-element list) of `n` entries in all with its
    `note`, or `p` a paragraph with its CSS class `c`. Texts are indices into `strings`."""
    return numbered(section_texts(section), table, strings)


def section_texts(
    section: Section, mask: Callable[[str], str] = redact_text, rows: PlainRows | None = None
) -> SectionTexts:
    """The texts `section_json` writes of `section`, masked (by `mask`: `redact_text`, or
    the same kept per text, `mask_cache`), not yet numbered; `rows`: field rows kept for
    one file's sections (`field_rows`)."""
    title = mask(section.title)
    if section.fields is not None:
        written = [_row_json(row) for row in field_rows(section.fields, rows)]
        links = [(key, _named(link, mask)) for key, link in section.links.items()]
        return SectionTexts(title, rows=written, links=links)
    if section.items is not None:
        shown = [_named(item, mask) for item in section.items[: max(section.limit, 10)]]
        note = mask(section.note) if section.note else ""
        return SectionTexts(title, items=shown, total=len(section.items), note=note)
    return SectionTexts(title, text=mask(section.text or ""), css=section.css)


def mask_cache() -> Callable[[str], str]:
    """`redact_text`, each text masked once and kept: for the many sections of one file,
    whose titles, notes and item names repeat (the same text, the same mask)."""
    made: dict[str, str] = {}

    def mask(text: str) -> str:
        found = made.get(text)
        if found is None:
            found = made[text] = redact_text(text)
        return found

    return mask


class Entries:
    """How `numbered` writes an item named: its index in `table`, or (one the table lacks)
    its text's index in `strings` as a one-element list; each kept once made, for the many
    sections of one file naming the same items."""

    def __init__(self, table: ItemTable, strings: Interned) -> None:
        self.table, self.strings = table, strings
        self.made: dict[Named, int] = {}
        """An item's index, or the bitwise inverse (negative) of its text's."""

    def __call__(self, named: Named) -> int | list[int]:
        number = self.made.get(named)
        if number is None:
            number = -1 if named[0] is None else self.table(named[0])
            if number < 0:
                number = ~self.strings(named[1])
            self.made[named] = number
        return number if number >= 0 else [~number]


def numbered(
    texts: SectionTexts, table: ItemTable, strings: Interned, entries: Entries | None = None
) -> dict[str, Any]:
    """`section_json` of the section these are the texts of: texts numbered in `strings`,
    items in `table` (an item the table lacks: its text); `entries`, kept for many
    sections of `table` and `strings`, says how an item is written."""
    entry = Entries(table, strings) if entries is None else entries
    out: dict[str, Any] = {"t": strings(texts.title)}
    if texts.rows is not None and texts.links is not None:
        out["f"] = [strings(row) for row in texts.rows]
        out["l"] = [[strings(key), entry(named)] for key, named in texts.links]
    elif texts.items is not None:
        out["i"] = [entry(named) for named in texts.items]
        out["n"] = texts.total
        if texts.note:
            out["note"] = strings(texts.note)
    else:
        out["p"] = strings(texts.text)
        out["c"] = strings(texts.css)
    return out


@functools.lru_cache(maxsize=1 << 16)
def _row_json(row: tuple[str, str]) -> str:
    """A row of fields as one JSON string, kept: most rows repeat (`"commitEach": false`)."""
    return json.dumps(row, ensure_ascii=False)


def _named(item: str | Link, mask: Callable[[str], str]) -> Named:
    """An item named: its node (a link's) and its text, masked."""
    if isinstance(item, Link):
        return item.node, mask(item.text)
    return None, mask(item)
