"""`iptoolkit paths SNAPSHOT A B`: how does A reach B, every path between two items,
shortest first, bounded (`query/paths.py`, as `ipt.paths` in Python and the MCP tool
`paths`).

Exit codes as `diff` and `audit` read: 0 a path found, 1 none, 2 the question could not be
asked (an unknown or ambiguous item, a snapshot that could not be read).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..query.paths import DEFAULT_CUTOFF, DEFAULT_LIMIT
from .host import EXIT_FINDINGS, EXIT_TROUBLE, one_line_errors, short_help
from .options import format_option, load_estate, snapshot_argument
from .progress import command_progress, end_progress

__all__ = ["paths_command"]


@click.command("paths", short_help=short_help("paths"))
@snapshot_argument
@click.argument("a")
@click.argument("b")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=DEFAULT_LIMIT,
    show_default=True,
    help="At most this many paths.",
)
@click.option(
    "--cutoff",
    type=click.IntRange(min=0),
    default=DEFAULT_CUTOFF,
    show_default=True,
    help="At most this many steps a path.",
)
@format_option("json", help="text (a line per path) or json (nodes and steps of each).")
def paths_command(
    snapshot: Path, a: str, b: str, limit: int, cutoff: int, output_format: str
) -> None:
    """Every path between items A and B (node ids, bare ids or partner and channel names),
    edges followed either way, shortest first; each step says which way its edge points
    (profile -input-> agent -listens_on-> channel -belongs_to-> partner). Exit code 0 when
    a path is found, 1 when none is, 2 when the items could not be named.

    \b
      iptoolkit paths snapshot.json P-000001 "Acme Ltd"
      iptoolkit paths snapshot.json channel:40003 channel:40050 --format json
    """
    from ..query.graph import build_graph
    from ..query.paths import paths

    with one_line_errors(EXIT_TROUBLE):
        estate = load_estate(snapshot)
        command_progress().stage("Finding the paths")
        found = paths(build_graph(estate), a, b, limit=limit, cutoff=cutoff)
    end_progress()  # before the report: a bar left open is drawn again after it
    if output_format == "json":
        document = {
            "from": found.a,
            "to": found.b,
            "limit": found.limit,
            "cutoff": found.cutoff,
            "more": found.more,
            "longer": found.longer,
            "paths": [
                {
                    "nodes": path,
                    "steps": [
                        {
                            "source": step.source,
                            "target": step.target,
                            "relation": step.relation,
                            "forward": step.forward,
                        }
                        for step in steps
                    ],
                }
                for path, steps in zip(found.paths, found.steps, strict=True)
            ],
        }
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        click.echo(str(found))
    if not found:
        sys.exit(EXIT_FINDINGS)
