"""`write_docs`: every page and diagram of the documentation site, and mkdocs.yml.

The folder gets `mkdocs.yml`, `docs/` (the pages, each diagram an SVG beside its page) and
`overrides/` (the theme's templates the site replaces, so that every page passes the W3C Nu
checker).
Pages and diagrams the site no longer has (a partner gone since the last run) are removed,
so the folder in git shows exactly what changed. The site is written into a folder beside
it and moved into place when whole: an interrupted run leaves the site as it was (it left
159 of 586 files rewritten, without a word); a file of the reader's own in `docs/` is kept.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..models import gc_paused
from ..offline.page import ASSETS, asset
from ..query.reach import graph_order, node_positions
from ..support.names import plural
from ..support.progress import Progress, progress_scope
from ..support.redact import redact_text
from ..topology.view import GroupedViews
from ..viewmodel.explorer_model import ExplorerModel
from . import full_lists
from . import page_markdown as md
from .channel_page import channel_type_page
from .context import CHANGES_PAGE, COMPARE_PAGE, FINDINGS_PAGE, INDEX_PAGE, Context
from .diagrams import (
    DETAIL_PROFILES,
    Drawing,
    default_workers,
    draw_all,
    grouping_of,
    mermaid_block,
    partner_part,
    profiles_part,
    view_path,
    write_diff_view,
)
from .findings_page import findings_page
from .full_lists import write_full_lists
from .group_page import group_members, group_page, group_title
from .navigation import ASSETS_DIR, DOCS_DIR, EXTRA_CSS, THEME_DIR, mkdocs_yml
from .overview import changes_page, index_page
from .partner_page import partner_page, partner_title
from .sitemap import group_chain

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..query.graph import EstateGraph
    from ..topology.view import ViewGraph

__all__ = ["write_docs", "DEFAULT_TITLE"]

DEFAULT_TITLE = "Integration estate"
_WRITTEN_KINDS = (".md", ".svg", ".csv", ".js")
_OWNED_FOLDERS = ("partners", "groups", "channels", "data", "assets")
_STYLE = """/* written by iptoolkit docs: ids keep their hyphens on one line */
.ipt-id { white-space: nowrap; }
/* tables keep to the content column: a long URL, path or name wraps inside its cell */
div[role="main"] td { overflow-wrap: anywhere; }
/* so do a heading, the trail and the contents beside: a name of one long word (no
   space to break at) never widens the page */
div[role="main"] :is(h1, h2, h3, p, li), .bs-sidebar .nav-link { overflow-wrap: anywhere; }
/* links people can read (WCAG 2.2 AA: 4.5:1): the theme's blue, #2fa4e7, is 2.6:1 to 2.8:1
   on its backgrounds; the same hue darker, for links and wherever the theme sets white
   text on its blue (the bar at the top, a menu's current entry) */
:root, [data-bs-theme=light] {
  --bs-link-color: #0f6ea3; --bs-link-color-rgb: 15, 110, 163;
  --bs-link-hover-color: #0a4d73; --bs-link-hover-color-rgb: 10, 77, 115;
  --bs-primary: #0f6ea3; --bs-primary-rgb: 15, 110, 163;
}
.navbar.bg-primary { background-image: none; --bs-navbar-color: #fff; }
.dropdown-menu { --bs-dropdown-link-hover-bg: #0f6ea3; --bs-dropdown-link-active-bg: #0f6ea3; }
.modal-title { color: #0f6ea3; }
"""


def write_docs(
    estate: Estate | str | os.PathLike[str],
    folder: str | os.PathLike[str],
    previous: Estate | str | os.PathLike[str] | None = None,
    title: str | None = None,
    *,
    workers: int | None = None,
    compare: Estate | str | os.PathLike[str] | None = None,
    compare_name: str | None = None,
    progress: Progress | bool | None = None,
) -> Path:
    """Write the estate's documentation site into `folder` and return `folder/mkdocs.yml`.

    `estate` and `previous` are estates or snapshot paths; with `previous` the site has a
    changelog page (`ipt.diff(previous, estate)`) and its diagram. `mkdocs build -f
    folder/mkdocs.yml` builds it (the `docs` extra); the pages read as they are on GitHub.
    `workers`: processes that write the SVGs (default: one; on Linux, more write them
    beside the pages' views, for wall time at some CPU time).
    With `compare` (another installation: an estate or a snapshot path, called
    `compare_name`), a page of what differs from it (`ipt.compare`, by natural keys).
    `progress`: None shows a bar (the pages, then the diagrams, counted) in Jupyter or a
    terminal once the work has run 2 s; True always; False never; or a `Progress`.
    """
    from ..core.estate import as_estate

    estate = as_estate(estate, "write_docs: estate")
    root = Path(folder)
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.", suffix=".partial", dir=root.parent))
    try:
        # pages make little cyclic garbage; the collector walked the estate
        with gc_paused(), progress_scope(progress) as shown:
            site = _Site(title, workers, compare_name, shown)
            _write_site(estate, staging, previous, compare, site)
        _carry_over(root / DOCS_DIR, staging / DOCS_DIR)
        _move_into_place(staging, root)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return root / "mkdocs.yml"


class _Site(NamedTuple):
    """How the site is written: its title, the workers drawing its SVGs, the other
    installation's name, and where its steps are reported."""

    title: str | None
    workers: int | None
    compare_name: str | None
    progress: Progress


def _write_site(
    estate: Estate,
    root: Path,
    previous: Estate | str | os.PathLike[str] | None,
    compare: Estate | str | os.PathLike[str] | None,
    site: _Site,
) -> None:
    """Every page, diagram and asset of the site, and mkdocs.yml, into the empty `root`."""
    title, workers, compare_name, shown = site
    shown_title = redact_text(" ".join((title or DEFAULT_TITLE).split()))
    ctx = Context.of(estate, shown_title, full_lists.MAX_ROWS)  # read now: tests lower it
    docs = root / DOCS_DIR
    drawings: list[Drawing] = []

    def put(page: str, text: str) -> None:
        path = docs / page
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")

    def diagram(page: str, part: EstateGraph, title: str, group_by: str | None = None) -> str:
        svg = docs / page.removesuffix(".md")
        svg = svg.with_name(svg.name + ".svg")
        svg.parent.mkdir(parents=True, exist_ok=True)
        group_by = group_by or grouping_of(part)
        views = GroupedViews(part)  # its SVG, Mermaid chart and interactive view share them
        view = views.view(group_by) if group_by else None
        drawings.append((part, svg, title, group_by, views))
        return diagram_section(svg.name, title, part, group_by, view)

    members = group_members(ctx)
    has_changes = previous is not None
    shown.stage("Writing the pages", total=1 + len(ctx.site.partners) + len(ctx.site.groups))
    positions = node_positions(ctx.graph)  # each part cut in the graph's order
    with graph_order(ctx.graph, positions):  # impact answers sorted, not a walk each (1 s)
        whole = diagram(
            INDEX_PAGE, ctx.graph, f"{ctx.title}: every profile, grouped by group", "group"
        )
        put(INDEX_PAGE, index_page(ctx, whole, members, has_changes=has_changes))
        shown.advance()
        titles = {partner: partner_title(ctx, partner) for partner in ctx.site.partners}
        names = {partner: ctx.name(partner) for partner in ctx.site.partners}
        for partner, page in ctx.site.partners.items():
            part = partner_part(ctx.graph, partner, positions)
            title = f"{titles[partner]}: its channels and the profiles on them"
            drawn = diagram(page, part, title)
            put(page, partner_page(ctx, partner, drawn))
            shown.advance()
        for group, page in ctx.site.groups.items():
            inside = _subtree(ctx, group)
            part = profiles_part(ctx.graph, inside, positions)
            title = f"{group_title(group)}: its {plural(len(inside), 'profile')} and their paths"
            if len(inside) > DETAIL_PROFILES:
                title += ", grouped"
            drawn = diagram(page, part, title) if inside else ""
            for number, path in enumerate(ctx.site.group_pages[group], start=1):
                put(path, group_page(ctx, group, number, len(inside), drawn))
            shown.advance()
    shown.stage("Writing the channels, findings and lists")
    for type_name, pages in ctx.site.channel_type_pages.items():
        for number, path in enumerate(pages, start=1):
            put(path, channel_type_page(ctx, type_name, number))
    put(FINDINGS_PAGE, findings_page(ctx))
    if previous is not None:
        put(CHANGES_PAGE, _changes(ctx, previous, docs))
    if compare is not None:
        put(COMPARE_PAGE, _compared(ctx, compare, compare_name))
    put(EXTRA_CSS, _STYLE)
    for template in THEME_TEMPLATES:  # the theme's templates the site replaces
        target = root / THEME_DIR / template
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(theme_template(template), encoding="utf-8", newline="\n")
    for name in ASSETS:  # the interactive views' one script and style, shared by every page
        text = asset(name)
        if name == "topology.js":  # with the changelog's marks (inert on other pages)
            text += "\n" + asset("changes.js")
        put(f"{ASSETS_DIR}/ipt-{name}", text)
    write_full_lists(ctx, docs)
    model = ExplorerModel(estate, ctx.graph)  # the graph the site was mapped from
    shown.stage("Drawing the diagrams", total=len(drawings))
    draw_all(drawings, default_workers() if workers is None else workers, model, shown)
    (root / "mkdocs.yml").write_text(
        mkdocs_yml(
            ctx.title, ctx.site, names, has_changes=has_changes, has_compare=compare is not None
        ),
        encoding="utf-8",
    )


def diagram_section(
    svg_name: str,
    title: str,
    part: EstateGraph,
    group_by: str | None,
    view: ViewGraph | None = None,
) -> str:
    """The diagram's heading, its SVG in the block the site's script draws the interactive
    view over (`diagrams.write_view`), and its Mermaid chart folded when GitHub draws it
    (of the part grouped by `group_by`: the `view` given, when made already)."""
    lines = [f"## Diagram: {md.text(title)}", "", '<div class="ipt-view" markdown="1">', ""]
    lines += [f"![{md.text(title)}]({svg_name})", "", "</div>"]
    chart = mermaid_block(part, title, group_by, view)
    if chart is not None:
        lines += ["", md.folded("The same diagram as a Mermaid chart (GitHub draws it)", chart)]
    return "\n".join(lines)


def _subtree(ctx: Context, group: str) -> list[str]:
    """The profiles in the group and its subgroups, in the estate's order."""
    within = {g for g in ctx.site.groups if group in group_chain(g)}
    return [profile for profile, g in ctx.site.profile_group.items() if g in within]


def _changes(ctx: Context, previous: Estate | str | os.PathLike[str], docs: Path) -> str:
    from ..change.diff import diff
    from ..core.estate import as_estate
    from ..plot.diff_diagram import diff_svg
    from ..query.graph import build_graph

    changes = diff(as_estate(previous, "write_docs: previous"), ctx.estate)
    svg = docs / "changes.svg"
    graphs = build_graph(changes.old), ctx.graph  # the newer one: the site's own
    # `plot_diff`'s picture, drawn directly, and over it, live, the map of both
    svg.write_text(diff_svg(changes, graphs=graphs), encoding="utf-8")
    write_diff_view(changes, view_path(svg), graphs)
    block = f'<div class="ipt-view" markdown="1">\n\n![The changes]({svg.name})\n\n</div>'
    return changes_page(ctx, changes, f"## Diagram of the changes\n\n{block}")


def _compared(ctx: Context, other: Estate | str | os.PathLike[str], name: str | None) -> str:
    """The page of what differs from another installation: `Comparison.to_markdown`, this
    estate as A (its every name escaped there)."""
    from ..comparing import compare

    other_name = name or (Path(other).name if isinstance(other, str | os.PathLike) else "other")
    this = "this estate" if other_name != "this estate" else "this estate (A)"
    result = compare(ctx.estate, other, names=(this, other_name))
    return f"# Compared with {md.text(other_name)}\n\n{result.to_markdown()}"


def _carry_over(old: Path, new: Path) -> None:
    """Copy the files of the reader's own from the site's old `docs/` into the new one:
    what the site writes (its pages and diagrams in the folders it owns, its changelog)
    comes from this run only, so a page the estate no longer has is gone."""
    if not old.is_dir():
        return
    for path in sorted(old.rglob("*")):
        relative = path.relative_to(old)
        target = new / relative
        if path.is_dir() or target.exists() or _written_by_the_site(relative):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target, follow_symlinks=False)


def _written_by_the_site(relative: Path) -> bool:
    """A page or diagram of the kinds the site writes, in a place the site owns."""
    if relative.as_posix() in (CHANGES_PAGE, "changes.svg", "changes.view.js", COMPARE_PAGE):
        return True
    owned = len(relative.parts) == 2 and relative.parts[0] in _OWNED_FOLDERS
    return owned and relative.suffix in _WRITTEN_KINDS


def _move_into_place(staging: Path, root: Path) -> None:
    """The whole new site in place of the old: renames on one file system (the staging
    folder is the site folder's sibling), the old `docs/` and theme templates left in the
    staging folder."""
    root.mkdir(parents=True, exist_ok=True)
    for folder in (DOCS_DIR, THEME_DIR):
        if (root / folder).exists():
            os.replace(root / folder, staging / f".old-{folder}")
        os.replace(staging / folder, root / folder)
    os.replace(staging / "mkdocs.yml", root / "mkdocs.yml")


THEME_TEMPLATES = ("main.html", "search-modal.html", "keyboard-modal.html")
"""The MkDocs theme's templates the site replaces (`docsite/theme/`, package data)."""


@cache
def theme_template(name: str) -> str:
    """A template of `THEME_TEMPLATES`, as the package ships it."""
    return resources.files("iptoolkit.docsite").joinpath("theme", name).read_text("utf-8")
