"""`KeyGuard`: keys typed in the Explorer stay in the Explorer, not JupyterLab's commands.

In a notebook's command mode JupyterLab reads every key pressed on a focused element that
is not a text field: on a filter list, the arrow keys moved to the next cell instead of
the next option, and a letter typed to jump to an option ran the notebook's command
("m": the Explorer's cell turned to Markdown, its output gone; "d d": deleted). JupyterLab
reads keys as they bubble up to the document (`bubblingKeydown`), so this anywidget,
placed in the Explorer's page, stops a key at the page's root once the control it was
typed in has had it; keys with Ctrl, Alt or Meta still reach JupyterLab (save, the
palette), and Shift+Enter (run the cell). Voila has no such shortcuts: there it changes nothing.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["KeyGuard", "GUARDED"]

GUARDED = ".ipt-explorer"
"""The root whose keys the guard keeps from JupyterLab's shortcuts."""

_ESM = f"""
function render({{ el }}) {{
  el.style.display = "none";
  let tries = 0;
  const stop = (event) => {{  // Shift+Enter still runs the cell, as in any output
    const runs = event.shiftKey && event.key === "Enter";
    if (!event.ctrlKey && !event.altKey && !event.metaKey && !runs) event.stopPropagation();
  }};
  const guard = () => {{  // the view is put in the page after it renders
    const root = el.closest({GUARDED!r});
    if (root && !root.dataset.iptKeyGuard) {{
      root.dataset.iptKeyGuard = "on";
      root.addEventListener("keydown", stop);
      root.addEventListener("keyup", stop);
    }} else if (!root && ++tries < 600) requestAnimationFrame(guard);
  }};
  guard();
}}
export default {{ render }};
"""


class KeyGuard(anywidget.AnyWidget):
    """Keeps the keys typed inside its closest `GUARDED` ancestor (but those with Ctrl,
    Alt or Meta, and Shift+Enter) from JupyterLab's notebook shortcuts (hidden: it draws
    nothing)."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
