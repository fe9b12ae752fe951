"""The index of an estate: one immutable record per profile, built once when it is loaded.

Every view (graph, filters, tables, audit, plots, exports, the Explorer) reads these records
instead of walking the models again, so they all agree on what a profile is called, whether
it is active, which agent type it has and which channels and partners it uses.

The rules, written once here:

- **Profile key** (`ProfileRecord.key`, node `profile:<key>`): the profile's id; a profile
  without a usable id (missing, empty, not a string or integer) is keyed by its position in
  the listing, `#12`; when several profiles share an id, the first keeps it and every later
  one gets its position appended, `P1#7`. Keys are fixed when a listing is loaded: a subset
  keeps its parent's keys, so a node id means the same profile in every view of one load.
- **Channel key** (node `channel:<key>`): the channel's id; a channel without a usable id is
  keyed by where it is held, `<profile key>:<JSON path>`, which no other channel shares.
- **Partner key** (node `partner:<key>`): the partner's id, else `name:<name>`.
- **Active**: the `active` flag is `true`; missing or not a boolean is not active
  (`nodes.is_active`, which every reader of the flag calls).
- **Agent type**: the input agent's class without `core:` (`SFTPAgentSettings`); people
  read `names.type_label` of it (`SFTP`).
- **A channel** is content a profile holds (in its input agent or a response unit). A
  channel id that a profile names (`comChannelId`, `channelIds`, ...) and no profile holds
  is an *unresolved* channel id, not a channel: it is listed in `Estate.unresolved`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, NamedTuple, cast

from ..models import (
    ChannelBase,
    IntegrationPartner,
    IntegrationProfile,
    ProfileProblem,
    UnknownChannel,
    profile_model,
    type_name_of,
)
from ._registries import ChannelKey, PartnerKey, Registries
from .nodes import Endpoint, endpoint, is_active, partner_of, split_tags, target
from .references import channel_uses, usable_id

__all__ = [
    "ChannelKey",
    "PartnerKey",
    "Role",
    "ChannelModel",
    "PartnerModel",
    "ChannelUse",
    "ProfileRecord",
    "profile_keys",
    "PENDING",
    "RecordBuilder",
    "Reused",
    "build_records",
    "records_and_registries",
]

_new = tuple.__new__
"""Makes a named tuple from a tuple of every field, in C (its own constructor is a Python
function, twice as slow): a load makes one per profile and channel use."""

Role = Literal["input", "response", "reference"]
ChannelModel = ChannelBase | UnknownChannel
"""A channel as parsed: a known channel type, or the fallback keeping every field."""
PartnerModel = IntegrationPartner | dict[str, Any]
"""A partner as parsed; inside a channel of an unknown type it stays a raw JSON object."""


class ChannelUse(NamedTuple):
    """One place where a profile uses a channel, with the channel's key and graph node.

    `role` is `input` (held by the input agent), `response` (held by response unit `unit`)
    or `reference` (named by id only: `held` is None, the estate's registry may know it).
    `path` is the JSON path inside the profile; `held` the channel's JSON object (the
    estate's registry keeps its model). (A named tuple: immutable, and cheap to make by the
    hundred thousand.)
    """

    role: Role
    path: str
    key: ChannelKey
    node: str
    held: Any = None
    unit: int | None = None


class _Where(NamedTuple):
    """Where a profile's agent and units point, as `ProfileRecord` hands it out."""

    agent: Endpoint
    units: tuple[Endpoint, ...]
    targets: tuple[str | None, ...]


class ModelCell:
    """Where a record keeps what it works out on first use: its model, and where its agent
    and units point. Equal to every other cell, so records compare (and hash) by what they
    index, not by whether anything was asked for."""

    __slots__ = ("model", "where")

    def __init__(self) -> None:
        self.model: IntegrationProfile | None = None
        self.where: _Where | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ModelCell)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "ModelCell(built)" if self.model is not None else "ModelCell()"


class ProfileRecord(NamedTuple):
    """What every view needs to know of one profile, worked out once from its raw JSON.

    A faulty profile (`problem` set) has what could be read of it (id, name, group, tags,
    activity, agent type) and no channel uses. The model is not kept: it costs about five
    times the JSON in memory and the views need none of it; `model` builds it on first use
    and keeps it in `built` (the only thing about a record that changes, and invisible to
    `==`). The raw JSON is shared, not copied: change it and `model` may fail late.
    """

    index: int  # type: ignore[assignment]  # the field hides tuple.index, on purpose
    """Position in the listing the estate was loaded from."""
    key: str
    node: str
    """The graph node id, `profile:<key>`."""
    raw: Any
    problem: ProfileProblem | None
    id: str | int | None
    name: str | None
    group: str | None
    description: str | None
    tags: tuple[str, ...]
    active: bool
    agent: Any
    """The input agent's JSON object, or None."""
    agent_type: str | None
    agent_name: str | None
    """The agent's own `typeName`, when it has one."""
    response_units: tuple[Any, ...]
    """The response units' JSON objects."""
    uses: tuple[ChannelUse, ...]
    partners: tuple[PartnerKey, ...]
    """Partners of the channels the profile uses (held, or named and known), first seen first."""
    built: ModelCell
    """The model and endpoints once asked for (shared by every estate holding this record)."""

    @property
    def agent_endpoint(self) -> Endpoint:
        """Where the input agent points (host, URL, topic)."""
        return self._where().agent

    @property
    def response_endpoints(self) -> tuple[Endpoint, ...]:
        """For each response unit, where it points (host, URL, topic)."""
        return self._where().units

    @property
    def response_targets(self) -> tuple[str | None, ...]:
        """For each response unit, where it delivers in words (file name, recipient, URL)."""
        return self._where().targets

    def _where(self) -> _Where:
        """The endpoints, worked out on first use: `compare` and `diff` read none of them,
        and a load of 100k profiles spent some 0.35 s of CPU on them (issue 45)."""
        cell = self.built
        if cell.where is None:
            units = tuple([endpoint(unit) for unit in self.response_units])
            targets = tuple(
                [target(unit, at) for unit, at in zip(self.response_units, units, strict=True)]
            )
            cell.where = _Where(endpoint(self.agent), units, targets)
        return cell.where

    @property
    def ok(self) -> bool:
        """True when the profile is valid (it has a model)."""
        return self.problem is None

    @property
    def model(self) -> IntegrationProfile | None:
        """The profile's model (None when faulty), validated from `raw` on first use."""
        if self.problem is not None:
            return None
        cell = self.built
        if cell.model is None:
            cell.model = profile_model(self.raw)
        return cell.model

    @property
    def channel_keys(self) -> tuple[ChannelKey, ...]:
        """The keys of the channels the profile uses, each once, in order."""
        return tuple(dict.fromkeys(use.key for use in self.uses))


def profile_keys(raw_profiles: Sequence[Any]) -> list[str]:
    """The key of every profile in a listing, by the rule in the module docstring."""
    keys = _Keys()
    return [keys.next(raw) for raw in raw_profiles]


class _Keys:
    """Profile keys handed out in listing order (the first of an id keeps it)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def next(self, raw: Any) -> str:
        index = len(self.seen)
        pid = usable_id(raw.get("id") if isinstance(raw, dict) else None)
        base = str(pid) if pid is not None else ""
        key = base if base and base not in self.seen else f"{base}#{index}"
        while key in self.seen:  # only when an id itself looks like `P1#7`
            key += f"#{index}"
        self.seen.add(key)
        return key


Reused = dict[tuple[int, str], tuple["ProfileRecord", list[tuple[Any, Any]]]]
"""Records made before, by their JSON object's `id` and their key, with `partner_of` each
channel they hold: `RecordBuilder(reused=...)` takes a valid profile's record from it
instead of reading the JSON again (see `RecordBuilder`)."""

PENDING: Final = "pending"
"""`RecordBuilder.add`'s verdict for a profile whose check is not decided yet."""


class RecordBuilder:
    """Records made one profile at a time, in listing order, finished once the faulty
    profiles are known (`finish`).

    A load adds each profile as it reads it (`iptoolkit.core._load_pass`), while the profile's
    objects are still in the processor's cache: one pass over the estate instead of one per
    step. What needs the whole listing waits for `finish`: which profile holds a channel
    first, the ids that profiles name, and the profiles whose verdict was pending.

    `reused`: records of earlier listings that share this one's JSON objects (an archive's
    snapshots read with their versions shared, `archive/shared_reads.py`), as `add` makes
    them, before `finish`. Such a record depends on its JSON and its key alone, but for
    its position, which it is given again (the channels it names by id are resolved by
    `finish` against this listing; a finished record is resolved against its own, and
    must not be put there). The dict keeps each JSON object it names alive (the record
    holds it), so an `id` cannot name another. New records are put in it.
    """

    def __init__(self, reused: Reused | None = None) -> None:
        self._keys = _Keys()
        self._raw: list[Any] = []
        self._pending_keys: dict[int, str] = {}
        self._records: list[ProfileRecord | None] = []
        self._naming: list[int] = []
        """Records that name a channel by id: their partners need the whole listing."""
        self.registries = Registries()
        """The channels and partners of the records, registered in listing order: each as
        it is added, until a pending one leaves a gap (the rest wait for `finish`)."""
        self._registered = 0
        self._finished = False
        self._reused = reused

    def add(self, raw: Any, problem: ProfileProblem | None | Literal["pending"] = None) -> None:
        """The next profile of the listing: valid (`problem` None), faulty, or `PENDING`."""
        if self._finished:
            raise RuntimeError("RecordBuilder.add after finish: the records are handed out")
        index = len(self._raw)
        key = self._keys.next(raw)
        self._raw.append(raw)
        if problem == PENDING:
            self._records.append(None)
            self._pending_keys[index] = key
            return
        if problem is None and self._reused is not None:
            record, partners = self._reusing(self._reused, index, key, raw)
        else:
            record, partners = self._record(index, key, raw, problem)
        self._records.append(record)
        if self._registered == index:
            self.registries.add(record, partners)
            self._registered += 1

    def finish(self, problems: Sequence[ProfileProblem] = ()) -> list[ProfileRecord]:
        """Every record, `problems` naming the faulty profiles among those added pending.

        Channel keys resolve against every channel held anywhere in the listing: an id
        named as text ("17") names the channel held as 17.
        """
        if self._finished:
            raise RuntimeError("RecordBuilder.finish called twice")
        self._finished = True
        problem_at = {problem.index: problem for problem in problems}
        records = self._records
        for index, key in self._pending_keys.items():
            records[index] = self._record(index, key, self._raw[index], problem_at.get(index))[0]
        for record in records[self._registered :]:
            assert record is not None
            self.registries.add(record)
        held = self.registries.channels
        if self._naming:
            by_text = {str(key): key for key in held}
            for index in self._naming:
                record = records[index]
                assert record is not None
                uses = tuple([_resolved(use, by_text) for use in record.uses])
                partners: dict[PartnerKey, None] = {}
                for use in uses:
                    pkey, _ = partner_of(use.held if use.held is not None else held.get(use.key))
                    if pkey is not None:
                        partners[pkey] = None
                records[index] = record._replace(uses=uses, partners=tuple(partners))
        return cast("list[ProfileRecord]", records)  # every gap was filled above

    def _reusing(
        self, reused: Reused, index: int, key: str, raw: Any
    ) -> tuple[ProfileRecord, list[tuple[Any, Any]]]:
        """A valid profile's record from `reused`, at this position, else made and kept."""
        made = reused.get((id(raw), key))
        if made is None:
            made = reused[id(raw), key] = self._record(index, key, raw, None)
            return made
        record, partners = made
        if record.index != index:
            record = _new(ProfileRecord, (index, *record[1:]))
        if any(use.held is None for use in record.uses):  # names a channel: `finish` resolves
            self._naming.append(index)
        return record, partners

    def _record(
        self, index: int, key: str, raw: Any, problem: ProfileProblem | None
    ) -> tuple[ProfileRecord, list[tuple[Any, Any]]]:
        """The record, and `partner_of` each channel it holds (for the registries)."""
        uses: list[ChannelUse] = []
        source = raw
        named = False
        if problem is None:
            found = channel_uses(raw)
            if found is None:  # written with Python names: walk its model's JSON
                source = profile_model(raw).to_json_dict()
                found = channel_uses(source, check_names=False) or []
            for role, path, channel, channel_id, unit in found:
                ident = usable_id(channel_id)
                if channel is not None:
                    ckey = ident if ident is not None else f"{key}:{path}"
                    uses.append(
                        _new(ChannelUse, (role, path, ckey, f"channel:{ckey}", channel, unit))
                    )
                elif ident is not None:
                    uses.append(
                        _new(ChannelUse, ("reference", path, ident, f"channel:{ident}", None, None))
                    )
                    named = True
        partners: dict[PartnerKey, None] = {}
        held_partners = []
        for use in uses:
            if use.held is not None:
                found_partner = partner_of(use.held)
                held_partners.append(found_partner)
                if found_partner[0] is not None:
                    partners[found_partner[0]] = None
        if named:
            self._naming.append(index)
        return _record(index, key, raw, source, problem, uses, partners), held_partners


def build_records(
    raw_profiles: Sequence[Any], problems: Sequence[ProfileProblem]
) -> list[ProfileRecord]:
    """The records of a listing; `problems` names the faulty profiles (see
    `check_profiles`)."""
    return records_and_registries(raw_profiles, problems)[0]


def records_and_registries(
    raw_profiles: Sequence[Any], problems: Sequence[ProfileProblem]
) -> tuple[list[ProfileRecord], Registries]:
    """`build_records`, with the registries of the channels and partners they hold."""
    problem_at = {problem.index: problem for problem in problems}
    builder = RecordBuilder()
    for index, raw in enumerate(raw_profiles):
        builder.add(raw, problem_at.get(index))
    return builder.finish(), builder.registries


def _resolved(use: ChannelUse, by_text: dict[str, ChannelKey]) -> ChannelUse:
    if use.held is not None:
        return use
    key = by_text.get(str(use.key), use.key)
    return use if key == use.key else use._replace(key=key, node=f"channel:{key}")


def _record(
    index: int,
    key: str,
    raw: Any,
    source: Any,
    problem: ProfileProblem | None,
    uses: list[ChannelUse],
    partners: dict[PartnerKey, None],
) -> ProfileRecord:
    """A profile's record, read from its JSON (`source`: the raw JSON, or its model's when
    the raw one uses Python names). A faulty one (`problem` set) gets what can be read of
    it (id, name, group, tags, activity, agent type) and no agent, units or channel uses."""
    data = source if isinstance(source, dict) else {}
    found = data.get("inputAgentSettings")
    agent_type = type_name_of(found) if isinstance(found, dict) else None
    if problem is None:
        agent = found if isinstance(found, dict) else None
        settings = data.get("responseSettings")
        listed = settings.get("units") if isinstance(settings, dict) else None
        units = tuple(listed) if isinstance(listed, list) else ()
    else:
        agent, units = None, ()
    name = agent.get("typeName") if agent is not None else None
    tags = data.get("tags")
    return _new(
        ProfileRecord,
        (
            index,
            key,
            f"profile:{key}",
            raw,
            problem,
            usable_id(data.get("id")),
            _text(data.get("name")),
            _text(data.get("group")),
            _text(data.get("description")),
            tuple(split_tags(tags)) if tags else (),
            is_active(data),
            agent,
            agent_type,
            name if isinstance(name, str) else None,
            units,
            tuple(uses),
            tuple(partners),
            ModelCell(),
        ),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
