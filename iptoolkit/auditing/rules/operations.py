"""OPS: operational risk, things that fail or fail together."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ...core.nodes import endpoint, is_active, label, partner_node
from ...support.names import plural
from .. import cron
from ..finding import Finding
from ..rule import AuditContext, rule
from .text import channel_names, names, profile_label

if TYPE_CHECKING:
    from ...core.records import ProfileRecord

__all__ = ["TIMEOUT_FIELDS"]


@rule(
    "OPS001", "active_profile_inactive_channel", "warning",
    title="Active profile using inactive channels",
    rationale="An active profile whose input or active response path uses an inactive "
    "channel receives nothing there, or fails to deliver.",
    remedy="Activate the channel, or point the profile at an active one.",
)  # fmt: skip
def active_profile_inactive_channel(ctx: AuditContext) -> Iterator[Finding]:
    channels = ctx.estate.channels
    for record in ctx.valid_records:
        if not record.active:
            continue
        units = record.response_units
        dead = {}
        for use in record.uses:
            channel = use.held if use.held is not None else channels.get(use.key)
            if channel is None or is_active(channel):
                continue
            if use.role != "response" or is_active(units[use.unit or 0]):
                dead[use.node] = channel
        if dead:
            yield ctx.finding(
                f"active profile {profile_label(record)} uses "
                f"{plural(len(dead), 'inactive channel')}: {channel_names(dead)}",
                record,
                record.node,
                *dead,
                # what it is about: a baseline that accepted one inactive channel does
                # not hide another going inactive in the same profile
                key=f"{record.node}:{','.join(sorted(dead))}",
            )


@rule(
    "OPS002", "no_response_path", "warning",
    title="Active profile that delivers nowhere",
    rationale="An active profile without an active response path takes data in and sends "
    "nothing on: data is lost or piles up.",
    remedy="Add or activate a response path, or deactivate the profile.",
)  # fmt: skip
def no_response_path(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.valid_records:
        if not record.active:
            continue
        units = record.response_units
        if not units:
            text = f"active profile {profile_label(record)} has no response path"
        elif not any(is_active(unit) for unit in units):
            text = (
                f"active profile {profile_label(record)} has "
                f"{plural(len(units), 'response path')}, none active"
            )
        else:
            continue
        yield ctx.finding(text, record, path="$.responseSettings")


@rule(
    "OPS003", "single_point_of_failure", "warning",
    title="Channel or partner that many active profiles depend on",
    rationale="When one channel or partner carries more than a threshold of active "
    "profiles, its outage, expired certificate or changed password stops all of them at "
    "once.",
    remedy="Spread the load over more channels (per business line, per direction), and "
    "monitor this one closely.",
    options={"max-dependents": 100},
    least={"max-dependents": 1},
)  # fmt: skip
def single_point_of_failure(ctx: AuditContext) -> Iterator[Finding]:
    limit = int(ctx.option("max-dependents"))
    by_channel: dict[str, list[str]] = defaultdict(list)
    by_partner: dict[Any, list[str]] = defaultdict(list)
    for record in ctx.valid_records:
        if not record.active:
            continue
        for node in dict.fromkeys(use.node for use in record.uses):
            by_channel[node].append(record.node)
        for key in record.partners:
            by_partner[key].append(record.node)
    channels = {f"channel:{key}": model for key, model in ctx.estate.channels.items()}
    for node, profiles in by_channel.items():
        if len(profiles) > limit:
            name = label(channels.get(node), node)
            yield ctx.finding(
                f"{plural(len(profiles), 'active profile')} depend on channel {name} ({node}), "
                f"more than {limit}",
                None,
                node,
            )
    for key, profiles in by_partner.items():
        if len(profiles) > limit:
            node = partner_node(key)
            name = label(ctx.estate.partners.get(key), node)
            yield ctx.finding(
                f"{plural(len(profiles), 'active profile')} depend on partner {name} ({node}), "
                f"more than {limit}",
                None,
                node,
            )


@rule(
    "OPS004", "thundering_herd", "warning",
    title="Many profiles polling one host in the same minute",
    rationale="Schedules that fire together open many connections to one host at once: "
    "the partner's server refuses some, and transfers fail or time out in bursts.",
    remedy="Stagger the schedules (minute or second fields) of the profiles polling that "
    "host.",
    options={"max-same-minute": 10},
    least={"max-same-minute": 1},
)  # fmt: skip
def thundering_herd(ctx: AuditContext) -> Iterator[Finding]:
    limit = int(ctx.option("max-same-minute"))
    by_host: dict[str, Counter[frozenset[str]]] = defaultdict(Counter)
    profiles: dict[str, list[str]] = defaultdict(list)
    for record in ctx.valid_records:
        schedule = record.agent.get("cronSchedule") if record.active and record.agent else None
        if not isinstance(schedule, list):
            continue
        host = _polled_host(ctx, record)
        if host is None:
            continue
        expressions = frozenset(e for e in schedule if isinstance(e, str))
        if expressions:
            by_host[host][expressions] += 1  # profiles by schedule: each counted once
            profiles[host].append(record.node)
    for host, counted in by_host.items():
        if sum(counted.values()) <= limit:
            continue
        tally = Counter[int]()  # minute of the day -> profiles polling then
        for expressions, n in counted.items():
            for minute in frozenset().union(*map(cron.minutes_of_day, expressions)):
                tally[minute] += n
        busy = sorted(minute for minute, count in tally.items() if count > limit)
        if not busy:
            continue
        worst = max(busy, key=lambda minute: (tally[minute], -minute))
        others = f" and {plural(len(busy) - 1, 'other minute')}" if len(busy) > 1 else ""
        yield ctx.finding(
            f"{tally[worst]} active profiles poll {host} at {worst // 60:02d}:"
            f"{worst % 60:02d}{others} (more than {limit} in one minute): "
            f"{names(profiles[host])}",
            None,
            *profiles[host],
            key=f"host:{host}",
        )


def _polled_host(ctx: AuditContext, record: ProfileRecord) -> str | None:
    host = record.agent_endpoint.host
    if host:
        return host.lower()
    for use in record.uses:
        if use.role == "input":
            where = endpoint(use.held if use.held is not None else ctx.estate.channels.get(use.key))
            if where.host:
                return where.host.lower()
            if where.url:
                return (urlsplit(where.url).hostname or "").lower() or None
    return None


@rule(
    "OPS005", "invalid_cron", "error",
    title="Cron schedule that does not parse",
    rationale="A schedule the scheduler cannot read never fires: the profile looks active "
    "and polls nothing.",
    remedy="Write the schedule as a Quartz expression: second minute hour day-of-month "
    "month day-of-week [year], with '?' in one of the two day fields.",
)  # fmt: skip
def invalid_cron(ctx: AuditContext) -> Iterator[Finding]:
    for record in ctx.valid_records:
        schedule = record.agent.get("cronSchedule") if record.agent else None
        if not isinstance(schedule, list):
            continue
        for n, expression in enumerate(schedule):
            problem = cron.check(expression) if isinstance(expression, str) else "is not text"
            if problem:
                yield ctx.finding(
                    f"{profile_label(record)}: the cron schedule {expression!r} {problem}",
                    record,
                    path=f"$.inputAgentSettings.cronSchedule[{n}]",
                    key=f"{record.node}:{expression}",
                )


TIMEOUT_FIELDS = {
    "httpTimeOut": 0.001,
    "timeout": 0.001,
    "sqlTimeout": 1,
    "sqlTestTimeout": 1,
    "eventTimeout": 1,
    "timeLimit": 1,
}
"""Time-out fields of input agents and their unit in seconds. The spec gives no units; these
are the platform's conventions (HTTP and stream time-outs in milliseconds, SQL, portal and
LDAP ones in seconds), which the demo estate follows."""


@rule(
    "OPS006", "timeout_out_of_range", "warning",
    title="Time-out of zero or longer than a threshold",
    rationale="A time-out of zero waits forever (or gives up at once, depending on the "
    "agent); one of hours holds a worker and a connection while a partner hangs.",
    remedy="Set a time-out of seconds to minutes.",
    options={"max-seconds": 3600},
    least={"max-seconds": 1},
)  # fmt: skip
def timeout_out_of_range(ctx: AuditContext) -> Iterator[Finding]:
    limit = float(ctx.option("max-seconds"))
    for record in ctx.valid_records:
        agent = record.agent
        if not agent or TIMEOUT_FIELDS.keys().isdisjoint(agent):  # one C call for most
            continue
        for name, unit in TIMEOUT_FIELDS.items():
            value = agent.get(name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            seconds = value * unit
            if seconds <= 0:
                said = "zero" if value == 0 else "negative"
            elif seconds > limit:
                said = f"{seconds:,.0f} s, more than {limit:,.0f} s"
            else:
                continue
            yield ctx.finding(
                f"{profile_label(record)}: {name} = {value} ({said})",
                record,
                path=f"$.inputAgentSettings.{name}",
                key=f"{record.node}:{name}",
            )


@rule(
    "OPS007", "response_to_inactive_channel", "warning",
    title="Active response path to an inactive channel",
    rationale="An active response path whose channel is inactive fails on every delivery: "
    "the profile runs, and its output goes nowhere.",
    remedy="Activate the channel or deactivate the response path.",
)  # fmt: skip
def response_to_inactive_channel(ctx: AuditContext) -> Iterator[Finding]:
    channels = ctx.estate.channels
    for record in ctx.valid_records:
        if not record.active:
            continue
        units = record.response_units
        for use in record.uses:
            if use.role != "response" or not is_active(units[use.unit or 0]):
                continue
            channel = use.held if use.held is not None else channels.get(use.key)
            if channel is not None and not is_active(channel):
                yield ctx.finding(
                    f"{profile_label(record)}: active response path {use.unit} delivers to "
                    f"inactive channel {label(channel, use.node)} ({use.node})",
                    record,
                    use.node,
                    path=f"$.responseSettings.units[{use.unit}]",
                    key=f"{record.node}:{use.node}",
                )
