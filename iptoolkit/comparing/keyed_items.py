"""The items of one installation with their natural keys: profiles, channels, partners.

Read from the records as the diff reads them (`change.pairing`): a channel is its first copy
held (the registry's content) and has an id; a channel without an id belongs to the
profile holding it and is compared inside it. A partner is the partner of the first
channel copy naming it, id-less channels' partners included. Keys are built by
`Rules.keys` (see `rules.py`); keys are matched after the substitutions, so with
`T_ <-> P_` `T_Orders` in test is paired with `P_Orders` in production, and in Unicode's
composed form (NFC): `Café` typed as `e` and a combining accent is the same name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..change.pairing import first_channels
from ..core.nodes import is_active, label, partner_node, partner_of, type_of
from ..support.names import composed

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord
    from .difference import ItemKind
    from .rules import Rules

__all__ = ["Item", "items_of", "first_copies"]

_new = tuple.__new__
"""Makes a named tuple from a tuple of every field, in C (its constructor is Python's)."""


class Item(NamedTuple):
    """One profile, channel or partner: its node id, natural key (as its installation
    names it, and as matched: A's after the substitutions), JSON and name. (A named
    tuple: a comparison of two 100k-profile installations makes 200k of them, and a
    frozen dataclass takes three times as long to make.)"""

    kind: ItemKind
    node: str
    key: tuple[str, ...]
    matched_by: tuple[str, ...]
    raw: Any
    name: str
    active: bool
    record: ProfileRecord | None = None


def items_of(estate: Estate, kind: ItemKind, rules: Rules) -> list[Item]:
    """Every item of `kind` in `estate`, keyed by the rules (matched after substitution)."""
    parts = rules.keys[kind]
    subst = rules.substituted
    substituting = bool(rules.substitute)  # none: the key matched is the key itself

    def keys(raw: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
        own = tuple([_part(raw, part) for part in parts])
        if substituting:
            return own, tuple([composed(subst(part)) for part in own])
        if all(part.isascii() for part in own):  # most keys: nothing to compose
            return own, own
        return own, tuple([composed(part) for part in own])

    if kind == "profile":
        return [  # made in C (`_new`): two installations of 100k profiles make 200k
            _new(
                Item,
                (
                    "profile",
                    record.node,
                    *keys(record.raw),
                    record.raw,
                    record.name or str(record.key),
                    record.active,
                    record,
                ),
            )
            for record in estate.records
        ]
    if kind == "channel":
        channels = first_copies(estate)
        return [
            Item(
                "channel",
                node,
                *keys(raw),
                raw,
                label(raw, node.partition(":")[2]),
                is_active(raw),
            )
            for node, raw in channels.items()
        ]
    return [
        Item(
            "partner",
            node,
            *keys(raw),
            raw,
            label(raw, node.partition(":")[2]),
            is_active(raw) if isinstance(raw, dict) and "active" in raw else True,
        )
        for node, raw in partners_of(estate.records, estate.varied_channels).items()
    ]


def first_copies(estate: Estate) -> Mapping[str, Any]:
    """Channel node -> its first copy (`change.pairing.first_channels`), worked out once per
    estate: the channels' keys and the translators read it (one walk of every use, not
    four)."""
    return estate.derived("comparing.first_channels", lambda e: first_channels(e.records))


def partners_of(records: Iterable[ProfileRecord], varied: frozenset[Any]) -> dict[str, Any]:
    """Partner node -> the partner of the first channel copy naming it (any channel held,
    with an id or not). A later copy of a channel whose copies are all alike (its key not
    in `varied`, `Estate.varied_channels`) names what its first copy named: not read."""
    found: dict[str, Any] = {}
    read: set[Any] = set()
    for record in records:
        for use in record.uses:
            if use.held is None or (use.key in read and use.key not in varied):
                continue
            read.add(use.key)
            key, partner = partner_of(use.held)
            if key is not None:
                found.setdefault(partner_node(key), partner)
    return found


def _part(raw: Any, part: str) -> str:
    """One part of a natural key, as text ("" where the item has none)."""
    if part == "type":
        return type_of(raw) or ""
    if part == "partner":
        _, partner = partner_of(raw)
        value = partner.get("name") if isinstance(partner, dict) else None
    else:
        value = raw.get(part) if isinstance(raw, dict) else None
    if type(value) is str:  # most parts: a name, a group
        return value
    if value is None or isinstance(value, dict | list):
        return ""
    return str(value)
