"""The detail pane: pick a profile, channel or partner; see its fields, where-used, impact;
follow any item named there to its own details, and come back.

Picking is a search box over the WHOLE estate (an item outside the current selection is
found too, and marked so): a typed text that names exactly one item (its label, its name in
any case, its id or node id, read by `resolve.ItemIndex`, the one resolver) opens it at once;
a name several items share lists them as links; otherwise the suggestions follow what is
typed, at most 50, so an estate of 10,000 profiles never sends 10,000 options. Items open
from a table row, a topology node, a finding or a link in the pane itself, and "Back"
returns through a short history. The details themselves are `item_html.detail_html`.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..core.nodes import channel_node, label, partner_node, type_of
from ..support.names import type_label
from ..support.shown_tab import ShownTab
from ..viewmodel.explorer_html import OUTSIDE_NOTE, list_html, node_text
from ..viewmodel.item_html import detail_html, item_link
from .links import LinkedHTML

if TYPE_CHECKING:
    from ..query.resolve import ItemIndex
    from ..viewmodel.explorer_model import ExplorerModel, Selection

__all__ = [
    "DetailPane",
    "KINDS",
    "HISTORY",
    "SUGGESTIONS",
    "selection_nodes",
]

KINDS = ("profile", "channel", "partner")
HISTORY = 20
"""Items "Back" remembers."""
SUGGESTIONS = 50
"""Options the search box offers at most, whatever the estate's size."""
_PLACEHOLDER = (
    "<p class='ipt-none'>Pick a profile, channel or partner, or click a row of the table, "
    "a node of the topology, a finding, or any linked name.</p>"
)


class DetailPane:
    """A kind switch, a search box, a back button, and the chosen item's details.

    `on_open(node)` is what a click on a linked name does (the Explorer opens the Details
    tab too); by default the pane just shows the item.
    """

    def __init__(
        self,
        model: ExplorerModel,
        current: Callable[[], Selection],
        on_open: Callable[[str], None] | None = None,
        on_focus: Callable[[str], None] | None = None,
        on_paths: Callable[[str, str], object] | None = None,
    ) -> None:
        self._model = model
        self._current = current
        self._choices: dict[str, dict[str, str]] = {}
        """kind -> label -> node id, over the whole estate (the selection only marks)."""
        self._offered: dict[str, str] = {}
        """The options offered now (marked when outside the selection) -> node id."""
        self._index: ItemIndex | None = None
        self._inside: tuple[Selection, frozenset[str]] | None = None
        self._quiet = False  # set while the pane itself changes the kind or the search box
        self._typed_node = False  # the item shown was opened by typing, not settled on
        self.history: list[str] = []
        self.node: str | None = None
        self.extra: Callable[[str], str] | None = None
        """HTML shown after an item's details (the Explorer's timeline: its history)."""
        self.tab = ShownTab(self._redraw, visible=True, stale=False)
        """Drawn only while the Explorer's Details tab is shown (the details cost an impact
        query)."""
        self._item_watchers: list[Callable[[str | None], None]] = []

        self.kind = W.ToggleButtons(
            options=[(k.capitalize(), k) for k in KINDS],
            value="profile",
            style={"button_width": "86px"},
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.search = W.Combobox(
            placeholder="type a name or id",
            ensure_option=False,
            continuous_update=True,
            layout=W.Layout(flex="1 1 auto", min_width="200px", max_width="480px"),
        )
        self.back_button = W.Button(
            description="Back",
            icon="arrow-left",
            disabled=True,
            tooltip="the item shown before",
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.back_button.add_class("ipt-back")
        self.around_button = W.Button(
            description="Neighbourhood",
            icon="dot-circle-o",
            disabled=True,
            tooltip="this item and what it is linked to, in the Topology tab",
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.around_button.add_class("ipt-around")

        def around(_: object) -> None:
            if on_focus is not None and self.node:
                on_focus(self.node)

        self.around_button.on_click(around)
        if on_focus is None:
            self.around_button.layout.display = "none"
        self.paths = PathButtons(on_paths)
        self.on_item(self.paths.follow)
        self.content = LinkedHTML(_PLACEHOLDER, on_open=on_open or self.show)
        self.content.add_class("ipt-detail-content")
        self.kind.observe(lambda _: self._kind_changed(), "value")
        self.search.observe(lambda change: self._typed(change["new"]), "value")
        self.back_button.on_click(lambda _: self.back())
        self.widget = W.VBox(
            [
                W.HBox(
                    [
                        self.back_button,
                        self.kind,
                        self.search,
                        self.around_button,
                        *self.paths.buttons,
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.content,
            ],
            layout=W.Layout(width="100%"),
        )
        self.widget.add_class("ipt-detail")

    def on_item(self, callback: Callable[[str | None], None]) -> None:
        """Call `callback(node)` whenever the item shown changes (None: none)."""
        self._item_watchers.append(callback)

    def _item_changed(self) -> None:
        self.around_button.disabled = self.node is None
        for callback in self._item_watchers:
            callback(self.node)

    # -- the selection --------------------------------------------------------------------

    def invalidate(self) -> None:
        """The selection changed: the marks (inside or outside it) are redrawn now if the
        pane is shown, else when it is next shown."""
        self._offered = {}
        self.search.options = ()
        self.tab.invalidate()

    def redraw(self) -> None:
        """Draw the item shown again, for the current selection."""
        self.tab.draw()

    def _redraw(self) -> None:
        if self.node is not None:
            self.content.value = _content(self, self.node)

    @property
    def inside(self) -> frozenset[str]:
        """The node ids of the current selection's profiles, channels and partners."""
        selection = self._current()
        if self._inside is None or self._inside[0] is not selection:
            self._inside = (selection, selection_nodes(self._model, selection))
        return self._inside[1]

    # -- choosing -------------------------------------------------------------------------

    @property
    def choices(self) -> dict[str, str]:
        """Label -> node id for the current kind, over the whole estate."""
        kind = self.kind.value
        if kind not in self._choices:
            self._choices[kind] = _choices(self._model, kind)
        return self._choices[kind]

    @property
    def index(self) -> ItemIndex:
        """The resolver's tables for the estate's graph (made once, on first typed name)."""
        if self._index is None:
            from ..query.resolve import ItemIndex

            self._index = ItemIndex(self._model.graph)
        return self._index

    def _kind_changed(self) -> None:
        if self._quiet:
            return
        self.clear()

    def clear(self) -> None:
        """An empty pane and search box (the item shown goes into the history)."""
        self._remember()
        self.node = None
        self.content.value = _PLACEHOLDER
        self._set_search("")
        self._suggest("")
        self._item_changed()

    def _typed(self, text: str) -> None:
        if self._quiet:
            return
        text = text.strip()
        node = self._offered.get(text) or self.choices.get(text)
        if node is None and text:
            kind = self.kind.value
            found = self._named(text, (kind,))
            if not found:  # a name of another kind: open it (the kind switch follows)
                found = self._named(text, KINDS)
            if len(found) == 1:
                node = found[0]
            elif found:
                self._candidates(text, found)
        if node is not None:
            self._open(node, typed=True)
        self._suggest(text)
        if text and node is None and not self._offered and self.node is None:
            self.content.value = (  # no dead end: say that nothing has this name
                f"<p class='ipt-none'>No profile, channel or partner is named or numbered "
                f"{html.escape(text)!r}; try part of a name.</p>"
            )

    def _named(self, text: str, kinds: tuple[str, ...]) -> list[str]:
        """The items of `kinds` that `text` names exactly (label, name, id or node id)."""
        return [
            str(n)
            for n in self.index.matches(text, kinds=kinds, named=kinds)
            if str(n).partition(":")[0] in KINDS
        ]

    def _suggest(self, text: str) -> None:
        """Offer the labels holding every typed word: the selection's first, then the rest
        marked, `SUGGESTIONS` at most."""
        words = text.lower().split()
        inside = self.inside
        within: list[str] = []
        beyond: list[tuple[str, str]] = []
        for shown, node in self.choices.items():
            lowered = shown.lower()
            if not all(word in lowered for word in words):
                continue
            if node in inside:
                within.append(shown)
                if len(within) >= SUGGESTIONS:
                    break
            elif len(beyond) < SUGGESTIONS:
                beyond.append((f"{shown} [{OUTSIDE_NOTE}]", node))
        offered = {shown: self.choices[shown] for shown in within}
        offered.update(beyond[: SUGGESTIONS - len(offered)])
        self._offered = offered
        self.search.options = tuple(offered)

    def _candidates(self, text: str, nodes: list[str]) -> None:
        """A name several items share: each of them, as a link."""
        self._remember()
        self.node = None
        graph, inside = self._model.graph, self.inside
        self.content.value = list_html(
            f"{text!r} names {len(nodes):,} items; pick one",
            [item_link(graph, node, inside) for node in nodes],
        )

    # -- showing --------------------------------------------------------------------------

    def show(self, node: str) -> None:
        """Show a graph node's details (`profile:P1`, `channel:17`, `partner:1001`; an agent
        or response unit shows its profile); the item shown before goes into the history."""
        graph = self._model.graph
        if node in graph and graph.nodes[node].get("kind") in ("agent", "response"):
            node = graph.nodes[node].get("profile", node)
        self._open(node, typed=False)
        self._set_search("")

    def back(self) -> None:
        """Show the item shown before this one."""
        if not self.history:
            return
        node = self.history.pop()
        self._draw(node)
        self._typed_node = False
        self._set_search("")
        self._update_back()

    def _open(self, node: str, *, typed: bool) -> None:
        # an item opened by typing that the next key replaces is no step to go back to
        if not (typed and self._typed_node) and node != self.node:
            self._remember()
        self._typed_node = typed
        self._draw(node)

    def _draw(self, node: str) -> None:
        self.node = node
        kind = node.partition(":")[0]
        if kind in KINDS and self.kind.value != kind:
            self._quiet = True
            try:
                self.kind.value = kind
            finally:
                self._quiet = False
        self.tab.drawn()
        self.content.value = _content(self, node)
        self._item_changed()

    def _remember(self) -> None:
        if self.node is not None and (not self.history or self.history[-1] != self.node):
            self.history.append(self.node)
            del self.history[:-HISTORY]
        self._update_back()

    def _update_back(self) -> None:
        self.back_button.disabled = not self.history
        if self.history:
            node, graph = self.history[-1], self._model.graph
            named = node_text(graph, node) if node in graph else node
            self.back_button.tooltip = f"back to {named}"

    def _set_search(self, text: str) -> None:
        self._quiet = True
        try:
            self.search.value = text
        finally:
            self._quiet = False


class PathButtons:
    """ "Paths from here" and "Paths to here" beside an item's details: the first remembers
    the item shown (`start`), the second, on another item, calls `on_paths(start, item)`
    (the Explorer shows the paths in the Topology tab). Hidden without `on_paths`."""

    def __init__(self, on_paths: Callable[[str, str], object] | None) -> None:
        self.start: str | None = None
        self.node: str | None = None
        self.from_button = W.Button(
            description="Paths from here",
            icon="share-alt",
            disabled=True,
            tooltip="remember this item: open another, then 'Paths to here'",
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.from_button.add_class("ipt-paths-from")
        self.to_button = W.Button(
            description="Paths to here",
            icon="flag",
            layout=W.Layout(width="auto", flex="0 0 auto", display="none"),
        )
        self.to_button.add_class("ipt-paths-to")
        self.buttons = (self.from_button, self.to_button)

        def remember(_: object) -> None:
            self.start = self.node
            self.follow(self.node)

        def show(_: object) -> None:
            if on_paths is not None and self.start and self.node and self.node != self.start:
                on_paths(self.start, self.node)

        self.from_button.on_click(remember)
        self.to_button.on_click(show)
        if on_paths is None:
            for button in self.buttons:
                button.layout.display = "none"
        self._offered = on_paths is not None

    def follow(self, node: str | None) -> None:
        """The pane shows `node` now: "to here" is offered when it is not the start."""
        self.node = node
        self.from_button.disabled = node is None
        ends = self._offered and self.start is not None and node not in (None, self.start)
        self.to_button.layout.display = None if ends else "none"
        if ends:
            self.to_button.tooltip = f"the paths from {self.start} to this item, in Topology"


def _choices(model: ExplorerModel, kind: str) -> dict[str, str]:
    """Label -> node id of the estate's profiles, channels or partners."""
    estate = model.estate
    if kind == "profile":
        return dict(zip(model.profile_labels, model.profile_nodes, strict=True))
    if kind == "channel":
        return {
            f"{label(channel, key)} ({_type_label(channel)}, id {key})": channel_node(key)
            for key, channel in estate.channels.items()
        }
    return {
        f"{label(partner, key)} (id {key})": partner_node(key)
        for key, partner in estate.partners.items()
    }


def selection_nodes(model: ExplorerModel, selection: Selection) -> frozenset[str]:
    """The node ids of a selection's profiles, and of the channels and partners they use."""
    records = model.estate.records
    nodes: set[str] = set()
    for row in selection.rows:
        record = records[row]
        nodes.add(record.node)
        nodes.update(channel_node(key) for key in record.channel_keys)
        nodes.update(partner_node(key) for key in record.partners)
    return frozenset(nodes)


def _type_label(model: Any) -> str:
    return type_label(type_of(model) or "channel")


def _content(pane: DetailPane, node: str) -> str:
    """What the pane shows of `node`: its details, then the pane's `extra`."""
    shown = detail_html(pane._model, node, pane.inside)
    return shown + pane.extra(node) if pane.extra is not None else shown
