"""What the app's notebook shows: a title line naming the estate, then the Explorer.

The snapshot, the export folder and the views' folder come from the environment
(`IPTOOLKIT_APP_SNAPSHOT`, `IPTOOLKIT_APP_FOLDER`, `IPTOOLKIT_APP_VIEWS`), which
`iptoolkit explore` sets for Voila's kernel; without them (Binder, a plain notebook) the
app shows the demo estate and exports next to the notebook. Saved views are kept beside
the snapshot unless a folder is given (`viewmodel/saved_views.py`).
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import ipywidgets as W

from ..support import env
from ..support.names import plural
from ..support.redact import redact_url

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..widgets import Explorer
    from .held import Held

__all__ = [
    "TITLE",
    "DEMO_PROFILES",
    "show",
    "follow_address",
    "views_bar",
    "title_html",
    "error_html",
]

TITLE = "iptoolkit Explorer"
"""The app's title: above the Explorer, and the page's (the notebook's metadata holds it)."""

DEMO_PROFILES = 300
"""The demo estate's size when no snapshot is given (as `iptoolkit demo` and the notebooks)."""

_CSS = """<style>
.ipt-app-title {display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap;
  margin: 4px 0 10px 0; padding-bottom: 6px;
  border-bottom: 1px solid var(--jp-border-color2, #e0e0e0);}
.ipt-app-title h1 {font-size: 1.6em; margin: 0; font-weight: 600;}
.ipt-app-title .ipt-app-source {color: var(--jp-ui-font-color2, #616161);}
.ipt-app-error {color: #b00020; font-size: 1.1em; margin: 12px 0;}
</style>"""


def show(
    snapshot: str | os.PathLike[str] | None = None,
    *,
    folder: str | os.PathLike[str] | None = None,
) -> Explorer | None:
    """Display the app: a title, then an `Explorer` over `snapshot` (default: the
    environment's, else a demo estate); return the Explorer, or None when the snapshot
    cannot be read (the page then says why in one line instead of a traceback)."""
    from IPython.display import HTML, display

    from ..models import ParseError
    from ..viewmodel.saved_views import views_file
    from ..widgets import Explorer
    from ..widgets.progress_bar import cell_progress
    from .held import held

    path = snapshot if snapshot is not None else os.environ.get(env.APP_SNAPSHOT) or None
    target = folder if folder is not None else os.environ.get(env.APP_FOLDER) or None
    # one bar while the estate is read and the Explorer built (a large estate), gone after
    with cell_progress(None):
        kept = held(path)  # a kernel forked from the app's zygote: read already
        try:
            estate = kept.estate if kept is not None else _estate(path)
        except (OSError, ParseError) as exc:
            display(HTML(_CSS + error_html(path, exc)))
            return None
        archive = os.environ.get(env.APP_ARCHIVE) or None  # explore --archive: a timeline
        display(HTML(_CSS + title_html(estate, archive or path)))
        # an archive's views beside it, not beside its newest snapshot (a temporary file)
        views = views_file(archive or path, os.environ.get(env.APP_VIEWS) or None)
        explorer = Explorer(  # the page is always live: no static copy after each change
            estate,
            folder=target or "iptoolkit-export",
            static_copy=False,
            views=views,
            model=kept.model if kept is not None else None,
            since=_since(kept),  # what changed since, on the map
            archive=archive,
            **_guarded(),
        )
    explorer.widget.add_class("ipt-app")
    display(follow_address(explorer))
    if views is not None:
        display(views_bar(explorer))
    display(explorer)
    return explorer


def follow_address(explorer: Explorer) -> W.VBox:
    """The page address and the Explorer kept in step (`app.address`): the view the page
    was opened with is applied once the browser reports it, then every change of filter or
    item rewrites the address. Returns the "Copy link" bar (with a line for an address
    parameter the app could not read)."""
    from .address import PageAddress, query_of, view_of

    address = PageAddress(token=os.environ.get(env.APP_TOKEN, ""))
    note = W.HTML()
    note.add_class("ipt-address-note")

    def current() -> str:
        shown = explorer.topology.paths.shown
        ends = (shown.a, shown.b) if shown is not None else None
        return query_of(explorer.filter, explorer.item, explorer.drill, ends, moment_of(explorer))

    def opened(change: dict[str, object]) -> None:
        view = view_of(str(change["new"] or ""))
        problems = list(view.problems)
        if view.moment != (None, None):
            problems += show_moment(explorer, *view.moment)
        if not view.filter.is_empty():
            explorer.filter = view.filter
        if view.drill:
            missing = explorer.drill_to(view.drill)
            if missing:
                problems.append(
                    f"address parameter drill: no group {missing[0]!r} in this view "
                    f"(shown: {' > '.join(['Overview', *explorer.drill])})"
                )
        if view.view:
            try:
                missing = explorer.open_view(view.view)
            except ValueError as exc:
                problems.append(f"address parameter view: {exc}")
            else:
                problems += [f"view {view.view!r}: no group {title!r} now" for title in missing]
        if view.item:
            explorer.show_detail(view.item)
        if view.paths is not None:
            explorer.show_paths(*view.paths)
        note.value = "".join(
            f"<div class='ipt-app-error'>{html.escape(problem)}</div>" for problem in problems
        )
        address.query = current()

    address.observe(opened, "opened_with")
    explorer.on_change(lambda: setattr(address, "query", current()))
    if explorer.timeline is not None:
        explorer.timeline.on_moment(lambda: setattr(address, "query", current()))
    return W.VBox([address, note], layout=W.Layout(align_items="flex-end"))


def moment_of(explorer: Explorer) -> tuple[str | None, str | None]:
    """The timeline's moment as the address keeps it (`at`, `since`): None for the newest
    snapshot and for the one before it."""
    bar = explorer.timeline
    if bar is None:
        return None, None
    moments = bar.timeline.moments
    at = moments[bar.index].at if bar.index != len(moments) - 1 else None
    since = moments[bar.since_index].at if bar.since_index is not None else None
    return at, since


def show_moment(explorer: Explorer, at: str | None, since: str | None) -> list[str]:
    """Show the moment an address names (`at`, `since`) on the timeline; what could not
    be shown, one line each, naming the parameter."""
    bar = explorer.timeline
    if bar is None:
        return ["address parameters at and since: this app shows no archive "
                "(iptoolkit explore --archive FILE)"]  # fmt: skip
    timeline = bar.timeline
    try:
        index = timeline.index_of(at)
    except (LookupError, ValueError, TypeError) as exc:  # no such snapshot, a bad date
        return [f"address parameter at: {exc}"]
    try:
        older = timeline.index_of(since) if since is not None else None
    except (LookupError, ValueError, TypeError) as exc:
        bar.show(index)
        return [f"address parameter since: {exc}"]
    bar.show(index, older)
    if older is not None and older >= index:
        return [f"address parameter since: {since!r} is not before the snapshot shown"]
    return []


def views_bar(explorer: Explorer) -> W.HBox:
    """Save the view shown under a name; the saved views listed, one opened on a pick."""
    name = W.Text(placeholder="name this view", layout=W.Layout(width="220px"))
    save = W.Button(description="Save view", icon="bookmark", layout=W.Layout(width="auto"))
    saved = W.Dropdown(description="Views", layout=W.Layout(width="280px"))
    said = W.HTML()

    def listed() -> None:
        try:
            names = explorer.views.names() if explorer.views is not None else []
        except (ValueError, OSError) as exc:  # the file went bad while the app ran
            said.value = f"<span class='ipt-app-error'>{html.escape(str(exc))}</span>"
            names = []
        saved.options = [("", ""), *((one, one) for one in names)]
        saved.value = ""

    def save_now(_: object) -> None:
        try:
            kept = explorer.save_view(name.value)
        except (ValueError, OSError) as exc:
            said.value = f"<span class='ipt-app-error'>{html.escape(str(exc))}</span>"
            return
        said.value = f"saved as {html.escape(kept)}"
        listed()

    def opened(change: dict[str, object]) -> None:
        if change["new"]:
            explorer.open_view(str(change["new"]))

    save.on_click(save_now)
    saved.observe(opened, "value")
    listed()
    bar = W.HBox([saved, name, save, said], layout=W.Layout(align_items="center"))
    bar.add_class("ipt-views")
    return bar


class _Guard(TypedDict):
    """What `_guarded` passes to the Explorer."""

    fixed_folder: bool
    masked_exports: bool


def _guarded() -> _Guard:
    """Under `iptoolkit explore` (which sets the folder) anyone reaching the page could
    drive it: the export folder is fixed, and exports are masked unless the command was
    started with `--unmasked-downloads`."""
    under_command = bool(os.environ.get(env.APP_FOLDER))
    unmasked = os.environ.get(env.APP_UNMASKED) == "1"
    return {"fixed_folder": under_command, "masked_exports": under_command and not unmasked}


def _since(kept: Held | None) -> Estate | str | None:
    """The older snapshot (`explore --since`): held by the zygote, else its path."""
    path = os.environ.get(env.APP_SINCE) or None
    held_since = kept.since_for(path) if kept is not None else None
    return held_since if held_since is not None else path


def _estate(path: str | os.PathLike[str] | None) -> Estate:
    if path is None:
        from ..demo import demo_estate

        return demo_estate(n_profiles=DEMO_PROFILES)
    from ..core.estate import as_estate

    return as_estate(path, "the app's snapshot")


def title_html(estate: Estate, path: str | os.PathLike[str] | None) -> str:
    """The title line: the app's name, then where the estate comes from and when."""
    if path is None:
        source = f"a demo estate of {plural(len(estate), 'profile')}"
    else:
        source = Path(path).name
        info = estate.info
        if info.source_url:
            source += f", fetched from {redact_url(info.source_url)}"
        if info.fetched_at is not None:
            source += f" on {info.fetched_at:%Y-%m-%d %H:%M %Z}".rstrip()
    return (
        f"<div class='ipt-app-title'><h1>{html.escape(TITLE)}</h1>"
        f"<span class='ipt-app-source'>{html.escape(source)}</span></div>"
    )


def error_html(path: str | os.PathLike[str] | None, exc: BaseException) -> str:
    """One line saying which snapshot could not be read, and why."""
    reason = " ".join(str(exc).split())
    if isinstance(exc, OSError) and exc.strerror:
        reason = exc.strerror
    where = "" if str(path) in reason else f" {path}"  # read errors name the file already
    text = f"Cannot read the snapshot{where}: {reason}"
    return f"<div class='ipt-app-error'>{html.escape(text)}</div>"
