"""The picture of a `TopologyView`: draws the level shown on its canvas and answers a click.

A collaborator of the view, with no navigation of its own: a move (open a group, go back)
is the levels' (`topology_levels`), the widgets around the canvas are the controls'
(`topology_controls`); the picture puts the level the levels hold on the `SigmaBox` and
turns a click on it into the view's move or its `on_select` call.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol

from ...viewmodel.change_marks import ChangeMarks
from ...viewmodel.topology_data import start_camera
from ...viewmodel.topology_findings import FindingMarks
from ...viewmodel.topology_html import info_html, view_title
from ...viewmodel.topology_levels import Levels
from ...viewmodel.topology_paths import PathFinder
from ...viewmodel.topology_search import picked_key
from .controls import Controls
from .sigma_box import SigmaBox, new_sigma

__all__ = ["Picture", "PictureOwner"]


class PictureOwner(Protocol):
    """What the picture reads of its view and tells it: its size, who hears a pick, and
    the moves a click asks for."""

    height: int
    aspect: float
    selected: Hashable | None
    on_select: Callable[[Hashable], Any] | None
    paths: PathFinder
    findings: FindingMarks
    changes: ChangeMarks | None

    def expand(self, key: str) -> None: ...

    def expand_node(self, node: Hashable) -> None: ...


class Picture:
    """Draws the level shown and answers clicks on it, for one view."""

    def __init__(
        self, owner: PictureOwner, levels: Levels, box: SigmaBox, controls: Controls
    ) -> None:
        self.owner = owner
        self.levels = levels
        self.box = box
        self.controls = controls

    def draw(self, camera: dict[str, Any] | None = None) -> None:
        """Draw the level shown (`camera`: where to start, else where its picture starts)."""
        data, title = self.levels.data, self.levels.title
        if data is None:
            return
        if self.owner.changes is not None:  # a diff: coloured by what happened
            data = self.owner.changes.marked(data)
        marks = self.owner.findings
        if marks.on and marks.available:
            data = marks.marked(data)
        width, height = data.size or (None, self.owner.height)
        sigma = new_sigma(
            data,
            name=title or view_title(data),
            height=height,
            camera=camera or start_camera(data, aspect=self.owner.aspect),
        )
        sigma.observe(self.picked, "selected_node")
        # a canvas grown wider than the view's scrolls sideways (see `ViewData.size`)
        wider = width is not None and width > self.levels.canvas.width + 1
        self.box.show(sigma, data, width if wider or height > self.owner.height else None)
        self.owner.selected = None  # a new picture: nothing picked in it yet
        titles = [level.title for level in self.levels.trail]
        self.controls.show(
            data,
            titles,
            around=self.levels.neighbourhood is not None,
            wider=wider,
            findings=marks.available,
        )

    def redraw(self) -> None:
        """Draw the level shown afresh, where the reader is looking now."""
        if self.levels.data is not None:
            self.draw(camera=self.box.camera)

    def picked(self, change: dict[str, Any]) -> None:
        """A click on the canvas (sigma's `selected_node`): as `pick`. An item clicked
        outside a neighbourhood is drawn afresh first: sigma's own selection fades every
        node but the clicked one's neighbours, and a node's links leave from its port,
        its one neighbour there, so the rest of the picture (labels and links) would
        vanish. The line under the map names the pick."""
        if change["new"] is None:
            return
        key, data = str(change["new"]), self.levels.data
        if data is not None and self.levels.neighbourhood is None:
            if data.item(picked_key(data, key)) is not None:
                self.redraw()
        self.pick(key)

    def pick(self, key: str) -> None:
        """A node picked, by a click or the search: a group opens; in a neighbourhood an
        item grows it; an item elsewhere is reported to `on_select`. A port picked is its
        node's (`topology_search.picked_key`)."""
        data = self.levels.data
        if data is None:
            return
        key = picked_key(data, key)
        if key not in data.members:
            return
        node = data.item(key)
        if node is None:  # a group: open it
            self.owner.expand(key)
            return
        around = self.levels.neighbourhood is not None
        if around:  # around an item: a click expands in place
            self.owner.expand_node(node)
        self.owner.selected = node
        start = self.owner.paths.start_name() if self.owner.paths.start != node else None
        info = info_html(data, key)
        if self.owner.changes is not None:
            info += self.owner.changes.listed(data, key)
        marks = self.owner.findings
        if marks.on and marks.available:
            info += marks.listed(data, key)
        self.controls.picked(info, around=around, path_from=start)
        if not around:
            self.report(node)

    def pick_item(self, node: Hashable) -> bool:
        """Pick the item `node` where the level shown draws it on its own (as a click on
        it would); False when it does not (gone, or inside a group)."""
        members = self.levels.data.members if self.levels.data is not None else {}
        key = next((key for key, found in members.items() if found == (node,)), None)
        if key is None:
            return False
        self.pick(str(key))
        return True

    def report(self, node: Hashable | None) -> None:
        """Tell the view's `on_select` of an item (a pick, or the Details button)."""
        if node is not None and self.owner.on_select is not None:
            self.owner.on_select(node)
