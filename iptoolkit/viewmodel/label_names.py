"""What a topology label says besides its name: agents that read alike told apart by
their profile, the group path a drilled view's subgroups share (the breadcrumb says it),
and the whole label behind each one drawn shorter (shown on hover)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable

from ..topology.view import ViewGraph
from .topology_fit import TOLD_APART

__all__ = ["hover_names", "told_apart", "shared_path"]


def hover_names(labels: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Drawn label -> whole label, from (drawn, whole) pairs: each label drawn shorter than
    its whole (cut for the canvas, or a drilled group's subgroup without its path) and
    drawn for that one node only (see `hover_names.HoverNames`)."""
    pairs = list(labels)
    nodes_of = Counter(drawn for drawn, _ in pairs)
    return {drawn: whole for drawn, whole in pairs if whole != drawn and nodes_of[drawn] == 1}


def told_apart(view: ViewGraph, label_of: dict[Hashable, str]) -> dict[Hashable, str]:
    """Labels of agents and response units that several nodes of the view share (six
    "X.400 agent"s around one channel), each followed by its profile's name, where the
    view does not draw that profile (drawn, its line to it tells them apart)."""
    mine = ("agent", "response")
    kinds = {node: data["kind"] for node, data in view.nodes(data=True)}
    alone = [
        node
        for node, kind in kinds.items()
        if kind in mine and not any(kinds[other] == "profile" for other in view.pred[node])
    ]
    counts = Counter(label_of[n] for n in alone)
    out = dict(label_of)
    for node in alone:
        owner = view.nodes[node].get("owner")
        if counts[label_of[node]] > 1 and owner:
            out[node] = f"{label_of[node]}{TOLD_APART}{owner}"
    return out


def shared_path(groups: list[str]) -> str:
    """The group path every one of `groups` lies under (`Finance/` for `Finance/AP` and
    `Finance/AR`), with its last `/`; empty when there is none or a group is that path
    itself. A drilled view draws its subgroups without it (the breadcrumb says it)."""
    parts = [group.split("/") for group in groups]
    if len(parts) < 2:
        return ""
    shared: list[str] = []
    for segments in zip(*parts, strict=False):
        if len(set(segments)) != 1:
            break
        shared.append(segments[0])
    if not shared or any(len(segments) <= len(shared) for segments in parts):
        return ""
    return "/".join(shared) + "/"
