"""The items of two snapshots and how they pair: profiles, channels, partners, users.

Read from the records (and the estates' conflicts). Profiles pair by id; profiles without
an id, and profiles sharing an id with another, by name and group (equal ones first), then
by content: their JSON without id, name, group, description, tags and timestamps, so a
renamed id-less profile is one profile changed. Channels with an id are their first copy in
the listing (the estate's registry content), unless copies conflict (`settle_conflicts`);
partners the partner of the first channel copy naming them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..core.nodes import partner_node, partner_of
from ..core.references import json_named, usable_id
from .walk import pair_in_rounds

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = [
    "pair_profiles",
    "profile_json",
    "first_channels",
    "first_partners",
    "settle_conflicts",
    "same_texts",
    "Users",
]

_NOT_CONTENT = frozenset(
    {"id", "name", "group", "description", "tags", "created", "lastModified", "lastModifiedGUI"}
)


def pair_profiles(
    old: Iterable[ProfileRecord], new: Iterable[ProfileRecord]
) -> tuple[list[tuple[ProfileRecord, ProfileRecord]], list[ProfileRecord], list[ProfileRecord]]:
    """(old, new) pairs of the same profile, then the profiles removed and those added.

    By id; then, among profiles without an id, by name and group (equal ones first), then
    by content (see the module docstring). Profiles sharing an id pair among themselves the
    same way (the order of a listing is never a change), then in order.
    """
    old, new = list(old), list(new)
    shared = _shared_ids(old) | _shared_ids(new)

    def group(record: ProfileRecord) -> str | None:
        """The id a profile is matched within, "" for none; None: paired by id alone."""
        if record.id is None:
            return ""
        ident = str(record.id)
        return ident if ident in shared else None

    rounds: list[Callable[[ProfileRecord], Any]] = [
        lambda r: ("id", str(r.id)) if r.id is not None and group(r) is None else None,
        lambda r: ("same", g, _fingerprint(r.raw, ())) if (g := group(r)) is not None else None,
        lambda r: ("name", g, r.name, r.group) if (g := group(r)) is not None else None,
        lambda r: (
            ("content", g, _fingerprint(r.raw, _NOT_CONTENT))
            if (g := group(r)) is not None
            else None
        ),
        lambda r: ("id", g) if (g := group(r)) else None,
    ]
    pairs, removed, added = pair_in_rounds(old, new, rounds)
    return [(old[i], new[j]) for i, j in pairs], [old[i] for i in removed], [new[j] for j in added]


def _shared_ids(records: list[ProfileRecord]) -> set[str]:
    """The ids more than one of these profiles has."""
    seen: set[str] = set()
    shared: set[str] = set()
    for record in records:
        if record.id is not None:
            ident = str(record.id)
            (shared if ident in seen else seen).add(ident)
    return shared


def _fingerprint(raw: Any, leave_out: frozenset[str] | tuple[()]) -> str:
    if isinstance(raw, dict) and leave_out:
        raw = {key: value for key, value in raw.items() if key not in leave_out}
    return json.dumps(raw, sort_keys=True, default=str)


def profile_json(record: ProfileRecord | None) -> Any:
    """The profile's JSON by JSON names (the raw one, or its model's when sent with Python
    names)."""
    if record is None:
        return None
    raw = record.raw
    if record.problem is None and isinstance(raw, dict) and not json_named(raw):
        model = record.model
        return model.to_json_dict() if model is not None else raw
    return raw


def same_texts(old: Estate, new: Estate) -> Callable[[ProfileRecord, ProfileRecord], bool]:
    """Whether a record of `old` and one of `new` have the same JSON text in their files.

    Equal texts are equal JSON when both loads kept the texts (`load(keep_texts=True)`,
    which proves each to be exactly what orjson writes of the record); two slices of the
    files compare in a fraction of the time two parsed profiles take (a diff of two 100k
    snapshots: 0.25 s against 1.5, issue 45). Texts that differ may still be equal JSON
    (keys in another order): the caller compares the JSON then. Always False when either
    load kept no texts."""
    old_text, new_text = _text_of(old), _text_of(new)
    if old_text is None or new_text is None:
        return lambda old_record, new_record: False
    return lambda old_record, new_record: old_text(old_record) == new_text(new_record)


def _text_of(estate: Estate) -> Callable[[ProfileRecord], bytes] | None:
    """A record's text in the estate's file (None: the load kept none)."""
    texts = estate.texts
    if texts is None:
        return None
    records = estate.records
    if all(record.index == n for n, record in enumerate(records)):  # as loaded: no subset
        return lambda record: texts[record.index]
    position = {record.node: n for n, record in enumerate(records)}
    return lambda record: texts[position[record.node]]


def first_channels(records: Iterable[ProfileRecord]) -> dict[str, Any]:
    """Channel node -> the first copy held, for channels with an id (the registry's)."""
    first: dict[str, Any] = {}
    for record in records:
        for use in record.uses:
            held = use.held
            if held is None or use.node in first:
                continue
            if usable_id(held.get("id") if isinstance(held, dict) else None) is not None:
                first[use.node] = held
    return first


def first_partners(channels: dict[str, Any]) -> dict[str, Any]:
    """Partner node -> the partner of the first channel copy naming it."""
    first: dict[str, Any] = {}
    for channel in channels.values():
        key, partner = partner_of(channel)
        if key is not None:
            first.setdefault(partner_node(key), partner)
    return first


def settle_conflicts(
    old_first: dict[str, Any], new_first: dict[str, Any], old: Estate, new: Estate, kind: str
) -> None:
    """Where a channel's or partner's copies conflict (differ between the profiles holding
    them), its first copy depends on the order of the listing, which is never a change: if
    a copy on one side equals the other side's, compare that one instead (in place)."""
    for estate, first, other in ((new, new_first, old_first), (old, old_first, new_first)):
        for conflict in estate.conflicts:
            node = f"{kind}:{conflict.key}"
            if conflict.kind != kind or node not in other or node not in first:
                continue
            wanted = other[node]
            same = next((content for _, content in conflict.variants if content == wanted), None)
            if same is not None:
                first[node] = same


class Users:
    """Channel or partner node -> the records using it; worked out on first question (only
    a channel or partner removed or deactivated asks)."""

    def __init__(self, records: Iterable[ProfileRecord], kind: str) -> None:
        self.records, self.kind = records, kind
        self._by_node: dict[str, list[ProfileRecord]] | None = None

    def of(self, node: str) -> list[ProfileRecord]:
        if self._by_node is None:
            by_node: dict[str, dict[int, ProfileRecord]] = {}
            for record in self.records:
                if self.kind == "channel":  # the graph's node ids, as the records hold them
                    nodes = [use.node for use in record.uses]
                else:
                    nodes = [partner_node(key) for key in record.partners]
                for found in nodes:
                    by_node.setdefault(found, {})[record.index] = record
            self._by_node = {found: list(users.values()) for found, users in by_node.items()}
        return self._by_node.get(node, [])
