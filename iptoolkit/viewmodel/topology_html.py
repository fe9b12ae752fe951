"""HTML the topology view writes around its canvas: the status line, the breadcrumb's
separator and current step, the line naming the node picked. No widget here: pure
functions of the view data (as `html.py` for the Explorer), the widgets only place them."""

from __future__ import annotations

import html

from .topology_data import ViewData

__all__ = [
    "CRUMB_SEPARATOR",
    "crumb_here_html",
    "info_html",
    "said_html",
    "status_html",
    "view_title",
]

CRUMB_SEPARATOR = "<span class='ipt-crumb-sep'>›</span>"

_BY = {"group": "subgroup", "agent_type": "input agent type", "partner": "partner"}


def view_title(data: ViewData | None) -> str:
    """What a view shows, in a few words: `1,234 items, grouped by group`."""
    if data is None:
        return "nothing shown"
    nodes = sum(1 for _, item in data.graph.nodes(data=True) if item.get("kind") != "port")
    how = f"grouped by {data.group_by}" if data.group_by else "node by node"
    return f"{nodes:,} items, {how}"


def status_html(
    data: ViewData, *, expanded: bool, title: str | None, around: bool = False, wider: bool = False
) -> str:
    """The line above the canvas: what is shown (`title`, else `view_title`), what a click
    does there and, when the picture is `wider` than its pane, that the rest is sideways."""
    if data.graph.number_of_nodes() == 0:
        return "<span class='ipt-topology-title'>Nothing selected</span>"
    if around:
        hint = "click a node to add its neighbours"
    elif data.group_by is None:
        hint = "click a node for its details"
    else:
        hint = "click a group to open it"
    what = title or view_title(data)
    if expanded and not around:
        how = f"by {_BY[data.group_by]}" if data.group_by else "node by node"
        what = f"{what}, in detail: {how}"
    what = html.escape(what)
    aside = " · wider than this pane: scroll it sideways for the rest" if wider else ""
    return (
        f"<span class='ipt-topology-title'>{what}</span> "
        f"<span class='ipt-topology-hint'>· scroll to zoom, drag to pan, {hint}{aside}</span>"
    )


def said_html(text: str) -> str:
    """The status line when it says something else (why a neighbourhood cannot be shown)."""
    return f"<span class='ipt-topology-title'>{html.escape(text)}</span>"


def crumb_here_html(title: str) -> str:
    """The breadcrumb's last step: the level shown, not a link."""
    return f"<span class='ipt-crumb-here'>{html.escape(title)}</span>"


def info_html(data: ViewData, key: str) -> str:
    """The line naming the node picked last: its label, kind, type, state and, for one
    item, its node id as the API takes it (`partner:12`; a group's key is the view's own,
    `group:partner:...`, which names nothing a reader can use)."""
    attributes = data.graph.nodes[key]
    facts = [str(attributes[name]) for name in ("kind", "type") if name in attributes]
    if attributes.get("active") is False:
        facts.append("inactive")
    item = data.item(key)
    node = (
        f" <span class='ipt-topology-hint'>({html.escape(str(item))})</span>"
        if item is not None
        else ""
    )
    return (
        f"picked: <span class='ipt-topology-title'>"
        f"{html.escape(str(attributes.get('name', attributes['label'])))}"
        f"</span> · {html.escape(', '.join(facts))}{node}"
    )
