"""The `drift` command: the schema drift of a snapshot, as text, Markdown, JSON or CSV.

    iptoolkit drift snapshot.json                 # the text report
    iptoolkit drift snapshot.json --format md     # a page for the documentation

The `iptoolkit` command attaches it with `add_commands(group)` when it is first named (see
`_LAZY` in `iptoolkit/cli.py`); errors are one line, as for every command.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..cli_options import load_estate, snapshot_argument

__all__ = ["drift_command", "add_commands"]


@click.command("drift", short_help="What a snapshot holds that the spec does not describe.")
@snapshot_argument
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "md", "json", "csv"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def drift_command(snapshot: Path, output_format: str) -> None:
    """Unknown classes and fields, values of another type than the spec's, and declared
    fields always null or never sent, in SNAPSHOT (faulty profiles included)."""
    from .drift import schema_report

    report = schema_report(load_estate(snapshot))
    if output_format == "json":
        click.echo(report.to_json())
    elif output_format == "md":
        click.echo(report.to_markdown(), nl=False)
    elif output_format == "csv":
        frame = report.to_frame()
        frame["examples"] = frame["examples"].map(" ".join)
        click.echo(frame.to_csv(index=False), nl=False)
    else:
        click.echo(str(report))


def add_commands(group: click.Group) -> None:
    """Add `drift` to the `iptoolkit` command."""
    group.add_command(drift_command)
