"""The diagrams of the documentation site: what each page draws, as SVG and as Mermaid.

A page draws only its part of the graph: a partner its channels, the agents and response
units on them and their profiles; a group the paths of the profiles in it. Parts with more
than `plot.topology.MAX_DETAIL_NODES` nodes are drawn grouped (by profile group), as
`plot_topology` does by itself. SVGs are written by `plot.topology_svg` (what
`plot_topology` draws, with no matplotlib figure): the same estate gives the same bytes.

Mermaid: a page offers its diagram as a Mermaid chart when the chart fits GitHub's limits
(`exporters.mermaid.fits_github`): the detailed chart if it fits, else the grouped one.

Interactive: beside each SVG, its part as the offline view's data (`x.view.js`, see
`iptoolkit.offline`), laid out for the page's column (`VIEW_CANVAS`), at most
`VIEW_MAX_NODES` nodes of levels a page, what pages share done once a run (`views`); the
site's one script (`assets/`) finds the SVG in its `ipt-view` block, loads the data beside
it and draws the view over it. The SVG stays
the picture for print, for readers without script, and on GitHub.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..exporters.mermaid import fits_github, grouped_mermaid, to_mermaid
from ..query.reach import induced_subgraph
from ..support.progress import NO_PROGRESS, Progress
from ..support.redact import redact_text
from ..viewmodel.topology_fit import Canvas

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..query.graph import EstateGraph
    from ..topology.view import GroupedViews, ViewGraph
    from ..viewmodel.explorer_model import ExplorerModel
    from .views import SharedWork

__all__ = [
    "partner_part",
    "profiles_part",
    "cut",
    "write_svg",
    "write_diff_view",
    "draw_all",
    "default_workers",
    "mermaid_block",
    "grouping_of",
    "DETAIL_PROFILES",
    "Drawing",
    "VIEW_CANVAS",
    "VIEW_MAX_NODES",
    "view_path",
    "write_view",
]

Drawing = tuple["EstateGraph", Path, str, "str | None", "GroupedViews"]
"""What to draw: the part of the graph, the SVG file, its title, a `group_by` or None, and
the part's grouped views (`topology.view.GroupedViews`): its SVG, its Mermaid chart and the
first level of its interactive view draw the same view, made once."""
VIEW_CANVAS = Canvas.of(680, 460)
"""The canvas a page's view is laid out for: the MkDocs theme's content column."""
VIEW_MAX_NODES = 2_000
"""Nodes of levels a page's view lays out at most (the overview page's levels below that
are drawn, not opened: the group pages open them)."""
VIEW_SUFFIX = ".view.js"
_PENDING: list[Drawing] = []
"""The drawings a pool of forked workers reads (inherited, never pickled: parts hold the
profiles' JSON, and sending them would cost more than drawing them)."""

DETAIL_PROFILES = 40
"""Above this many profiles a page's diagram is drawn grouped: a partner with 140 profiles
drawn one by one is a column of names three metres long."""
DETAIL_CHART_NODES = 120
"""Above this many nodes a detailed Mermaid chart is a wall of boxes even where GitHub would
draw it: the grouped chart is offered instead."""


def partner_part(
    graph: EstateGraph, partner: str, positions: Mapping[str, int] | None = None
) -> EstateGraph:
    """The partner, its channels, the agents and response units on them, their profiles
    (`positions`: see `cut`)."""
    pred = graph.pred
    chosen = {partner}
    for channel in pred[partner]:
        chosen.add(channel)
        for user in pred[channel]:  # agents and response units
            chosen.add(user)
            chosen.update(pred[user])  # their profile
    return cut(graph, chosen, positions)


def profiles_part(
    graph: EstateGraph, profiles: Iterable[str], positions: Mapping[str, int] | None = None
) -> EstateGraph:
    """The profiles and everything on their paths: agents, units, channels, partners
    (`positions`: see `cut`)."""
    succ = graph.succ
    chosen: set[str] = set()
    stack = list(profiles)
    while stack:
        node = stack.pop()
        if node not in chosen:
            chosen.add(node)
            stack.extend(succ[node])
    return cut(graph, chosen, positions)


def cut(graph: EstateGraph, chosen: set[str], positions: Mapping[str, int] | None) -> EstateGraph:
    """The part of the graph `chosen` names (`induced_subgraph`), in the graph's order.
    Given the graph's `positions` (`query.reach.node_positions`), as the site's writer
    gives them: the chosen sorted by them rather than the whole graph walked for each of
    the site's 200 parts, and the graph's attributes shared, not copied (the site only
    reads its parts: drawn, charted, laid out; the copies were half the cut)."""
    if positions is None:
        return induced_subgraph(graph, chosen)
    order: list[str] = sorted(chosen, key=positions.__getitem__)
    return induced_subgraph(graph, order, ordered=True, copy=False)


def write_svg(
    part: EstateGraph,
    path: Path,
    title: str,
    group_by: str | None = None,
    view: ViewGraph | None = None,
) -> Path:
    """Draw the part (grouped when large, or by `group_by`: the `view` given, when made
    already) into an SVG file, titled: as `plot_topology` draws it, written directly
    (`plot.topology_svg`, no matplotlib figure: a tenth of the time)."""
    from ..plot.canvas import title_text
    from ..plot.topology_svg import view_svg, write_topology_svg

    title = redact_text(title)
    if view is None or group_by is None:
        return write_topology_svg(part, path, group_by=group_by, title=title)
    text = view_svg(view, title_text(part, group_by, title), group_by, labels="auto")
    path.write_text(text, encoding="utf-8")
    return path


def view_path(svg: Path) -> Path:
    """The view data beside an SVG: `acme.svg` -> `acme.view.js`."""
    return svg.with_name(svg.name.removesuffix(".svg") + VIEW_SUFFIX)


def write_view(
    part: EstateGraph, path: Path, work: SharedWork, views: GroupedViews | None = None
) -> Path:
    """The part's offline view as a script that hands its data to the site's script (the
    part's grouped `views`: those its SVG drew, not made again)."""
    from .views import page_payload

    return _handed_over(page_payload(part, work, VIEW_MAX_NODES, views), path)


def write_diff_view(
    diff: EstateDiff, path: Path, graphs: tuple[EstateGraph, EstateGraph] | None = None
) -> Path:
    """The changelog's view beside its SVG: the map of both snapshots, coloured by what
    happened (`offline.changes_data`), as a script handing its data to the site's;
    `graphs`: both snapshots' graphs (old, new) when built already (else built here)."""
    from ..offline.changes_data import map_payload
    from ..viewmodel.change_marks import diff_map

    payload = map_payload(  # its heading is the page's; as many levels as a page's view
        diff_map(diff, graphs or "build"),  # its graphs serve the details too
        title="",
        lines=[],
        canvas=VIEW_CANVAS,
        max_nodes=VIEW_MAX_NODES,
        every_item=False,
    )
    return _handed_over(payload, path)


def _handed_over(payload: dict[str, Any], path: Path) -> Path:
    """`path` written as a script handing `payload` to the site's script."""
    from ..offline.page import script_json

    path.write_text(f"IptTopology.receive({script_json(payload)});\n", encoding="utf-8")
    return path


def grouping_of(part: EstateGraph) -> str | None:
    """None (every item drawn) for a part of up to `DETAIL_PROFILES` profiles; else
    grouped by profile group, or by agent type when the profiles share one group."""
    groups: set[object] = set()
    profiles = 0
    for _, data in part.nodes(data=True):
        if data.get("kind") == "profile":
            profiles += 1
            groups.add(data.get("group"))
    if profiles <= DETAIL_PROFILES:
        return None
    return "group" if len(groups) > 1 else "agent_type"


def default_workers() -> int:
    """The processes that draw when the caller does not say: one. Workers (forked, on
    Linux) paid when matplotlib drew the SVGs (11 CPU seconds at 10,000 profiles); written
    directly they take a tenth of that, less than two forked workers cost in copied pages
    (1.5 CPU seconds more, no wall time saved on a busy machine: `bench_docs.py`)."""
    return 1


def _usable_workers(workers: int) -> int:
    """`workers`, where processes can be forked (Linux); one elsewhere."""
    return workers if sys.platform == "linux" else 1


def draw_all(
    drawings: list[Drawing],
    workers: int,
    model: ExplorerModel | None = None,
    progress: Progress = NO_PROGRESS,
) -> None:
    """Draw every SVG and, given the estate's `model`, its view. With more than one worker
    the SVGs are drawn in `workers` forked processes (the biggest first, so no process is
    left with a big one at the end) while this one writes the views: what views share
    (`views.SharedWork`) is done once, where workers would each do it again (4 of 37 CPU
    seconds at 10,000 profiles). Each file depends on its drawing alone, so the bytes are
    the same however many workers draw them.

    The cyclic collector is paused meanwhile: left to itself, it walked the whole estate a
    dozen times, a fifth of the site's time at 10,000 profiles. Drawings leave next to no
    garbage in cycles (each part laid out is `release`d), so none is looked for after each
    (the youngest generation, walked after each drawing, held 27,000 such objects in all,
    and the walks took 0.3 of 15 CPU seconds at 10,000 profiles)."""
    from ..models import gc_paused
    from .views import SharedWork

    work = SharedWork(model, VIEW_CANVAS) if model is not None else None
    with gc_paused():
        if _usable_workers(workers) <= 1 or len(drawings) < 2:
            for drawing in drawings:
                _draw_svg(drawing)
                _draw_view(drawing, work)
                progress.advance()
            return
        with _forked(drawings, workers):
            for drawing in drawings:  # counted by the views: the SVGs are the workers'
                _draw_view(drawing, work)
                progress.advance()


def _draw_svg(drawing: Drawing) -> None:
    part, svg, title, group_by, views = drawing
    write_svg(part, svg, title, group_by, views.view(group_by) if group_by else None)


def _draw_view(drawing: Drawing, work: SharedWork | None) -> None:
    if work is not None:
        part, svg, _, _, views = drawing
        write_view(part, view_path(svg), work, views)


@contextmanager
def _forked(drawings: list[Drawing], workers: int) -> Iterator[None]:
    """The SVGs drawn by forked workers (which inherit `_PENDING`) while the block runs;
    on leaving, once they are all written."""
    global _PENDING
    from ..plot.labels import text_width
    from ..plot.topology_svg import write_topology_svg  # noqa: F401  loaded once

    text_width("loaded once", 1.0)  # the writer and its font, before the workers fork

    order = sorted(range(len(drawings)), key=lambda i: -drawings[i][0].number_of_nodes())
    _PENDING = drawings
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(min(workers, len(drawings)), mp_context=context) as pool:
            drawn = pool.map(_draw_pending, order)  # the workers fork now
            yield
            for _ in drawn:
                pass
    finally:
        _PENDING = []


def _draw_pending(index: int) -> None:
    _draw_svg(_PENDING[index])


def mermaid_block(
    part: EstateGraph, title: str, group_by: str | None, view: ViewGraph | None = None
) -> str | None:
    """The part as a fenced Mermaid chart GitHub draws (detailed when small and not drawn
    grouped, else grouped: the `view` given when it is grouped by `group_by` already), or
    None when even grouped it is too big for GitHub's limits."""
    title = redact_text(title)  # it names a partner or group: a name may hold a URL
    if group_by is None and part.number_of_nodes() <= DETAIL_CHART_NODES:
        chart = to_mermaid(part, title=title)
        if fits_github(chart):
            return f"```mermaid\n{chart}```"
    if view is not None and group_by is not None:
        chart = grouped_mermaid(view, title=title)
    else:
        chart = to_mermaid(part, title=title, group_by=group_by or "group")
    return f"```mermaid\n{chart}```" if fits_github(chart) else None
