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
- **Active**: the `active` flag is `true`; missing or not a boolean is not active.
- **Agent type**: the input agent's class without `core:` (`SFTPAgentSettings`); people
  read `names.type_label` of it (`SFTP`).
- **A channel** is content a profile holds (in its input agent or a response unit). A
  channel id that a profile names (`comChannelId`, `channelIds`, ...) and no profile holds
  is an *unresolved* channel id, not a channel: it is listed in `Estate.unresolved`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .models import (
    ChannelBase,
    IntegrationPartner,
    IntegrationProfile,
    ProfileProblem,
    UnknownChannel,
    field_value,
    type_name_of,
)
from .nodes import Endpoint, endpoint, partner_of, split_tags
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
    "build_records",
]

ChannelKey = int | str
"""A channel's registry key: its id, or `<profile key>:<path>` when it has none."""
PartnerKey = int | str
"""A partner's registry key: its id, or `name:<name>` when it has none."""
Role = Literal["input", "response", "reference"]
ChannelModel = ChannelBase | UnknownChannel
"""A channel as parsed: a known channel type, or the fallback keeping every field."""
PartnerModel = IntegrationPartner | dict[str, Any]
"""A partner as parsed; inside a channel of an unknown type it stays a raw JSON object."""


@dataclass(frozen=True, slots=True)
class ChannelUse:
    """One place where a profile uses a channel, with the channel's key.

    `role` is `input` (held by the input agent), `response` (held by response unit `unit`)
    or `reference` (named by id only: `held` is None, the estate's registry may know it).
    `path` is the JSON path inside the profile.
    """

    role: Role
    path: str
    key: ChannelKey
    held: Any = None
    unit: int | None = None

    @property
    def node(self) -> str:
        return f"channel:{self.key}"


@dataclass(frozen=True, slots=True)
class ProfileRecord:
    """What every view needs to know of one profile, worked out once.

    A faulty profile (`model` None, `problem` set) has what could be read from its raw JSON
    (id, name, group, tags, activity, agent type) and no channel uses.
    """

    index: int
    """Position in the listing the estate was loaded from."""
    key: str
    raw: Any
    model: IntegrationProfile | None
    problem: ProfileProblem | None
    id: str | int | None
    name: str | None
    group: str | None
    description: str | None
    tags: tuple[str, ...]
    active: bool
    agent_type: str | None
    agent_endpoint: Endpoint
    response_units: tuple[Any, ...]
    response_endpoints: tuple[Endpoint, ...]
    """For each response unit, where it points (host, URL, topic)."""
    uses: tuple[ChannelUse, ...]
    partners: tuple[PartnerKey, ...]
    """Partners of the channels the profile uses (held, or named and known), first seen first."""

    @property
    def node(self) -> str:
        return f"profile:{self.key}"

    @property
    def ok(self) -> bool:
        """True when the profile parsed (it has a model)."""
        return self.model is not None

    @property
    def channel_keys(self) -> tuple[ChannelKey, ...]:
        """The keys of the channels the profile uses, each once, in order."""
        return tuple(dict.fromkeys(use.key for use in self.uses))


def profile_keys(raw_profiles: Sequence[Any]) -> list[str]:
    """The key of every profile in a listing, by the rule in the module docstring."""
    keys: list[str] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_profiles):
        pid = usable_id(raw.get("id") if isinstance(raw, dict) else None)
        base = str(pid) if pid is not None else ""
        key = base if base and base not in seen else f"{base}#{index}"
        while key in seen:  # only when an id itself looks like `P1#7`
            key += f"#{index}"
        seen.add(key)
        keys.append(key)
    return keys


def build_records(
    raw_profiles: Sequence[Any],
    models: Sequence[IntegrationProfile | None],
    problems: Sequence[ProfileProblem],
) -> tuple[list[ProfileRecord], dict[ChannelKey, Any]]:
    """The records of a listing, and the channels its profiles hold (first content seen).

    Two passes: the first keys what each profile holds, the second resolves the ids that
    profiles name against every channel held anywhere in the listing.
    """
    keys = profile_keys(raw_profiles)
    problem_at = {problem.index: problem for problem in problems}
    held: dict[ChannelKey, Any] = {}
    walked: list[list[tuple[Any, ...]]] = []
    for key, model in zip(keys, models, strict=True):
        found: list[tuple[Any, ...]] = []
        if model is not None:
            for use in channel_uses(model):
                if use.channel is not None:
                    ident = usable_id(field_value(use.channel, "id"))
                    channel_key = ident if ident is not None else f"{key}:{use.path}"
                    held.setdefault(channel_key, use.channel)
                    found.append((use.role, use.path, channel_key, use.channel, use.unit))
                elif usable_id(use.channel_id) is not None:
                    found.append((use.role, use.path, use.channel_id, None, None))
        walked.append(found)

    by_text = {str(key): key for key in held}
    records = []
    for index, (raw, model, key, found) in enumerate(
        zip(raw_profiles, models, keys, walked, strict=True)
    ):
        uses = [
            ChannelUse(
                role,
                path,
                ckey if channel is not None else by_text.get(str(ckey), ckey),
                channel,
                unit,
            )
            for role, path, ckey, channel, unit in found
        ]
        partners: dict[PartnerKey, None] = {}
        for use in uses:
            pkey, _ = partner_of(use.held if use.held is not None else held.get(use.key))
            if pkey is not None:
                partners[pkey] = None
        records.append(_record(index, key, raw, model, problem_at.get(index), uses, partners))
    return records, held


def _record(
    index: int,
    key: str,
    raw: Any,
    model: IntegrationProfile | None,
    problem: ProfileProblem | None,
    uses: list[ChannelUse],
    partners: dict[PartnerKey, None],
) -> ProfileRecord:
    if model is not None:
        agent = model.input_agent_settings
        units = tuple(model.response_units)
        return ProfileRecord(
            index=index,
            key=key,
            raw=raw,
            model=model,
            problem=problem,
            id=usable_id(model.id),
            name=_text(model.name),
            group=_text(model.group),
            description=_text(model.description),
            tags=tuple(split_tags(model.tags)),
            active=model.active is True,
            agent_type=type_name_of(agent) if agent is not None else None,
            agent_endpoint=endpoint(agent),
            response_units=units,
            response_endpoints=tuple(endpoint(unit) for unit in units),
            uses=tuple(uses),
            partners=tuple(partners),
        )
    raw_dict = raw if isinstance(raw, dict) else {}
    agent_raw = raw_dict.get("inputAgentSettings")
    return ProfileRecord(
        index=index,
        key=key,
        raw=raw,
        model=None,
        problem=problem,
        id=usable_id(raw_dict.get("id")),
        name=_text(raw_dict.get("name")),
        group=_text(raw_dict.get("group")),
        description=_text(raw_dict.get("description")),
        tags=tuple(split_tags(raw_dict.get("tags"))),
        active=raw_dict.get("active") is True,
        agent_type=type_name_of(agent_raw) if isinstance(agent_raw, dict) else None,
        agent_endpoint=endpoint(None),
        response_units=(),
        response_endpoints=(),
        uses=(),
        partners=(),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
