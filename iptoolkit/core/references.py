"""Where a profile holds or names channels: one walk over a profile's JSON.

The input agent holds a channel (`channel`, `channels`) or names one by id only
(`comChannelId`, `channelIds`, ...); each response unit holds the channel it delivers over.
`iptoolkit.core.records` keys what this walk finds; nothing else walks a profile for channels.

The walk reads the JSON of a profile that validated (the index is built without models;
a profile written with Python names is walked in its model's JSON): a channel under a
field its owner's class declares was validated with the profile; one under an unknown
agent or unit, or kept as an unknown field, is checked here and counts as a channel only
if it validates as one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

from pydantic import TypeAdapter, ValidationError

from ..models import (
    AGENT_TYPES,
    RESPONSE_UNIT_TYPES,
    ApiModel,
    Channel,
    IntegrationProfile,
    class_name,
    field_value,
    json_field_names,
)

__all__ = [
    "Found",
    "ID_REFERENCE_FIELDS",
    "channel_uses",
    "json_named",
    "channel_model",
    "response_units",
    "partner_key",
    "path_steps",
    "usable_id",
]

ID_REFERENCE_FIELDS: tuple[str, ...] = (
    "comChannelId",
    "channelIds",
    "channelId",
    "registryChannelId",
)
"""Agent fields (JSON names) that name a channel only by its id."""

Role = Literal["input", "response", "reference"]


@functools.cache
def _channel_adapter() -> TypeAdapter[Channel]:
    """Made when first used: the models build their schemas on first use too."""
    return TypeAdapter(Channel)


_new = tuple.__new__
"""Makes a named tuple from a tuple of every field, in C (see `records._new`)."""


class Found(NamedTuple):
    """One place where a profile holds (`channel` set) or names (`channel_id` only) a channel.

    `path` is the JSON path inside the profile, `unit` the response unit's index. (A named
    tuple: the index makes one per channel use, by the hundred thousand.)
    """

    role: Role
    path: str
    channel: Any
    channel_id: Any
    unit: int | None = None


def channel_uses(profile: dict[str, Any], *, check_names: bool = True) -> list[Found] | None:
    """Every channel a valid profile's input agent and response units hold or name; None
    when an object the walk reads uses a Python name (`json_named` is false): then walk
    the profile's model's JSON with `check_names=False` (`records` does so).

    One pass that checks the names as it goes, with plain dict lookups, not `field_value`:
    the index walks every profile of a load here.
    """
    python_names = _PYTHON_ONLY_NAMES if check_names else _NONE
    if not python_names.isdisjoint(profile):
        return None
    found: list[Found] = []
    agent = profile.get("inputAgentSettings")
    if isinstance(agent, dict):
        if not _held(agent, "inputAgentSettings", "input", None, found, python_names):
            return None
        for json_name in ID_REFERENCE_FIELDS:
            value = agent.get(json_name)
            if isinstance(value, list):
                for index, item in enumerate(value):
                    path = f"inputAgentSettings.{json_name}[{index}]"
                    found.append(_new(Found, ("reference", path, None, item, None)))
            elif value is not None:
                found.append(
                    _new(Found, ("reference", f"inputAgentSettings.{json_name}", None, value, None))
                )
    settings = profile.get("responseSettings")
    if isinstance(settings, dict):
        if not python_names.isdisjoint(settings):
            return None
        units = settings.get("units")
        for index, unit in enumerate(units if isinstance(units, list) else ()):
            if not isinstance(unit, dict):
                continue
            path = f"responseSettings.units[{index}]"
            if not _held(unit, path, "response", index, found, python_names):
                return None
    return found


def response_units(profile: IntegrationProfile | dict[str, Any]) -> list[Any]:
    """The response units of a profile (model or raw JSON), an empty list when none."""
    units = field_value(field_value(profile, "responseSettings"), "units")
    return list(units) if isinstance(units, list) else []


def channel_model(channel: Any) -> Any:
    """The model of a channel found by the walk (its JSON, or a model already)."""
    return (
        channel
        if hasattr(channel, "model_fields_set")
        else _channel_adapter().validate_python(channel)
    )


_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def path_steps(path: str) -> tuple[str | int, ...]:
    """A path of this walk as steps: `responseSettings.units[2].channel` ->
    `("responseSettings", "units", 2, "channel")`, to reach the place in a copy."""
    return tuple(name if name else int(index) for name, index in _STEP.findall(path))


def usable_id(value: Any) -> int | str | None:
    """An id that can key a registry: a non-empty string or an integer (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | str) or value == "":
        return None
    return value


def partner_key(partner: Any) -> Any:
    """The registry key of a partner (a model, or a raw dict inside an unknown channel):
    its id, or `name:<name>` when it has none."""
    raw = isinstance(partner, dict)
    partner_id = usable_id(partner.get("id") if raw else field_value(partner, "id"))
    if partner_id is not None:
        return partner_id
    name = partner.get("name") if raw else field_value(partner, "name")
    return f"name:{name}" if name is not None else None


_HOLDING_FIELDS = ("channel", "channels")


_DECLARED_HOLDING: dict[str, frozenset[str]] = {
    class_name(member): frozenset(json_field_names(member)).intersection(_HOLDING_FIELDS)
    for member in (*AGENT_TYPES, *RESPONSE_UNIT_TYPES)
}
"""For each known agent and unit class (`core:...`), the holding fields it declares."""


def _all_models() -> Iterator[type[ApiModel]]:
    """Every model class: ApiModel and its subclasses, to any depth."""
    pending: list[type[ApiModel]] = [ApiModel]
    while pending:
        cls = pending.pop()
        yield cls
        pending.extend(cls.__subclasses__())


_PYTHON_ONLY_NAMES: frozenset[str] = frozenset(
    name
    for model in _all_models()
    for name, info in model.model_fields.items()
    if info.alias and info.alias != name
)
"""Python field names that differ from the JSON name (`input_agent_settings`)."""


def json_named(profile: dict[str, Any]) -> bool:
    """True when the objects this walk reads use JSON names only. The models also accept
    Python names; a profile sent with them is walked in its model's JSON instead."""
    if not _PYTHON_ONLY_NAMES.isdisjoint(profile):
        return False
    owners: list[Any] = [profile.get("inputAgentSettings")]
    settings = profile.get("responseSettings")
    if isinstance(settings, dict):
        owners.append(settings)
        units = settings.get("units")
        owners.extend(units if isinstance(units, list) else ())
    for owner in owners:
        if not isinstance(owner, dict):
            continue
        channels = owner.get("channels")
        for item in (
            owner,
            owner.get("channel"),
            *(channels if isinstance(channels, list) else ()),
        ):
            if isinstance(item, dict) and not _PYTHON_ONLY_NAMES.isdisjoint(item):
                return False
    return True


def _held(
    owner: dict[str, Any],
    path: str,
    role: Role,
    unit: int | None,
    found: list[Found],
    python_names: frozenset[str],
) -> bool:
    """Add to `found` the channels `owner` (an agent's or unit's JSON) holds; False when
    it, or an object at its holding fields, uses one of the `python_names`."""
    if not python_names.isdisjoint(owner):
        return False
    single = owner.get("channel")
    many = owner.get("channels")
    if single is None and many is None:
        return True
    if isinstance(single, dict) and not python_names.isdisjoint(single):
        return False
    declared = _declared_holding(owner)
    channel = _as_channel(single, "channel" in declared)
    if channel is not None:
        found.append(_new(Found, (role, f"{path}.channel", channel, channel.get("id"), unit)))
    if isinstance(many, list):
        validated = "channels" in declared
        for index, item in enumerate(many):
            if isinstance(item, dict) and not python_names.isdisjoint(item):
                return False
            channel = _as_channel(item, validated)
            if channel is not None:
                where = f"{path}.channels[{index}]"
                found.append(_new(Found, (role, where, channel, channel.get("id"), unit)))
    return True


def _declared_holding(owner: dict[str, Any]) -> frozenset[str]:
    """The holding fields that validation checked in `owner` (an agent's or unit's JSON)."""
    cls = owner.get("class")
    return _DECLARED_HOLDING.get(cls, _NONE) if isinstance(cls, str) else _NONE


_NONE: frozenset[str] = frozenset()


def _as_channel(value: Any, validated: bool) -> dict[str, Any] | None:
    """The channel's JSON at a holding field, or None when it is not one.

    What the profile's validation did not check (an unknown owner, an unknown field) is
    checked here, leniently."""
    if not isinstance(value, dict):
        return None
    if validated:
        return value
    try:
        _channel_adapter().validate_python(value)
    except ValidationError:
        return None
    return value
