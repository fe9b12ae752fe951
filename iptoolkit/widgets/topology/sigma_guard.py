"""`SigmaGuard`: keeps ipysigma 0.24's view from raising a script error on every render.

ipysigma keeps the node positions in a synced trait named `layout`, the name ipywidgets
gives a widget's `Layout`. When the view saves its positions there, ipywidgets' front end
takes the mapping for a `Layout` model and asks the widget manager for a view of it, which
fails ("TypeError: Cannot read properties of undefined (reading 'then')" from
`SigmaView.create_child_view`); the canvas works, the console shows an error every time.

This anywidget, placed beside the canvas, wraps the page's widget manager once (in its
`initialize`, which runs when its model is created, before any view is drawn): a request
for a view of something that is not a widget model gets a promise that never settles,
so nothing is drawn for it and nothing is thrown. Requests for real models go through as
before. Remove it when ipysigma renames its trait.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["SigmaGuard"]

_ESM = """
function initialize({ model }) {
  const manager = model.widget_manager;
  if (!manager || manager.__iptSigmaGuard) return;
  const create = manager.create_view.bind(manager);
  manager.create_view = function (child, options) {
    if (child && typeof child === "object" && child.state_change === undefined) {
      return new Promise(() => {});  // ipysigma's positions, not a Layout: no view
    }
    return create(child, options);
  };
  manager.__iptSigmaGuard = true;
}
function render({ el }) {
  el.style.display = "none";
}
export default { initialize, render };
"""


class SigmaGuard(anywidget.AnyWidget):
    """Invisible; see the module docstring."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
