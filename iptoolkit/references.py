"""Where a profile uses channels: held by its input agent, by a response unit, or named by id.

One walk over a parsed profile that the estate (channel registry), the graph and the filters
share, so that they all agree on what "this profile uses that channel" means.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from .models import Channel, IntegrationProfile, field_value

__all__ = ["ChannelUse", "ID_REFERENCE_FIELDS", "channel_uses", "channel_key", "partner_key"]

ID_REFERENCE_FIELDS: tuple[tuple[str, str], ...] = (
    ("com_channel_id", "comChannelId"),
    ("channel_ids", "channelIds"),
    ("channel_id", "channelId"),
    ("registry_channel_id", "registryChannelId"),
)
"""Agent fields that name a channel only by its id: (Python name, JSON name)."""

Role = Literal["input", "response", "reference"]
_CHANNEL = TypeAdapter(Channel)


@dataclass(frozen=True, slots=True)
class ChannelUse:
    """One place where a profile uses a channel.

    `role` is `input` (held by the input agent), `response` (held by a response unit) or
    `reference` (named by id only; `channel` is None then). `path` is the JSON path inside
    the profile, `unit` the response unit's index for `response`.
    """

    role: Role
    path: str
    channel: Any
    channel_id: Any
    unit: int | None = None


def channel_uses(profile: IntegrationProfile) -> Iterator[ChannelUse]:
    """Every channel the profile's input agent and response units hold or name."""
    agent = profile.input_agent_settings
    if agent is not None:
        yield from _held(agent, "inputAgentSettings", "input", None)
        for python_name, json_name in ID_REFERENCE_FIELDS:
            value = _field(agent, python_name, json_name)
            if isinstance(value, list):
                for index, item in enumerate(value):
                    yield ChannelUse(
                        "reference", f"inputAgentSettings.{json_name}[{index}]", None, item
                    )
            elif value is not None:
                yield ChannelUse("reference", f"inputAgentSettings.{json_name}", None, value)
    for index, unit in enumerate(profile.response_units):
        yield from _held(unit, f"responseSettings.units[{index}]", "response", index)


def channel_key(channel: Any, profile_id: Any, path: str) -> Any:
    """The registry key of a channel: its id, or its place when it has none (or an id
    of an unknown class that is no number or string, which could not key a registry)."""
    channel_id = _usable_id(field_value(channel, "id"))
    return channel_id if channel_id is not None else f"{profile_id}:{path}"


def partner_key(partner: Any) -> Any:
    """The registry key of a partner (a model, or a raw dict inside an unknown channel):
    its id, or its name when it has none."""
    partner_id = _usable_id(field_value(partner, "id"))
    if partner_id is not None:
        return partner_id
    name = field_value(partner, "name")
    return f"name:{name}" if name is not None else None


def _usable_id(value: Any) -> Any:
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def _held(owner: Any, path: str, role: Role, unit: int | None) -> Iterator[ChannelUse]:
    single = _as_channel(field_value(owner, "channel"))
    if single is not None:
        yield ChannelUse(role, f"{path}.channel", single, field_value(single, "id"), unit)
    many = field_value(owner, "channels")
    if isinstance(many, list):
        for index, item in enumerate(many):
            channel = _as_channel(item)
            if channel is not None:
                yield ChannelUse(
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


def _field(model: Any, python_name: str, json_name: str) -> Any:
    value = field_value(model, python_name)
    return value if value is not None else field_value(model, json_name)
