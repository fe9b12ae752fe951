"""The detail pane: pick a profile, channel or partner; see its fields, where-used, impact.

Picking is a search box (type part of a name or id; the suggestions follow what is typed,
50 at a time, so an estate of 10,000 profiles never sends 10,000 options) or a click on a
table row. Where-used and impact are answered on the graph of the whole estate, because
"what stops if this channel goes down" must not depend on the current filter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..models import field_value
from ..names import plural, type_label
from ..nodes import label, type_of
from .html import fields_html, list_html

if TYPE_CHECKING:
    from .model import ExplorerModel, Selection

__all__ = ["DetailPane", "KINDS", "detail_html"]

KINDS = ("profile", "channel", "partner")
_SUGGESTIONS = 50
_PROFILE_FIELDS = ("id", "name", "group", "active", "tags", "description", "encoding")


class DetailPane:
    """A kind switch, a search box with suggestions, and the chosen item's details."""

    def __init__(self, model: ExplorerModel, current: Callable[[], Selection]) -> None:
        self._model = model
        self._current = current
        self._choices: dict[str, str] | None = None
        self.kind = W.ToggleButtons(
            options=[(k.capitalize(), k) for k in KINDS],
            value="profile",
            style={"button_width": "86px"},
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.search = W.Combobox(
            placeholder="type a name or id, then pick",
            ensure_option=False,
            continuous_update=True,
            layout=W.Layout(flex="1 1 auto", min_width="200px", max_width="480px"),
        )
        self.content = W.HTML(
            "<p class='ipt-none'>Pick a profile, channel or partner, "
            "or click a row of the table.</p>"
        )
        self.kind.observe(lambda _: self._kind_changed(), "value")
        self.search.observe(lambda change: self._typed(change["new"]), "value")
        self.widget = W.VBox(
            [W.HBox([self.kind, self.search]), self.content],
            layout=W.Layout(width="100%"),
        )
        self.widget.add_class("ipt-detail")
        self.node: str | None = None

    # -- choosing -------------------------------------------------------------------------

    def invalidate(self) -> None:
        """The selection changed: suggestions are recomputed when next needed."""
        self._choices = None
        self.search.options = ()

    @property
    def choices(self) -> dict[str, str]:
        """Label -> node id for the current kind within the current selection."""
        if self._choices is None:
            self._choices = _choices(self._model, self._current(), self.kind.value)
        return self._choices

    def _kind_changed(self) -> None:
        self._choices = None
        self.search.value = ""
        self._typed("")

    def _typed(self, text: str) -> None:
        node = self.choices.get(text)
        if node is not None:
            self.show(node)
            return
        words = text.lower().split()
        matches = [c for c in self.choices if all(w in c.lower() for w in words)]
        self.search.options = tuple(matches[:_SUGGESTIONS])

    def show(self, node: str) -> None:
        """Show a graph node's details (`profile:P1`, `channel:17`, `partner:1001`)."""
        self.node = node
        self.content.value = detail_html(self._model, node, self._current())


def _choices(model: ExplorerModel, selection: Selection, kind: str) -> dict[str, str]:
    """Label -> node id of the selection's profiles, channels or partners."""
    if kind == "profile":
        labels, nodes = model.profile_labels, model.profile_nodes
        return {labels[row]: nodes[row] for row in selection.rows}
    estate = selection.estate
    if kind == "channel":
        return {
            f"{label(channel, key)} ({_type_label(channel)}, id {key})": f"channel:{key}"
            for key, channel in estate.channels.items()
        }
    return {
        f"{label(partner, key)} (id {key})": f"partner:{key}"
        for key, partner in estate.partners.items()
    }


def _type_label(model: Any) -> str:
    return type_label(type_of(model) or "channel")


def detail_html(model: ExplorerModel, node: str, selection: Selection) -> str:
    """Fields, where-used and impact of a node, as HTML (secrets masked)."""
    from ..queries import impact, where_used

    graph = model.graph
    if node not in graph:
        return f"<p class='ipt-none'>{node} is not in this estate.</p>"
    data = graph.nodes[node]
    kind = data.get("kind")
    in_selection = {model.profile_nodes[row] for row in selection.rows}
    parts = []
    if kind == "profile":
        raw = model.estate.raw_profiles[data["index"]]
        fields = {name: raw.get(name) for name in _PROFILE_FIELDS} if isinstance(raw, dict) else {}
        fields["input agent"] = data.get("agent_type")
        if data.get("problem"):
            fields["problem"] = data.get("error")
        parts.append(fields_html(fields, title=f"Profile {data.get('id')}"))
        agent = raw.get("inputAgentSettings") if isinstance(raw, dict) else None
        if isinstance(agent, dict):  # its channels are listed below, by name
            settings = {k: v for k, v in agent.items() if k not in ("channel", "channels")}
            parts.append(fields_html(settings, title="Input agent settings"))
        uses = [
            _node_label(graph, other)
            for step in graph.successors(node)
            for other in (step, *graph.successors(step))
            if graph.nodes[other].get("kind") == "channel"
        ]
        parts.append(list_html("Channels it uses", dict.fromkeys(uses)))
    else:
        model_obj = data.get("model", data.get("json"))
        fields = _dump(model_obj)
        if kind == "channel":
            fields.pop("partner", None)
            fields["partner"] = data.get("partner")
            fields["host"] = data.get("host")
        parts.append(fields_html(fields, title=f"{str(kind).capitalize()} {label(model_obj)}"))
        if kind == "partner":
            channels = [
                _node_label(graph, c)
                for c in graph.predecessors(node)
                if graph.nodes[c].get("kind") == "channel"
            ]
            parts.append(list_html("Its channels", channels))
    used = where_used(graph, node)
    if kind != "profile":
        chosen = sum(1 for p in used if p in in_selection)
        parts.append(
            list_html(
                "Where used",
                [_node_label(graph, p) for p in used],
                note=f"in the whole estate; {chosen:,} in the current selection",
            )
        )
    hit = impact(graph, node)
    parts.append(
        f"<div class='ipt-title'>Impact if it goes away</div><p>{_impact_words(hit)}</p>"
        + list_html(
            "Profiles that lose all input",
            [_node_label(graph, p) for p in hit.lose_input],
            limit=20,
        )
        + list_html(
            "Profiles that lose a response path",
            [_node_label(graph, p) for p in hit.lose_response],
            limit=20,
        )
        + list_html(
            "Partners left without an active channel",
            [_node_label(graph, p) for p in hit.partners],
            limit=20,
        )
    )
    return "<div class='ipt-detail-body'>" + "".join(parts) + "</div>"


def _impact_words(hit: Any) -> str:
    if not hit:
        return "Nothing active stops."
    said = [
        f"{plural(len(hit.lose_input), 'active profile')} would receive nothing",
        f"{plural(len(hit.partial_input), 'profile')} would lose part of their input",
        f"{plural(len(hit.lose_response), 'profile')} would lose a response path",
        f"{plural(len(hit.partners), 'partner')} would be left without an active channel",
    ]
    return "; ".join(said) + "."


def _node_label(graph: Any, node: str) -> str:
    data = graph.nodes[node]
    kind = data.get("kind")
    name = data.get("name") or ""
    if kind == "profile":
        return f"{data.get('id')} · {name}".strip(" ·")
    if kind == "channel":
        kind_name = type_label(data.get("type")) if data.get("type") else None
        extra = ", ".join(str(x) for x in (kind_name, data.get("partner")) if x)
        return f"{name or data.get('id')} ({extra})" if extra else str(name or data.get("id"))
    return str(name or node)


def _dump(model: Any) -> dict[str, Any]:
    if model is None:
        return {}
    if isinstance(model, dict):
        return dict(model)
    dump = getattr(model, "model_dump", None)
    if dump is not None:
        return dump(by_alias=True, exclude_unset=True, mode="json")
    return {"value": field_value(model, "name")}
