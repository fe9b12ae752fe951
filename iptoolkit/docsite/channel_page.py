"""A page per channel type: each channel an anchor (profiles link to it) with its partner,
endpoint, activity and the profiles that use it.

Per type rather than per channel: a 10,000-profile estate holds hundreds of channels, and a
page each would be hundreds of three-line pages; a channel's picture is its partner's
diagram, which its row links to.
"""

from __future__ import annotations

from ..core.nodes import is_active
from ..support.names import plural, type_label
from . import page_markdown as md
from .context import INDEX_PAGE, Context, endpoint, yes_no
from .full_lists import capped
from .sitemap import relative

__all__ = ["channel_type_page", "channel_type_title", "USERS_SHOWN"]

USERS_SHOWN = 10
"""Profiles named in a channel's row before the rest are counted (its partner's page lists
them all)."""


def channel_type_title(type_name: str) -> str:
    return f"{type_label(type_name)} channels"


def channel_type_page(ctx: Context, type_name: str) -> str:
    page = ctx.site.channel_types[type_name]
    channels = [c for c, kind in ctx.site.channel_type.items() if kind == type_name]
    shown, cut = capped(ctx, page, channels, "channels")
    rows = (_row(ctx, page, channel) for channel in shown)
    lines = [
        f"# {md.text(channel_type_title(type_name))}",
        "",
        f"[Overview]({relative(page, INDEX_PAGE)}) · {plural(len(channels), 'channel')} of "
        f"type {md.text(type_name)}",
        "",
        md.table(["Channel", "Id", "Partner", "Endpoint", "Active", "Used by"], rows),
    ]
    lines += ["", cut] if cut else []
    return "\n".join(lines) + "\n"


def _row(ctx: Context, page: str, channel: str) -> list[str]:
    data = ctx.data(channel)
    users = list(dict.fromkeys(_profiles_using(ctx, channel)))
    partners = ", ".join(ctx.link(page, p) for p in ctx.channel_partners(channel)) or "–"
    used = md.more([ctx.link(page, u) for u in users], USERS_SHOWN, "see the partner's page")
    place = ctx.site.channel(channel)
    assert place is not None  # a channel listed on its type's page has a place there
    return [
        md.anchor_tag(place[1]) + md.text(data.get("name") or channel),
        md.identifier(data.get("id")),
        partners,
        endpoint(data),
        yes_no(is_active(data)),
        f"{len(users):,}: {used}" if users else "no profile",
    ]


def _profiles_using(ctx: Context, channel: str) -> list[str]:
    return [
        ctx.data(user)["profile"]
        for user in ctx.graph.pred[channel]
        if ctx.data(user).get("profile") is not None
    ]
