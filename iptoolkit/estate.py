"""The estate: one snapshot's profiles plus the channels and partners they reference.

Loading is lenient: a profile that fails strict validation is kept raw in `problems` and
written back unchanged by `save`, so nothing is ever dropped silently. `strict=True` raises.
"""

from __future__ import annotations

import html
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from . import __version__
from .models import (
    IntegrationProfile,
    ParseError,
    ProfileProblem,
    field_value,
    gc_paused,
    loads_json,
    parse_profiles,
    type_name_of,
    unwrap_profiles,
    validate_profiles,
)
from .references import ChannelUse, channel_key, channel_uses, partner_key
from .snapshot import SnapshotInfo, read_snapshot, write_snapshot

if TYPE_CHECKING:
    import pandas

    from .filters import Filter

__all__ = ["Estate", "Conflict", "load"]

FrameKind = Literal["profiles", "channels", "partners", "responses"]


@dataclass
class Conflict:
    """The same channel or partner id met with different content in different profiles."""

    kind: Literal["channel", "partner"]
    key: Any
    variants: list[tuple[Any, Any]] = field(default_factory=list)
    """(profile id, content) pairs: the first seen, then each differing one."""


class Estate:
    """Profiles of one snapshot, with channel and partner registries and loading problems.

    >>> estate = Estate.from_raw([{"class": "core:IntegrationProfile", "id": "P1"}])
    >>> len(estate.profiles), len(estate.problems)
    (1, 0)
    """

    def __init__(
        self,
        raw_profiles: Sequence[Any],
        models: Sequence[IntegrationProfile | None],
        problems: Sequence[ProfileProblem] = (),
        info: SnapshotInfo | None = None,
    ) -> None:
        """Assemble from raw profiles and their models (None where the profile is faulty).

        Use `from_raw`, `load` or a client's `fetch_estate` rather than calling this.
        """
        self.raw_profiles: list[Any] = list(raw_profiles)
        """Every profile exactly as received, faulty ones included, in order."""
        self.info = info or SnapshotInfo(toolkit_version=__version__)
        self.problems: list[ProfileProblem] = list(problems)
        self.profiles: list[IntegrationProfile] = []
        self.raw_index: list[int] = []
        """For each entry of `profiles`, its index in `raw_profiles`."""
        for index, model in enumerate(models):
            if model is not None:
                self.profiles.append(model)
                self.raw_index.append(index)
        self.channels: dict[Any, Any] = {}
        self.partners: dict[Any, Any] = {}
        self.conflicts: list[Conflict] = []
        self.uses: list[list[ChannelUse]] = []
        """For each entry of `profiles`, the channels it holds or names."""
        with gc_paused():
            self._index_channels()

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_raw(
        cls,
        data: bytes | str | list[Any] | dict[str, Any],
        *,
        strict: bool = False,
        source_url: str | None = None,
        fetched_at: datetime | None = None,
        info: SnapshotInfo | None = None,
    ) -> Estate:
        """Build from a listing in any form `parse_profiles` accepts."""
        if isinstance(data, bytes | str):
            data = loads_json(data)
        raw = unwrap_profiles(data)
        info = info or SnapshotInfo(source_url=source_url, fetched_at=fetched_at)
        info.toolkit_version = info.toolkit_version or __version__
        if strict:
            return cls(raw, parse_profiles(raw), (), info)
        models, problems = validate_profiles(raw)
        return cls(raw, models, problems, info)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write a snapshot (`.json` or `.json.gz`): every profile as received, metadata too."""
        return write_snapshot(path, self.raw_profiles, self.info)

    # -- registries -----------------------------------------------------------------------

    def _index_channels(self) -> None:
        conflicts: dict[tuple[str, Any], Conflict] = {}
        origins: dict[tuple[str, Any], Any] = {}
        for profile, raw_index in zip(self.profiles, self.raw_index, strict=True):
            # a channel without an id is keyed by its place: the profile's id or position
            place = profile.id if profile.id is not None else f"#{raw_index}"
            uses = list(channel_uses(profile))
            self.uses.append(uses)
            for use in uses:
                if use.channel is None:
                    continue
                key = channel_key(use.channel, place, use.path)
                self._register(
                    "channel", self.channels, key, use.channel, profile.id, origins, conflicts
                )
                partner = field_value(use.channel, "partner")
                pkey = partner_key(partner) if partner is not None else None
                if pkey is not None:
                    self._register(
                        "partner", self.partners, pkey, partner, profile.id, origins, conflicts
                    )
        self.conflicts = list(conflicts.values())

    @staticmethod
    def _register(
        kind: Literal["channel", "partner"],
        registry: dict[Any, Any],
        key: Any,
        value: Any,
        profile_id: Any,
        origins: dict[tuple[str, Any], Any],
        conflicts: dict[tuple[str, Any], Conflict],
    ) -> None:
        known = registry.get(key)
        if known is None:
            registry[key] = value
            origins[(kind, key)] = profile_id
        elif known is not value and known != value:
            conflict = conflicts.get((kind, key))
            if conflict is None:
                first = (origins[(kind, key)], known)
                conflict = conflicts[(kind, key)] = Conflict(kind, key, [first])
            if all(content != value for _, content in conflict.variants):
                conflict.variants.append((profile_id, value))

    # -- views ----------------------------------------------------------------------------

    def subset(self, selection: Filter) -> Estate:
        """A new estate with the profiles the filter selects, whole and unchanged."""
        from .filters import subset

        return subset(self, selection)

    def to_frame(self, kind: FrameKind = "profiles") -> pandas.DataFrame:
        """One row per profile, channel, partner or response unit."""
        from .tables import to_frame

        return to_frame(self, kind)

    def summary(self) -> dict[str, Any]:
        """Counts an analyst wants first, JSON-ready."""
        agents = Counter(p.agent_type or "(none)" for p in self.profiles)
        channel_types = Counter(type_name_of(c) or "(unknown)" for c in self.channels.values())
        return {
            "profiles": len(self.raw_profiles),
            "valid_profiles": len(self.profiles),
            "active_profiles": sum(1 for p in self.profiles if p.active),
            "problems": len(self.problems),
            "channels": len(self.channels),
            "partners": len(self.partners),
            "conflicts": len(self.conflicts),
            "agent_types": dict(agents.most_common()),
            "channel_types": dict(channel_types.most_common()),
            "source_url": self.info.source_url,
            "fetched_at": self.info.fetched_at.isoformat() if self.info.fetched_at else None,
        }

    def __len__(self) -> int:
        return len(self.raw_profiles)

    def __repr__(self) -> str:
        s = self.summary()
        source = f", source={s['source_url']!r}" if s["source_url"] else ""
        return (
            f"<Estate {s['profiles']} profiles ({s['problems']} problems), "
            f"{s['channels']} channels, {s['partners']} partners{source}>"
        )

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td style='text-align:right'>{count}</td></tr>"
            for name, count in s["agent_types"].items()
        )
        source = html.escape(s["source_url"] or "local")
        return (
            "<div class='iptoolkit-estate'>"
            f"<b>Estate</b> from {source}: <b>{s['profiles']}</b> profiles "
            f"({s['active_profiles']} active, {s['problems']} problems), "
            f"<b>{s['channels']}</b> channels, <b>{s['partners']}</b> partners, "
            f"{s['conflicts']} conflicts"
            "<table><thead><tr><th>input agent type</th><th>profiles</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>"
        )


def load(path: str | os.PathLike[str], *, strict: bool = False) -> Estate:
    """Load a snapshot file (`.json` or `.json.gz`), a bare array or any wrapped listing."""
    raw, info = read_snapshot(path)
    try:
        return Estate.from_raw(raw, strict=strict, info=info)
    except ParseError as exc:
        raise ParseError(f"{path}: {exc}", issues=exc.issues) from None
