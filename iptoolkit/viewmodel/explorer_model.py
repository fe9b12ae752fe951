"""What the Explorer shows, computed without any widget: facets, selections, counts.

Kept apart from the widgets so that it can be tested and benchmarked without a front end,
and so that a filter change costs index look-ups, not a new `Estate`: the counts and the
table rows come from per-profile facts gathered once; the subset `Estate` (for diagrams,
exports, `explorer.selection`) is built only when something asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..core.selection import Filter
from ..query.filters import LIST_FIELDS, field_matches, subset, unjudged_note, unmatched
from ..support.names import plural, type_label, unresolved_note
from .facets import FacetIndex, Facets

if TYPE_CHECKING:
    import pandas

    from ..core.estate import Estate
    from ..query.graph import EstateGraph
    from ..topology.view import GroupedViews

__all__ = ["TABS", "TABLE_COLUMNS", "Facets", "Selection", "ExplorerModel"]

TABS = ("Topology", "Table", "Details", "Findings", "Export")
"""The Explorer's tabs, in order (the app's first view draws them faint where they go)."""

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
    facets: Facets | None = field(default=None, repr=False)
    """How many profiles each filter option would keep, given the rest of this filter."""
    unjudged: list[tuple[int, tuple[str, ...]]] = field(default_factory=list, repr=False)
    """Faulty profiles left out because a field could not judge them (`filters.unjudged`):
    said beside the counts, as the command line says them on stderr."""

    @cached_property
    def estate(self) -> Estate:
        """The subset as an `Estate` (built on first use: the diagram and exports need it)."""
        return subset(self._estate, self.filter)

    @property
    def profiles(self) -> int:
        return len(self.rows)

    def counts_text(self) -> str:
        """ "128 of 10,000 profiles, 14 partners, 31 channels"."""
        left = f" ({unjudged_note(self._estate, self.unjudged)})" if self.unjudged else ""
        return (
            f"{self.profiles:,} of {self.total:,} profiles, "
            f"{plural(self.partners, 'partner')}, {plural(self.channels, 'channel')}"
            + unresolved_note(self.unresolved)
            + left
        )


class ExplorerModel:
    """An estate prepared for exploring: facets and counts read from its records."""

    def __init__(self, estate: Estate, graph: EstateGraph | None = None) -> None:
        """`graph`: the estate's graph (`build_graph`), when it is built already."""
        self.estate = estate
        if graph is not None:
            self.__dict__["graph"] = graph  # the cached property's answer, given
        self._selections: dict[str, Selection] = {}
        self._last_views: tuple[str, GroupedViews] | None = None

    # -- the whole estate -----------------------------------------------------------------

    @cached_property
    def facet_index(self) -> FacetIndex:
        """Every filter option with its profiles: what facets are counted from."""
        return FacetIndex(self.estate)

    @cached_property
    def facets(self) -> Facets:
        """The options the filter panel offers, each with its profiles in the whole estate."""
        return self.facet_index.count()

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
    def graph(self) -> EstateGraph:
        """The whole estate's graph, for where-used and impact (built on first question)."""
        from ..query.graph import build_graph

        return build_graph(self.estate)

    @cached_property
    def grouped_views(self) -> GroupedViews:
        """The whole estate's graph with its grouped views (`views`)."""
        from ..topology.view import GroupedViews

        return GroupedViews(self.graph)

    def views(self, selection: Selection) -> GroupedViews:
        """The selection's graph with its grouped views, made once for the live topology
        and the static copy (at 100,000 profiles a graph takes seconds, a grouped view as
        many): the whole estate's over `graph`, else the last selection's (a graph kept
        per filter would hold much memory)."""
        if selection.filter.is_empty():
            self._last_views = None
            return self.grouped_views
        key = selection.filter.to_json()
        if self._last_views is None or self._last_views[0] != key:
            from ..query.graph import build_graph
            from ..topology.view import GroupedViews

            self._last_views = None  # the last graph goes before the next is built
            self._last_views = (key, GroupedViews(build_graph(selection.estate)))
        return self._last_views[1]

    @cached_property
    def frame(self) -> pandas.DataFrame:
        """The profiles table of the whole estate, `TABLE_COLUMNS` only (headers in words),
        one row per raw profile; a selection's table is a row slice of it (no rebuilding)."""
        frame = self.estate.to_frame("profiles").loc[:, list(TABLE_COLUMNS)]
        # dates as text once, not per change; the time of day says little here
        frame["last_modified"] = frame["last_modified"].dt.strftime("%Y-%m-%d")
        # as the filter panel says them, not "CronFtpAgentSettings" and "True"
        types = frame["agent_type"]
        frame["agent_type"] = types.map(
            {name: type_label(name) for name in types.dropna().unique()}
        )
        frame["active"] = frame["active"].map({True: "yes", False: "no"})
        return frame.rename(columns=lambda name: name.replace("_", " "))

    def table_parts(self) -> tuple[pandas.DataFrame, list[str]]:
        """`frame` and `profile_labels`: what the app's zygote builds in a fork beside the
        rest (`app.held`) and gives back with `keep_table_parts`."""
        return self.frame, self.profile_labels

    def keep_table_parts(self, parts: tuple[pandas.DataFrame, list[str]]) -> None:
        """Take `table_parts` built elsewhere (by a fork of this process) as this model's."""
        self.__dict__["frame"], self.__dict__["profile_labels"] = parts  # cached properties

    # -- selections -----------------------------------------------------------------------

    def dead_ends(self, selection: Selection) -> list[tuple[str, Any, str]]:
        """(field, value, did-you-mean) of each value of the filter that selects no profile
        on its own (`filters.unmatched`, as the command line says it). A selection that
        keeps profiles can only hold such a value among several of one field (a partner
        or channel type of an address, or set from code, the panel does not list), so
        only the list fields are tried then."""
        chosen = selection.filter
        if chosen.is_empty():
            return []
        if selection.profiles:
            lists = {name: getattr(chosen, name) for name in LIST_FIELDS}
            chosen = Filter(**lists)
            if chosen.is_empty():
                return []
        return unmatched(self.estate, chosen)

    def select(self, selection: Filter) -> Selection:
        """Apply a filter: the rows and counts, from the filters' index (cached per filter)."""
        key = selection.to_json()
        found = self._selections.get(key)
        if found is None:
            records = self.estate.records
            matched = field_matches(self.estate, selection)
            # what `filters.select` keeps, from the sets the facets need one by one
            chosen = matched.profiles()
            rows = sorted(chosen) if chosen is not None else [*range(len(records))]
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
                self.facet_index.count(matched),
                matched.left_out(self.estate),
            )
            if len(self._selections) >= 32:  # keep the latest few; subsets hold memory
                self._selections.pop(next(iter(self._selections)))
            self._selections[key] = found
        return found

    def table(self, selection: Selection) -> pandas.DataFrame:
        """The selection's rows of the profiles table, numbered from 0 for the front end."""
        return self.frame.iloc[selection.rows].reset_index(drop=True)
