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

from ..filters import select, subset
from ..names import plural, unresolved_note
from ..nodes import label, type_of
from ..selection import Filter

if TYPE_CHECKING:
    import networkx as nx
    import pandas

    from ..estate import Estate
    from ..records import ChannelKey, ProfileRecord

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
    """Positions in `estate.records` (and `raw_profiles`), in order."""
    total: int
    partners: int
    channels: int
    unresolved: int
    """Channel ids the chosen profiles name that no profile holds (not channels)."""
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
            f"{plural(self.partners, 'partner')}, {plural(self.channels, 'channel')}"
            + unresolved_note(self.unresolved)
        )


class ExplorerModel:
    """An estate prepared for exploring: facets and counts read from its records."""

    def __init__(self, estate: Estate) -> None:
        self.estate = estate
        self._selections: dict[str, Selection] = {}

    # -- the whole estate -----------------------------------------------------------------

    @cached_property
    def facets(self) -> Facets:
        agents: Counter[str] = Counter()
        channel_types: Counter[str] = Counter()
        partners: Counter[str] = Counter()
        groups: Counter[str] = Counter()
        estate = self.estate
        for record in estate.valid_records:
            if record.agent_type:
                agents[record.agent_type] += 1
            channel_types.update(
                {type_of(estate.channels[key]) for key in _known_channels(estate, record)} - {None}
            )
            partners.update({label(estate.partners.get(key), key) for key in record.partners})
            if record.group:
                parts = record.group.strip("/").split("/")
                groups.update("/".join(parts[: n + 1]) for n in range(len(parts)))
        return Facets(
            agent_types=dict(sorted(agents.items())),
            channel_types=dict(sorted(channel_types.items())),
            partners=dict(sorted(partners.items(), key=lambda item: item[0].lower())),
            groups=dict(sorted(groups.items())),
        )

    @cached_property
    def profile_nodes(self) -> list[str]:
        """For each profile of the estate, its graph node id (`profile:P1`)."""
        return [record.node for record in self.estate.records]

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
            records = self.estate.records
            partners: set[Any] = set()
            channels: set[Any] = set()
            for row in rows:
                partners.update(records[row].partners)
                channels.update(records[row].channel_keys)
            unresolved = channels & self.estate.unresolved.keys()
            found = Selection(
                selection,
                rows,
                len(records),
                len(partners),
                len(channels) - len(unresolved),
                len(unresolved),
                self.estate,
            )
            if len(self._selections) >= 32:  # keep the latest few; subsets hold memory
                self._selections.pop(next(iter(self._selections)))
            self._selections[key] = found
        return found

    def table(self, selection: Selection) -> pandas.DataFrame:
        """The selection's rows of the profiles table, numbered from 0 for the front end."""
        return self.frame.iloc[selection.rows].reset_index(drop=True)


def _known_channels(estate: Estate, record: ProfileRecord) -> list[ChannelKey]:
    """The channels a profile uses that the estate knows: an id named but held nowhere is
    an unresolved channel id, not a channel."""
    return [key for key in record.channel_keys if key in estate.channels]
