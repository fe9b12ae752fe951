"""How findings name items in their text: a profile with its name, the first few of a list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.nodes import label

if TYPE_CHECKING:
    from ...core.records import ProfileRecord

__all__ = ["profile_label", "names", "channel_names", "SHOWN"]

SHOWN = 3


def profile_label(record: ProfileRecord) -> str:
    return f"{record.node} ({record.name})" if record.name else record.node


def names(nodes: list[str]) -> str:
    shown = ", ".join(nodes[:SHOWN])
    return shown + (f" and {len(nodes) - SHOWN} more" if len(nodes) > SHOWN else "")


def channel_names(channels: dict[str, Any]) -> str:
    return names([f"{label(model, node)} ({node})" for node, model in channels.items()])
