"""Comparing two JSON values of one item field by field: the changed leaves and their paths.

Why a walk of our own: a changed field must be one change at its JSON path inside the item,
and list items (response units, the channels of an agent, mapping nodes) must be matched by
what they are, not where they are, so that a reorder or an insertion is not reported as a
change of every element after it. Inside a list, elements are paired in three rounds:

1. equal elements (so reordering a list is never a change);
2. objects with the same `id`; then objects without an id with the same `class` and the
   same channel (a response unit's `channel`, by its id, or by the reference `compare`
   puts there), so two units swapped and edited are each paired with their own; then
   objects without an id with the same `class`, in order;
3. whatever is left and has neither an id nor a class, by position.

What stays unpaired is an element removed (reported at its index in the old list) or added
(at its index in the new list); a paired element that changed is reported inside, at its
index in the new list. Paths are written as in `records.ChannelUse.path`
(`inputAgentSettings.channels[0]`, no `$`); `json_path` adds the `$` for people.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, NamedTuple, TypeVar

import orjson

from ..core.references import usable_id
from ..support.redact import MASK, redact_fields, secret_pair_value

T = TypeVar("T")

__all__ = [
    "ABSENT",
    "FieldChange",
    "Walk",
    "child_path",
    "json_path",
    "moved",
    "pair_elements",
    "pair_in_rounds",
    "presence",
    "shown",
    "with_presence",
]


class FieldChange(NamedTuple):
    """One leaf that differs: `old` or `new` is `ABSENT` when the field is missing there."""

    path: str
    name: str
    """The last object key on the way to it ("" for an element of a top-level list)."""
    top: str
    """The first key of the path: the part of the item it is in (`inputAgentSettings`)."""
    secret: bool
    """True when any key on the way names a secret, or the way passes the value of a
    name/value pair naming one (`redact.secret_pair_value`): the values must be masked."""
    old: Any
    new: Any


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
"""Stands for a field or element that is missing on one side."""

Skip = Callable[[str, str, Any, Any], bool]
"""`skip(old_path, new_path, old, new)`: True to leave a pair of objects unread (a channel
copy the channel's own diff reports)."""


def child_path(path: str, key: str) -> str:
    """The path of an object's member, `a.b` or `a["odd key"]`."""
    step = key if key.isidentifier() else None
    if step is None:
        return f"{path}[{json.dumps(key)}]"
    return f"{path}.{step}" if path else step


def shown(value: Any, secret: bool) -> Any:
    """A value as a report may show it: masked when under a secret name, or where one is
    (the diff's rule, which the comparison of two installations shares)."""
    if value is ABSENT:
        return None
    if secret and value not in (None, ""):
        return MASK
    return redact_fields(value)


def presence(change: FieldChange) -> str:
    """What `shown` hides of a field missing on one side (it shows null for missing):
    "null before, now not sent", "a field not sent before", "an element removed"."""
    if change.old is not ABSENT and change.new is not ABSENT:
        return ""
    element = change.path.endswith("]")
    if change.old is ABSENT:
        if element:
            return "an element added"
        return "not sent before, now null" if change.new is None else "a field not sent before"
    if element:
        return "an element removed"
    return "null before, now not sent" if change.old is None else "a field no longer sent"


def with_presence(reason: str, change: FieldChange) -> str:
    """`reason` with `presence`, when a side is missing."""
    said = presence(change)
    return f"{reason}; {said}" if reason and said else reason or said


def json_path(path: str) -> str:
    """The path as people read it: `$.inputAgentSettings.timeout`, `$` for the whole item."""
    if not path:
        return "$"
    return f"${path}" if path.startswith("[") else f"$.{path}"


class Walk:
    """One comparison: `changes` found, `paired` (old path -> (new path, identical)) for
    every object in a list that was paired and `lists` (the lists compared element by
    element), so that graph node ids built from paths (`response:P1:0`, an id-less channel)
    can be carried from the old item to the new (`moved`)."""

    def __init__(
        self,
        is_secret: Callable[[str], bool],
        skip: Skip | None = None,
        whole: Callable[[Any, Any], bool] | None = None,
    ) -> None:
        self.is_secret = is_secret
        self.skip = skip
        self.whole = whole
        """`whole(old, new)`: True to report a pair of objects as one change, not field by
        field (a channel replaced by another with a new id)."""
        self.changes: list[FieldChange] = []
        self.paired: dict[str, tuple[str, bool]] = {}
        self.lists: set[str] = set()
        """Old paths of the lists compared element by element (the others were equal)."""

    def compare(self, old: Any, new: Any) -> Walk:
        self._value(old, new, "", "", "", "", False)
        return self

    def compare_differing(self, old: Any, new: Any) -> Walk:
        """`compare` of two values the caller found to differ (their types, or `==`): not
        compared whole a second time (a changed profile's equal part was read twice)."""
        self._unequal(old, new, "", "", "", "", False)
        return self

    def _value(
        self, old: Any, new: Any, old_path: str, path: str, name: str, top: str, secret: bool
    ) -> None:
        if type(old) is type(new) and old == new:
            return
        self._unequal(old, new, old_path, path, name, top, secret)

    def _unequal(
        self, old: Any, new: Any, old_path: str, path: str, name: str, top: str, secret: bool
    ) -> None:
        """`_value` of two values known to differ (their types, or `==`): what holds them
        compared them already, so they are not compared again at each level on the way
        down."""
        if isinstance(old, dict) and isinstance(new, dict):
            if self.skip is not None and self.skip(old_path, path, old, new):
                return
            if self.whole is not None and self.whole(old, new):
                self.changes.append(FieldChange(path, name, top, secret, old, new))
                return
            self._object(old, new, old_path, path, top, secret)
        elif isinstance(old, list) and isinstance(new, list):
            self._list(old, new, old_path, path, name, top, secret)
        else:
            self.changes.append(FieldChange(path, name, top, secret, old, new))

    def _object(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        old_path: str,
        path: str,
        top: str,
        secret: bool,
    ) -> None:
        for key in {**new, **old}:
            before, after = old.get(key, ABSENT), new.get(key, ABSENT)
            if type(before) is type(after) and before == after:
                continue  # most members are equal: no path nor secret rule to work out
            name = str(key)
            inner_secret = (
                secret
                or self.is_secret(name)
                or secret_pair_value(old, key)  # {"name": "Authorization", "value": ...}
                or secret_pair_value(new, key)
            )
            inner_top = top or name
            self._unequal(
                before,
                after,
                child_path(old_path, name),
                child_path(path, name),
                name,
                inner_top,
                inner_secret,
            )

    def _list(
        self,
        old: list[Any],
        new: list[Any],
        old_path: str,
        path: str,
        name: str,
        top: str,
        secret: bool,
    ) -> None:
        pairs, removed, added = pair_elements(old, new)
        self.lists.add(old_path)
        for i, j in pairs:
            identical = old[i] == new[j]
            if isinstance(old[i], dict):
                self.paired[f"{old_path}[{i}]"] = (f"{path}[{j}]", identical)
            if not identical:
                self._unequal(old[i], new[j], f"{old_path}[{i}]", f"{path}[{j}]", name, top, secret)
        for i in removed:
            self.changes.append(FieldChange(f"{old_path}[{i}]", name, top, secret, old[i], ABSENT))
        for j in added:
            self.changes.append(FieldChange(f"{path}[{j}]", name, top, secret, ABSENT, new[j]))


def pair_elements(
    old: list[Any], new: list[Any]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """(old index, new index) pairs, then the old indexes and the new indexes left unpaired,
    by the three rounds of the module docstring."""
    return pair_in_rounds(
        old, new, (_same_value, _with_id, _class_and_channel, _identity, _no_identity)
    )


def pair_in_rounds(
    old: Sequence[T], new: Sequence[T], rounds: Iterable[Callable[[T], Hashable | None]]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair two sequences by tokens, round after round: in each, an element left over is
    paired with the first one left over on the other side with the same token (None: no
    token, not paired in that round). Returns (old index, new index) pairs in the new order,
    then the old and the new indexes left unpaired."""
    left_old = list(range(len(old)))
    left_new = list(range(len(new)))
    pairs: list[tuple[int, int]] = []
    for token_of in rounds:
        waiting: dict[Any, deque[int]] = {}
        for j in left_new:
            token = token_of(new[j])
            if token is not None:
                waiting.setdefault(token, deque()).append(j)
        if not waiting:
            continue
        still_old = []
        for i in left_old:
            token = token_of(old[i])
            queue = waiting.get(token) if token is not None else None
            if queue:
                pairs.append((i, queue.popleft()))
            else:
                still_old.append(i)
        taken = {j for _, j in pairs}
        left_old = still_old
        left_new = [j for j in left_new if j not in taken]
    return sorted(pairs, key=lambda pair: pair[1]), left_old, left_new


def _same_value(value: Any) -> Any:
    """A hashable stand-in for a JSON value: equal values, equal tokens.

    orjson writes a response unit several times faster than `json` (most of a walk's time
    went there); where it cannot be trusted to tell values apart (it writes NaN and
    infinity as `null`) or refuses a value (an integer beyond 64 bits, a lone surrogate,
    a key that is no string), `json` gives the token, as it always did.
    """
    try:
        token = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        token = None
    if token is not None and b"null" not in token:
        return ("=", token)
    try:
        return ("=", json.dumps(value, sort_keys=True))
    except (TypeError, ValueError):
        return None


def _with_id(value: Any) -> Any:
    """An object's `id` (`_identity`'s first round, before the ones without an id)."""
    token = _identity(value)
    return token if token is not None and token[0] == "id" else None


def _class_and_channel(value: Any) -> Any:
    """An id-less object's `class` with the channel it holds: by the channel's id (a
    diff), or the reference `compare` writes in its place (a `str`, or under `(channel)`
    for a copy it keeps)."""
    if not isinstance(value, dict) or usable_id(value.get("id")) is not None:
        return None
    cls, held = value.get("class"), value.get("channel")
    if not isinstance(cls, str):
        return None
    if isinstance(held, dict):
        inner = usable_id(held.get("id"))
        ref = held.get("(channel)") if inner is None else ("id", str(inner))
    else:
        ref = held
    return ("channel", cls, ref) if isinstance(ref, str | tuple) else None


def _identity(value: Any) -> Any:
    if not isinstance(value, dict):
        return None
    ident = usable_id(value.get("id"))
    if ident is not None:
        return ("id", str(ident))
    cls = value.get("class")
    return ("class", cls) if isinstance(cls, str) else None


def _no_identity(value: Any) -> Any:
    if isinstance(value, dict) and _identity(value) is not None:
        return None
    return ("position",)


def moved(path: str, walk: Walk | None) -> str | None:
    """Where the element at `path` of the old item is in the new one (None: nowhere).
    `walk` compared the two items; None when they were equal."""
    if walk is None:
        return path
    done, new_prefix = 0, ""
    for match in _INDEXED.finditer(path):
        if path[: match.start()] not in walk.lists:  # that list was equal: so is the rest
            break
        found = walk.paired.get(path[: match.end()])
        if found is None:
            return None
        new_prefix, identical = found
        done = match.end()
        if identical:
            break
    return new_prefix + path[done:]


_INDEXED = re.compile(r"\[\d+\]")
