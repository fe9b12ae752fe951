"""`iptoolkit audit` (and its alias `findings`): the audit for people and for CI.

Exit codes as `ruff check`: 0 when no finding at or above `--fail-on` remains, 1 when one
does, 2 when the audit could not run (a bad snapshot, configuration or baseline). The
`findings` alias keeps the older command's options (`--kind`, `--severity`, `--format
table`) and never fails on findings unless `--fail-on` says so, so scripts keep working.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .host import EXIT_ERROR, EXIT_TROUBLE, one_line_errors, short_help
from .options import (
    check_details_file,
    comment_markdown,
    details_file_option,
    filter_options,
    format_option,
    load_estate,
    snapshot_argument,
)
from .outputs import check_outputs, config_input, output_folder_option
from .progress import command_progress, end_progress

if TYPE_CHECKING:
    from ..auditing.reports import ReportContext
    from ..core.estate import Estate
    from ..query.filters import Filter

__all__ = ["audit_command", "findings_command"]

_FORMATS = ("text", "json", "csv", "md", "sarif", "junit")


def _codes(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """`--select SEC,OPS001 --select HYG` -> ("SEC", "OPS001", "HYG")."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _options(fail_on_default: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options `audit` and `findings` share; `fail_on_default`: what --fail-on's help
    names as its default (each command's own: the configuration's for `audit`, never for
    `findings`)."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        return _add_options(func, fail_on_default)

    return decorate


def _add_options(func: Callable[..., Any], fail_on_default: str) -> Callable[..., Any]:
    for option in reversed(
        [
            click.option("--select", multiple=True, callback=_codes,
                         help="Only these rules: codes, prefixes (SEC) or names, comma "
                         "separated or repeated; replaces the configuration's select."),
            click.option("--ignore", multiple=True, callback=_codes,
                         help="Leave out these rules (codes, prefixes or names)."),
            click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]),
                         help="Exit 1 when findings of this severity or worse remain "
                         f"[default: {fail_on_default}]."),
            click.option("--config", "config_file", type=click.Path(dir_okay=False,
                         path_type=Path), help="Configuration file (pyproject.toml or "
                         "iptoolkit.toml); default: the first found upward from here."),
            click.option("--isolated", is_flag=True,
                         help="Ignore every configuration file: all rules, defaults."),
            click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
                         help="Report only findings not in this baseline file."),
            click.option("--write-baseline", type=click.Path(dir_okay=False,
                         path_type=Path), help="Write the current findings as a baseline "
                         "and exit 0."),
            click.option("--statistics", is_flag=True,
                         help="Counts per rule (a text table) instead of the findings."),
            click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                         help="Write the report to this file instead of standard output."),
            details_file_option,
            output_folder_option,
        ]
    ):  # fmt: skip
        func = option(func)
    return func


@click.command("audit", short_help=short_help("audit"))
@snapshot_argument
@filter_options
@format_option(*_FORMATS, help="Report format (sarif: GitHub code scanning).")
@_options("the configuration's fail-on, else warning")
def audit_command(snapshot: Path, selection: Filter, output_format: str, **options: Any) -> None:
    """Audit a snapshot with every rule (see docs/rules.md): security, operational risk,
    data and hygiene, each finding with a stable code.

    \b
      iptoolkit audit snapshot.json
      iptoolkit audit snapshot.json --select SEC --fail-on error
      iptoolkit audit snapshot.json --format sarif -o audit.sarif
      iptoolkit audit snapshot.json --format md --details-file all.md > comment.md
      iptoolkit audit snapshot.json --write-baseline audit-baseline.json
      iptoolkit audit snapshot.json --baseline audit-baseline.json

    Exit code 0: nothing at or above --fail-on; 1: findings; 2: the audit could not run.
    """
    _run(snapshot, selection, output_format, options)


@click.command("findings", short_help=short_help("findings"))
@snapshot_argument
@filter_options
@format_option(*_FORMATS, help="Report format (text: the older table, a header row first).")
@click.option("--severity", type=click.Choice(["error", "warning", "info"]),
              help="Only findings of this severity.")  # fmt: skip
@click.option("--kind", "kinds", multiple=True,
              help="Only findings of this kind or code (unresolved_channel, SEC006); "
              "repeatable.")  # fmt: skip
@_options("never, whatever the configuration says")
def findings_command(
    snapshot: Path,
    selection: Filter,
    output_format: str,
    severity: str | None,
    kinds: tuple[str, ...],
    **options: Any,
) -> None:
    """The audit's findings, as `iptoolkit audit` reports them; exits 0 whatever it finds
    unless --fail-on is given, as this command always did."""
    from ..auditing import KINDS, all_rules
    from ..auditing.registry import check_selector
    from ..support.names import did_you_mean

    for kind in kinds:
        if check_selector(kind, all_rules()) is not None:
            raise click.BadParameter(
                f"no finding kind {kind!r}{did_you_mean(kind, KINDS)}; the kinds are "
                + ", ".join(KINDS),
                param_hint="--kind",
            )
    options["select"] = (*options["select"], *kinds)
    options["fail_on"] = options["fail_on"] or "never"
    older = {"text": "table", "json": "rows"}.get(output_format, output_format)
    _run(snapshot, selection, older, options, only_severity=severity, error_code=EXIT_ERROR)


def _run(
    snapshot: Path,
    selection: Filter,
    output_format: str,
    options: dict[str, Any],
    only_severity: str | None = None,
    error_code: int = EXIT_TROUBLE,
) -> None:
    """Run the audit and report; an error ends it as the host's policy says, with
    `error_code` (2, as `ruff check`; 1 for the `findings` alias, as that command always
    did)."""
    check_details_file(options["details_file"], output_format)
    if options["statistics"] and output_format not in ("text", "table"):
        # the counts are a table for people: a .sarif or .json holding it reads as broken
        raise click.BadParameter(
            f"the counts per rule are a text table: --format {output_format} writes the "
            "findings (leave out --statistics, or give --format text)",
            param_hint="--statistics",
        )
    _check_outputs(snapshot, options)
    with one_line_errors(error_code):
        code = _audit(snapshot, selection, output_format, options, only_severity)
    sys.exit(code)


def _check_outputs(snapshot: Path, options: dict[str, Any]) -> None:
    """The files the audit writes, checked before it runs (`check_outputs`) against what
    it reads: the snapshot, the configuration (given, or found) and the baseline, which
    --write-baseline does not read (it may name the file to renew)."""
    inputs: dict[str, Path | None] = {"SNAPSHOT": snapshot}
    if not options["isolated"]:
        inputs.update(config_input(options["config_file"], "audit"))
    if options["write_baseline"] is None:
        inputs["--baseline"] = options["baseline"]
    outputs = {"--output": options["output"], "--write-baseline": options["write_baseline"]}
    outputs["--details-file"] = options["details_file"]
    check_outputs(options["mkdirs"], outputs, inputs)


_BLOCK = 512
"""Lines of a report printed at once."""


def _audit(
    snapshot: Path,
    selection: Filter,
    output_format: str,
    options: dict[str, Any],
    only_severity: str | None,
) -> int:
    from ..auditing import AuditConfig, Baseline, audit, load_config, selected_rules
    from ..auditing.registry import check_selector
    from ..auditing.reports import ReportContext, render
    from ..auditing.reports.context import names_a_profile
    from ..auditing.reports.rows import CUT, statistics, totals

    config = AuditConfig() if options["isolated"] else load_config(options["config_file"])
    known = config.rules()
    for flag in ("select", "ignore"):
        for selector in options[flag]:
            problem = check_selector(selector, known)
            if problem:
                raise click.BadParameter(problem, param_hint=f"--{flag}")
    if options["baseline"] is not None and not options["baseline"].is_file():
        raise click.BadParameter(f"{options['baseline']}: no such file", param_hint="--baseline")
    estate = load_estate(snapshot, selection, keep_texts=True)
    found = audit(
        estate,
        config,
        select=options["select"],
        ignore=options["ignore"],
        progress=command_progress(),
    )
    end_progress()
    if only_severity:
        kept = type(found)(f for f in found if f.severity == only_severity)
        kept.suppressed = found.suppressed
        found = kept
    if options["write_baseline"] is not None:
        n = Baseline.write(found, options["write_baseline"])
        click.echo(f"Wrote {n:,} findings to the baseline {options['write_baseline']}", err=True)
        return 0
    if options["baseline"] is not None:
        found = Baseline.read(options["baseline"]).new_in(found)
    rules = selected_rules(config, options["select"], options["ignore"])
    needs_lines = output_format in ("text", "sarif", "junit", "json", "rows", "csv", "md") and any(
        names_a_profile(f) for f in found
    )
    command_progress().stage("Writing the report")
    positions = _positions(snapshot, estate) if needs_lines else {}
    context = ReportContext(
        found,
        rules,
        snapshot=snapshot,
        positions=positions,
        fail_on=options["fail_on"] or config.fail_on,
        profiles={record.node: record.index for record in estate.records},
    )
    if options["statistics"]:
        report = statistics(context)
    elif output_format == "md":
        report = comment_markdown(partial(_markdown, context), options["details_file"])
    else:
        report = render(context, output_format)
    end_progress()
    if options["output"] is not None:
        options["output"].write_text(report, encoding="utf-8")
        click.echo(f"Wrote {options['output']}", err=True)
    else:  # a block of lines at a time: a reader that goes away (`| head`) stops the
        # command at the next block, and 150k lines of SARIF are not 150k writes
        lines = report.splitlines(keepends=True)
        for start in range(0, len(lines), _BLOCK):
            click.echo("".join(lines[start : start + _BLOCK]), nl=False)
    human = output_format == "text" and options["output"] is None
    click.echo(totals(context), err=not human)
    if output_format in ("text", "table") and any(CUT.search(f.text) for f in found):
        click.echo("(texts name the first items; --format json or csv lists all)", err=True)
    return 1 if any(context.fails(f) for f in found) else 0


def _markdown(context: ReportContext, **room: Any) -> str:
    """The Markdown report in the room given (`limit`, `details`: `comment_markdown`)."""
    from ..auditing.reports.rows import markdown_report

    return markdown_report(dataclasses.replace(context, **room))


def _positions(snapshot: Path, estate: Estate) -> dict[int, tuple[int, int]]:
    """Each profile's (line, column) in the file, by its position in the listing: where
    reading it found them (`Estate.texts`), else by scanning the file again."""
    from ..auditing.lines import positions_at, profile_positions

    texts = estate.texts
    if texts is not None:
        found = positions_at(texts.text, texts.starts)
        return dict(zip([record.index for record in estate.records], found, strict=True))
    return dict(enumerate(profile_positions(snapshot))) if snapshot.is_file() else {}
