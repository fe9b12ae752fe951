"""Pairing the items of two installations: manual, then auto, never at random.

1. **manual**: the mapping file's pairs (A's key -> B's key, as each installation names
   the item; a pair of equal keys stays **auto**, as the file written from an auto-match
   holds them); a pair naming no item, or an ambiguous one, is a note, not a guess;
2. **auto**: equal natural keys (A's after the substitutions), when the key names exactly
   one item on each side;
3. a key naming more than one item on either side is **ambiguous**: reported, with every
   node it names, and none of its items paired;
4. the rest is **unmatched** (only in A, only in B), each with the other side's closest
   unmatched keys (rapidfuzz, `support.names.Vocabulary`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..support.names import Vocabulary
from ..support.redact import MASK, redact_text
from .difference import How, key_text

if TYPE_CHECKING:
    from .keyed_items import Item

__all__ = ["Paired", "pair_items"]

_CANDIDATES = 3


@dataclass
class Paired:
    """The outcome of pairing one kind of item."""

    pairs: list[tuple[Item, Item, How]] = field(default_factory=list)
    only_a: list[Item] = field(default_factory=list)
    only_b: list[Item] = field(default_factory=list)
    ambiguous: list[tuple[tuple[str, ...], list[Item], list[Item]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _vocabularies: dict[str, tuple[Vocabulary, dict[str, tuple[str, ...]]]] = field(
        default_factory=dict, repr=False
    )

    def candidates(self, item: Item, side: str) -> tuple[tuple[str, ...], ...]:
        """The closest keys among the other side's unmatched items (`side`: the item's)."""
        other = self.only_b if side == "a" else self.only_a
        vocabulary = self._vocabularies.get(side)
        if vocabulary is None:
            keys = {key_text(one.key): one.key for one in other}
            vocabulary = self._vocabularies[side] = (Vocabulary(keys), keys)
        words, keys = vocabulary
        return tuple(keys[text] for text in words.closest(key_text(item.matched_by), _CANDIDATES))


def pair_items(
    a_items: Sequence[Item],
    b_items: Sequence[Item],
    manual: Iterable[tuple[tuple[str, ...], tuple[str, ...]]] = (),
    kind: str = "item",
) -> Paired:
    """Pair the items of one kind (see the module docstring)."""
    out = Paired()
    manual = list(manual)
    a_by_own = _by(a_items, own=True) if manual else {}  # read by manual matches only
    b_by_own = _by(b_items, own=True) if manual else {}
    taken_a: set[str] = set()
    taken_b: set[str] = set()
    for a_key, b_key in manual:
        a_found, b_found = _named(a_by_own, a_key), _named(b_by_own, b_key)
        if len(a_found) != 1 or len(b_found) != 1:
            side, found, key = ("A", a_found, a_key) if len(a_found) != 1 else ("B", b_found, b_key)
            what = "no" if not found else f"{len(found)} (ambiguous)"
            out.notes.append(
                f"mapping: {what} {kind} {key_text(key)!r} in {side}; that pair is not used"
            )
            continue
        a_item, b_item = a_found[0], b_found[0]
        if a_item.node in taken_a or b_item.node in taken_b:
            out.notes.append(f"mapping: {kind} {key_text(a_key)!r} is paired twice; once used")
            continue
        taken_a.add(a_item.node)
        taken_b.add(b_item.node)
        out.pairs.append((a_item, b_item, "auto" if a_key == b_key else "manual"))
    a_left = _by((i for i in a_items if i.node not in taken_a) if taken_a else a_items, own=False)
    b_left = _by((i for i in b_items if i.node not in taken_b) if taken_b else b_items, own=False)
    for key, a_found in a_left.items():
        b_found = b_left.get(key, [])
        if len(a_found) == 1 and len(b_found) == 1:
            out.pairs.append((a_found[0], b_found[0], "auto"))
        elif len(a_found) > 1 or len(b_found) > 1:
            out.ambiguous.append((key, a_found, b_found))
        else:
            out.only_a.extend(a_found)
    for key, b_found in b_left.items():
        if key in a_left:
            continue
        if len(b_found) > 1:
            out.ambiguous.append((key, [], b_found))
        else:
            out.only_b.extend(b_found)
    return out


def _named(by_key: dict[tuple[str, ...], list[Item]], key: tuple[str, ...]) -> list[Item]:
    """The items a mapping file's key names: by the key, or, for a key written masked
    (`write_mapping` masks a password in a name), by their keys masked alike."""
    found = by_key.get(key)
    if found is not None or not any(MASK in part for part in key):
        return found or []
    return [
        item
        for own, items in by_key.items()
        if tuple(redact_text(part) for part in own) == key
        for item in items
    ]


def _by(items: Iterable[Item], *, own: bool) -> dict[tuple[str, ...], list[Item]]:
    found: dict[tuple[str, ...], list[Item]] = {}
    for item in items:
        found.setdefault(item.key if own else item.matched_by, []).append(item)
    return found
