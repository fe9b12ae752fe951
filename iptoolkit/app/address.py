"""The app's view in its page address: `?partner=Mosel+Retail&channel-type=AS2&item=channel:40003`.

A link then opens the same view: the same filter, the same item in Details. Parameters are
named as the command line's filter options are (`--partner`, `--agent-type`,
`--channel-type`, `--channel`, `--group`, `--tag`, `--active`/`--inactive`, `--text`),
repeated for several values, so what a person learnt on one works on the other; `item` is
the node id Details shows; `drill` is a group the topology opened, as its breadcrumb names
it, repeated for each level (`?drill=Finance/AP&drill=AS2+profiles`: a subgroup stands for
the groups above it, see `TopologyView.drill_path`); `from` and `to` are two items whose
paths the topology shows (`?from=P-000001&to=partner:1003`, `Explorer.show_paths`); `view`
is a saved view's name (`?view=AS2+partners`, see `viewmodel.saved_views`); over an
archive (`iptoolkit explore --archive`), `at` is the snapshot the timeline shows and
`since` the one its changes are counted from (`?at=2026-11-23&since=2026-11-16`: a date
names that day's last snapshot, a date-time or an id one exactly; absent: the newest, and
the one before it).

`view_of(query)` reads an address (what it does not know is reported, never dropped
silently); `query_of(filter, item)` writes one. `PageAddress` is the anywidget between the
two and the browser: it reports the address the page was opened with, keeps the address
bar in step (`history.replaceState`: no reload, no new history entry per click) and offers
"Copy link", which copies that address with the app's token (the address bar keeps it
out, as JupyterLab does): the person copying may use the app, and a colleague on the same
machine given the link needs the token to open it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

import anywidget
import traitlets
from pydantic import ValidationError

from ..core.selection import Filter
from ..support.names import type_label

__all__ = ["PARAMETERS", "PageView", "view_of", "query_of", "PageAddress"]

PARAMETERS: dict[str, str] = {
    "partner": "partners",
    "agent-type": "agent_types",
    "channel-type": "channel_types",
    "channel": "channels",
    "group": "groups",
    "tag": "tags",
}
"""Query parameter (the CLI option without `--`) -> the `Filter` field it fills."""
ITEM = "item"
DRILL = "drill"
PATH_ENDS = ("from", "to")
VIEW = "view"
MOMENT = ("at", "since")
SERVER_PARAMETERS = ("token",)
"""Read by the server, not the app: the token `iptoolkit explore` prints in the address
(the page must not call it a parameter it cannot read)."""
_TYPES = ("agent_types", "channel_types")
_FLAGS = {"active": True, "inactive": False}


@dataclass(frozen=True)
class PageView:
    """What an address asks for: a filter, an item to show (a node id), and what could not
    be read (`problems`, one line each, naming the parameter)."""

    filter: Filter = field(default_factory=Filter)
    item: str | None = None
    problems: tuple[str, ...] = ()
    drill: tuple[str, ...] = ()
    """The topology's groups opened, level after level (`TopologyView.open_path`)."""
    paths: tuple[str, str] | None = None
    """Two items whose paths the topology shows (`Explorer.show_paths`)."""
    view: str | None = None
    """A saved view to open (its name, `viewmodel.saved_views`)."""
    moment: tuple[str | None, str | None] = (None, None)
    """The timeline's snapshot shown and the one its changes are counted from (`at`,
    `since`: as `Archive.estate`'s `at` takes them; None: the newest, the one before)."""


def view_of(query: str) -> PageView:
    """Read a query string (with or without its `?`)."""
    fields: dict[str, Any] = {}
    item: str | None = None
    drill: list[str] = []
    ends: dict[str, str] = {}
    saved: str | None = None
    moment: dict[str, str] = {}
    problems: list[str] = []
    for name, value in parse_qsl(query.removeprefix("?"), keep_blank_values=True):
        value = value.strip()
        if name in PARAMETERS:
            if value:
                fields.setdefault(PARAMETERS[name], []).append(value)
        elif name in _FLAGS:
            fields["active"] = _FLAGS[name]
        elif name == "text":
            fields["text"] = value or None
        elif name == ITEM:
            item = value or None
        elif name == DRILL:
            if value:
                drill.append(value)
        elif name in PATH_ENDS:
            if value:
                ends[name] = value
        elif name == VIEW:
            saved = value or None
        elif name in MOMENT:
            if value:
                moment[name] = value
        elif name in SERVER_PARAMETERS:
            continue
        else:
            known = ", ".join(
                [*PARAMETERS, *_FLAGS, "text", ITEM, DRILL, *PATH_ENDS, VIEW, *MOMENT]
            )
            problems.append(f"address parameter {name!r} is not one the app reads ({known})")
    try:
        chosen = Filter(**fields)
    except ValidationError as exc:  # cannot happen for these fields; said, not raised
        problems.append(f"address: {exc.errors()[0]['msg']}")
        chosen = Filter()
    paths = None
    if len(ends) == 2:
        paths = (ends["from"], ends["to"])
    elif ends:
        one, other = ("from", "to") if "from" in ends else ("to", "from")
        problems.append(f"address parameter {one!r} needs {other!r}: the paths between two items")
    at, since = (moment.get(name) for name in MOMENT)
    return PageView(chosen, item, tuple(problems), tuple(drill), paths, saved, (at, since))


def query_of(
    chosen: Filter,
    item: str | None = None,
    drill: tuple[str, ...] = (),
    paths: tuple[str, str] | None = None,
    moment: tuple[str | None, str | None] = (None, None),
) -> str:
    """The query string (no `?`) for a filter, an item, the topology's groups opened, the
    two items whose paths it shows and the timeline's moment (`at`, `since`); empty for
    everything, no item, the overview, the newest snapshot."""
    pairs: list[tuple[str, str]] = []
    for name, attribute in PARAMETERS.items():
        named = type_label if attribute in _TYPES else str  # `AS2`, as the lists say it
        pairs.extend((name, named(value)) for value in getattr(chosen, attribute))
    if chosen.text:
        pairs.append(("text", chosen.text))
    if item:
        pairs.append((ITEM, item))
    pairs.extend((DRILL, title) for title in drill)
    if paths is not None:
        pairs.extend(zip(PATH_ENDS, paths, strict=True))
    pairs.extend((name, value) for name, value in zip(MOMENT, moment, strict=True) if value)
    parts = [urlencode(pairs, safe=":/")] if pairs else []
    if chosen.active is not None:  # a flag, as on the command line: `?active`, `?inactive`
        parts.append("active" if chosen.active else "inactive")
    return "&".join(parts)


_ESM = """
function render({ model, el }) {
  el.classList.add("ipt-address");
  if (model.get("opened_with") === null) {
    model.set("opened_with", window.location.search);
    model.save_changes();
  }
  const follow = () => {
    const query = model.get("query");
    const address = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    if (address !== window.location.pathname + window.location.search + window.location.hash) {
      window.history.replaceState(window.history.state, "", address);
    }
  };
  follow();
  model.on("change:query", follow);
  const shared = () => {  // the address bar's, with the app's token: a link that opens
    const token = model.get("token");
    const here = window.location;
    if (!token || new URLSearchParams(here.search).has("token")) return here.href;
    const query = here.search + (here.search ? "&" : "?") + "token=" + encodeURIComponent(token);
    return here.origin + here.pathname + query + here.hash;
  };
  const button = document.createElement("button");
  button.className = "ipt-copy-link jupyter-button";
  button.type = "button";
  button.textContent = "Copy link";
  button.title = model.get("token")
    ? "copy the address of this view, with the app's token: whoever opens it can use the app"
    : "copy the address of this view: the filter and the item shown";
  const said = document.createElement("span");
  said.className = "ipt-copy-said";
  said.setAttribute("aria-live", "polite");
  button.addEventListener("click", async () => {
    const link = shared();
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = "link copied";
    } catch (error) {  // no clipboard (plain http on another host): show it to copy by hand
      said.textContent = link;
    }
  });
  el.append(button, said);
  return () => model.off("change:query", follow);
}
export default { render };
"""
_CSS = """
.ipt-address {display: flex; align-items: center; gap: 8px;}
.ipt-address .ipt-copy-said {color: var(--jp-ui-font-color2, #616161); font-size: 0.9em;
  word-break: break-all;}
"""


class PageAddress(anywidget.AnyWidget):
    """The page's address: `opened_with` (set once by the browser, the query it was opened
    with), `query` (set by the kernel: the browser's address follows) and a copy button."""

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    _css = traitlets.Unicode(_CSS).tag(sync=True)
    opened_with = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    token = traitlets.Unicode("").tag(sync=True)
    """The app's token (`iptoolkit explore` hands it to its kernels), which "Copy link" adds
    to the address: a colleague given a link without it meets only the app's refusal."""
