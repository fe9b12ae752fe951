"""What the Explorer shows, computed without any widget: facets, selections, counts.

Kept apart from the widgets so that it can be tested and benchmarked without a front end,
and so that a filter change costs index look-ups, not a new `Estate`: the counts and the
table rows come from per-profile facts gathered once; the subset `Estate` (for diagrams,
exports, `explorer.selection`) is built only when something asks for it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..filters import Filter, select, subset
from ..nodes import partner_of, profile_keys, profile_node, profile_uses, type_of

if TYPE_CHECKING:
    import networkx as nx
    import pandas

    from ..estate import Estate

__all__ = ["TABLE_COLUMNS", "Facets", "Selection", "ExplorerModel"]

TABLE_COLUMNS = (
    "id",
    "name",
    "group",
    "active",
    "agent_type",
    "partners",
    "channels",
    "response_paths",
    "last_modified",
)
"""Columns of the Explorer's table: what tells profiles apart at a glance (no long text)."""


@dataclass(frozen=True)
class Facets:
    """The values a filter panel offers, with how many profiles of the estate have each."""

    agent_types: dict[str, int]
    channel_types: dict[str, int]
    partners: dict[str, int]
    """Partner name (or key when unnamed) -> profiles using it."""
    groups: dict[str, int]
    """Every group and each of its ancestors (`Finance`, `Finance/AP`) -> profiles."""


@dataclass
class Selection:
    """One filter applied: which profiles, and how many partners and channels they reach."""

    filter: Filter
    rows: list[int]
    """Indices in `estate.raw_profiles`, in order."""
    total: int
    partners: int
    channels: int
    _estate: Estate = field(repr=False)

    @cached_property
    def estate(self) -> Estate:
        """The subset as an `Estate` (built on first use: the diagram and exports need it)."""
        return subset(self._estate, self.filter)

    @property
    def profiles(self) -> int:
        return len(self.rows)

    def counts_text(self) -> str:
        """ "128 of 10,000 profiles, 14 partners, 31 channels"."""
        return (
            f"{self.profiles:,} of {self.total:,} profiles, "
            f"{_n(self.partners, 'partner')}, {_n(self.channels, 'channel')}"
        )


class ExplorerModel:
    """An estate prepared for exploring: per-profile facts gathered once, then selections."""

    def __init__(self, estate: Estate) -> None:
        self.estate = estate
        position_of = {raw: pos for pos, raw in enumerate(estate.raw_index)}
        uses = profile_uses(estate)
        self._partners: list[frozenset[Any]] = []
        self._channels: list[frozenset[Any]] = []
        for raw in range(len(estate.raw_profiles)):
            position = position_of.get(raw)
            if position is None:  # a faulty profile: nothing could be read
                self._partners.append(frozenset())
                self._channels.append(frozenset())
                continue
            profile_uses_ = uses[position]
            # channels the estate knows (as in `estate.channels`): an id named by a profile
            # but held nowhere is a finding, not a channel
            self._channels.append(
                frozenset(use.key for use in profile_uses_ if use.channel is not None)
            )
            self._partners.append(
                frozenset(
                    key
                    for key in (partner_of(use.channel)[0] for use in profile_uses_)
                    if key is not None
                )
            )
        self._uses = uses
        self._position_of = position_of
        self._selections: dict[str, Selection] = {}

    # -- the whole estate -----------------------------------------------------------------

    @cached_property
    def facets(self) -> Facets:
        agents: Counter[str] = Counter()
        channel_types: Counter[str] = Counter()
        partners: Counter[str] = Counter()
        groups: Counter[str] = Counter()
        for profile, uses in zip(self.estate.profiles, self._uses, strict=True):
            if profile.agent_type:
                agents[profile.agent_type] += 1
            channel_types.update({type_of(u.channel) for u in uses if u.channel} - {None})
            names = set()
            for use in uses:
                key, partner = partner_of(use.channel)
                if key is not None:
                    names.add(_partner_name(partner, key))
            partners.update(names)
            if profile.group:
                parts = profile.group.strip("/").split("/")
                groups.update("/".join(parts[: n + 1]) for n in range(len(parts)))
        return Facets(
            agent_types=dict(sorted(agents.items())),
            channel_types=dict(sorted(channel_types.items())),
            partners=dict(sorted(partners.items(), key=lambda item: item[0].lower())),
            groups=dict(sorted(groups.items())),
        )

    @cached_property
    def profile_nodes(self) -> list[str]:
        """For each raw profile, its graph node id (`profile:P1`)."""
        return [profile_node(key) for key in profile_keys(self.estate.raw_profiles)]

    @cached_property
    def profile_labels(self) -> list[str]:
        """For each raw profile, `id · name` (what a search box offers)."""
        frame = self.frame
        return [
            f"{ident if ident is not None else '#' + str(row)} · {name or ''}".strip(" ·")
            for row, (ident, name) in enumerate(zip(frame["id"], frame["name"], strict=True))
        ]

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The whole estate's graph, for where-used and impact (built on first question)."""
        from ..graph import build_graph

        return build_graph(self.estate)

    @cached_property
    def frame(self) -> pandas.DataFrame:
        """The profiles table of the whole estate, `TABLE_COLUMNS` only (headers in words),
        one row per raw profile; a selection's table is a row slice of it (no rebuilding)."""
        frame = self.estate.to_frame("profiles").loc[:, list(TABLE_COLUMNS)]
        # dates as text once, not per change; the time of day says little here
        frame["last_modified"] = frame["last_modified"].dt.strftime("%Y-%m-%d")
        return frame.rename(columns=lambda name: name.replace("_", " "))

    # -- selections -----------------------------------------------------------------------

    def select(self, selection: Filter) -> Selection:
        """Apply a filter: the rows and counts, from the filters' index (cached per filter)."""
        key = selection.to_json()
        found = self._selections.get(key)
        if found is None:
            rows = select(self.estate, selection)
            partners: set[Any] = set()
            channels: set[Any] = set()
            for row in rows:
                partners |= self._partners[row]
                channels |= self._channels[row]
            found = Selection(
                selection,
                rows,
                len(self.estate.raw_profiles),
                len(partners),
                len(channels),
                self.estate,
            )
            if len(self._selections) >= 32:  # keep the latest few; subsets hold memory
                self._selections.pop(next(iter(self._selections)))
            self._selections[key] = found
        return found

    def table(self, selection: Selection) -> pandas.DataFrame:
        """The selection's rows of the profiles table, numbered from 0 for the front end."""
        return self.frame.iloc[selection.rows].reset_index(drop=True)


def _partner_name(partner: Any, key: Any) -> str:
    name = getattr(partner, "name", None)
    if name is None and isinstance(partner, dict):
        name = partner.get("name")
    return str(name) if name else str(key)


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")
