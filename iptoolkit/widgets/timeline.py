"""`TimelineBar`: the Explorer's timeline over an archive (issue 43), above its map.

A list of the archive's snapshots (`viewmodel.timeline.ArchiveTimeline`), a button a
step earlier and one a step later, and a list to compare with another snapshot than the
one before. Picking a snapshot shows, on the map, the estate as it was fetched then with
what changed since (`TopologyTab.show_moment`); the map keeps its drill level and the item
picked. A line under it says which snapshot is shown and how much changed.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as W

from .progress_bar import WidgetProgress

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from ..viewmodel.change_marks import MarkedMap
    from ..viewmodel.timeline import ArchiveTimeline

__all__ = ["TimelineBar", "BEFORE", "NARROWED"]

NARROWED = ". These counts are the whole estate's; the map marks the profiles the filters keep"
"""What the line adds while filters narrow the map (its diff is the whole estate's)."""
BEFORE = -1
"""The "changes since" list's first choice: the snapshot before the one shown."""

Shown = Callable[["Estate", "EstateDiff | None", "Callable[[], MarkedMap | None] | None"], None]
"""Where a moment goes: its estate, its changes and what makes its map of change
(`TopologyTab.show_moment`)."""


class TimelineBar:
    """The timeline's controls (`widget`); `show(index, since)` shows a moment, as picking it
    does, and calls `on_moment()` after (the app keeps `?at=&since=` in its address)."""

    def __init__(
        self, timeline: ArchiveTimeline, shown: Shown, *, index: int, since: int | None = None
    ) -> None:
        self.timeline = timeline
        self._shown = shown
        self._quiet = False
        self._narrowed = False
        self._watchers: list[Callable[[], None]] = []
        choices = [(moment.label, i) for i, moment in enumerate(timeline.moments)]
        self.snapshot = W.Dropdown(  # a <select> with its <label>: named for screen readers,
            options=choices,  # which ipywidgets' slider handle is not (axe holds it)
            value=index,
            description="Snapshot",
            style={"description_width": "initial"},
            layout=W.Layout(width="auto"),
        )
        self.earlier = _button("Earlier", "step-backward", "The snapshot before")
        self.later = _button("Later", "step-forward", "The snapshot after")
        self.since = W.Dropdown(
            options=[("the snapshot before", BEFORE)],
            value=BEFORE,
            description="Changes since",
            style={"description_width": "initial"},
            layout=W.Layout(width="auto"),
        )
        self.status = W.HTML()
        self.status.add_class("ipt-timeline-status")
        self.progress = WidgetProgress()
        """What a jump waits for: the snapshots it reads from the archive."""
        self.earlier.on_click(lambda _: self._clicked(-1))
        self.later.on_click(lambda _: self._clicked(1))
        self.snapshot.observe(lambda _: self._picked(), "value")
        self.since.observe(lambda _: self._picked(), "value")
        row = W.HBox(
            [self.earlier, self.snapshot, self.later, self.since],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.widget = W.VBox([row, self.progress, self.status], layout=W.Layout(width="100%"))
        self.widget.add_class("ipt-timeline")
        self.show(index, since)

    @property
    def index(self) -> int:
        """The position of the snapshot shown (in `timeline.moments`)."""
        return int(self.snapshot.value)

    @property
    def since_index(self) -> int | None:
        """The position of the snapshot the changes are counted from (None: the one before)."""
        chosen = int(self.since.value)
        return None if chosen == BEFORE else chosen

    def on_moment(self, callback: Callable[[], None]) -> None:
        """Call `callback()` after each moment shown."""
        self._watchers.append(callback)

    def step(self, by: int) -> None:
        """Show the snapshot `by` places later (earlier when negative), within the archive."""
        self.show(min(max(self.index + by, 0), len(self.timeline) - 1), self.since_index)

    def show(self, index: int, since: int | None = None) -> None:
        """Show the snapshot at `index` with its changes since the one at `since` (None:
        the one before); a `since` not before it is dropped, and the line says so."""
        timeline = self.timeline
        if not 0 <= index < len(timeline):
            raise IndexError(f"index: 0 to {len(timeline) - 1}, not {index}")
        dropped = since is not None and not 0 <= since < index
        if dropped:
            since = None
        self._quiet = True
        try:
            self.snapshot.value = index
            self.since.options = self._since_choices(index)
            self.since.value = BEFORE if since is None else since
        finally:
            self._quiet = False
        self.earlier.disabled, self.later.disabled = index == 0, index == len(timeline) - 1
        try:  # a jump reads now, and says so
            timeline.read_now(index, since, self._reading)
            changes = timeline.changes(index, since)
            marked = None
            if changes is not None:  # made at the first drawing, kept for the next ones
                marked = functools.cache(lambda: timeline.marked_map(index, since, changes))
            self._shown(timeline.estate(index), changes, marked)
        finally:
            self.progress.done()
        timeline.prefetch(index)  # the next steps' snapshots and maps, made while one looks
        self._said = _status(timeline, index, since, changes, dropped)
        self._say()
        for callback in self._watchers:
            callback()

    @property
    def said(self) -> str:
        """The line under the controls, as text."""
        return self._said + (NARROWED if self._narrowed else "")

    def narrowed(self, narrowed: bool) -> None:
        """Whether the Explorer's filters narrow the map: the line's counts are the whole
        estate's, and then it says so."""
        self._narrowed = narrowed
        self._say()

    def _say(self) -> None:
        self.status.value = f"<span>{html.escape(self.said)}</span>"

    def _since_choices(self, index: int) -> list[tuple[str, int]]:
        """What the changes of the snapshot at `index` can be counted since: the one before
        it, or any earlier (a later one is no change "since")."""
        earlier = [(moment.label, i) for i, moment in enumerate(self.timeline.moments[:index])]
        return [("the snapshot before", BEFORE), *earlier]

    def _clicked(self, by: int) -> None:
        """A step asked by a button: one that the step leaves disabled (the first or the
        newest snapshot) drops the keyboard's focus to the page, so it moves to the list."""
        self.step(by)
        if (self.earlier if by < 0 else self.later).disabled:
            self.snapshot.focus()

    def _reading(self, near: int) -> None:
        label = self.timeline.moments[near].label
        self.progress.stage(f"Reading the snapshot of {label} from the archive")

    def _picked(self) -> None:
        if not self._quiet:
            self.show(self.index, self.since_index)


def _button(description: str, icon: str, tooltip: str) -> W.Button:
    return W.Button(
        description=description, icon=icon, tooltip=tooltip, layout=W.Layout(width="auto")
    )


def _status(
    timeline: ArchiveTimeline,
    index: int,
    since: int | None,
    changes: EstateDiff | None,
    dropped: bool,
) -> str:
    """The line under the controls: the snapshot shown, what changed since which."""
    moment = timeline.moments[index]
    said = f"Snapshot {index + 1} of {len(timeline)}, fetched {moment.label} UTC"
    if changes is None:
        said += ": the first, nothing before it to compare with"
    else:
        base = timeline.moments[index - 1 if since is None else since]
        counted = changes.summary().splitlines()[0] if changes else "nothing changed"
        said += f"; since {base.label}: {counted}"
    if index != len(timeline) - 1:  # the Explorer's filters, counts and table: the newest's
        said += f". The counts and lists above are the newest's ({timeline.moments[-1].label})"
    if dropped:
        said += " (changes since a later snapshot cannot be shown: since the one before)"
    return said
