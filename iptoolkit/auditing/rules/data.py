"""DAT: what could not be read, or does not agree with itself."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.nodes import channel_node, partner_node
from ...support.names import plural
from ..finding import Finding
from ..rule import AuditContext, rule
from .text import names

__all__: list[str] = []  # its rules register themselves (`@rule`); nothing else to export


@rule(
    "DAT001", "parse_problem", "error",
    title="Profile that could not be read",
    rationale="A profile the toolkit cannot read is one no other rule can check, and "
    "usually one the platform or a client will choke on as well.",
    remedy="Fix the field named in the finding (its JSON path) in the platform, then fetch "
    "again.",
)  # fmt: skip
def parse_problem(ctx: AuditContext) -> Iterator[Finding]:
    records = ctx.records
    for problem in ctx.estate.problems:
        record = records[problem.index]
        # numbered as in the listing loaded (`record.index`), where the finding's line and
        # column point: a filtered audit's subset numbers its problems from 0
        path = problem.path_inside(problem.issues[0]) if problem.issues else None
        yield ctx.finding(str(problem.renumbered(record.index)), record, path=path)


@rule(
    "DAT002", "channel_conflict", "warning",
    title="Channel held with different contents",
    rationale="Profiles hold copies of their channels; copies of one channel id that differ "
    "mean some profile runs with settings that are not the channel's current ones.",
    remedy="Re-save the profiles named so that they hold the channel's current settings.",
)  # fmt: skip
def channel_conflict(ctx: AuditContext) -> Iterator[Finding]:
    yield from _conflicts(ctx, "channel")


@rule(
    "DAT003", "partner_conflict", "warning",
    title="Partner held with different contents",
    rationale="Channels carry a copy of their partner; copies of one partner id that differ "
    "(another name) make reports disagree on who a partner is.",
    remedy="Re-save the channels of the profiles named so that they hold the partner's "
    "current name.",
)  # fmt: skip
def partner_conflict(ctx: AuditContext) -> Iterator[Finding]:
    yield from _conflicts(ctx, "partner")


def _conflicts(ctx: AuditContext, kind: str) -> Iterator[Finding]:
    for conflict in ctx.estate.conflicts:
        if conflict.kind != kind:
            continue
        node = (channel_node if kind == "channel" else partner_node)(conflict.key)
        profiles = list(dict.fromkeys(conflict.profiles))
        yield ctx.finding(
            f"{kind} {conflict.key} has {len(conflict.variants)} different contents, in "
            f"profiles {names(list(conflict.profiles))}",
            None,
            node,
            *profiles,
        )


@rule(
    "DAT004", "unresolved_channel", "warning",
    title="Channel id named but held by no profile",
    rationale="A profile that names a channel by id (comChannelId, channelIds...) depends on "
    "a channel no profile in the snapshot holds: it may be gone, or outside what the "
    "credentials may view.",
    remedy="Check that the channel exists; point the profile at an existing channel or "
    "fetch with credentials that see it.",
)  # fmt: skip
def unresolved_channel(ctx: AuditContext) -> Iterator[Finding]:
    for key, profiles in ctx.estate.unresolved.items():
        yield ctx.finding(
            f"{channel_node(key)} is named by id in {plural(len(profiles), 'profile')} "
            f"({names(list(profiles))}) but held by no profile",
            None,
            channel_node(key),
            *profiles,
        )
