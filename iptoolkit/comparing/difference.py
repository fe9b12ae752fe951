"""One difference between two installations, and the match of one item: plain records.

`engine.py` makes them, `model.Comparison` holds them, `render.py` writes them out (it
reads them from here, so that it and `model.py` do not import each other). Values in a
difference were masked when it was made (`change.walk.shown`), as in a diff.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..change.record import Severity

__all__ = [
    "ItemKind",
    "Status",
    "How",
    "KINDS",
    "STATUSES",
    "Match",
    "FieldDiff",
    "Difference",
    "key_text",
]

ItemKind = Literal["profile", "channel", "partner"]
Status = Literal[
    "only-in-a", "only-in-b", "changed", "active-differs", "wired-differently", "ambiguous"
]
How = Literal["auto", "manual"]

KINDS: tuple[ItemKind, ...] = ("profile", "channel", "partner")
STATUSES: tuple[Status, ...] = (
    "only-in-a",
    "only-in-b",
    "active-differs",
    "wired-differently",
    "changed",
    "ambiguous",
)
"""Every status, in the order reports list them."""


@dataclass(frozen=True, slots=True)
class Match:
    """One item of A paired with one of B: by equal natural keys (`auto`) or by the
    mapping file (`manual`). Keys are the items' own, as each installation names them."""

    kind: ItemKind
    how: How
    a_key: tuple[str, ...]
    b_key: tuple[str, ...]
    a_node: str
    b_node: str


@dataclass(frozen=True, slots=True)
class FieldDiff:
    """One field that differs inside a matched pair: its JSON path, the values (masked),
    whether it is a reference to another channel or partner (`wired`), and how much it
    matters, as the diff judges the same change."""

    path: str
    a: Any
    b: Any
    severity: Severity
    reason: str
    wired: bool = False
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Difference:
    """One item that differs between the installations.

    `key` is the natural key (A's when the item is in A); `a` and `b` are its graph node
    ids in each installation (None where it is not); `fields` the fields that differ, for
    a matched pair; `candidates` the other side's closest keys, for an unmatched item;
    `nodes` every node an ambiguous key names; `expired` the known difference (with its
    date passed) that no longer hides it."""

    kind: ItemKind
    status: Status
    key: tuple[str, ...]
    name: str
    a: str | None
    b: str | None
    severity: Severity
    reason: str
    fields: tuple[FieldDiff, ...] = ()
    match: How | None = None
    candidates: tuple[tuple[str, ...], ...] = ()
    nodes: tuple[str, ...] = ()
    expired: str | None = None

    @property
    def key_text(self) -> str:
        return key_text(self.key)


def key_text(key: tuple[str, ...]) -> str:
    """A natural key as people read it: `Sales/EDI / Orders in`."""
    return " / ".join(key)
