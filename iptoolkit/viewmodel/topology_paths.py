"""`PathFinder`: how does A reach B, in the interactive topology.

Pick an item and "paths from here", then another and "paths to here": the view opens a
level below the one shown with the paths between them (`query.paths`, shortest first,
bounded) and the items around them faded (`drill.paths_view`); the breadcrumb goes back.
From code: `view.paths.show("P-000001", "partner:1002")`. No widget here: the buttons are
the controls' (`topology_controls`), the level the levels' (`topology_levels`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ..query.paths import DEFAULT_CUTOFF, DEFAULT_LIMIT, Paths, paths
from .topology_levels import Levels, item_name

__all__ = ["PathFinder"]


class PathFinder:
    """The paths between two items of one view: `start` (picked with "paths from here"),
    `show(a, b)`, and `shown`, the paths drawn now."""

    def __init__(self, levels: Levels, say: Callable[[str], None]) -> None:
        self._levels = levels
        self._say = say
        self.start: str | None = None
        """The item "paths from here" picked (None: none yet, or its paths were shown)."""
        self.limit = DEFAULT_LIMIT
        self.cutoff = DEFAULT_CUTOFF

    @property
    def shown(self) -> Paths | None:
        """The paths drawn now (None: the view shows no paths level)."""
        return self._levels.paths

    def show(
        self, a: Hashable, b: Hashable, *, limit: int | None = None, cutoff: int | None = None
    ) -> Paths:
        """Show the paths from `a` to `b` (items named as `resolve_node` reads them) and
        return them; when there is none the status line says so and the view stays."""
        graph = self._levels.graph
        if graph is None:
            raise ValueError("paths: the view shows no estate yet")
        found = paths(
            graph,
            a,
            b,
            limit=self.limit if limit is None else limit,
            cutoff=self.cutoff if cutoff is None else cutoff,
        )
        self.start = None
        if found:
            self._levels.show_paths(found)
            if found.bounds:
                self._say(f"{_counted(found)}; {found.bounds}")
        else:
            self._say(str(found))
        return found

    def from_here(self, node: Hashable | None) -> None:
        """Remember `node` as where the next paths start."""
        graph = self._levels.graph
        if not isinstance(node, str) or graph is None or node not in graph:
            return  # (None, or no node: the estate graph's nodes are strings)
        self.start = node
        self._say(f"paths from {item_name(graph, node)}: pick another item, then 'paths to here'")

    def to_here(self, node: Hashable | None) -> None:
        """Show the paths from the item remembered to `node`."""
        if node is not None and self.start is not None and node != self.start:
            self.show(self.start, node)

    def start_name(self) -> str | None:
        """The name of the item remembered, for the button that ends a path there."""
        graph = self._levels.graph
        if self.start is None or graph is None or self.start not in graph:
            return None
        return item_name(graph, self.start)


def _counted(found: Paths) -> str:
    return f"{len(found):,} paths between {found.a} and {found.b}"
