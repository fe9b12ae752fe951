"""`KeyGuard`: keys typed in the Explorer (or a topology view) stay there, not JupyterLab's.

In a notebook's command mode JupyterLab reads every key pressed on a focused element that
is not a text field: on a filter list, the arrow keys moved to the next cell instead of
the next option, and a letter typed to jump to an option ran the notebook's command
("m": the Explorer's cell turned to Markdown, its output gone; "d d": deleted). JupyterLab
reads keys as they bubble up to the document (`bubblingKeydown`), so this anywidget,
placed in the Explorer's page (and in each topology view: `ipt.show_topology`'s canvas
reads arrows and Enter), stops a key at that root once the control it was typed in has
had it; keys with Ctrl, Alt or Meta still reach JupyterLab (save, the
palette), and Shift+Enter (run the cell). Voila has no such shortcuts: there it changes
nothing.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["KeyGuard", "GUARDED", "GUARDED_VIEW"]

GUARDED = ".ipt-explorer"
"""The root whose keys the guard keeps from JupyterLab's shortcuts: the Explorer's."""
GUARDED_VIEW = ".ipt-topology"
"""A topology view's root (`ipt.show_topology`: its canvas reads arrows and Enter)."""

_ESM = """
function render({ model, el }) {
  el.style.display = "none";
  let tries = 0;
  const stop = (event) => {  // Shift+Enter still runs the cell, as in any output
    const runs = event.shiftKey && event.key === "Enter";
    if (!event.ctrlKey && !event.altKey && !event.metaKey && !runs) event.stopPropagation();
  };
  const guard = () => {  // the view is put in the page after it renders
    const root = el.closest(model.get("root"));
    if (root && !root.dataset.iptKeyGuard) {
      root.dataset.iptKeyGuard = "on";
      root.addEventListener("keydown", stop);
      root.addEventListener("keyup", stop);
    } else if (!root && ++tries < 600) requestAnimationFrame(guard);
  };
  guard();
}
export default { render };
"""


class KeyGuard(anywidget.AnyWidget):
    """Keeps the keys typed inside its closest `root` ancestor (a CSS selector: the
    Explorer's, `GUARDED`, or a topology view's) but those with Ctrl, Alt or Meta, and
    Shift+Enter, from JupyterLab's notebook shortcuts (hidden: it draws nothing)."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    root = traitlets.Unicode(GUARDED).tag(sync=True)

    def __init__(self, root: str = GUARDED) -> None:
        super().__init__(root=root)
