"""HTML the Explorer writes: the header, field tables, the static fallback; secrets masked
(by `iptoolkit.support.redact`, the one rule for every place that shows values).

No widget here: these are pure functions of data, tested on their own (the itables way:
`to_*` functions return HTML, the widgets only place it).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..support.names import NO_TYPE, type_label
from ..support.redact import names_a_secret, redact_member, redact_text
from ..topology.style import MARKER_GLYPHS

if TYPE_CHECKING:
    from ..topology.legend import LegendItem

__all__ = [
    "FILTERS_OPEN_FROM_PX",
    "DETAILS_BESIDE_FROM_PX",
    "FALLBACK_CLASS",
    "HIDE_FALLBACK_CSS",
    "OUTSIDE_NOTE",
    "Link",
    "header_html",
    "dead_end_html",
    "link_html",
    "node_text",
    "field_rows",
    "fields_html",
    "list_html",
    "fallback_html",
    "legend_html",
    "topology_fallback_html",
]

FALLBACK_CLASS = "iptoolkit-explorer-static"
FILTERS_OPEN_FROM_PX = 1200
"""The Explorer's narrowest width at which its filter panel is open by default: its 270 px
and a map of about 930 px. JupyterLab beside its file browser in a window of 1,280 px gives
the Explorer about 850 px (1,000 px in a pane of 1,280 px): folded, the map has it all
(`widgets.filter_fold`; the app's first view follows it, `app.first_view`)."""
DETAILS_BESIDE_FROM_PX = 1100
"""The Topology tab's narrowest width at which a picked item's details show beside the map
(a column of 360 px) rather than below it: the map keeps about 720 px, what its overview
needs at its shortest labels (`widgets.map_details`)."""
HIDE_FALLBACK_CSS = f"<style>.{FALLBACK_CLASS} {{display: none;}}</style>"
"""Sits inside the live widget: while the widget renders, the static fallback is hidden;
where the widget cannot render (reopened notebook, GitHub, nbviewer) the fallback shows."""


def header_html(counts: str, description: str, *, busy: bool = False) -> str:
    """The Explorer's header: the counts in large type, the filter in words below (as
    `Filter.describe` says it, masked)."""
    status = " <span class='ipt-busy'>updating…</span>" if busy else ""
    return (
        f"<div class='ipt-header'><span class='ipt-counts'>{html.escape(counts)}</span>"
        f"{status}<div class='ipt-description'>filter: {html.escape(description)}</div>"
        "</div>"
    )


_FIELD_WORDS = {
    "partners": "partner",
    "channels": "channel",
    "agent_types": "input agent type",
    "channel_types": "channel type",
    "groups": "group",
    "tags": "tag",
    "text": "the text",
}


def dead_end_html(missing: list[tuple[str, Any, str]], *, selected: int, total: int) -> str:
    """What the filter got wrong, at the top of the Explorer: each value that matches no
    profile (`ExplorerModel.dead_ends`, with the command line's did-you-mean), or, for a
    filter that selects nothing though each value matches some, that only together they
    match none. Empty when nothing needs saying."""
    if not missing and selected:
        return ""
    if missing:
        said = [
            f"<li>{html.escape(_dead_end_text(field, value, hint))}</li>"
            for field, value, hint in missing
        ]
        lead = "Nothing selected: " if not selected else "Part of the filter matches nothing: "
        what = "".join(said)
        tail = (
            "Change these, or Reset to see everything."
            if not selected
            else ("The other values still select profiles.")
        )
        return (
            f"<div class='ipt-dead-end' role='status'><b>{lead}</b>"
            f"<ul>{what}</ul><span class='ipt-dead-end-tail'>{html.escape(tail)}</span></div>"
        )
    return (
        "<div class='ipt-dead-end' role='status'><b>Nothing selected:</b> each value of the "
        f"filter matches some of the {total:,} profiles, but no profile matches them all "
        "together. Remove one, or Reset.</div>"
    )


def _dead_end_text(field: str, value: Any, hint: str) -> str:
    if field == "active":
        return f"no profile is {'active' if value else 'inactive'}"
    word = _FIELD_WORDS.get(field, field.replace("_", " "))
    return f"{word} {str(value)!r} matches no profile{hint}"


OUTSIDE_NOTE = "not in the current selection"


class Link(NamedTuple):
    """An item named in the Explorer's HTML, which opens its details when clicked."""

    node: str
    """Its graph node id (`partner:1001`)."""
    text: str
    """What the reader sees: its name, id and kind."""
    outside: bool = False
    """Whether it is outside the current selection (shown faded, and said on hover)."""


def link_html(link: Link) -> str:
    """`<a class='ipt-link' data-node='partner:1001' href='#'>Acme Ltd</a>`: a link that
    `links.LinkedHTML` turns into a call to Python (focusable: `href` puts it in the tab
    order, and Enter clicks it). The text is redacted and escaped like every value shown."""
    classes = "ipt-link ipt-outside" if link.outside else "ipt-link"
    hint = f"{link.node}, {OUTSIDE_NOTE}" if link.outside else link.node
    return (
        f"<a class='{classes}' data-node='{html.escape(link.node, quote=True)}' href='#' "
        f"title='{html.escape(redact_text(hint), quote=True)}'>"
        f"{html.escape(redact_text(link.text))}</a>"
    )


def node_text(graph: Any, node: str) -> str:
    """How a node is named in the Explorer: `P1 · Orders in`, `AS2 out (AS2, Acme Ltd)`,
    `Acme Ltd` (`graph` is the estate's graph; only its node attributes are read)."""
    data = graph.nodes[node]
    kind = data.get("kind")
    name = data.get("name") or ""
    if kind == "profile":
        return f"{data.get('id')} · {name}".strip(" ·")
    if kind == "channel" and data.get("resolved") is False:
        return f"channel id {data.get('id', node)} (held by no profile)"
    if kind == "channel":
        kind_name = type_label(data.get("type")) if data.get("type") else None
        extra = ", ".join(str(x) for x in (kind_name, data.get("partner")) if x)
        return f"{name or data.get('id')} ({extra})" if extra else str(name or data.get("id"))
    return str(name or node)


PlainRows = dict[tuple[str, type, object, bool], "tuple[str, str] | None"]
"""Rows of plain values already made (`field_rows`), by key, type, value and whether the
table names a secret: kept by a caller showing many tables, and dropped with its work (a
cache for the module's life would keep secrets' clear text in a kernel as its keys)."""


def field_rows(fields: Mapping[str, Any], kept: PlainRows | None = None) -> list[tuple[str, str]]:
    """The rows of a table of fields as shown, masked (`redact_fields`, member by member:
    `redact_member`): empty values left out, nested ones as compact JSON cut to 400
    characters. `kept`: the rows of texts, numbers and flags made for earlier tables, used
    and added to (an HTML file shows thousands of profiles' fields, most of them alike:
    `"commitEach": false`)."""
    pair = names_a_secret(fields)
    rows = []
    for key, value in fields.items():
        kind = type(value)
        if kept is not None and type(key) is str and kind in _PLAIN:
            mark = (key, kind, value, pair)  # its type too: `True` is not `1`
            if mark in kept:
                row = kept[mark]
            else:
                row = kept[mark] = _field_row(key, redact_member(key, value, pair))
        else:
            row = _field_row(key, redact_member(key, value, pair))
        if row is not None:
            rows.append(row)
    return rows


_PLAIN = frozenset({str, int, bool, type(None)})
"""Values whose row `field_rows` keeps; not a float (`-0.0 == 0.0`, their rows differ)."""


def _field_row(key: Any, value: Any) -> tuple[str, str] | None:
    """A field's row, its value masked already; None: an empty value, left out."""
    if value is None or value == [] or value == {}:
        return None
    if isinstance(value, dict | list):
        shown = json.dumps(value, ensure_ascii=False, default=str)
        if len(shown) > 400:
            shown = shown[:400] + "…"
    else:
        shown = str(value)
    return str(key), shown


LONG_NAME = 28
"""Characters of a field's name past which it wraps (`ipt-long`: a diff's JSON path),
leaving its value room; the offline view's script has the same bound."""


def _name_cell(name: str) -> str:
    long = " class='ipt-long'" if len(name) > LONG_NAME else ""
    return f"<th{long}>{html.escape(name)}</th>"


def fields_html(
    fields: Mapping[str, Any], *, title: str = "", links: Mapping[str, Link] | None = None
) -> str:
    """A two-column table of fields; nested values are shown as compact JSON, and `links`
    (field -> item) as links after them."""
    rows = [
        f"<tr>{_name_cell(key)}<td>{html.escape(shown)}</td></tr>"
        for key, shown in field_rows(fields)
    ]
    for key, link in (links or {}).items():
        rows.append(f"<tr><th>{html.escape(str(key))}</th><td>{link_html(link)}</td></tr>")
    caption = f"<div class='ipt-title'>{html.escape(title)}</div>" if title else ""
    return f"{caption}<table class='ipt-fields'>{''.join(rows)}</table>"


def list_html(
    title: str,
    items: Iterable[str | Link],
    *,
    limit: int = 50,
    empty: str = "none",
    note: str = "",
    first: int = 10,
) -> str:
    """A titled list with its length (and a note after it): the `first` items shown, the
    rest up to `limit` behind "and N more" (opened with a click), and what is left past
    `limit` said; a `Link` item is a link to its details. No item is hidden unsaid."""
    items = list(items)

    def entries(part: list[str | Link]) -> str:
        return "".join(
            f"<li>{link_html(item) if isinstance(item, Link) else html.escape(item)}</li>"
            for item in part
        )

    limit = max(limit, first)
    body = f"<ul>{entries(items[:first])}</ul>"
    if len(items) > first:
        rest = items[first:limit]
        beyond = len(items) - limit
        past = (
            f"<p class='ipt-none'>… and {beyond:,} more: export the selection for all of them</p>"
            if beyond > 0
            else ""
        )
        body += (
            f"<details class='ipt-more'><summary>and {len(items) - first:,} more</summary>"
            f"<ul>{entries(rest)}</ul>{past}</details>"
        )
    if not items:
        body = f"<p class='ipt-none'>{html.escape(empty)}</p>"
    said = f" <span class='ipt-none'>{html.escape(note)}</span>" if note else ""
    return f"<div class='ipt-title'>{html.escape(title)} ({len(items):,}){said}</div>{body}"


FALLBACK_TYPES = 12
"""The agent types the static copy lists by name, the most used first (as the widget's
selection counts them), in the reader's words (`SFTP`, as the filter says it)."""


def fallback_html(
    counts: str,
    description: str,
    agent_types: Mapping[str, int],
    png: bytes | None,
) -> str:
    """The static view left in the notebook: counts, the filter, agent types, the diagram.

    Shown where the live widget cannot be (GitHub, nbviewer, a notebook reopened without
    its kernel); hidden by `HIDE_FALLBACK_CSS` while the widget is alive.
    """
    counted = list(agent_types.items())
    shown = [(type_label(n) if n != NO_TYPE else n, c) for n, c in counted[:FALLBACK_TYPES]]
    if len(counted) > FALLBACK_TYPES:  # the rest in one row, as `plot_summary` sums them
        rest = counted[FALLBACK_TYPES:]
        shown.append((f"{len(rest)} other agent types", sum(c for _, c in rest)))
    rows = "".join(
        f"<tr><td>{html.escape(name)}</td><td style='text-align:right'>{count:,}</td></tr>"
        for name, count in shown
    )
    image = _image_html(png, "topology of the selection") if png else ""
    return (
        f"<div class='{FALLBACK_CLASS}'>"
        f"<p><b>iptoolkit Explorer</b> (a static copy; run the notebook to explore): "
        f"<b>{html.escape(counts)}</b>; filter: {html.escape(description)}</p>"
        "<table><thead><tr><th>input agent type</th><th>profiles</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{image}</div>"
    )


def _image_html(png: bytes, alt: str) -> str:
    return (
        f"<img alt='{html.escape(alt)}' style='max-width:100%' "
        f"src='data:image/png;base64,{base64.b64encode(png).decode()}'/>"
    )


def topology_fallback_html(png: bytes | None, what: str) -> str:
    """The static stand-in of the interactive topology view: the `plot_topology` PNG,
    hidden by `HIDE_FALLBACK_CSS` while the live view renders."""
    image = _image_html(png, "topology") if png else ""
    return (
        f"<div class='{FALLBACK_CLASS}'><p><b>iptoolkit topology</b> ({html.escape(what)}; "
        f"a static copy: run the notebook to pan, zoom and click)</p>{image}</div>"
    )


def legend_html(items: Iterable[LegendItem]) -> str:
    """The interactive view's legend: a shape (or swatch) and a label per entry
    (`legend_items`); the shapes are those the canvas writes before each label."""
    rows = []
    for item in items:
        glyph = MARKER_GLYPHS.get(item.marker or "")
        if glyph is not None and item.edge == "white":  # a kind or channel type, not a state
            # the shape the canvas writes before a label of this kind, in its colour
            swatch = f"<span class='ipt-glyph' style='color:{item.colour}'>{glyph}"
        elif item.marker is not None:
            border = f"{item.edge_width or 1}px solid {item.edge}"
            swatch = f"<span class='ipt-swatch' style='background:{item.colour};border:{border}'>"
        else:
            height = max(2, round(item.width))
            swatch = (
                f"<span class='ipt-swatch ipt-line' style='background:{item.colour};"
                f"height:{height}px'>"
            )
        rows.append(f"<li>{swatch}</span>{html.escape(item.label)}</li>")
    return f"<ul class='ipt-topology-legend'>{''.join(rows)}</ul>"
