"""`iptoolkit impact SNAPSHOT ITEM...`: what stops if these items go away together.

Several items are one question (both AS2 channels of a partner: a profile listening on
both loses its input, which neither alone takes), answered by `queries.impact` as in
Python and in the MCP tool `impact`.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from .host import short_help
from .options import format_option, load_estate, snapshot_argument

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
    path, and the partners left without an active channel.

    \b
      iptoolkit impact snapshot.json channel:40003
      iptoolkit impact snapshot.json channel:40049 channel:40050 --format json
    """
    from ..query.graph import build_graph
    from ..query.reach import impact

    graph = build_graph(load_estate(snapshot))
    hit = impact(graph, list(items))
    if output_format == "json":
        document = {"nodes": hit.nodes, **{name: getattr(hit, name) for name, _ in _LISTS}}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    lines = [f"Without {hit.node}:"]
    for name, words in _LISTS:
        found = getattr(hit, name)
        lines.append(f"  {len(found):>6,}  {words}" + (f": {', '.join(found)}" if found else ""))
    click.echo("\n".join(lines))
