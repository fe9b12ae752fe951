"""A partner's page: its channels, the profiles that depend on it (inputs and response
paths), what stops if it goes away, its diagram and the findings that concern it."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.nodes import is_active, partner_node, partner_of
from ..query.reach import impact
from ..support.names import plural
from . import page_markdown as md
from .context import FINDINGS_PAGE, INDEX_PAGE, Context, endpoint, kind_label, yes_no
from .findings_page import finding_lines, rule_anchor
from .full_lists import capped
from .sitemap import relative

__all__ = ["partner_page", "partner_title", "SHOWN"]

SHOWN = 25
"""Profiles named in a line of the impact before the rest are counted."""


def partner_title(ctx: Context, partner: str) -> str:
    return f"Partner {ctx.name(partner)}"


def partner_page(ctx: Context, partner: str, diagram: str) -> str:
    """The page's Markdown; `diagram` is the diagram section (image and Mermaid)."""
    page = ctx.site.partners[partner]
    data = ctx.data(partner)
    channels = [c for c in ctx.graph.pred[partner] if ctx.kind_of(c) == "channel"]
    copied = {c for c in channels if _kept_partner(ctx, c) != partner}
    inputs, responses = _users(ctx, page, channels)
    inputs, inputs_cut = capped(ctx, page, inputs, "profiles")
    responses, responses_cut = capped(ctx, page, responses, "profiles")
    own = [c for c in channels if c not in copied]
    active = sum(1 for c in own if is_active(ctx.data(c)))
    lines = [
        f"# {md.text(partner_title(ctx, partner))}",
        "",
        f"[Overview]({relative(page, INDEX_PAGE)}) · partner id {md.text(data.get('id'))} · "
        f"{plural(len(own), 'channel')}, {active:,} active{_copied_note(page, copied)}",
        "",
        "## Channels",
        "",
        md.table(
            ["Channel", "Type", "Endpoint", "Active"],
            (
                [ctx.link(page, c) + (_COPY_MARK if c in copied else "")]
                + [kind_label(ctx.data(c)), endpoint(ctx.data(c))]
                + [yes_no(is_active(ctx.data(c)))]
                for c in [*own, *(c for c in channels if c in copied)]
            ),
        )
        if channels
        else "No channel of this partner is held by a profile.",
        "",
        "## Profiles that receive data from it (inputs)",
        "",
        md.table(["Profile", "Group", "Over channel", "Active"], inputs)
        if inputs
        else "No profile's input agent listens on its channels.",
        *(["", inputs_cut] if inputs_cut else []),
        "",
        "## Profiles that deliver to it (response paths)",
        "",
        md.table(["Profile", "Group", "Response unit", "Over channel", "Active"], responses)
        if responses
        else "No profile delivers over its channels.",
        *(["", responses_cut] if responses_cut else []),
        "",
        "## What stops if it goes away",
        "",
        *_impact_lines(ctx, page, partner),
        "",
        diagram,
        "",
        "## Findings",
        "",
    ]
    found = ctx.concerning([partner, *channels])
    if found:
        shown, cut = capped(ctx, page, found, "findings")
        lines.extend(finding_lines(ctx, page, shown))
        lines += ["", cut] if cut else []
    else:
        lines.append(f"No [finding]({relative(page, FINDINGS_PAGE)}) concerns this partner.")
    return "\n".join(lines) + "\n"


_COPY_MARK = " (conflicting copy)"
"""A channel row's mark where only another profile's copy of the channel names this
partner: the estate keeps the copy first seen, which names another (DAT002)."""


def _kept_partner(ctx: Context, channel: str) -> str | None:
    """The partner node of the channel as the estate keeps it (its copy first seen)."""
    key, _ = partner_of(ctx.data(channel).get("model"))
    return partner_node(key) if key is not None else None


def _copied_note(page: str, copied: set[str]) -> str:
    """What the headline adds for channels only a conflicting copy links here: the
    overview counts a channel under the partner its kept copy names, and so does the
    headline (the table lists both, marked)."""
    if not copied:
        return ""
    rule = f"[`DAT002`]({relative(page, FINDINGS_PAGE)}#{rule_anchor('DAT002')})"
    return f", and {len(copied):,} more that a conflicting copy links here ({rule})"


def _users(
    ctx: Context, page: str, channels: list[str]
) -> tuple[Sequence[list[str]], Sequence[list[str]]]:
    """Rows of the profiles on the channels: inputs (agents) and response paths (units)."""
    inputs, responses = [], []
    for channel in channels:
        for user in ctx.graph.pred[channel]:
            data = ctx.data(user)
            profile = data.get("profile")
            if profile is None:
                continue
            group = md.text(ctx.data(profile).get("group"))
            active = yes_no(is_active(ctx.data(profile)))
            if data.get("kind") == "agent":
                inputs.append([ctx.link(page, profile), group, ctx.link(page, channel), active])
            elif data.get("kind") == "response":
                unit = md.text(data.get("name"))
                responses.append(
                    [ctx.link(page, profile), group, unit, ctx.link(page, channel), active]
                )
    return inputs, responses


def _impact_lines(ctx: Context, page: str, partner: str) -> list[str]:
    hit = impact(ctx.graph, partner)
    if not hit:
        return ["Nothing active stops: no active profile depends on its active channels."]
    where = "see the tables above"
    rows = [
        ("lose their input", hit.lose_input),
        ("lose part of their input", hit.partial_input),
        ("lose a response path", hit.lose_response),
    ]
    return [
        f"- {plural(len(nodes), 'active profile')} {what}: "
        + md.more([ctx.link(page, n) for n in nodes], SHOWN, where)
        for what, nodes in rows
        if nodes
    ]
