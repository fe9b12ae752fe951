"""The overview page (index.md): what the estate holds, its problems, the grouped topology
diagram and links to every other page; and the changelog page."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from ..support.names import plural, type_label
from . import page_markdown as md
from .context import CHANGES_PAGE, FINDINGS_PAGE, INDEX_PAGE, Context
from .findings_page import rule_anchor, rule_title
from .sitemap import group_chain, group_order, part_name

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff

__all__ = ["index_page", "changes_page", "CHANGES_TITLE"]

CHANGES_TITLE = "Changes since the previous snapshot"


def index_page(
    ctx: Context, diagram: str, members: dict[str, list[str]], *, has_changes: bool
) -> str:
    summary = ctx.estate.summary()
    graph = ctx.graph
    lines = [
        f"# {md.text(ctx.title)}",
        "",
        f"{plural(summary['profiles'], 'profile')} ({summary['active_profiles']:,} active, "
        f"{summary['problems']:,} faulty), {plural(summary['channels'], 'channel')}, "
        f"{plural(summary['partners'], 'partner')}, {plural(len(ctx.site.groups), 'group')}.",
        "",
        _read_from(summary["source_url"], summary["fetched_at"]),
        "",
        "## Problems",
        "",
        *_problem_lines(ctx, has_changes),
        "",
        diagram,
        "",
        "## Partners",
        "",
        md.table(
            ["Partner", "Channels", "Active channels", "Profiles using it"],
            (
                [
                    ctx.link(INDEX_PAGE, partner),
                    f"{graph.nodes[partner].get('channels') or 0:,}",
                    f"{graph.nodes[partner].get('active_channels') or 0:,}",
                    f"{_users(ctx, partner):,}",
                ]
                for partner in ctx.site.partners
            ),
        )
        if ctx.site.partners
        else "No partner.",
        "",
        "## Groups",
        "",
        *_group_tree(ctx, members),
        "",
        "## Agent types",
        "",
        md.table(
            ["Input agent type", "Profiles"],
            ([md.text(type_label(t)), f"{n:,}"] for t, n in summary["agent_types"].items()),
        ),
        "",
        "## Channel types",
        "",
        md.table(["Channel type", "Channels"], _channel_type_rows(ctx)),
    ]
    return "\n".join(lines) + "\n"


def _problem_lines(ctx: Context, has_changes: bool) -> list[str]:
    counts = Counter((finding.code or finding.kind, finding.kind) for finding in ctx.findings)
    lines = [  # as the findings page names each rule, linked to its section there
        f"- [`{md.text(code)}`]({FINDINGS_PAGE}#{rule_anchor(code)}) "
        f"{md.text(rule_title(code, kind))}: {count:,}"
        for (code, kind), count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]
    head = f"[{plural(len(ctx.findings), 'finding')}]({FINDINGS_PAGE}) in all"
    extra = []
    if (ctx.site.partners or ctx.site.groups) and ctx.findings:
        extra = ["", "Each partner's page lists the findings that concern it."]
    changes = []
    if has_changes:
        changes = [
            "",
            f"What changed since the previous snapshot: [{CHANGES_TITLE}]({CHANGES_PAGE}).",
        ]
    return [head + (":" if lines else "."), "", *lines, *extra, *changes]


def _read_from(source: str | None, fetched: str | None) -> str:
    """Where the snapshot came from and when, as the changes page says it: a snapshot
    with no address is a local one, not `–`."""
    where = f"Read from {md.text(source)}" if source else "Read from a local snapshot"
    return where + (f", fetched {fetched}." if fetched else ", with no fetch time recorded.")


def _users(ctx: Context, partner: str) -> int:
    users = set()
    for channel in ctx.graph.pred[partner]:
        for user in ctx.graph.pred[channel]:
            users.add(ctx.data(user).get("profile"))
    users.discard(None)
    return len(users)


def _group_tree(ctx: Context, members: dict[str, list[str]]) -> list[str]:
    """The group tree as a nested list: each group linked, with its profiles in and below."""
    below: Counter[str] = Counter()
    for group, profiles in members.items():
        for ancestor in group_chain(group):
            below[ancestor] += len(profiles)
    lines = []
    for group in sorted(ctx.site.groups, key=group_order):
        page = ctx.site.groups[group]
        depth = len(group_chain(group)) - 1
        name = part_name(group)
        lines.append(f"{'    ' * depth}- {md.link(name, page)} ({below[group]:,})")
    return lines


def _channel_type_rows(ctx: Context) -> list[list[str]]:
    counts = Counter(ctx.site.channel_type.values())
    return [
        [md.link(type_label(kind), page), f"{counts[kind]:,}"]
        for kind, page in ctx.site.channel_types.items()
    ]


_ITEM_KEY = re.compile(r"\(`((?:profile|channel|partner):[^`]+)`\)")
"""An item's key as `to_markdown` writes it after the item's name: `(`channel:17`)`."""


def changes_page(ctx: Context, diff: EstateDiff, diagram: str) -> str:
    """The diff's changelog (`EstateDiff.to_markdown`) under a title saying what it is,
    each item still in the estate linked to its page, with the diagram of the changes."""
    body = diff.to_markdown()
    first, _, rest = body.partition("\n")
    if first.startswith("# "):
        body = rest

    def linked(match: re.Match[str]) -> str:
        node = match.group(1)
        href = ctx.href(CHANGES_PAGE, node) if node in ctx.graph else None
        return match.group(0) if href is None else f"([`{node}`]({href}))"

    body = _ITEM_KEY.sub(linked, body)
    return f"# {CHANGES_TITLE}\n\n[Overview]({INDEX_PAGE})\n{body.rstrip()}\n\n{diagram}\n"
