"""`iptoolkit diff OLD NEW`: what changed between two snapshots, for people or for CI.

Exit codes follow diff(1) and `git diff --exit-code`: 0 when nothing changed (or nothing at
or above `--fail-on`), 1 when something did (with `--exit-code` or `--fail-on`), 2 when the
comparison could not be made (a missing or unreadable snapshot, a wrong option), so a CI
job can tell "changed" from "broken".
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..change.estate_diff import SEVERITIES, EstateDiff
from ..change.order import order_notes
from ..exporters import DIAGRAM_FORMATS, diagram_suffixes
from .host import (
    EXIT_FINDINGS,
    EXIT_TROUBLE,
    CommandError,
    keep_until_exit,
    one_line_errors,
    short_help,
)
from .options import (
    check_details_file,
    check_map_file,
    comment_markdown,
    details_file_option,
    format_option,
    load_estate,
    map_file_option,
    max_size_option,
    write_map_file,
)
from .outputs import check_outputs, output_folder_option
from .progress import command_progress, end_progress, progress_option

__all__ = ["diff_command", "FAIL_ON"]

FAIL_ON = ("breaking", "notable", "any")


@click.command("diff", short_help=short_help("diff"))
@click.argument("old", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("new", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@format_option(
    "md",
    "json",
    "csv",
    help="text (plan style), md (a changelog), json (the machine form) or csv (one row per "
    "change).",
)
@click.option(
    "--exit-code",
    is_flag=True,
    help="Exit 1 when something changed, 0 when nothing did (as git diff --exit-code).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    help="Exit 1 when a change at or above this severity exists (any: any change).",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"Also draw the changes (plot_diff) into this {diagram_suffixes(' or ')} file: the "
    "changed items and their neighbours, breaking ones ringed.",
)
@click.option(
    "--all",
    "draw_all",
    is_flag=True,
    help="With --plot: draw the whole union of both snapshots, not only what changed.",
)
@map_file_option(
    "the map of both snapshots (each item coloured by what happened to it, its changes "
    "first in its details)"
)
@max_size_option
@progress_option
@details_file_option
@output_folder_option
def diff_command(
    old: Path,
    new: Path,
    output_format: str,
    exit_code: bool,
    fail_on: str | None,
    plot_path: Path | None,
    draw_all: bool,
    html_path: Path | None,
    details_file: Path | None,
    mkdirs: bool,
) -> None:
    """Compare two snapshots (OLD, NEW): profiles, channels, partners and links added,
    removed and changed, breaking changes first.

    \b
      iptoolkit diff monday.json tuesday.json
      iptoolkit diff monday.json tuesday.json --format md > CHANGES.md
      iptoolkit diff monday.json tuesday.json --format md --details-file all.md
      iptoolkit diff monday.json tuesday.json --fail-on breaking
      iptoolkit diff monday.json tuesday.json --plot changes.png [--all]
      iptoolkit diff monday.json tuesday.json --html changes.html

    A link replaced by another on the same agent or response unit is a rewiring
    (notable); breaking is what stops an active profile (see the README's table).
    """
    check_details_file(details_file, output_format)
    if draw_all and plot_path is None:  # as --details-file without --format md: refused
        raise click.BadParameter("goes with --plot: it draws the whole union", param_hint="--all")
    if plot_path is not None and plot_path.suffix.lower()[1:] not in DIAGRAM_FORMATS:
        raise CommandError(
            f"--plot {plot_path.name}: the diagram is written as one of {diagram_suffixes()}",
            EXIT_TROUBLE,
        )
    check_map_file(html_path)
    outputs = {"--plot": plot_path, "--html": html_path, "--details-file": details_file}
    check_outputs(mkdirs, outputs, {"OLD": old, "NEW": new})
    result = _compare(old, new)
    keep_until_exit(result)  # the two estates: the process ends without freeing them
    end_progress()
    for note in order_notes(result.old, result.new):
        click.echo(f"Warning: {note}.", err=True)
    if plot_path is not None:
        command_progress().stage(f"Drawing {plot_path.name}")
        _written(result, plot_path, "--plot", "diagram", only_changed=not draw_all)
    if html_path is not None:
        write_map_file(result, html_path)
    command_progress().stage("Writing the report")
    text = _report(result, output_format, details_file)
    end_progress()
    if output_format == "csv":
        sys.stdout.write(text)
    else:
        click.echo(text)
    if _fails(result, fail_on) or (exit_code and result.changes):
        # not ctx.exit: the group runs without standalone mode, which returns it
        sys.exit(EXIT_FINDINGS)


def _compare(old: Path, new: Path) -> EstateDiff:
    """The diff, or one line on stderr and exit code 2 (a traceback with --debug)."""
    from ..change.diff import diff

    with one_line_errors(EXIT_TROUBLE):
        # the texts: equal profiles are found by their text, the schema part searches them
        estates = load_estate(old, keep_texts=True), load_estate(new, keep_texts=True)
        command_progress().stage("Comparing the snapshots")
        return diff(*estates)


def _report(result: EstateDiff, output_format: str, details_file: Path | None) -> str:
    """The diff in the format asked for, as written to stdout (Markdown cut to fit a
    comment, whole in `details_file` when given)."""
    if output_format == "csv":
        from ..exporters.table_files import diff_csv_frame, frame_csv

        return frame_csv(diff_csv_frame(result))
    if output_format == "md":
        return comment_markdown(result.to_markdown, details_file).rstrip("\n")
    text = {"text": result.to_text, "json": result.to_json}
    return text[output_format]().rstrip("\n")


def _written(result: EstateDiff, path: Path, option: str, what: str, **options: Any) -> None:
    """The diagram or the map written (`ipt.export`), said on stderr so stdout stays the
    diff."""
    from ..exporters import export

    with one_line_errors(EXIT_TROUBLE, prefix=f"{option}: "):
        export(result, path, **options)
    end_progress()
    click.echo(f"{what} written to {path}", err=True)


def _fails(result: EstateDiff, fail_on: str | None) -> bool:
    if fail_on is None:
        return False
    changes = result.changes
    if fail_on == "any":
        return bool(changes)
    worst = SEVERITIES.index(fail_on)
    return any(SEVERITIES.index(change.severity) <= worst for change in changes)
