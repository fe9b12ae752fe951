"""Where a profile holds or names channels: one walk over a parsed profile.

The input agent holds a channel (`channel`, `channels`) or names one by id only
(`comChannelId`, `channelIds`, ...); each response unit holds the channel it delivers over.
`iptoolkit.records` keys what this walk finds; nothing else walks a profile for channels.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from .models import Channel, IntegrationProfile, field_value, present_fields

__all__ = ["Found", "ID_REFERENCE_FIELDS", "channel_uses", "partner_key", "usable_id"]

ID_REFERENCE_FIELDS: tuple[str, ...] = (
    "comChannelId",
    "channelIds",
    "channelId",
    "registryChannelId",
)
"""Agent fields (JSON names) that name a channel only by its id."""

Role = Literal["input", "response", "reference"]
_CHANNEL = TypeAdapter(Channel)


@dataclass(frozen=True, slots=True)
class Found:
    """One place where a profile holds (`channel` set) or names (`channel_id` only) a channel.

    `path` is the JSON path inside the profile, `unit` the response unit's index.
    """

    role: Role
    path: str
    channel: Any
    channel_id: Any
    unit: int | None = None


def channel_uses(profile: IntegrationProfile) -> Iterator[Found]:
    """Every channel the profile's input agent and response units hold or name."""
    agent = profile.input_agent_settings
    if agent is not None:
        yield from _held(agent, "inputAgentSettings", "input", None)
        for json_name in present_fields(agent, ID_REFERENCE_FIELDS):
            value = field_value(agent, json_name)
            if isinstance(value, list):
                for index, item in enumerate(value):
                    yield Found("reference", f"inputAgentSettings.{json_name}[{index}]", None, item)
            elif value is not None:
                yield Found("reference", f"inputAgentSettings.{json_name}", None, value)
    for index, unit in enumerate(profile.response_units):
        yield from _held(unit, f"responseSettings.units[{index}]", "response", index)


def usable_id(value: Any) -> int | str | None:
    """An id that can key a registry: a non-empty string or an integer (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | str) or value == "":
        return None
    return value


def partner_key(partner: Any) -> Any:
    """The registry key of a partner (a model, or a raw dict inside an unknown channel):
    its id, or `name:<name>` when it has none."""
    partner_id = usable_id(field_value(partner, "id"))
    if partner_id is not None:
        return partner_id
    name = field_value(partner, "name")
    return f"name:{name}" if name is not None else None


_HOLDING_FIELDS = ("channel", "channels")


def _held(owner: Any, path: str, role: Role, unit: int | None) -> Iterator[Found]:
    holding = present_fields(owner, _HOLDING_FIELDS)
    if not holding:
        return
    single = _as_channel(field_value(owner, "channel"))
    if single is not None:
        yield Found(role, f"{path}.channel", single, field_value(single, "id"), unit)
    many = field_value(owner, "channels")
    if isinstance(many, list):
        for index, item in enumerate(many):
            channel = _as_channel(item)
            if channel is not None:
                yield Found(
                    role, f"{path}.channels[{index}]", channel, field_value(channel, "id"), unit
                )


def _as_channel(value: Any) -> Any:
    """A channel model; raw dicts kept by an unknown agent or unit are parsed leniently."""
    if value is None or hasattr(value, "model_fields_set"):
        return value
    if isinstance(value, dict):
        try:
            return _CHANNEL.validate_python(value)
        except ValidationError:
            return None
    return None
