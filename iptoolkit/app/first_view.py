"""The app's first view drawn on the server: the page shows the overview before its kernel.

Voila's front end renders every cell output from JavaScript, once some 120 scripts have
loaded and the kernel is connected: 3-4 s on this machine for a notebook of a single HTML
widget, 5-6 s for the Explorer's canvas at 10,000 profiles. What the page HTML itself
carries is painted at once, so the app sends, inside the page, a drawing of the view the
Explorer opens with (the grouped overview of the whole estate): the title line, the counts
and the topology overview as inline SVG, drawn from the interactive view's own data
(`drill.auto_view` at the Explorer's canvas, as `TopologyView.overview_data`: the same
positions, labels, colours and glyphs; its legend is `legend_html`'s), over the
page until the live canvas exists. CSS alone hides it then (`HIDE_CSS`): no script.

It is drawn once when the app starts, laid out for each of `WINDOW_WIDTHS` (CSS shows the
one for the window), by the app's zygote, which holds the estate for the kernels
(`app.zygote`, over the Explorer's own model: its grouped views are then ready for every
kernel), or without one in a child process (`python -m iptoolkit.app.first_view`, the
snapshot from `IPTOOLKIT_APP_SNAPSHOT`, HTML on stdout), so the server never holds the
estate; `app.server` puts it in the page for an address that opens the overview. An
address with a filter gets the overview of what it keeps, drawn by a fork of the zygote
when it is asked for (`chosen`); one opening an item, a drill-down, paths or a saved view
gets none (an overview would misstate it).

Every name drawn comes from the view's labels, masked already (`redact_text`), and is
escaped here for XML (`xml.sax.saxutils`), the source URL of the title line by `redact_url`.
"""

from __future__ import annotations

import html
import json
import math
import os
import sys
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from ..support.names import plural
from ..viewmodel.explorer_html import DETAILS_BESIDE_FROM_PX, FILTERS_OPEN_FROM_PX

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.selection import Filter
    from ..viewmodel.explorer_model import ExplorerModel, Selection
    from ..viewmodel.topology_data import ViewData

__all__ = [
    "ELEMENT_ID",
    "MARKER",
    "STYLE_MARKER",
    "STYLE",
    "CANVAS_HEIGHT",
    "CANVAS_ASPECT",
    "GIVE_UP_AFTER",
    "HIDE_CSS",
    "overview_svg",
    "first_view_html",
    "draw",
    "main",
]

ELEMENT_ID = "ipt-first-view"
MARKER = "<!--ipt-first-view-->"
"""Where the page template (`voila_template/index.html.j2`) leaves room for the first
view: in the body, outside `#rendered_cells` (which Voila keeps hidden until its scripts
ran); the page handler puts the drawing there, or nothing."""
CANVAS_HEIGHT = 600
CANVAS_ASPECT = 2.0
"""The Explorer's topology canvas before its front end reports its width (its `TopologyTab`:
`TopologyView(height=600, aspect=2.0)`)."""
WINDOW_WIDTHS = (1000, 1085, 1170, 1230, 1330, 1440, 1520, 1600, 1680, 1800, 1920)
"""The window widths the first view is drawn for, each laid out for the canvas the live
Explorer has in such a window (`canvas_px`), as the live view lays itself out for its own.
The page's CSS shows the drawing of the widest of these the window reaches: up to 1,920
px it is at most 120 px narrower than the live canvas, room left beside it; a window
narrower than the first shows the first, scaled down. Between two, the live canvas only
grows: the filter panel opens at 1,230 px and the details' column beside the map comes
at 1,170 px (folded) and 1,440 px (open). At 10,000 profiles the eleven drawings weigh
260 KB (20 KB gzipped)."""
GIVE_UP_AFTER = 90
"""Seconds after which the drawing goes even without a live canvas: a page whose kernel
failed shows Voila's own message, not a picture that says "loading" for ever."""
LIVE_CANVAS = ".ipt-topology .ipysigma-container canvas"
"""The live view's canvas (ipysigma's sigma.js container in the Explorer's topology)."""
_FONT = "DejaVu Sans, Verdana, sans-serif"
"""The labels' font, as sigma's on Linux (`topology_fit.LABEL_FONT_PX` measures it)."""
_ERRORS = (
    ".ipt-app-error",
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]',
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]',
)
HIDE_CSS = (
    f"body:has({LIVE_CANVAS}) #{ELEMENT_ID},\n"
    + ",\n".join(f"body:has({error}) #{ELEMENT_ID}" for error in _ERRORS)
    + " {display: none;}"
)
"""The drawing goes when the live canvas exists, or an error shows (`:has`, Chromium 105+,
Firefox 121+, Safari 15.4+); `GIVE_UP_AFTER` bounds it in any browser."""

PAGE_PADDING_PX = 30
"""The app page's side padding: the Explorer is the window's width less this."""
FOLDED_LESS_PX = 40
OPEN_LESS_PX = 310
DETAILS_LESS_PX = 372
"""What the Explorer's map row is narrower than the Explorer with its filters folded (a
strip, the tab panel's padding and borders) and open (their panel of 270 px besides), and
what the details' column beside the map takes of the row (`widgets.map_details`: 360 px
and its margin): measured in Chromium from 900 to 1,920 px (`canvas_px`)."""


def canvas_px(window: int) -> int:
    """The live Explorer's topology canvas width in a window `window` px wide."""
    explorer = window - PAGE_PADDING_PX
    folded = explorer < FILTERS_OPEN_FROM_PX
    row = explorer - (FOLDED_LESS_PX if folded else OPEN_LESS_PX)
    return row - DETAILS_LESS_PX if row >= DETAILS_BESIDE_FROM_PX else row


def _widths_css() -> str:
    """Each window width's drawing shown from that width to the next one's (`WINDOW_WIDTHS`)."""
    hide = f"#{ELEMENT_ID} .ipt-fv-map {{display: none;}}"
    rules = [hide, f"#{ELEMENT_ID} .ipt-fv-map-0 {{display: block;}}"]
    for index, window in enumerate(WINDOW_WIDTHS[1:], start=1):  # each overrides the last:
        show = f"#{ELEMENT_ID} .ipt-fv-map-{index} {{display: block;}}"  # no width between
        rules.append(f"@media (min-width: {window}px) {{{hide} {show}}}")
    return "\n".join(rules)


_STYLE = f"""
#{ELEMENT_ID} {{position: fixed; inset: 0; z-index: 10000; overflow: auto; box-sizing: border-box;
  background: #fff; color: rgba(0, 0, 0, 0.87); padding: 20px 15px 16px 15px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 13px;
  animation: ipt-first-view-gone 0s linear {GIVE_UP_AFTER}s forwards;}}
@keyframes ipt-first-view-gone {{to {{visibility: hidden;}}}}
{HIDE_CSS}
#{ELEMENT_ID} .ipt-fv-title {{display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap;
  font-size: 14px; margin: 4px 0 7px 0; padding-bottom: 10px; border-bottom: 1px solid #e0e0e0;}}
#{ELEMENT_ID} h1 {{font-size: 1.6em; margin: 13px 0 0 0; font-weight: 600; line-height: 1;}}
#{ELEMENT_ID} .ipt-fv-source, #{ELEMENT_ID} .ipt-fv-filter,
#{ELEMENT_ID} .ipt-fv-hint {{color: rgba(0, 0, 0, 0.54);}}
#{ELEMENT_ID} .ipt-fv-bar {{height: 28px; margin-bottom: 12px;}}  /* the "Copy link" line */
#{ELEMENT_ID} .ipt-fv-header {{margin: 2px 2px 10px 2px; min-height: 45px;}}
#{ELEMENT_ID} .ipt-fv-counts {{font-size: 1.3em; font-weight: 600;}}
#{ELEMENT_ID} .ipt-fv-filter {{margin-top: 2px; line-height: 19px;}}
#{ELEMENT_ID} .ipt-fv-body {{display: flex; align-items: flex-start;}}
#{ELEMENT_ID} .ipt-fv-side {{flex: 0 0 258px; padding: 2px 12px 0 0; line-height: 1.5;}}
#{ELEMENT_ID} .ipt-fv-side p {{margin: 0 0 10px 0; color: rgba(0, 0, 0, 0.54);}}
#{ELEMENT_ID} .ipt-fv-side p:first-child {{color: inherit;}}
#{ELEMENT_ID} .ipt-fv-main {{flex: 1 1 auto; min-width: 0; margin: 2px 0 0 2px;}}
#{ELEMENT_ID} .ipt-fv-tabs {{display: flex; height: 26px; font-size: 13px;}}
#{ELEMENT_ID} .ipt-fv-tabs span {{flex: 0 1 142px; padding: 4px 10px; box-sizing: border-box;
  border: 1px solid #e0e0e0; border-bottom: none; margin-right: -1px; background: #eee;
  color: #616161;}}  /* 5.3:1 on #eee: faint, and readable (rgba(0, 0, 0, 0.38) was 2.6:1) */
#{ELEMENT_ID} .ipt-fv-tabs span:first-child {{background: #fff; color: rgba(0, 0, 0, 0.87);
  border-top: 2px solid #1976d2;}}
#{ELEMENT_ID} .ipt-fv-panel {{border: 1px solid #e0e0e0; padding: 15px 16px;}}
#{ELEMENT_ID} .ipt-fv-status {{margin: 6px 2px 2px 2px; line-height: 19px;}}
#{ELEMENT_ID} .ipt-fv-status strong {{font-weight: 600;}}
#{ELEMENT_ID} svg {{display: block; width: 100%;
  border: 1px solid #e0e0e0; box-sizing: border-box;}}
{_widths_css()}
#{ELEMENT_ID} .ipt-topology-legend {{list-style: none; margin: 4px 0 0 0; padding: 0;
  display: flex; flex-wrap: wrap; gap: 2px 16px; font-size: 0.9em;}}
#{ELEMENT_ID} .ipt-topology-legend li {{display: flex; align-items: center; gap: 6px;
  line-height: 1.4;}}
#{ELEMENT_ID} .ipt-swatch {{display: inline-block; flex: none; width: 11px; height: 11px;
  border-radius: 50%; box-sizing: border-box;}}
#{ELEMENT_ID} .ipt-swatch.ipt-line {{width: 22px; border-radius: 0;}}
#{ELEMENT_ID} .ipt-glyph {{display: inline-block; width: 14px; text-align: center;
  font-size: 13px; line-height: 1;}}
#{ELEMENT_ID} .ipt-fv-loading::after {{content: ""; display: inline-block; width: 0.9em;
  height: 0.9em; margin-left: 8px; vertical-align: -2px; border: 2px solid #c8ccd1;
  border-top-color: #0072B2; border-radius: 50%; animation: ipt-fv-spin 1s linear infinite;}}
@keyframes ipt-fv-spin {{to {{transform: rotate(360deg);}}}}
#{ELEMENT_ID} .ipt-fv-progress {{width: 160px; height: 10px; margin-left: 10px;
  vertical-align: middle;}}  /* the kernel reads the estate and lays the map out */
@media (max-width: {FILTERS_OPEN_FROM_PX + PAGE_PADDING_PX - 1}px) {{
  #{ELEMENT_ID} .ipt-fv-side {{display: none;}}  /* the live Explorer folds its filters */
}}
"""

_LATCH = (
    "<script>(() => { const latch = new MutationObserver(() => {"
    f" const drawing = document.getElementById({json.dumps(ELEMENT_ID)});"
    f" if (drawing && document.querySelector({json.dumps(LIVE_CANVAS)})) {{"
    " drawing.style.display = 'none'; latch.disconnect(); } });"
    " latch.observe(document, {subtree: true, childList: true}); })();</script>"
)
"""Gone for good once the live canvas first exists: `HIDE_CSS` alone showed the drawing
(fixed, over the whole page) again while the view replaced its canvas for a new width."""

STYLE = f"<style>{_STYLE}</style>{_LATCH}"
"""The drawing's CSS and its latch, for the page's <head> (`STYLE_MARKER`)."""


def overview_svg(
    data: ViewData, *, height: int = CANVAS_HEIGHT, aspect: float = CANVAS_ASPECT
) -> str:
    """The view as sigma.js draws it at its start camera, as an SVG element: one unit of
    the view is one pixel there (`topology_fit.camera`), so the picture is the canvas's,
    centred as sigma centres it. A view not laid out for its canvas (`data.camera` None:
    thousands of nodes drawn one by one) is drawn whole."""
    nodes = data.graph.nodes
    drawn = [n for n, a in nodes(data=True) if a.get("kind") != "port"]
    scale = 1 / math.sqrt(data.camera["ratio"]) if data.camera else 1.0
    radius = {n: float(nodes[n].get("size", 3.0)) * scale for n in nodes}
    if data.camera is not None and drawn:
        xs = [float(nodes[n]["x"]) for n in nodes]
        ys = [float(nodes[n]["y"]) for n in nodes]
        centre_x = (min(xs) + max(xs)) / 2 + (data.camera["x"] - 0.5) * _extent(xs, ys)
        centre_y = (min(ys) + max(ys)) / 2 + (data.camera["y"] - 0.5) * _extent(xs, ys)
        width, tall = map(float, data.size or (height * aspect, height))
        box = (centre_x - width / 2, -centre_y - tall / 2, width, tall)
    else:
        box = _whole(data, radius)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{" ".join(f"{v:.1f}" for v in box)}"'
        ' preserveAspectRatio="xMidYMid meet"'
        f' style="height: {box[3]:.0f}px; max-width: {box[2]:.0f}px" role="img"'
        f" aria-label={quoteattr(_what(data))}>",
        f"<title>{escape(_what(data))}</title>",
        '<g fill="none" stroke-linecap="butt">',
    ]
    for u, v, edge in data.graph.edges(data=True):
        a, b = nodes[u], nodes[v]
        parts.append(
            f'<line x1="{a["x"]:.1f}" y1="{-a["y"]:.1f}" x2="{b["x"]:.1f}" y2="{-b["y"]:.1f}"'
            f" stroke={quoteattr(str(edge.get('color', '#999')))}"
            f' stroke-width="{float(edge.get("size", 1.0)) * scale:.2f}"/>'
        )
    parts.append("</g><g>")
    order = sorted(drawn, key=lambda n: int(nodes[n].get("zindex", 0)))
    for node in order:
        item = nodes[node]
        r = radius[node]
        parts.append(
            f'<circle cx="{item["x"]:.1f}" cy="{-item["y"]:.1f}" r="{r:.2f}"'
            f" fill={quoteattr(str(item['color']))} stroke={quoteattr(str(item['border']))}"
            f' stroke-width="{max(1.0, r * 0.15):.2f}"/>'
        )
    parts.append(f'</g><g font-family="{_FONT}" font-size="12">')
    # a label's second line is a port's (`topology_wrap`): labels of every kind are drawn
    for node in sorted(nodes, key=lambda n: int(nodes[n].get("zindex", 0))):
        item = nodes[node]
        if not item.get("label"):
            continue
        parts.append(
            f'<text x="{item["x"] + radius[node] + 3:.1f}" y="{-item["y"] + 4:.1f}"'
            f" fill={quoteattr(str(item.get('label_color', '#1F2328')))}>"
            f"{escape(str(item['label']))}</text>"
        )
    parts.append("</g></svg>")
    return "".join(parts)


def _extent(xs: list[float], ys: list[float]) -> float:
    return max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)


def _whole(data: ViewData, radius: dict[str, float]) -> tuple[float, float, float, float]:
    """A box around every node and its label (labels of 12 px, about 7 px a character)."""
    nodes = data.graph.nodes
    if not nodes:
        return (0.0, 0.0, 100.0, 50.0)
    left = min(float(a["x"]) - radius[n] for n, a in nodes(data=True))
    right = max(
        float(a["x"]) + radius[n] + 7 * len(str(a.get("label", ""))) for n, a in nodes(data=True)
    )
    top = min(-float(a["y"]) - radius[n] for n, a in nodes(data=True))
    bottom = max(-float(a["y"]) + radius[n] for n, a in nodes(data=True))
    return (left - 10, top - 10, right - left + 20, bottom - top + 20)


def _what(data: ViewData) -> str:
    items = sum(1 for _, a in data.graph.nodes(data=True) if a.get("kind") != "port")
    how = f"grouped by {data.group_by}" if data.group_by else "node by node"
    return f"Topology overview: {items:,} items, {how}"


STYLE_MARKER = "<!--ipt-first-view-style-->"
"""Where the page template leaves room in <head> for the drawing's style (`STYLE`), which
the page handler puts there with the drawing (a <style> in <body> is not valid HTML)."""


def first_view_html(
    estate: Estate,
    path: str | os.PathLike[str] | None,
    *,
    model: ExplorerModel | None = None,
    chosen: Filter | None = None,
) -> str:
    """The drawing the page shows until the live view is there: the app's title line, the
    Explorer's counts, the topology overview (the Explorer's own, `overview_svg`, laid out
    for each of `WINDOW_WIDTHS`: the page shows the one for its window) and its legend,
    with a line saying what it is. One element, `#ipt-first-view`; its CSS is `STYLE`.
    `model`: the Explorer's model over `estate`, when one is built already (`app.held`);
    `chosen`: the filter the page's address applies (the overview of what it keeps)."""
    from ..core.selection import Filter
    from ..viewmodel.drill import auto_view
    from ..viewmodel.explorer_html import legend_html  # the live view's own legend
    from ..viewmodel.explorer_model import ExplorerModel
    from ..viewmodel.topology_fit import Canvas
    from ..viewmodel.topology_wrap import LABEL_LINES

    if model is None or model.estate is not estate:
        model = ExplorerModel(estate)
    chosen = chosen or Filter()
    selection = model.select(chosen)
    views = model.views(selection)
    drawn = [
        auto_view(
            views.graph,
            canvas=Canvas.of(canvas_px(window), CANVAS_HEIGHT, lines=LABEL_LINES),
            views=views,
        )
        for window in WINDOW_WIDTHS
    ]
    maps = "".join(
        f"<div class='ipt-fv-map ipt-fv-map-{index}'>{overview_svg(data)}</div>"
        for index, data in enumerate(drawn)
    )
    what = _what(drawn[0]).removeprefix("Topology overview: ")
    legend = legend_html(drawn[0].legend)
    return _page(estate, path, selection, what, maps + legend)


def _page(
    estate: Estate,
    path: str | os.PathLike[str] | None,
    selection: Selection,
    what: str,
    maps: str,
) -> str:
    """The drawing's page around its maps: as the live Explorer's, faint where it answers."""
    from ..viewmodel.explorer_model import TABS  # drawn faint, not buttons, where the live ones go
    from .page import title_html

    chosen, counts = selection.filter, selection.counts_text()
    whole = chosen.is_empty()
    when = "when the app started" if whole else "for this address"
    shown = "" if whole else f"{selection.profiles:,} of "
    shown += plural(selection.total, "profile")
    note = f"Overview of {shown}, drawn {when}. The interactive view is loading…"
    title = title_html(estate, path).replace("ipt-app-title", "ipt-fv-title")
    title = title.replace("ipt-app-source", "ipt-fv-source")
    tabs = "".join(f"<span>{html.escape(name)}</span>" for name in TABS)
    return (
        f'<div id="{ELEMENT_ID}" role="status" aria-live="polite" aria-busy="true">'
        f"{title}<div class='ipt-fv-bar'></div>"
        f"<div class='ipt-fv-header'><div class='ipt-fv-counts'>{html.escape(counts)}</div>"
        f"<div class='ipt-fv-filter'>filter: {html.escape(chosen.describe())}"
        "</div></div>"
        "<div class='ipt-fv-body'>"
        f"<div class='ipt-fv-side'><p><strong class='ipt-fv-loading'>"
        f"{html.escape(note)}</strong></p><p>Filters, the table, details and exports come "
        "with it; this picture does not answer clicks.</p></div>"
        f"<div class='ipt-fv-main'><div class='ipt-fv-tabs' aria-hidden='true'>{tabs}</div>"
        "<div class='ipt-fv-panel'><div class='ipt-fv-status'>"
        f"<strong>{html.escape(what)}</strong> "
        f"<span class='ipt-fv-hint'>· drawn {when}; the interactive view is "
        "loading…</span><progress class='ipt-fv-progress' aria-label='The interactive view "
        f"is loading'></progress></div>{maps}"
        "</div></div>"
        "</div></div>"
    )


def draw(path: str | os.PathLike[str] | None) -> str:
    """The first view of the snapshot at `path` (the demo estate for None), as the app
    would show it (`page._estate`)."""
    from .page import _estate

    return first_view_html(_estate(path), path)


def main() -> int:
    """`python -m iptoolkit.app.first_view`: the first view of the app's snapshot
    (`IPTOOLKIT_APP_SNAPSHOT`, else the demo) on stdout, UTF-8; exit 1 with the reason on
    stderr when it cannot be read (the page then says why, from its kernel)."""
    from ..models import ParseError
    from ..support import env

    path = os.environ.get(env.APP_SNAPSHOT) or None
    try:
        text = draw(path)
    except (OSError, ParseError) as exc:
        print(f"no first view: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
