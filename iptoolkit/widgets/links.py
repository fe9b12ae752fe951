"""`LinkedHTML`: HTML whose item links call back into Python when clicked.

ipywidgets' `HTML` shows markup but tells the kernel nothing of clicks. This anywidget
shows the same markup and, when a link `<a class='ipt-link' data-node='partner:1001'
href='#'>Acme Ltd</a>` is clicked (or focused and Enter pressed: a link with `href` is
in the tab order and Enter clicks it), sends `{"event": "open", "node": "partner:1001"}`
to the kernel, which calls `on_open(node)`. A message, not a synced trait, so a second
click on the same link opens it again. The front end is a few lines of ES module held
here (anywidget loads it inline: no build step, the same in JupyterLab and Voila).

The markup comes from `html.py` (escaped, secrets masked); the front end only sets it
and listens, one listener on the widget for every link inside it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

__all__ = ["LinkedHTML", "OPEN_EVENT"]

OPEN_EVENT = "open"

_ESM = """
function render({ model, el }) {
  el.classList.add("ipt-links");
  const draw = () => { el.innerHTML = model.get("value"); };
  draw();
  model.on("change:value", draw);
  const clicked = (event) => {
    const link = event.target.closest("[data-node]");
    if (!link || !el.contains(link)) return;
    event.preventDefault();
    model.send({ event: "open", node: link.dataset.node });
  };
  el.addEventListener("click", clicked);
  return () => {
    model.off("change:value", draw);
    el.removeEventListener("click", clicked);
  };
}
export default { render };
"""


class LinkedHTML(anywidget.AnyWidget):
    """HTML (`value`) whose `[data-node]` links call `on_open(node id)` when clicked."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self, value: str = "", *, on_open: Callable[[str], None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(value=value, **kwargs)
        self._on_open = on_open
        self.on_msg(self._received)

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A message from the front end: open the node it names (anything else is ignored:
        the kernel trusts no shape it did not ask for)."""
        if not isinstance(content, dict) or content.get("event") != OPEN_EVENT:
            return
        node = content.get("node")
        if isinstance(node, str) and node and self._on_open is not None:
            self._on_open(node)
