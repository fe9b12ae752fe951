"""The channel and partner registries of a listing: the first copy of each by key, and
the copies that differ from it (`Conflict`).

Filled one record at a time in listing order, so that a load registers each profile's
channels while it still has the profile in the processor's cache (`records.RecordBuilder`).
Copies are compared as JSON, what was sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .nodes import partner_of

__all__ = ["Conflict", "Registries"]


ChannelKey = int | str
"""A channel's registry key: its id, or `<profile key>:<path>` when it has none."""
PartnerKey = int | str
"""A partner's registry key: its id, or `name:<name>` when it has none."""


class HoldingRecord(Protocol):
    """What the registries read of a record (`records.ProfileRecord`, whose module imports
    this one)."""

    @property
    def id(self) -> Any: ...
    @property
    def node(self) -> str: ...
    @property
    def uses(self) -> Sequence[Any]: ...


@dataclass(frozen=True)
class Conflict:
    """The same channel or partner key met with different content in different profiles."""

    kind: Literal["channel", "partner"]
    key: ChannelKey | PartnerKey
    variants: tuple[tuple[Any, Any], ...]
    """(profile id, content) pairs: the first seen, then each differing one."""
    profiles: tuple[str, ...]
    """The profile node of each variant, in the same order."""


class _Registry:
    """Channels or partners by key, the first content seen, and the differing copies."""

    def __init__(self, kind: Literal["channel", "partner"]) -> None:
        self.kind = kind
        self.content: dict[Any, Any] = {}
        self._first: dict[Any, HoldingRecord] = {}
        self._variants: dict[Any, list[tuple[HoldingRecord, Any]]] = {}

    def add(self, key: Any, value: Any, record: HoldingRecord) -> None:
        known = self.content.get(key)
        if known is None:
            self.content[key] = value
            self._first[key] = record
        elif known is not value and known != value:
            variants = self._variants.get(key)
            if variants is None:
                variants = self._variants[key] = [(self._first[key], known)]
            if all(content != value for _, content in variants):
                variants.append((record, value))

    def conflicts(self) -> list[Conflict]:
        return [
            Conflict(
                self.kind,
                key,
                tuple((record.id, content) for record, content in variants),
                tuple(record.node for record, _ in variants),
            )
            for key, variants in self._variants.items()
        ]


class Registries:
    """The channels held by a listing's records and their partners, as JSON."""

    def __init__(self) -> None:
        self._channels = _Registry("channel")
        self._partners = _Registry("partner")
        self.partner_holders: dict[PartnerKey, Any] = {}
        """The channel (JSON) holding each partner's first copy."""

    @property
    def channels(self) -> dict[ChannelKey, Any]:
        """The first copy of each channel held, by key, in listing order."""
        return self._channels.content

    @property
    def partners(self) -> dict[PartnerKey, Any]:
        """The first copy of each partner of a channel held, by key."""
        return self._partners.content

    def add(self, record: HoldingRecord, partners: Sequence[tuple[Any, Any]] | None = None) -> None:
        """Register the channels the record holds (the next record of the listing).
        `partners`: `partner_of` each channel it holds, in order, when the caller knows."""
        known = iter(partners) if partners is not None else None
        for use in record.uses:
            held = use.held
            if held is None:
                continue
            self._channels.add(use.key, held, record)
            pkey, partner = next(known) if known is not None else partner_of(held)
            if pkey is not None:
                self._partners.add(pkey, partner, record)
                self.partner_holders.setdefault(pkey, held)

    def conflicts(self) -> list[Conflict]:
        return self._channels.conflicts() + self._partners.conflicts()
