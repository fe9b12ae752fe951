"""A channel swapped inside a profile: one change at its path, not a removal and an addition.

The walk (`walk.py`) pairs list elements by value, id or class; a channel replaced by
another (new id) stays unpaired on both sides, so it would read as `{...} -> null` at the
old index and `null -> {...}` at the new one. `swaps` turns each such pair, in the same
list, into one change at the new element's path whose old and new values are the two
channels; `channel_words` says a channel as people read it:
`channel 40049 (Fjord Freight AS2)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..core.references import usable_id
from ..models import field_value
from .walk import ABSENT, FieldChange

__all__ = ["swaps", "channel_words", "is_channel", "replaced_channel"]

_CHANNEL_CLASS = "core:IntegrationPartnerChannel"
_INDEXES = re.compile(r"\[\d+\]")


def is_channel(value: Any) -> bool:
    """A channel object: its class is a channel's, or it has an id and a channel type."""
    if not isinstance(value, dict):
        return False
    cls = value.get("class")
    return isinstance(cls, str) and cls.startswith(_CHANNEL_CLASS)


def replaced_channel(old: Any, new: Any) -> bool:
    """Two channel objects with different ids: one channel put in the other's place
    (`Walk(whole=...)` reports it as one change, not as changes of id, URL and name)."""
    return (
        is_channel(old)
        and is_channel(new)
        and usable_id(old.get("id")) is not None
        and usable_id(old.get("id")) != usable_id(new.get("id"))
    )


def channel_words(value: Any, *, strict: bool = False) -> str:
    """`channel 40049 (Fjord Freight AS2)`; "" for anything that is not a channel object
    when `strict`, else the value as short JSON would say it (its id, or `null`)."""
    if is_channel(value):
        ident = usable_id(value.get("id"))
        name = field_value(value, "name")
        said = f"channel {ident}" if ident is not None else "a channel without id"
        return f"{said} ({name})" if isinstance(name, str) and name else said
    if strict:
        return ""
    return "null" if value is None or value is ABSENT else str(value)


def swaps(changes: Iterable[FieldChange]) -> list[FieldChange]:
    """The changes with each channel removed from a list and one added to the same list
    made one change (see the module docstring), in the order of the removals."""
    changes = list(changes)
    added: dict[tuple[str, str], list[int]] = {}
    for n, change in enumerate(changes):
        if change.old is ABSENT and is_channel(change.new):
            added.setdefault(_list_of(change), []).append(n)
    if not added:
        return changes
    merged: dict[int, FieldChange] = {}
    used: set[int] = set()
    for n, change in enumerate(changes):
        if change.new is ABSENT and is_channel(change.old):
            waiting = added.get(_list_of(change))
            if waiting:
                j = waiting.pop(0)
                used.add(j)
                other = changes[j]
                merged[n] = other._replace(old=change.old, secret=change.secret or other.secret)
    return [merged.get(n, change) for n, change in enumerate(changes) if n not in used]


def _list_of(change: FieldChange) -> tuple[str, str]:
    """The list an element is in, whichever side's indexes its path has."""
    return change.name, _INDEXES.sub("[]", change.path)
