"""Draw a tab only while it is shown; a change while it is hidden marks it stale.

The Explorer's Details, Findings and Topology tabs cost time to draw (an impact query, an
audit, a layout), and a view drawn in a hidden tab measures 0 px: each is drawn when it
changes while shown, or when it is next shown after changing while hidden.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ShownTab"]


class ShownTab:
    """Whether a tab is shown and whether what it shows is stale, and `draw` called when
    the two meet."""

    def __init__(
        self, draw: Callable[[], None], *, visible: bool = False, stale: bool = True
    ) -> None:
        self._draw = draw
        self.visible = visible
        self.stale = stale

    def set_visible(self, visible: bool) -> None:
        """The tab was opened (True) or left (False): a stale tab is drawn as it opens."""
        self.visible = visible
        if visible and self.stale:
            self.draw()

    def invalidate(self) -> None:
        """What the tab shows changed: drawn now if shown, else when next shown."""
        self.stale = True
        if self.visible:
            self.draw()

    def draw(self) -> None:
        """Draw the tab now."""
        self.stale = False
        self._draw()

    def drawn(self) -> None:
        """The tab was drawn by other means (an item opened): no longer stale."""
        self.stale = False
