"""A realistic "next week" of an estate, so that change over time has something to show.

`demo_changes(estate, seed=...)` returns a new `Estate`: the input's raw profiles, copied,
with the changes an integration team makes in a week, and the snapshot header saying it was
fetched seven days after the input. The input estate is never touched. The same estate and
seed always give the same result (one `random.Random(seed)`, candidates in listing order, no
clock). Made for demo estates of any size, it works on any estate: a change the estate has
nothing to make from (no AS2 channel to move, say) is left out.

What changes:

- **partner moves to a new AS2 channel**: one of the AS2 channels most active profiles use is
  replaced, in every profile holding it, by a new channel of the same partner (new id, new
  URL, new certificate); the old channel is held by no profile any more;
- **channel deactivated under active profiles**: a channel that active profiles receive
  their input through gets `"active": false` in every copy (the profiles are not told);
- **cosmetic edits**: one profile's description is rewritten, another gains a tag;
- **a new schedule and a new endpoint**: one cron agent polls on another schedule, one
  HTTP response unit posts to another host;
- **profiles added and removed**: three new profiles, each a copy of an existing one for a
  new country (`... - PL`), new id, created this week; two profiles deleted (an inactive
  one first), chosen so that no channel disappears with them;
- **schema drift**: every input agent of one of the rarer types gains `retryPolicy`, a
  field the spec does not describe (as if the platform had been upgraded).

Edited profiles get a `lastModified` inside the week. A profile is copied before its first
change; the new estate shares the others with the input, as a subset shares its parent's
(estates never change their raw JSON).

>>> old = ipt.demo_estate(300)
>>> new = ipt.demo_changes(old, seed=1)
>>> len(new) - len(old)
1
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from random import Random
from typing import TYPE_CHECKING, Any

from ..core.nodes import is_active
from ..core.snapshot import SnapshotInfo
from ..models import loads_json
from ..support.jsonio import dumps_json
from . import data

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ChannelKey, ProfileRecord

__all__ = ["demo_changes", "NEW_FIELD", "ADDED", "REMOVED"]

WEEK = timedelta(days=7)
_WEEK_MS = 7 * 24 * 3600 * 1000
ADDED = 3
"""Profiles added in a week."""
REMOVED = 2
"""Profiles removed in a week."""
NEW_FIELD = "retryPolicy"
"""The field the platform starts sending in one agent type; the spec does not describe it."""
_RETRY_POLICY = {"maxAttempts": 5, "backoffSeconds": [30, 120, 600], "onExhausted": "SUSPEND"}
_CHANNEL_CLASS = "core:IntegrationPartnerChannel"
_NEW_COUNTRIES = (" - PL", " - CZ", " - HU", " - SE", " - DK", " - IT", " - ES", " - PT")
_PROFILE_ID = re.compile(r"P-(\d+)")


def demo_changes(estate: Estate, *, seed: int = 0) -> Estate:
    """A week later: `estate`'s profiles with a week's changes (see the module docstring).

    The new estate's snapshot info has the same source and a fetch time seven days after the
    input's (none when the input has none).
    """
    from ..core.estate import Estate, require_estate

    require_estate(estate, "demo_changes")
    week = _Week(estate, Random(seed))
    week.apply()
    info = estate.info
    fetched = info.fetched_at + WEEK if info.fetched_at is not None else None
    after = SnapshotInfo(source_url=info.source_url, fetched_at=fetched, extra=dict(info.extra))
    return Estate.from_raw(week.profiles, info=after)


class _Week:
    """The changes of one week, applied to a private copy of the estate's raw profiles."""

    def __init__(self, estate: Estate, rng: Random) -> None:
        self.estate = estate
        self.rng = rng
        # copy on write: a profile is copied before its first change, so the input's raw
        # JSON stays as it was, and the profiles nobody changed are shared, as subsets do
        self.profiles: list[Any] = list(estate.raw_profiles)
        self.copied: set[int] = set()
        self.valid = [record for record in estate.records if record.ok]
        self.touched: set[int] = set()  # positions already changed, left alone by later steps
        self.holders = _holders(self.valid)
        fetched = estate.info.fetched_at
        stamps = [r.raw.get("lastModified") for r in self.valid if isinstance(r.raw, dict)]
        latest = max((s for s in stamps if isinstance(s, int)), default=0)
        self.week_start = int(fetched.timestamp() * 1000) if fetched else latest

    def apply(self) -> None:
        self.move_as2_partner()
        self.deactivate_input_channel()
        self.rewrite_description()
        self.add_tag()
        self.change_schedule()
        self.change_endpoint()
        self.add_unknown_field()  # before the copies: a new profile of that type has it too
        removed = self.remove_profiles()
        added = self.add_profiles()
        self.profiles = [p for i, p in enumerate(self.profiles) if i not in removed] + added

    # -- channels ---------------------------------------------------------------------------

    def move_as2_partner(self) -> None:
        """Replace one of the busiest AS2 channels by a new one of the same partner."""
        users = {
            key: sum(self.estate.records[i].active for i in positions)
            for key, positions in self.holders.items()
            if isinstance(key, int)
            and _channel_type(self._held(key)) == "AS2"
            and is_active(self._held(key))
        }
        candidates = sorted((key for key in users if users[key] >= 2), key=lambda k: -users[k])
        if not candidates:
            return
        key = self.rng.choice(candidates[:3])
        old = self._held(key)
        new = {**old, "id": self._free_channel_id(), "name": f"{old['name']} (new gateway)"}
        if isinstance(old.get("as2Url"), str):
            new["as2Url"] = old["as2Url"].replace("://as2.", "://as2-gw.", 1)
        if isinstance(old.get("remoteCertificateId"), str):
            new["remoteCertificateId"] = old["remoteCertificateId"] + "-renewed"
        for position in self.holders[key]:
            for copy in _held_copies(self._own(position), key):
                copy.clear()
                copy.update(_fresh(new))
            self._edited(position)

    def deactivate_input_channel(self) -> None:
        """Deactivate a channel that active profiles receive their input through."""
        candidates = [
            key
            for key, positions in self.holders.items()
            if self._held(key).get("id") == key  # an id-less channel cannot be found again
            and is_active(self._held(key))
            and not self.touched.intersection(positions)
            and any(self._input_of(i, key) and self.estate.records[i].active for i in positions)
        ]
        if not candidates:
            return
        key = self.rng.choice(candidates)
        for position in self.holders[key]:
            for copy in _held_copies(self._own(position), key):
                copy["active"] = False
            self.touched.add(position)  # the channel changed, not the profile: no new date

    # -- profile edits ----------------------------------------------------------------------

    def rewrite_description(self) -> None:
        record = self._pick(lambda r: isinstance(r.raw.get("description"), str))
        if record is not None:
            profile = self._own(record.index)
            owner = record.group.split("/")[0] if record.group else "integration"
            profile["description"] += f" Owned by the {owner} team; see the runbook."
            self._edited(record.index)

    def add_tag(self) -> None:
        record = self._pick(lambda r: isinstance(r.raw.get("tags"), str))
        if record is not None:
            tags = [tag for tag in data.EXTRA_TAGS if tag not in record.tags]
            profile = self._own(record.index)
            profile["tags"] += "," + (tags[self.rng.randrange(len(tags))] if tags else "reviewed")
            self._edited(record.index)

    def change_schedule(self) -> None:
        record = self._pick(lambda r: _has_list(r.agent, "cronSchedule"))
        if record is not None:
            agent = self._own(record.index)["inputAgentSettings"]
            schedule = agent["cronSchedule"]
            others = [cron for cron in data.CRONS if cron not in schedule]
            agent["cronSchedule"] = [others[self.rng.randrange(len(others))], *schedule[1:]]
            self._edited(record.index)

    def change_endpoint(self) -> None:
        """An HTTP response unit posts to the partner's new API host."""
        record = self._pick(lambda r: any(_http_host(unit) for unit in r.response_units))
        if record is not None:
            units = self._own(record.index)["responseSettings"]["units"]
            http = next(u["httpSettings"] for u in units if _http_host(u))
            http["host"] = "gateway." + http["host"].removeprefix("api.")
            self._edited(record.index)

    # -- profiles added and removed ---------------------------------------------------------

    def remove_profiles(self) -> set[int]:
        """Positions of profiles deleted: an inactive one first, none a channel's last holder."""
        removed: set[int] = set()

        def others_hold_its_channels(record: ProfileRecord) -> bool:
            return all(len(self.holders[use.key] - removed) > 1 for use in _held_uses(record))

        for inactive in (True, False, False):
            if len(removed) == REMOVED:
                break
            record = self._pick(
                lambda r, inactive=inactive: r.active != inactive and others_hold_its_channels(r)
            )
            if record is not None:
                removed.add(record.index)
                self.touched.add(record.index)
        return removed

    def add_profiles(self) -> list[dict[str, Any]]:
        """New profiles, each a copy of an active one for a new country, with a new id."""
        names = {record.name for record in self.estate.records}
        ids = self._new_profile_ids(ADDED)
        added = []
        for new_id in ids:
            template = self._pick(lambda r: r.active and bool(_held_uses(r)) and bool(r.name))
            if template is None:
                break
            profile = _fresh(self.profiles[template.index])
            name = next(
                (
                    f"{template.name}{c}"
                    for c in _NEW_COUNTRIES
                    if f"{template.name}{c}" not in names
                ),
                f"{template.name} (new)",
            )
            names.add(name)
            created = self._this_week()
            profile.update(
                id=new_id, name=name, created=created, lastModified=created, lastModifiedGUI=created
            )
            added.append(profile)
        return added

    # -- schema drift -----------------------------------------------------------------------

    def add_unknown_field(self) -> None:
        """Every input agent of one of the rarer types (two profiles or more if any) gains
        `NEW_FIELD`: a handful of profiles, so that a diff of a demo estate stays readable."""
        counts: dict[str, int] = {}
        for record in self.valid:
            if record.agent_type is not None:
                counts[record.agent_type] = counts.get(record.agent_type, 0) + 1
        if not counts:
            return
        several = [name for name, count in counts.items() if count >= 2] or list(counts)
        rarest = sorted(several, key=lambda name: (counts[name], name))[:5]
        agent_class = "core:" + self.rng.choice(rarest)
        for record in self.estate.records:
            agent = record.raw.get("inputAgentSettings") if isinstance(record.raw, dict) else None
            if isinstance(agent, dict) and agent.get("class") == agent_class:
                self._own(record.index)["inputAgentSettings"][NEW_FIELD] = _fresh(_RETRY_POLICY)

    # -- helpers ----------------------------------------------------------------------------

    def _pick(self, fits: Any) -> ProfileRecord | None:
        """A random untouched valid profile that `fits`, marked touched; None if none does."""
        candidates = [
            record
            for record in self.valid
            if record.index not in self.touched and isinstance(record.raw, dict) and fits(record)
        ]
        if not candidates:
            return None
        record = self.rng.choice(candidates)
        self.touched.add(record.index)
        return record

    def _held(self, key: ChannelKey) -> dict[str, Any]:
        """The first held copy of a channel (every copy alike in a demo estate)."""
        record = self.estate.records[min(self.holders[key])]
        return next(use.held for use in _held_uses(record) if use.key == key)

    def _input_of(self, position: int, key: ChannelKey) -> bool:
        uses = _held_uses(self.estate.records[position])
        return any(use.key == key and use.role == "input" for use in uses)

    def _own(self, position: int) -> dict[str, Any]:
        """The profile at `position`, copied first if this is its first change."""
        if position not in self.copied:
            self.profiles[position] = _fresh(self.profiles[position])
            self.copied.add(position)
        profile: dict[str, Any] = self.profiles[position]  # a valid profile: a JSON object
        return profile

    def _edited(self, position: int) -> None:
        self.touched.add(position)
        profile = self._own(position)
        stamp = self._this_week()
        for field in ("lastModified", "lastModifiedGUI"):
            if field in profile:
                profile[field] = stamp

    def _this_week(self) -> int:
        return self.week_start + self.rng.randrange(_WEEK_MS)

    def _free_channel_id(self) -> int:
        """The next id above the held channels' (below 2**53) that no profile holds or names."""
        held = [key for key in self.estate.channels if isinstance(key, int) and key < 2**53]
        taken = {*self.estate.channels, *self.estate.unresolved}
        candidate = max(held, default=0) + 1
        while candidate in taken:
            candidate += 1
        return candidate

    def _new_profile_ids(self, count: int) -> list[str]:
        taken = {str(record.id) for record in self.estate.records if record.id is not None}
        numbers = [int(m.group(1)) for t in taken if (m := _PROFILE_ID.fullmatch(t))]
        ids: list[str] = []
        number = max(numbers, default=0)
        while len(ids) < count:
            number += 1
            if (candidate := f"P-{number:06d}") not in taken:
                ids.append(candidate)
        return ids


def _holders(records: list[ProfileRecord]) -> dict[ChannelKey, set[int]]:
    """Channel key -> positions of the profiles holding a copy of it (not naming it by id)."""
    holders: dict[ChannelKey, set[int]] = {}
    for record in records:
        for use in _held_uses(record):
            holders.setdefault(use.key, set()).add(record.index)
    return holders


def _held_uses(record: ProfileRecord) -> list[Any]:
    return [use for use in record.uses if use.held is not None]


def _held_copies(node: Any, key: ChannelKey) -> Iterator[dict[str, Any]]:
    """Every channel object with id `key` inside a profile's JSON."""
    if isinstance(node, dict):
        if str(node.get("class", "")).startswith(_CHANNEL_CLASS) and node.get("id") == key:
            yield node
            return
        for value in node.values():
            yield from _held_copies(value, key)
    elif isinstance(node, list):
        for value in node:
            yield from _held_copies(value, key)


def _fresh(value: dict[str, Any]) -> dict[str, Any]:
    """A copy of a JSON object sharing nothing mutable with it (integers of any size kept)."""
    copy: dict[str, Any] = loads_json(dumps_json(value))
    return copy


def _channel_type(channel: dict[str, Any]) -> str:
    return str(channel.get("class", "")).removeprefix(_CHANNEL_CLASS)


def _has_list(value: Any, field: str) -> bool:
    return isinstance(value, dict) and isinstance(value.get(field), list)


def _http_host(unit: Any) -> bool:
    http = unit.get("httpSettings") if isinstance(unit, dict) else None
    return isinstance(http, dict) and isinstance(http.get("host"), str)
