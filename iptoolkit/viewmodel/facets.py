"""Facets: how many profiles of the current selection each filter option would keep.

Disjunctive faceting, as search engines count: the values inside a field are OR-ed, so the
counts of a field are taken over the selection filtered by every *other* field. An option
of a field already chosen then shows how many profiles choosing it would bring in (its
profiles among those the other fields allow), neither 0 nor the size of the selection; for
a field left empty the base is the selection itself. Every option of the estate stays
listed, with 0 where the selection leaves it nothing, so a chosen value never disappears.

Counted from the filters' own look-up tables (`filters.field_matches`): the profiles of each
option are one set, gathered once per estate through the filter itself (so a count is
always what choosing the option selects); a change then costs a set intersection per
option, and no subset estate is built. Channel types and partners are options of a
channel, as in the filter (`filters.CHANNEL_FIELDS`: set together, they must meet on one
channel), so their options hold channel uses, and a count is of the profiles whose uses
meet the other channel fields on the same channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.nodes import label, type_of
from ..core.selection import Filter
from ..models import gc_paused
from ..query.filters import CHANNEL_FIELDS, Matches, field_matches, use_owners

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["FACET_FIELDS", "Facets", "FacetIndex"]

FACET_FIELDS = ("agent_types", "channel_types", "partners", "groups", "active")
"""The filter fields the panel offers options for (and counts)."""


@dataclass(frozen=True)
class Facets:
    """Each option of the filter panel -> how many profiles choosing it would select."""

    agent_types: dict[str, int]
    channel_types: dict[str, int]
    partners: dict[str, int]
    """Partner name (or key when unnamed) -> profiles using it."""
    groups: dict[str, int]
    """Every group and each of its ancestors (`Finance`, `Finance/AP`) -> profiles."""
    active: dict[bool | None, int]
    """The activity toggle: `None` (all), `True` (active), `False` (inactive) -> profiles."""


class FacetIndex:
    """The options an estate offers, each with the positions (in `estate.records`) of the
    profiles it selects; gathered once, then `count` is cheap for any filter."""

    def __init__(self, estate: Estate) -> None:
        self.size = len(estate.records)
        with gc_paused():  # thousands of small sets: no point in collecting meanwhile
            self.uses: dict[str, dict[Any, set[int]]] = {}
            """Channel fields: option -> the channel uses it selects (`filters.Matches`)."""
            self.options: dict[str, dict[Any, set[int]]] = {}
            """Every field: option -> the positions of the profiles it selects."""
            for name, values in _option_values(estate).items():
                found = {value: _matches(estate, name, value) for value in values}
                if name in CHANNEL_FIELDS:
                    self.uses[name] = {value: m.uses[name] for value, m in found.items()}
                self.options[name] = {value: _alone(m) for value, m in found.items()}
        self.owners = use_owners(estate)
        self._alone = {
            name: {value: len(found) for value, found in options.items()}
            for name, options in self.options.items()
        }

    def count(self, matched: Matches | None = None) -> Facets:
        """The facets of a selection, given what each of its fields allows on its own
        (`filters.field_matches`; None: nothing set, the whole estate)."""
        if matched is None:
            matched = Matches({}, {}, self.owners)
        counts: dict[str, dict[Any, int]] = {}
        everything: dict[str, int] = {}
        for name in FACET_FIELDS:
            uses = matched.channel_uses(leave_out=name) if name in self.uses else None
            if uses is not None:  # meet the other channel fields on the same channel
                fields = matched.profile_fields()
                counts[name] = {
                    value: len(_owned(self.owners, found & uses, fields))
                    for value, found in self.uses[name].items()
                }
                base = matched.profiles(leave_out=name)
                everything[name] = self.size if base is None else len(base)
                continue
            base = matched.profiles(leave_out=name)
            if base is None:  # no other field narrows it: each option on its own
                counts[name] = self._alone[name]
                everything[name] = self.size
            else:
                counts[name] = {v: len(base & found) for v, found in self.options[name].items()}
                everything[name] = len(base)
        return Facets(
            agent_types=dict(counts["agent_types"]),
            channel_types=dict(counts["channel_types"]),
            partners=dict(counts["partners"]),
            groups=dict(counts["groups"]),
            active={None: everything["active"], **counts["active"]},
        )


def _owned(owners: list[int], uses: set[int], fields: set[int] | None) -> set[int]:
    """The profiles owning these uses, among `fields` (None: any)."""
    found = {owners[use] for use in uses}
    return found if fields is None else found & fields


def _matches(estate: Estate, name: str, value: Any) -> Matches:
    """What choosing `value` alone in field `name` allows (through the filter, so facets
    and filters can never disagree)."""
    return field_matches(estate, Filter(**{name: value if name == "active" else [value]}))


def _alone(matched: Matches) -> set[int]:
    found = matched.profiles()
    return found if found is not None else set()


def _option_values(estate: Estate) -> dict[str, list[Any]]:
    """Each facet field's options, in the order the panel lists them: the agent types,
    channel types, partners and groups (with every ancestor) the profiles use (a faulty
    one's agent type and group too: the filter matches them)."""
    agents: set[str] = set()
    channel_keys: set[Any] = set()  # each channel and partner named once, not per profile
    partner_keys: set[Any] = set()
    paths: set[str] = set()
    for record in estate.records:
        if record.agent_type:
            agents.add(record.agent_type)
        channel_keys.update(record.channel_keys)
        partner_keys.update(record.partners)
        if record.group:
            paths.add(record.group)
    channels = estate.channels
    channel_types = {
        kind for key in channel_keys if key in channels and (kind := type_of(channels[key]))
    }
    partners = {label(estate.partners.get(key), key) for key in partner_keys}
    groups: set[str] = set()
    for path in paths:
        parts = path.strip("/").split("/")
        groups.update("/".join(parts[: n + 1]) for n in range(len(parts)))
    return {
        "agent_types": sorted(agents),
        "channel_types": sorted(channel_types),
        "partners": sorted(partners, key=str.lower),
        "groups": sorted(groups),
        "active": [True, False],
    }
