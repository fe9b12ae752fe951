"""HYG: housekeeping; nothing is broken yet, but the estate is harder to read and to run."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...core.nodes import agent_node, channel_node, is_active, label, partner_node, partner_of
from ...support.names import plural
from ..finding import Finding
from ..rule import AuditContext, rule
from .text import channel_names, names, profile_label

if TYPE_CHECKING:
    from ...core.records import ProfileRecord

__all__: list[str] = []  # its rules register themselves (`@rule`); nothing else to export


@rule(
    "HYG001", "inactive_profile_active_channel", "info",
    title="Inactive profile still holding active channels",
    rationale="An inactive profile that holds active channels keeps them looking in use, "
    "and comes back to life with them if someone re-activates it.",
    remedy="Delete the profile if it is retired, or deactivate the channels only it uses.",
)  # fmt: skip
def inactive_profile_active_channel(ctx: AuditContext) -> Iterator[Finding]:
    channels = ctx.estate.channels
    for record in ctx.valid_records:
        if record.active:
            continue
        live = {}
        for use in record.uses:
            channel = use.held if use.held is not None else channels.get(use.key)
            if is_active(channel):
                live[use.node] = channel
        if live:
            yield ctx.finding(
                f"inactive profile {profile_label(record)} still holds "
                f"{plural(len(live), 'active channel')}: {channel_names(live)}",
                record,
                record.node,
                *live,
            )


@rule(
    "HYG002", "partner_without_active_channel", "info",
    title="Partner without an active channel",
    rationale="A partner none of whose channels is active exchanges nothing: it is retired, "
    "or its traffic stopped unnoticed.",
    remedy="Retire the partner's channels and profiles, or find out why none is active.",
)  # fmt: skip
def partner_without_active_channel(ctx: AuditContext) -> Iterator[Finding]:
    channels: dict[Any, list[str]] = defaultdict(list)
    active: set[Any] = set()
    for key, channel in ctx.estate.channels.items():
        pkey, _ = partner_of(channel)
        channels[pkey].append(channel_node(key))
        if is_active(channel):
            active.add(pkey)
    for key, partner in ctx.estate.partners.items():
        if key not in active:
            yield ctx.finding(
                f"partner {label(partner, key)} has no active channel "
                f"({plural(len(channels[key]), 'channel')}, none active)",
                None,
                partner_node(key),
                *channels[key],
            )


@rule(
    "HYG003", "profile_without_id", "info",
    title="Profile without an id",
    rationale="A profile without an id is known by its position in the listing only, which "
    "changes when profiles are added: links, baselines and diffs cannot follow it.",
    remedy="Give the profile an id in the platform.",
)  # fmt: skip
def profile_without_id(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.records:
        if record.id is None:
            yield ctx.finding(
                f"the profile at position {record.index} ({record.node}) has no id",
                record,
                path="$.id",
            )


@rule(
    "HYG004", "duplicate_profile_id", "warning",
    title="Profiles sharing an id",
    rationale="Two profiles with one id make every tool that looks a profile up by id pick "
    "one of them, silently.",
    remedy="Give each profile its own id.",
)  # fmt: skip
def duplicate_profile_id(ctx: AuditContext) -> Iterator[Finding]:
    by_id: dict[Any, list[str]] = defaultdict(list)
    for record in ctx.records:
        if record.id is not None:
            by_id[record.id].append(record.node)
    for pid, nodes in by_id.items():
        if len(nodes) > 1:
            yield ctx.finding(
                f"{len(nodes)} profiles share the id {pid!r}", None, *nodes, key=f"id:{pid}"
            )


@rule(
    "HYG005", "duplicate_endpoint", "warning",
    title="Agents of different profiles on one endpoint",
    rationale="Two agents on the same URL, host or topic compete for the same data: each "
    "message goes to one of them, or to both. A host counts only for an agent that names "
    "no URL or topic (two queues on one server do not compete). Only a warning when more "
    "than one is active.",
    remedy="Keep one profile per endpoint, or make the endpoints differ (path, topic, "
    "file pattern).",
)  # fmt: skip
def duplicate_endpoint(ctx: AuditContext) -> Iterator[Finding]:
    groups: dict[tuple[str, ...], list[ProfileRecord]] = defaultdict(list)
    for record in ctx.valid_records:
        if record.agent is None:
            continue
        where = record.agent_endpoint
        if where.url:
            groups[("URL", where.url.rstrip("/").lower())].append(record)
        if where.host and not (where.url or where.topic):  # else the URL or queue tells
            groups[("host", where.host.lower())].append(record)
        if where.topic:
            groups[("topic", where.topic, record.agent_type or "?")].append(record)
    for (what, value, *agent_type), records in groups.items():
        if len(records) < 2:
            continue
        nodes = [record.node for record in records]
        active = sum(1 for record in records if record.active)
        kind_of = f" ({agent_type[0]})" if agent_type else ""
        yield ctx.finding(
            f"{len(nodes)} agents share the {what} {value!r}{kind_of}, "
            f"{active} of them active: {names(nodes)}",
            None,
            *(agent_node(record.key) for record in records),
            *nodes,
            key=f"{what}:{value}{kind_of}",
            severity="warning" if active > 1 else "info",
        )
