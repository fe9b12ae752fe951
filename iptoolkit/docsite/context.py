"""What every page of the site reads: the graph, the site map, the findings by node, and
links to any item from any page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..support.names import type_label
from . import page_markdown as md
from .sitemap import SiteMap, relative

if TYPE_CHECKING:
    from ..auditing import Finding
    from ..core.estate import Estate
    from ..query.graph import EstateGraph

__all__ = ["Context", "FullList", "FINDINGS_PAGE", "INDEX_PAGE", "CHANGES_PAGE", "COMPARE_PAGE"]

INDEX_PAGE = "index.md"
FINDINGS_PAGE = "findings.md"
CHANGES_PAGE = "changes.md"
COMPARE_PAGE = "compare.md"
"""The differences from another installation (`write_docs(compare=...)`)."""

FullList = Literal["profiles", "channels", "findings"]
"""A whole list a page cut short links to (see `full_lists.FULL_LISTS`)."""


@dataclass
class Context:
    """The estate as the pages read it, with one way to link to each item."""

    estate: Estate
    graph: EstateGraph
    site: SiteMap
    title: str
    findings: list[Finding]
    by_node: dict[str, list[int]] = field(default_factory=dict)
    """Node id -> positions in `findings` of the findings that name it."""
    full_lists: set[FullList] = field(default_factory=set)
    """The whole lists (`full_lists.FULL_LISTS`) some page cut short and links to."""
    labels: dict[str, str] = field(default_factory=dict, repr=False)
    """Node -> its link's label, escaped (`link`): the same on every page, written once
    (61,000 links at 10,000 profiles, 20,000 items)."""

    @classmethod
    def of(cls, estate: Estate, title: str, rows: int) -> Context:
        """The context of a site; `rows`: profile rows on a page (`full_lists.MAX_ROWS`)."""
        from ..auditing import findings
        from ..query.graph import build_graph

        graph = build_graph(estate)
        found = list(findings(estate))
        by_node: dict[str, list[int]] = {}
        for position, finding in enumerate(found):
            for node in finding.nodes:
                by_node.setdefault(node, []).append(position)
        return cls(estate, graph, SiteMap.of(graph, rows), title, found, by_node)

    def data(self, node: str) -> dict[str, Any]:
        return self.graph.nodes[node]

    def name(self, node: str) -> str:
        data = self.graph.nodes.get(node, {})
        return str(data.get("name") or node)

    def kind_of(self, node: str) -> str:
        return str(self.graph.nodes.get(node, {}).get("kind"))

    def link(self, page: str, node: str) -> str:
        """The item's name, linked to where it is documented (from `page`); an item with no
        place of its own (an agent, a response unit) links to its profile."""
        href = self.href(page, node)
        if href is None:
            return md.text(node)
        label = self.labels.get(node)
        if label is None:
            label = self.labels[node] = md.text(self._label(node))
        # "": the page itself (a partner's finding on its page), where a link goes nowhere
        return f"[{label}]({href})" if href else label  # `md.link`, its label escaped

    def _label(self, node: str) -> str:
        if self.kind_of(node) == "channel" and self.site.channel(node) is None:
            return f"channel id {self.data(node).get('id', node)} (held by no profile)"
        if self.kind_of(node) in ("agent", "response"):
            node = self.data(node).get("profile", node)
        return self.name(node)

    def href(self, page: str, node: str) -> str | None:
        """Where the item is documented, relative to `page` (None: nowhere)."""
        kind = self.kind_of(node)
        if kind in ("agent", "response"):
            node = self.data(node).get("profile", node)
            kind = "profile"
        if kind == "profile":
            return relative(page, *self.site.profile(node))
        if kind == "partner":
            return relative(page, self.site.partners[node])
        if kind == "channel":
            where = self.site.channel(node)  # None: an id held by no profile, a finding
            return relative(page, FINDINGS_PAGE) if where is None else relative(page, *where)
        return None

    def channel_partners(self, channel: str) -> list[str]:
        return [p for p in self.graph.succ[channel] if self.kind_of(p) == "partner"]

    def channels_of(self, user: str) -> list[str]:
        """The channels an agent listens on or a response unit delivers over."""
        return [c for c in self.graph.succ[user] if self.kind_of(c) == "channel"]

    def concerning(self, nodes: list[str]) -> list[Finding]:
        """The findings that name any of these nodes, in the findings' order."""
        positions = sorted({p for node in nodes for p in self.by_node.get(node, ())})
        return [self.findings[p] for p in positions]


def yes_no(flag: bool) -> str:
    """A flag in words: `yes_no(is_active(data))`."""
    return "yes" if flag else "no"


def endpoint(data: dict[str, Any]) -> str:
    """Where an item points (URL, else host, else topic), redacted and escaped."""
    return md.text(data.get("url") or data.get("host") or data.get("topic"))


def kind_label(data: dict[str, Any]) -> str:
    return md.text(type_label(data.get("type")))
