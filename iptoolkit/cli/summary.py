"""`iptoolkit summary` and `iptoolkit findings`: what a snapshot holds and what deserves a look."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..names import NO_TYPE, did_you_mean, type_label, unresolved_note
from .host import short_help
from .options import (
    filter_options,
    format_option,
    load_estate,
    snapshot_argument,
)

if TYPE_CHECKING:
    from ..filters import Filter

__all__ = ["summary", "findings_command"]


@click.command("summary", short_help=short_help("summary"))
@snapshot_argument
@filter_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
def summary(snapshot: Path, selection: Filter, as_json: bool) -> None:
    """Counts of profiles, channels, partners and types, and the findings per kind."""
    from ..audit import findings

    estate = load_estate(snapshot, selection)
    counts = estate.summary()
    found = findings(estate).counts()
    if as_json:
        document = {"snapshot": str(snapshot), "filter": selection.describe(), **counts}
        document["findings"] = found
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    click.echo(_summary_text(snapshot, counts, found))


def _type_named(name: str) -> str:
    """`Cron Cloud Storage (CronCloudStorageAgentSettings)`: as people say it, and the name
    that filters and the JSON output use."""
    return name if name == NO_TYPE else f"{type_label(name)} ({name})"


def _summary_text(snapshot: Path, counts: dict[str, Any], found: dict[str, int]) -> str:
    lines = [f"{snapshot}" + (f" (from {counts['source_url']})" if counts["source_url"] else "")]
    lines.append(
        f"  {counts['profiles']:>7,}  profiles ({counts['active_profiles']:,} active, "
        f"{counts['problems']:,} with problems)"
    )
    unresolved = counts["unresolved_channels"]
    lines.append(f"  {counts['channels']:>7,}  channels" + unresolved_note(unresolved))
    lines.append(f"  {counts['partners']:>7,}  partners")
    if counts["conflicts"]:
        lines.append(f"  {counts['conflicts']:>7,}  conflicting copies of a channel or partner")
    for title, key in (("Input agent types", "agent_types"), ("Channel types", "channel_types")):
        if counts[key]:
            lines.append(f"{title}:")
            lines.extend(f"  {n:>7,}  {_type_named(name)}" for name, n in counts[key].items())
    lines.append("Findings:" if found else "Findings: none")
    lines.extend(f"  {n:>7,}  {kind}" for kind, n in found.items())
    return "\n".join(lines)


@click.command("findings", short_help=short_help("findings"))
@snapshot_argument
@filter_options
@format_option("json", "csv")
@click.option(
    "--severity",
    type=click.Choice(["error", "warning", "info"]),
    help="Only findings of this severity.",
)
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    help="Only findings of this kind, e.g. unresolved_channel; repeatable.",
)
def findings_command(
    snapshot: Path,
    selection: Filter,
    output_format: str,
    severity: str | None,
    kinds: tuple[str, ...],
) -> None:
    """What deserves a look: unreadable profiles, unresolved channels, conflicts...

    The text names the first few items of a finding; --format json or csv lists them all.
    """
    from ..audit import KINDS, Findings, findings

    for kind in kinds:
        if kind not in KINDS:
            raise click.BadParameter(
                f"no finding kind {kind!r}{did_you_mean(kind, KINDS)}; the kinds are "
                + ", ".join(KINDS),
                param_hint="--kind",
            )
    found = findings(load_estate(snapshot, selection))
    if severity:
        found = found.of(severity=severity)
    if kinds:
        found = Findings(f for f in found if f.kind in kinds)
    if output_format == "json":
        rows = [
            {"severity": f.severity, "kind": f.kind, "text": f.text, "nodes": list(f.nodes)}
            for f in found
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    elif output_format == "csv":
        frame = found.to_frame()
        frame["nodes"] = frame["nodes"].map(" ".join)
        click.echo(frame.to_csv(index=False), nl=False)
    elif not found:
        click.echo("No findings.")
    else:
        for line in _findings_table(found):
            click.echo(line)
        if any(_CUT.search(f.text) for f in found):
            click.echo("(texts name the first items; --format json or csv lists all)", err=True)


_CUT = re.compile(r" and [\d,]+ more\b")
"""How a finding's text says it names only the first of its items (`audit._names`)."""


def _findings_table(found: Any) -> Iterator[str]:
    """The findings as table rows under a header row: severity, kind, text."""
    width = max(len("KIND"), *(len(f.kind) for f in found))
    yield f"{'SEVERITY':<8} {'KIND':<{width}}  TEXT"
    for f in found:
        yield f"{f.severity:<8} {f.kind:<{width}}  {f.text}"
