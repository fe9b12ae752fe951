"""A group's page: where it sits in the group tree, its subgroups, its profiles (each an
anchor other pages link to) with their agents and response paths, and its diagram."""

from __future__ import annotations

from collections.abc import Hashable

from ..core.nodes import is_active
from ..support.names import plural, type_label
from . import page_markdown as md
from .context import INDEX_PAGE, Context, endpoint, yes_no
from .full_lists import capped
from .sitemap import group_chain, relative

__all__ = ["group_page", "group_title", "group_members"]


def group_title(group: str) -> str:
    return f"Group {group}"


def group_members(ctx: Context) -> dict[str, list[Hashable]]:
    """Group -> the profiles directly in it, in the estate's order."""
    members: dict[str, list[Hashable]] = {group: [] for group in ctx.site.groups}
    for profile, group in ctx.site.profile_group.items():
        members[group].append(profile)
    return members


def group_page(
    ctx: Context, group: str, members: dict[str, list[Hashable]], subtree: int, diagram: str
) -> str:
    """The page's Markdown; `subtree` counts the profiles in it and below it."""
    page = ctx.site.groups[group]
    chain = group_chain(group)
    trail = [f"[Overview]({relative(page, INDEX_PAGE)})"]
    trail += [md.link(g, relative(page, ctx.site.groups[g])) for g in chain[:-1]]
    children = [g for g in ctx.site.groups if g.rpartition("/")[0] == group and g != group]
    own = members[group]
    lines = [
        f"# {md.text(group_title(group))}",
        "",
        " / ".join(trail) + f" / {md.text(chain[-1])}",
        "",
        f"{plural(len(own), 'profile')} in this group, {subtree:,} with its subgroups.",
        "",
    ]
    if children:
        lines += ["## Subgroups", ""]
        lines += [f"- {md.link(g, relative(page, ctx.site.groups[g]))}" for g in children]
        lines.append("")
    lines += ["## Profiles", ""]
    if own:
        headers = ["Profile", "Id", "Active", "Input agent", "Input channels", "Response paths"]
        shown, cut = capped(ctx, page, own, "profiles")
        lines.append(md.table(headers, (_row(ctx, page, p) for p in shown)))
        lines += ["", cut] if cut else []
    else:
        lines.append("No profile sits directly in this group; see its subgroups.")
    lines += ["", diagram]
    return "\n".join(lines) + "\n"


def _row(ctx: Context, page: str, profile: Hashable) -> list[str]:
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
