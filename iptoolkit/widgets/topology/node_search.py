"""`NodeSearch`: the topology view's search box, the keyboard's way to every node.

sigma.js draws on WebGL, out of reach of the keyboard and of screen readers; ipysigma's
own search listed every node by its key, the invisible ports included ("Finance" answered
`group:profile:Finance →` first, and picking it drew an empty picture), and its Choices.js
box gave its item an ARIA attribute its role does not allow (axe: critical). This
anywidget lists the answers of `topology_search.search_items` (the level's items and
groups by name, never a port) under a labelled search field: typing lists them, Enter
picks the first, the arrows walk them, Escape closes them. A pick is sent to Python
(`on_pick(key)`), which does what a click on the node does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import anywidget
import traitlets

from ...viewmodel.topology_search import SearchItem

__all__ = ["NodeSearch"]

_ESM = """
function render({ model, el }) {
  el.classList.add("ipt-node-search");
  const input = document.createElement("input");
  input.type = "search";
  input.className = "ipt-node-search-input";
  input.placeholder = "find an item or group in this view";
  input.setAttribute("aria-label", "find an item or group in this view");
  const list = document.createElement("ul");
  list.className = "ipt-node-results";
  list.setAttribute("aria-label", "answers");
  el.append(input, list);
  const buttons = () => Array.from(list.querySelectorAll("button"));
  const pick = (key) => {
    list.textContent = "";
    input.value = "";
    model.send({ pick: key });
  };
  const show = () => {
    list.textContent = "";
    const typed = input.value.trim().toLowerCase();
    if (!typed) return;
    const words = typed.split(/\\s+/), items = model.get("items") || [], found = [];
    items.forEach((item, i) => {
      const name = item[1].toLowerCase(), text = name + " " + item[2].toLowerCase();
      if (words.every((word) => text.includes(word))) {
        found.push([name === typed ? 0 : name.startsWith(typed) ? 1 : 2, i]);
      }
    });
    found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [, i] of found.slice(0, 12)) {
      const item = items[i], li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "ipt-node-result";
      button.textContent = `${item[2]} (${item[3]})`;
      button.addEventListener("click", () => pick(item[0]));
      li.append(button);
      list.append(li);
    }
    if (!found.length) {
      const li = document.createElement("li");
      li.className = "ipt-node-none";
      li.textContent = "nothing so named in this view";
      list.append(li);
    }
  };
  input.addEventListener("input", show);
  input.addEventListener("keydown", (event) => {
    const first = buttons()[0];
    if (event.key === "Enter" && first) first.click();
    else if (event.key === "ArrowDown" && first) first.focus();
    else if (event.key === "Escape") list.textContent = "";
    else return;
    event.preventDefault();
    event.stopPropagation();  // Jupyter's own shortcuts stay out of it
  });
  list.addEventListener("keydown", (event) => {
    const all = buttons(), at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "ArrowDown" && at < all.length - 1) all[at + 1].focus();
    else if (event.key === "ArrowUp") (at > 0 ? all[at - 1] : input).focus();
    else if (event.key === "Escape") { list.textContent = ""; input.focus(); }
    else return;
    event.preventDefault();
    event.stopPropagation();
  });
  model.on("change:items", show);
}
export default { render };
"""

_CSS = """
.ipt-node-search {position: relative; width: 280px; margin-left: auto;}
.ipt-node-search .ipt-node-search-input {width: 100%; box-sizing: border-box;
  font: inherit; font-size: 13px; padding: 3px 8px; border: 1px solid #767676;
  border-radius: 3px; background: var(--jp-layout-color1, #fff);
  color: var(--jp-ui-font-color1, #1f2328);}
.ipt-node-search .ipt-node-results {position: absolute; z-index: 20; left: 0; right: 0;
  top: 100%; margin: 2px 0 0 0; padding: 0; list-style: none; max-height: 320px;
  overflow-y: auto; background: var(--jp-layout-color1, #fff); border: 1px solid #d0d7de;
  border-radius: 3px; box-shadow: 0 4px 12px rgba(0, 0, 0, 0.12);}
.ipt-node-search .ipt-node-results:empty {display: none;}
.ipt-node-search .ipt-node-result {display: block; width: 100%; text-align: left;
  border: none; background: none; padding: 4px 8px; font: inherit; font-size: 13px;
  color: var(--jp-ui-font-color1, #1f2328); cursor: pointer; overflow-wrap: anywhere;}
.ipt-node-search .ipt-node-result:hover, .ipt-node-search .ipt-node-result:focus
  {background: #ddf4ff;}
.ipt-node-search .ipt-node-none {padding: 4px 8px; font-size: 13px;
  color: var(--jp-ui-font-color2, #57606a);}
"""


class NodeSearch(anywidget.AnyWidget):
    """The search field above the canvas: `items` are its answers (`search_items` of the
    level shown); a pick calls `on_pick(key)` with the view's node key."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    _css = traitlets.Unicode(_CSS).tag(sync=True)
    items = traitlets.List(traitlets.List(traitlets.Unicode()), default_value=[]).tag(sync=True)

    def __init__(self, on_pick: Callable[[str], None]) -> None:
        super().__init__()
        self._on_pick = on_pick
        self.on_msg(self._message)

    def show(self, answers: Iterable[SearchItem]) -> None:
        """The answers the field offers now (the level shown)."""
        self.items = [list(answer) for answer in answers]

    def _message(self, _: Any, content: Any, buffers: Any) -> None:
        if isinstance(content, dict) and isinstance(content.get("pick"), str):
            self._on_pick(content["pick"])
