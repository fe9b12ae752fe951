"""A group's page: where it sits in the group tree, its diagram, its subgroups, its
profiles (each an anchor other pages link to) with their agents and response paths."""

from __future__ import annotations

from ..core.nodes import is_active
from ..support.names import plural, type_label
from . import page_markdown as md
from .context import INDEX_PAGE, Context, endpoint, yes_no
from .full_lists import pager as pager_of
from .sitemap import group_chain, group_name, relative

__all__ = ["group_page", "group_title", "group_members", "page_title"]


def group_title(group: str) -> str:
    return f"Group {group_name(group)}"


def page_title(group: str, number: int, pages: int) -> str:
    """The title of the group's page `number` of `pages`: the group's title on its first."""
    return group_title(group) if number == 1 else f"{group_title(group)}, page {number} of {pages}"


def group_members(ctx: Context) -> dict[str, list[str]]:
    """Group -> the profiles directly in it, in the estate's order."""
    return ctx.site.members


def group_page(ctx: Context, group: str, number: int, subtree: int, diagram: str) -> str:
    """The Markdown of the group's page `number` (1: its own page, with its diagram first
    and its subgroups; 2 on: the rows past the first pages'); `subtree` counts the profiles in it
    and below it."""
    pages = ctx.site.group_pages[group]
    page = pages[number - 1]
    chain = group_chain(group)
    trail = [f"[Overview]({relative(page, INDEX_PAGE)})"]
    trail += [md.link(group_name(g), relative(page, ctx.site.groups[g])) for g in chain[:-1]]
    here = md.text(group_name(chain[-1]))
    if number > 1:
        here = md.link(group_name(chain[-1]), relative(page, pages[0])) + f" / page {number}"
    own = ctx.site.members[group]
    lines = [
        f"# {md.text(page_title(group, number, len(pages)))}",
        "",
        " / ".join(trail) + f" / {here}",
        "",
        f"{plural(len(own), 'profile')} in this group, {subtree:,} with its subgroups.",
        "",
    ]
    if number == 1 and diagram:  # first: below a long table nobody scrolls to it
        lines += [diagram, ""]
    elif diagram:
        lines += [f"The group's diagram is on [its first page]({relative(page, pages[0])}).", ""]
    children = [g for g in ctx.site.groups if g.rpartition("/")[0] == group and g != group]
    if children and number == 1:
        lines += ["## Subgroups", ""]
        lines += [
            f"- {md.link(group_name(g), relative(page, ctx.site.groups[g]))}" for g in children
        ]
        lines.append("")
    lines += ["## Profiles", ""]
    if own:
        headers = ["Profile", "Id", "Active", "Input agent", "Input channels", "Response paths"]
        pager = pager_of(ctx, pages, number, len(own), "profiles")
        lines += [pager, ""] if pager else []
        rows = (_row(ctx, page, p) for p in ctx.site.rows_of(group, number))
        lines.append(md.table(headers, rows))
        lines += ["", pager] if pager else []
    else:
        lines.append("No profile sits directly in this group; see its subgroups.")
    return "\n".join(lines) + "\n"


def _row(ctx: Context, page: str, profile: str) -> list[str]:
    data = ctx.data(profile)
    name = md.anchor_tag(ctx.site.profile(profile)[1]) + md.text(data.get("name") or profile)
    if data.get("problem"):
        error = md.text(data.get("error"))
        return [name, md.identifier(data.get("id")), "no", f"faulty: {error}", "–", "–"]
    agent = next((n for n in ctx.graph.succ[profile] if ctx.kind_of(n) == "agent"), None)
    agent_text = "–"
    inputs = "–"
    if agent is not None:
        agent_data = ctx.data(agent)
        agent_text = md.text(type_label(agent_data.get("type")))
        where = endpoint(agent_data)
        agent_text += "" if where == "–" else f" ({where})"
        inputs = ", ".join(ctx.link(page, c) for c in ctx.channels_of(agent)) or "–"
    paths = []
    for unit in ctx.graph.succ[profile]:
        if ctx.kind_of(unit) != "response":
            continue
        unit_data = ctx.data(unit)
        over = [ctx.link(page, c) for c in ctx.channels_of(unit)]
        target = endpoint(unit_data) if unit_data.get("url") or unit_data.get("host") else None
        target = target or md.text(unit_data.get("target"))
        paths.append(f"{md.text(type_label(unit_data.get('type')))} → {', '.join(over) or target}")
    active = yes_no(is_active(data))
    return [
        name,
        md.identifier(data.get("id")),
        active,
        agent_text,
        inputs,
        "; ".join(paths) or "–",
    ]
