"""`HoverNames`: the whole name of a node under the pointer, where its label is cut.

A view laid out for a narrow canvas cuts its longest labels (`topology_fit.label_budget`),
and sigma.js draws a hovered node's label from the same text as the label itself, with
no option for another (ipysigma's hover renderer reads `label`). This anywidget, placed
in the `SigmaBox`, gives the hover the whole name: it wraps `fillText` and `measureText`
of the 2D context of each `sigma-hovers` canvas in its box (that context only: the
page's other canvases are untouched), so that a label found in `names` (the drawn label
-> the whole one) is measured and drawn whole. sigma draws the hover's white box from
that measure, so the box fits the whole name.

Only labels that stand for one node are in `names` (`topology_data.hover_names`); a
label two nodes share after cutting keeps its cut text on hover (a click names the node).
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["HoverNames"]

_ESM = """
function render({ model, el }) {
  el.classList.add("ipt-hover-names");
  el.style.display = "none";
  const whole = (text) => {
    const names = model.get("names") || {};
    return Object.prototype.hasOwnProperty.call(names, text) ? names[text] : text;
  };
  const wrap = (canvas) => {
    if (canvas.__iptHoverNames) return;
    const context = canvas.getContext("2d");
    if (!context) return;
    canvas.__iptHoverNames = true;
    const fill = context.fillText, measure = context.measureText;
    context.fillText = function (text, ...rest) {
      return fill.call(this, whole(String(text)), ...rest);
    };
    context.measureText = function (text) {
      return measure.call(this, whole(String(text)));
    };
  };
  // rendered before it is attached to the page: its box is found once it is
  let observer = null, timer = null;
  const attach = () => {
    const box = el.isConnected ? el.closest(".ipt-topology-canvas") || el.parentElement : null;
    if (!box) { timer = setTimeout(attach, 100); return; }
    const scan = () => box.querySelectorAll("canvas.sigma-hovers").forEach(wrap);
    observer = new MutationObserver(scan);
    observer.observe(box, { childList: true, subtree: true });
    scan();
  };
  attach();
  return () => { if (observer) observer.disconnect(); if (timer) clearTimeout(timer); };
}
export default { render };
"""


class HoverNames(anywidget.AnyWidget):
    """Tells the canvas in its box to draw `names[label]` where it hovers `label`."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    names = traitlets.Dict(traitlets.Unicode(), default_value={}).tag(sync=True)
