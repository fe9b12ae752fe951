"""`iptoolkit summary`: what a snapshot holds, and its findings per rule (`audit.py` lists
them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..support.names import named_type, unresolved_note
from .host import short_help
from .options import (
    filter_options,
    load_estate,
    snapshot_argument,
)
from .progress import command_progress, end_progress

if TYPE_CHECKING:
    from ..query.filters import Filter

__all__ = ["summary"]


@click.command("summary", short_help=short_help("summary"))
@snapshot_argument
@filter_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
def summary(snapshot: Path, selection: Filter, as_json: bool) -> None:
    """Counts of profiles, channels, partners and types, and the findings per kind."""
    from ..auditing import findings

    estate = load_estate(snapshot, selection, keep_texts=True)
    command_progress().stage("Counting")
    counts = estate.summary()
    audited = findings(estate, progress=command_progress())
    found = {f"{f.code} {f.kind}": 0 for f in sorted(audited, key=lambda f: f.code)}
    for finding in audited:
        found[f"{finding.code} {finding.kind}"] += 1
    end_progress()
    if as_json:
        document = {"snapshot": str(snapshot), "filter": selection.describe(), **counts}
        document["findings"] = audited.counts()
        document["findings_by_code"] = audited.by_code()
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    click.echo(_summary_text(snapshot, counts, found))


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
            lines.extend(f"  {n:>7,}  {named_type(name)}" for name, n in counts[key].items())
    lines.append("Findings:" if found else "Findings: none")
    lines.extend(f"  {n:>7,}  {code_kind}" for code_kind, n in found.items())
    return "\n".join(lines)
