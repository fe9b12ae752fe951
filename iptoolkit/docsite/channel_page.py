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
from .full_lists import pager as pager_of
from .sitemap import relative

__all__ = ["channel_type_page", "channel_type_title", "USERS_SHOWN"]

USERS_SHOWN = 10
"""Profiles named in a channel's row before the rest are counted (its partner's page lists
them all)."""


def channel_type_title(type_name: str) -> str:
    return f"{type_label(type_name)} channels"


def channel_type_page(ctx: Context, type_name: str, number: int = 1) -> str:
    """The Markdown of the type's page `number` (1: its own page; 2 on: the rows past the
    first pages', as a group's profiles are spread: every channel keeps its anchor)."""
    pages = ctx.site.channel_type_pages[type_name]
    page = pages[number - 1]
    channels = ctx.site.type_members[type_name]
    rows = (_row(ctx, page, channel) for channel in ctx.site.channel_rows_of(type_name, number))
    title = channel_type_title(type_name)
    if number > 1:
        title += f", page {number} of {len(pages)}"
    pager = pager_of(ctx, pages, number, len(channels), "channels")
    lines = [
        f"# {md.text(title)}",
        "",
        f"[Overview]({relative(page, INDEX_PAGE)}) · {plural(len(channels), 'channel')} "
        f"(class {md.text(type_name)})",
        "",
        *([pager, ""] if pager else []),
        md.table(["Channel", "Id", "Partner", "Endpoint", "Active", "Used by"], rows),
        *(["", pager] if pager else []),
    ]
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
