"""`ScrollHome`: a view never inherits another's scroll.

A canvas wider or taller than its pane scrolls in a panel (`SigmaBox`); the next picture
drawn in that panel (a group opened, the way back up, another selection) kept the
scroll of the one before, and started in the middle of nowhere (issue 42). The same held
for a tab shown after one scrolled sideways. This anywidget, placed in the panel or the
page, sets the element named by `target` (the closest ancestor matching that CSS
selector) back to its start, and every ancestor back to its left edge (never its top: a
notebook scrolls down through its cells), each time `turn` changes.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["ScrollHome"]

_ESM = """
function render({ model, el }) {
  el.classList.add("ipt-scroll-home");
  el.style.display = "none";
  const home = () => {
    const target = model.get("target");
    const panel = target ? el.closest(target) : null;
    if (panel) { panel.scrollLeft = 0; panel.scrollTop = 0; }
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (up.scrollLeft) up.scrollLeft = 0;
    }
  };
  model.on("change:turn", () => requestAnimationFrame(home));
  return () => model.off("change:turn");
}
export default { render };
"""


class ScrollHome(anywidget.AnyWidget):
    """Scrolls `target` (a CSS selector of an ancestor; empty: none) to its start and its
    ancestors to their left edge when `home()` is called."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    target = traitlets.Unicode("").tag(sync=True)
    turn = traitlets.Int(0).tag(sync=True)

    def home(self) -> None:
        """Back to the start, in every front end showing this widget."""
        self.turn += 1
