"""`iptoolkit impact SNAPSHOT ITEM...`: what stops if these items go away together.

Several items are one question (both AS2 channels of a partner: a profile listening on
both loses its input, which neither alone takes), answered by `queries.impact` as in
Python and in the MCP tool `impact`.

Only what is active stops, so an inactive item takes nothing with it. Five zeros would read
as "nothing uses it": when nothing stops and every item asked is inactive, the answer is
one line saying so, with the counts that still hold (the profiles that use a channel or
partner, and how many of them are active); an inactive item among active ones is named
under the lists. `--format json` lists them in `inactive`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .host import short_help
from .options import format_option, load_estate, snapshot_argument
from .progress import command_progress, end_progress

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

__all__ = ["impact_command"]

_LISTS = (
    ("lose_input", "lose their input"),
    ("partial_input", "lose part of their input"),
    ("lose_response", "lose a response path"),
    ("responses", "response paths cut"),
    ("partners", "partners left without an active channel"),
)


@click.command("impact", short_help=short_help("impact"))
@snapshot_argument
@click.argument("items", nargs=-1, required=True)
@format_option("json", help="text (a line per list) or json (every list in full).")
def impact_command(snapshot: Path, items: tuple[str, ...], output_format: str) -> None:
    """What stops if ITEMS (node ids, bare ids or partner and channel names) go away
    together: the active profiles that lose all or part of their input or a response
    path, and the partners left without an active channel. An inactive item stops
    nothing: that is said in one line, with the profiles that use it.

    \b
      iptoolkit impact snapshot.json channel:40003
      iptoolkit impact snapshot.json channel:40049 channel:40050 --format json
    """
    from ..core.nodes import is_active
    from ..query.graph import build_graph
    from ..query.reach import impact

    estate = load_estate(snapshot)
    command_progress().stage("Finding what stops")
    graph = build_graph(estate)
    hit = impact(graph, list(items))
    end_progress()  # before the report: a bar left open is drawn again after it
    inactive = [node for node in hit.nodes if not is_active(graph.nodes[node])]
    if output_format == "json":
        document = {"nodes": hit.nodes, **{name: getattr(hit, name) for name, _ in _LISTS}}
        click.echo(json.dumps({**document, "inactive": inactive}, indent=2, ensure_ascii=False))
        return
    why = [_inactive(graph, node) for node in inactive]
    if not hit and len(inactive) == len(hit.nodes):  # the zeros say only that: one line
        if len(why) == 1:
            click.echo(f"Without {hit.node}: nothing stops, it is {why[0][1]}")
        else:
            said = "; ".join(f"{node} is {state}" for node, state in why)
            click.echo(f"Without {hit.node}: nothing stops, none is active: {said}")
        return
    lines = [f"Without {hit.node}:"]
    for name, words in _LISTS:
        found = getattr(hit, name)
        lines.append(f"  {len(found):>6,}  {words}" + (f": {', '.join(found)}" if found else ""))
    lines.extend(f"  {node} is {state}: it stops nothing itself" for node, state in why)
    click.echo("\n".join(lines))


def _inactive(graph: EstateGraph, node: str) -> tuple[str, str]:
    """`(node, what it is)` for an inactive item: `inactive (3 profiles use it, 2 of them
    active)`, the counts that hold whatever is active (a channel's or partner's users)."""
    from ..core.nodes import is_active
    from ..query.reach import where_used
    from ..support.names import plural

    attributes = graph.nodes[node]
    kind = attributes.get("kind")
    if kind not in ("channel", "partner"):
        return node, "inactive"
    users = [profile for profile in where_used(graph, node) if profile != node]
    active = sum(is_active(graph.nodes[profile]) for profile in users)
    them = "it" if kind == "channel" else "its channels"
    use = f"{plural(len(users), 'profile')} {'uses' if len(users) == 1 else 'use'} {them}"
    counted = use
    if len(users) == 1:
        counted = f"{use}, an {'active' if active else 'inactive'} one"
    elif users:
        counted = f"{use}, {active:,} of them active"
    if kind == "channel" and attributes.get("resolved") is False:
        return node, f"an id no profile holds ({counted})"
    if kind == "partner":
        held = plural(int(attributes.get("channels") or 0), "channel")
        return node, f"inactive (0 of its {held} active; {counted})"
    return node, f"inactive ({counted})"
