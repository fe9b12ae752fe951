"""Items as both installations can compare them: references translated through the match.

A profile holds channels in full and names others by id (`comChannelId`, `channelIds`,
...); ids differ between installations, so each such place becomes a `Ref`, the natural
key of what it names in B's terms (`channel Acme / AS2 / Acme AS2`): the same channel under
another id is the same `Ref`. A channel held in full whose copy is its registry's (first)
copy becomes its `Ref` too (its content is the channel's own comparison, once, not in
every profile holding it); a copy that differs keeps its content, and its `Ref` under
`(channel)`. A channel without an id stays inside its profile, its partner a `Ref`.
A channel's partner is a `Ref`; ids and the fields `Rules.ignore_names` lists are left
out at the top of each item (deeper ones are dropped from the field differences).

Containers are copied only along the paths that change (`_put`): the rest of the JSON is
shared with the estate, so translating 10,000 profiles costs little more than reading them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..change.pairing import profile_json
from ..core.nodes import partner_node, partner_of
from ..core.references import path_steps, usable_id

if TYPE_CHECKING:
    from ..core.records import ProfileRecord

__all__ = ["Ref", "UNRESOLVED", "Translator"]


class Ref(str):
    """A reference to a channel or partner, written as its natural key: two are equal when
    they name the matched item, whatever its ids."""

    __slots__ = ()


UNRESOLVED = Ref("channel (an id no profile holds)")
"""What an id naming no channel of its installation becomes (ids are not compared)."""


class Translator:
    """Turns one installation's items into comparable JSON, given the `Ref` of each of its
    channel and partner nodes (`channels`, `partners`: node -> Ref)."""

    def __init__(
        self,
        channels: Mapping[str, Ref],
        partners: Mapping[str, Ref],
        registry: Mapping[str, Any],
        ignored: frozenset[str],
        varied: frozenset[Any],
    ) -> None:
        self.channels = channels
        self.partners = partners
        self.registry = registry
        """Channel node -> its first copy (`change.pairing.first_channels`)."""
        self.ignored = ignored
        self.varied = varied
        """The keys of the channels whose copies are not all alike (`Estate.varied_channels`):
        a copy of any other is its first copy's equal, not compared again, when that first
        copy has its key (`_first_copy`)."""

    def profile(self, record: ProfileRecord) -> Any:
        """The profile's JSON with every channel it holds or names as a `Ref`."""
        raw = record.raw
        if not isinstance(raw, dict):
            return raw
        translated = self._translated(record, raw)
        if translated is None:  # sent with Python names: translate its model's JSON
            translated = self._translated(record, profile_json(record))
        return translated if translated is not None else raw

    def _translated(self, record: ProfileRecord, raw: Any) -> dict[str, Any] | None:
        """`raw` translated, or None when a place the record names is not in it."""
        top = dict(raw)  # a copy in C; then the few ignored names dropped
        for key in self.ignored.intersection(raw):
            del top[key]
        copied: set[int] = set()
        ref_of = self.channels.get
        for use in record.uses:  # 100k profiles: some 200k uses, names read once
            steps = _steps(use.path)
            held = use.held
            if held is None:
                value: Any = ref_of(use.node, UNRESOLVED)
            else:
                ident = usable_id(held.get("id")) if isinstance(held, dict) else None
                if ident is not None:
                    value = ref_of(use.node, UNRESOLVED)
                    if not self._first_copy(use.node, use.key, ident, held):
                        value = {**self.channel(held), "(channel)": value}
                elif isinstance(held, dict) and isinstance(held.get("partner"), dict):
                    steps, value = (*steps, "partner"), self.partner_ref(held)
                else:
                    continue
            if not _put(top, steps, value, copied):
                return None
        return top

    def _first_copy(self, node: str, key: Any, ident: Any, held: dict[str, Any]) -> bool:
        """Whether `held`, a copy of channel `node` under registry `key` (its id `ident`),
        equals the node's first copy: known without comparing them when the load found
        every copy of that key alike and the first copy has the key (the ids `5` and
        `"5"` are two keys of one node, never compared with each other at load)."""
        first = self.registry.get(node)
        if first is held:
            return True
        if first is None:
            return False
        if key not in self.varied and first.get("id") == ident:
            return True
        return bool(first == held)

    def channel(self, raw: Any) -> Any:
        """A channel's JSON without its id and timestamps, its partner a `Ref`."""
        if not isinstance(raw, dict):
            return raw
        out = {key: value for key, value in raw.items() if key not in self.ignored}
        if isinstance(raw.get("partner"), dict):
            out["partner"] = self.partner_ref(raw)
        return out

    def partner(self, raw: Any) -> Any:
        """A partner's JSON without its id and timestamps."""
        if not isinstance(raw, dict):
            return raw
        return {key: value for key, value in raw.items() if key not in self.ignored}

    def partner_ref(self, channel: Any) -> Ref:
        key, _ = partner_of(channel)
        if key is None:
            return Ref("partner (none)")
        return self.partners.get(partner_node(key), Ref(f"partner {key}"))


@lru_cache(maxsize=4096)
def _steps(path: str) -> tuple[str | int, ...]:
    """`path_steps`, remembered: a few hundred paths recur in every profile."""
    return path_steps(path)


def _put(root: dict[str, Any], steps: tuple[str | int, ...], value: Any, copied: set[int]) -> bool:
    """Set `value` at `steps` inside `root` (a copy already), copying each container on
    the way once (`copied`: the `id` of each copy made, alive in `root` meanwhile); False
    when a step is not there (a profile sent with Python names: its record's paths are
    its JSON names)."""
    node: Any = root
    for step in steps[:-1]:
        try:
            child = node[step]
        except (KeyError, IndexError, TypeError):
            return False
        if id(child) not in copied:
            if isinstance(child, dict):
                child = dict(child)
            elif isinstance(child, list):
                child = list(child)
            else:
                return False
            node[step] = child
            copied.add(id(child))
        node = child
    try:
        node[steps[-1]]
    except (KeyError, IndexError, TypeError):
        return False
    node[steps[-1]] = value
    return True
