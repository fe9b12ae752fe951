"""Where every item of an estate lives in the documentation site: its page and anchor.

Paths are fixed by the estate alone (names made into slugs, a key appended where two names
would make one slug), so running twice gives the same files and links. Partners have pages
(`partners/<name>.md`), groups too (`groups/<path>.md`, one per node of the group tree),
channels are anchors on the page of their type (`channels/<type>.md#channel-<key>`), and
profiles are anchors on their group's page (`groups/<path>.md#profile-<key>`).

A group of more profiles than a page holds (`rows`, `full_lists.MAX_ROWS`) has its rows on
several pages: the group's page holds the first, `groups/<path>--page-2.md` the next, and so
on (a slug never holds `--`, so no group's own page can take that name). Every profile has
its row, and its anchor, on exactly one page, which every link to it reads from here. A
channel type of more channels than a page holds is spread the same way
(`channels/<type>--page-2.md`...), so that every channel keeps its row and anchor too.
"""

from __future__ import annotations

import functools
import posixpath
import zlib
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..support import names
from ..support.names import type_label
from ..support.redact import redact_text

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

__all__ = [
    "SiteMap",
    "slug",
    "anchor",
    "relative",
    "NO_GROUP",
    "BLANK_PART",
    "group_chain",
    "group_order",
    "part_name",
    "group_name",
]

NO_GROUP = "(no group)"
BLANK_PART = "(blank)"
"""A group path's part that is only white space (`Finance/ /AP`), as a menu or a tree
names it: a link needs words."""
"""The group of profiles that name none; it has a page like any other."""

K = TypeVar("K", bound=Hashable)


def slug(text: str) -> str:
    """`Viking Tools GmbH & Co. KG` -> `viking-tools-gmbh-co-kg`: ASCII, lower case; made
    from the masked text (a name may hold a URL with a password)."""
    return names.slug(redact_text(str(text)))


def group_chain(group: str) -> list[str]:
    """`A/B/C` -> `["A", "A/B", "A/B/C"]`: the group and every group above it."""
    parts = [part for part in group.split("/") if part]
    return ["/".join(parts[: n + 1]) for n in range(len(parts))] or [group]


def part_name(group: str) -> str:
    """The last part of a group's path, as the menu and the overview's tree name the group
    under its parent (`BLANK_PART` for one of white space only)."""
    return group_name(group.rpartition("/")[2] or group)


def group_name(group: str) -> str:
    """A group's path as pages show it: each part of white space only as `BLANK_PART`."""
    return "/".join(part if part.strip() else BLANK_PART for part in group.split("/"))


def group_order(group: str) -> tuple[list[str], str]:
    """How groups are listed (the menu, the overview's tree): by their path's parts, case
    aside (`index` among the i's, not after `ZZZ`, as partners are), a parent first."""
    return [part.lower() for part in group.split("/")], group


@dataclass
class SiteMap:
    """Page paths (relative to the docs folder, `/`-separated) and anchors of every item."""

    partners: dict[str, str] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    channel_types: dict[str, str] = field(default_factory=dict)
    profile_group: dict[str, str] = field(default_factory=dict)
    channel_type: dict[str, str] = field(default_factory=dict)
    members: dict[str, list[str]] = field(default_factory=dict)
    """Group -> the profiles directly in it, in the estate's order (the order of its rows)."""
    group_pages: dict[str, list[str]] = field(default_factory=dict)
    """Group -> the pages of its rows: its own page first, then `--page-2`... (one page for
    a group of up to `rows` profiles, or of none)."""
    profile_page: dict[str, str] = field(default_factory=dict)
    """Profile -> the page that holds its row (one of its group's `group_pages`)."""
    type_members: dict[str, list[str]] = field(default_factory=dict)
    """Channel type -> its channels, in the estate's order (the order of its rows)."""
    channel_type_pages: dict[str, list[str]] = field(default_factory=dict)
    """Channel type -> the pages of its rows: its own page first, then `--page-2`..."""
    channel_page: dict[str, str] = field(default_factory=dict)
    """Channel -> the page that holds its row (one of its type's `channel_type_pages`)."""
    rows: int = 1
    """Profile rows on one page (`full_lists.MAX_ROWS`)."""

    @classmethod
    def of(cls, graph: EstateGraph, rows: int) -> SiteMap:
        """The site map of a graph from `build_graph`; `rows`: profile rows on one page."""
        if rows < 1:
            raise ValueError(f"rows must be at least 1, not {rows!r}")
        site = cls(rows=rows)
        by_kind: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for node, data in graph.nodes(data=True):
            by_kind.setdefault(str(data.get("kind")), []).append((node, data))
        partners = [(n, str(d.get("name") or n)) for n, d in by_kind.get("partner", [])]
        site.partners = _unique("partners", partners)
        groups: dict[str, None] = {}
        for node, data in by_kind.get("profile", []):
            group = "/".join(part for part in str(data.get("group") or "").split("/") if part)
            group = group or NO_GROUP
            site.profile_group[node] = group
            groups.update(dict.fromkeys(group_chain(group)))
        site.groups = _unique("groups", [(g, g.replace("/", " ")) for g in sorted(groups)])
        site.members = {group: [] for group in site.groups}
        for node, group in site.profile_group.items():
            site.members[group].append(node)
        for group, page in site.groups.items():
            site.group_pages[group] = _spread(page, site.members[group], rows, site.profile_page)
        types: dict[str, None] = {}
        for node, data in by_kind.get("channel", []):
            if data.get("resolved") is False:
                continue  # named by id, held nowhere: no channel, listed on the findings page
            kind = str(data.get("type") or "unknown")
            site.channel_type[node] = kind
            types[kind] = None
        labels = [(t, type_label(t)) for t in sorted(types)]
        site.channel_types = _unique("channels", labels)
        site.type_members = {kind: [] for kind in site.channel_types}
        for node, kind in site.channel_type.items():
            site.type_members[kind].append(node)
        for kind, page in site.channel_types.items():
            members = site.type_members[kind]
            site.channel_type_pages[kind] = _spread(page, members, rows, site.channel_page)
        return site

    def profile(self, node: str) -> tuple[str, str]:
        """The page and anchor of a profile: on the page of its group that holds its row."""
        return self.profile_page[node], anchor(node)

    def rows_of(self, group: str, number: int) -> list[str]:
        """The profiles whose rows are on the group's page `number` (1: its own page)."""
        start = (number - 1) * self.rows
        return self.members[group][start : start + self.rows]

    def channel_rows_of(self, kind: str, number: int) -> list[str]:
        """The channels whose rows are on the type's page `number` (1: its own page)."""
        start = (number - 1) * self.rows
        return self.type_members[kind][start : start + self.rows]

    def channel(self, node: str) -> tuple[str, str] | None:
        """The page and anchor of a channel (None for an id held by no profile)."""
        page = self.channel_page.get(node)
        return None if page is None else (page, anchor(node))


def _spread(page: str, members: list[str], rows: int, placed: dict[str, str]) -> list[str]:
    """The pages of a list's rows, `rows` a page (`page`, then `--page-2`...; one page for
    an empty list); each member's page into `placed`."""
    count = max(1, -(-len(members) // rows))  # pages, rounded up
    stem = page.removesuffix(".md")
    pages = [page] + [f"{stem}--page-{n}.md" for n in range(2, count + 1)]
    for position, node in enumerate(members):
        placed[node] = pages[position // rows]
    return pages


@functools.lru_cache(maxsize=1 << 16)
def anchor(node: Hashable) -> str:
    """`profile:P-01` -> `profile-p-01`: an HTML id GitHub and MkDocs both keep (kept: the
    site links 10,000 profiles 52,000 times)."""
    kind, _, key = str(node).partition(":")
    return f"{kind}-{slug(key)}-{_digest(str(node))}"


def _digest(text: str) -> str:
    """Four characters that keep two keys with one slug (`a b`, `a-b`) apart, stably."""
    return format(zlib.crc32(text.encode("utf-8")) & 0xFFFF, "04x")


def _unique(folder: str, named: Iterable[tuple[K, str]]) -> dict[K, str]:
    """Item -> `folder/<slug>.md`, in the order given; a repeated slug gets `-2`, `-3`...,
    skipping any that is another item's own slug or already given (`Partner X`, `PARTNER
    x` and `Partner X-2` make three pages, never one page twice)."""
    ordered = sorted(named, key=lambda pair: (slug(pair[1]), str(pair[0])))
    bases = [slug(name) for _, name in ordered]
    taken: set[str] = set(bases)
    seen: set[str] = set()
    paths: dict[K, str] = {}
    for (item, _), base in zip(ordered, bases, strict=True):
        chosen = base
        if base in seen:
            number = 2
            while f"{base}-{number}" in taken:
                number += 1
            chosen = f"{base}-{number}"
            taken.add(chosen)
        seen.add(base)
        paths[item] = f"{folder}/{chosen}.md"
    return paths


def relative(from_page: str, to_page: str, fragment: str = "") -> str:
    """The link from one page to another (and an anchor on it), as Markdown writes it."""
    target = "" if to_page == from_page else _relpath(to_page, posixpath.dirname(from_page))
    return f"{target}#{fragment}" if fragment else target


@functools.lru_cache(maxsize=65536)
def _relpath(to_page: str, folder: str) -> str:
    return posixpath.relpath(to_page, folder or ".")
