"""An item's details as HTML: its fields, the items it names as links (a profile's
channels and partners, a channel's partner, a partner's channels), where-used and impact.

A pure function of the estate's graph and the selection's node ids (what lies outside the
selection is marked), so the detail pane only places it; where-used and impact are asked of
the whole estate's graph, because "what stops if this channel goes down" must not depend
on the filter.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.nodes import is_active, label
from ..models import field_value
from ..support.names import plural
from ..support.redact import redact_text
from .explorer_html import OUTSIDE_NOTE, Link, fields_html, list_html, node_text

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from .explorer_model import ExplorerModel

__all__ = [
    "detail_html",
    "detail_sections",
    "Section",
    "item_link",
    "link_cache",
    "activity",
]

_PROFILE_FIELDS = ("id", "name", "group", "active", "tags", "description", "encoding")


def activity(item: Any) -> str:
    """An item's `active` flag as people read it: `active` or `inactive` (`is_active`, the
    one rule), saying why for a flag that is missing or not a boolean."""
    if is_active(item):
        return "active"
    flag = field_value(item, "active")
    if flag is False:
        return "inactive"
    if flag is None:
        return "inactive (no active flag)"
    return f"inactive (its active flag is {flag!r}, not true)"


@dataclass(frozen=True)
class Section:
    """One part of an item's details: a table of fields (`fields`, with `links` after them),
    a list of items (`items`, links or text) or a paragraph (`text`), under `title`."""

    title: str
    fields: dict[str, Any] | None = None
    links: dict[str, Link] = field(default_factory=dict)
    items: Sequence[str | Link] | None = None
    note: str = ""
    limit: int = 50
    text: str | None = None
    css: str = "ipt-title"


def detail_sections(
    model: ExplorerModel,
    node: str,
    inside: frozenset[str],
    link: Callable[[str], Link] | None = None,
) -> list[Section]:
    """What the Details tab shows of a node: its fields, the items it names, where-used and
    impact, as data (`detail_html` writes it as HTML, the offline view as JSON); `inside`
    are the current selection's nodes, the rest are marked outside it. Fields are not
    masked yet: whoever shows them masks them (`redact_fields`). `link`: `item_link` of a
    node, as a caller asking of every item keeps it (`link_cache`): an HTML file's details
    name each item some six times over."""
    from ..query.reach import impact, where_used

    graph = model.graph
    if link is None:
        link = link_cache(graph, inside)
    if node not in graph:
        return [Section("", text=f"{node} is not in this estate.", css="ipt-none")]
    data = graph.nodes[node]
    kind = data.get("kind")
    parts: list[Section] = []
    if kind == "profile":
        # the node's own record: `index` counts in the estate the record was read into,
        # which a subset's graph (a selection exported, an Explorer over one) is not
        record = data.get("record")
        raw = record.raw if record is not None else model.estate.raw_profiles[data["index"]]
        fields = {name: raw.get(name) for name in _PROFILE_FIELDS} if isinstance(raw, dict) else {}
        if fields:
            fields["active"] = activity(raw)
        fields["input agent"] = data.get("agent_type")
        if data.get("problem"):
            fields["problem"] = data.get("error")
        parts.append(Section(f"Profile {data.get('id')}", fields=fields))
        agent = raw.get("inputAgentSettings") if isinstance(raw, dict) else None
        if isinstance(agent, dict):  # its channels are listed below, by name
            settings = {k: v for k, v in agent.items() if k not in ("channel", "channels")}
            parts.append(Section("Input agent settings", fields=settings))
        channels = _profile_channels(graph, node)
        partners = [p for c in channels for p in _of_kind(graph.successors(c), graph, "partner")]
        parts.append(Section("Channels it uses", items=_links(link, channels)))
        parts.append(Section("Partners it reaches", items=_links(link, partners)))
    else:
        model_obj = data.get("model", data.get("json"))
        fields = _dump(model_obj)
        if "active" in fields:
            fields["active"] = activity(fields)
        links = {}
        if kind == "channel":
            fields.pop("partner", None)
            fields["host"] = data.get("host")
            for partner in _of_kind(graph.successors(node), graph, "partner"):
                links["partner"] = link(partner)
            if data.get("resolved") is False:
                fields["resolved"] = "no: named by id, held by no profile"
        # a name may hold a URL with a password: masked, as every value shown
        title = redact_text(f"{str(kind).capitalize()} {label(model_obj, data.get('id') or node)}")
        parts.append(Section(title, fields=fields, links=links))
        if kind == "partner":
            channels = list(_of_kind(graph.predecessors(node), graph, "channel"))
            parts.append(Section("Its channels", items=_links(link, channels)))
    if node not in inside:
        note = f"This {kind} is {OUTSIDE_NOTE}."
        parts.insert(0, Section("", text=note, css="ipt-outside-note"))
    if kind != "profile":  # a profile is used by nothing: what it uses is listed above
        used = where_used(graph, node)
        chosen = sum(1 for p in used if p in inside)
        note = f"in the whole estate; {chosen:,} in the current selection"
        parts.append(Section("Where used", items=_links(link, used), note=note))
    hit = impact(graph, node)
    parts.append(Section("Impact if it goes away", text=_impact_words(hit)))
    parts += [
        Section(title, items=_links(link, nodes), limit=20)
        for title, nodes in (
            ("Profiles that lose all input", hit.lose_input),
            ("Profiles that lose part of their input", hit.partial_input),
            ("Profiles that lose a response path", hit.lose_response),
            ("Partners left without an active channel", hit.partners),
        )
        if nodes  # the sentence above says which are none
    ]
    return parts


def detail_html(model: ExplorerModel, node: str, inside: frozenset[str]) -> str:
    """Fields, where-used and impact of a node, as HTML, every item named a link (secrets
    masked); `inside` are the current selection's nodes, the rest are marked outside it."""
    sections = detail_sections(model, node, inside)
    if node not in model.graph:
        return f"<p class='ipt-none'>{html.escape(node)} is not in this estate.</p>"
    parts = []
    for section in sections:
        if section.fields is not None:
            parts.append(fields_html(section.fields, title=section.title, links=section.links))
        elif section.items is not None:
            parts.append(
                list_html(section.title, section.items, note=section.note, limit=section.limit)
            )
        elif section.title:  # the impact's sentence, under its title
            parts.append(
                f"<div class='ipt-title'>{html.escape(section.title)}</div>"
                f"<p>{html.escape(section.text or '')}</p>"
            )
        else:
            parts.append(f"<p class='{section.css}'>{html.escape(section.text or '')}</p>")
    return "<div class='ipt-detail-body'>" + "".join(parts) + "</div>"


def _profile_channels(graph: EstateGraph, node: str) -> list[str]:
    """The channels a profile's agent and response units use, each once, in graph order."""
    found = [
        other
        for step in graph.successors(node)
        for other in (step, *graph.successors(step))
        if graph.nodes[other].get("kind") == "channel"
    ]
    return list(dict.fromkeys(found))


def _of_kind(nodes: Any, graph: EstateGraph, kind: str) -> list[str]:
    return list(dict.fromkeys(n for n in nodes if graph.nodes[n].get("kind") == kind))


def _links(link: Callable[[str], Link], nodes: Any) -> list[Link]:
    return [link(node) for node in nodes]


def link_cache(graph: EstateGraph, inside: frozenset[str]) -> Callable[[str], Link]:
    """`item_link` of a node in `graph` and `inside`, each made once and kept: for many
    items' details of one graph and selection (an HTML file's), which must not change
    while it is used."""
    made: dict[str, Link] = {}

    def link(node: str) -> Link:
        found = made.get(node)
        if found is None:
            found = made[node] = item_link(graph, node, inside)
        return found

    return link


def item_link(graph: EstateGraph, node: str, inside: frozenset[str]) -> Link:
    """A link to a node's details, marked when outside the selection (`inside`)."""
    return Link(node, node_text(graph, node), outside=node not in inside)


def _impact_words(hit: Any) -> str:
    counts = (hit.lose_input, hit.partial_input, hit.lose_response, hit.partners)
    return _counts_words(*map(len, counts))


@functools.lru_cache(maxsize=4096)
def _counts_words(lose: int, partial: int, response: int, partners: int) -> str:
    """The impact's sentence, a function of its four counts only: kept, as an HTML file
    asks it of every item and most say the same (a profile: its own input lost)."""
    said = [
        plural(lose, "active profile") + " would receive nothing",
        plural(partial, "profile") + " would lose part of their input",
        plural(response, "profile") + " would lose a response path",
        plural(partners, "partner") + " would be left without an active channel",
    ]
    counts = (lose, partial, response, partners)
    said = [words for words, count in zip(said, counts, strict=True) if count]
    return "; ".join(said) + "." if said else "Nothing active stops."


def _dump(model: Any) -> dict[str, Any]:
    if model is None:
        return {}
    if isinstance(model, dict):
        return dict(model)
    dump = getattr(model, "model_dump", None)
    if dump is not None:
        dumped: dict[str, Any] = dump(by_alias=True, exclude_unset=True, mode="json")
        return dumped
    return {"value": field_value(model, "name")}
