"""The `drift` command: the schema drift of a snapshot, as text, Markdown, JSON or CSV.

    iptoolkit drift snapshot.json                 # the text report
    iptoolkit drift snapshot.json --format md     # a page for the documentation

Loaded on first use (see `COMMANDS` in `host.py`); errors are one line, as for every command.
"""

from __future__ import annotations

from pathlib import Path

import click

from .host import short_help
from .options import format_option, load_estate, snapshot_argument
from .progress import command_progress, end_progress

__all__ = ["drift_command"]


@click.command("drift", short_help=short_help("drift"))
@snapshot_argument
@format_option("md", "json", "csv")
def drift_command(snapshot: Path, output_format: str) -> None:
    """Unknown classes and fields, values of another type than the spec's, and declared
    fields always null or never sent, in SNAPSHOT (faulty profiles included)."""
    from ..change.drift import schema_report

    estate = load_estate(snapshot)
    command_progress().stage("Comparing with the spec")
    report = schema_report(estate)
    end_progress()  # before the report: a bar left open is drawn again after it
    if output_format == "json":
        click.echo(report.to_json())
    elif output_format == "md":
        click.echo(report.to_markdown(), nl=False)
    elif output_format == "csv":
        from ..exporters.table_files import csv_safe_frame, frame_csv

        frame = report.to_frame()
        frame["examples"] = frame["examples"].map(" ".join)
        click.echo(frame_csv(csv_safe_frame(frame)), nl=False)
    else:
        click.echo(str(report))
