"""`CanvasWidth`: the front end's width of the topology view, reported to the kernel.

The view lays itself out for the canvas it has (`topology_fit`): the column spacing, the
rows and which labels are cut depend on the width in pixels, which only the browser knows.
This anywidget sits in the view, as wide as it, and reports its width (`width`, CSS
pixels) when first shown and again whenever it changes (a JupyterLab pane dragged, the
file browser opened, the app's window resized): a `ResizeObserver`, quiet for
`SETTLE_MS` before it reports (or `MAX_WAIT_MS` at the latest), so that dragging a pane
lays out once or twice, not per frame. A width of 0 (the view in a hidden tab) is never
reported. Until the picture is laid out for the width the view has (`laid_out_for`, set
by the kernel), the map's panel is hidden: no frame is drawn for another width (issue 42:
the first frame, for a default width, cut group nodes at the edge).
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["CanvasWidth", "SETTLE_MS", "MAX_WAIT_MS", "MIN_CHANGE_PX"]

SETTLE_MS = 250
"""Quiet time after the last resize before the width is reported."""
MAX_WAIT_MS = 1000
"""A width that keeps changing is reported this long after it began to."""
MIN_CHANGE_PX = 8
"""A change smaller than this is not reported (a scroll bar coming and going)."""

_ESM = f"""
function render({{ model, el }}) {{
  el.classList.add("ipt-canvas-width");
  el.style.width = "100%";
  el.style.height = "0";
  let timer = null;
  const report = () => {{
    timer = null;
    const width = Math.floor(el.getBoundingClientRect().width);
    if (width <= 0) return;
    if (Math.abs(width - model.get("width")) < {MIN_CHANGE_PX}) return;
    model.set("width", width);
    model.save_changes();
  }};
  // the map is hidden while its picture is laid out for another width than the view's:
  // no frame is drawn for the wrong width (labels and group nodes cut by the edge)
  const match = () => {{
    const panel = el.closest(".ipt-topology")?.querySelector(".ipt-topology-canvas");
    if (!panel) return;
    const width = Math.floor(el.getBoundingClientRect().width);
    const planned = model.get("laid_out_for");
    const fits = width <= 0 || (planned > 0 && Math.abs(width - planned) < {MIN_CHANGE_PX});
    panel.style.visibility = fits ? "" : "hidden";
  }};
  model.on("change:laid_out_for", match);
  let first = null;  // when the first change not yet reported came
  const observer = new ResizeObserver(() => {{
    match();
    const now = Date.now();
    if (first === null) first = now;
    if (timer !== null) clearTimeout(timer);
    // quiet for SETTLE_MS, or at the latest MAX_WAIT_MS after the first change
    const wait = Math.max(0, Math.min({SETTLE_MS}, first + {MAX_WAIT_MS} - now));
    timer = setTimeout(() => {{ first = null; report(); }}, wait);
  }});
  observer.observe(el);
  const stop = () => {{ observer.disconnect(); if (timer !== null) clearTimeout(timer); }};
  // a page being left has asked for its kernel's shutdown (Voila's beacon): nothing to
  // report, and a report sent then fails ("Could not send widget sync message")
  window.addEventListener("beforeunload", stop, {{ once: true }});
  return () => {{ stop(); window.removeEventListener("beforeunload", stop); }};
}}
export default {{ render }};
"""


class CanvasWidth(anywidget.AnyWidget):
    """Reports the width its front end is drawn at (`width`, 0 until it is shown)."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    width = traitlets.Int(0).tag(sync=True)
    laid_out_for = traitlets.Int(0).tag(sync=True)
    """The width the picture shown is laid out for (0: none yet): the map is hidden
    while the view's width differs from it."""
