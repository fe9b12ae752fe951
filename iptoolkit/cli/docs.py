"""The `docs` command: `iptoolkit docs SNAPSHOT -o DIR [--previous OLD] [--title TEXT]`.

Loaded on first use (see `COMMANDS` in `host.py`); errors are one line, as for every command.
An older snapshot `--previous` names that cannot be used (no such file, an archive without
a snapshot at that date) is a wrong option: exit code 2, as click gives any other.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .host import EXIT_TROUBLE, keep_until_exit, one_line_errors, short_help
from .options import load_estate, load_reference, snapshot_argument
from .progress import command_progress, end_progress

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["docs_command"]


@click.command("docs", short_help=short_help("docs"))
@snapshot_argument
@click.option(
    "-o",
    "--output",
    "folder",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder to write: mkdocs.yml and docs/ (made if missing; pages the site no longer "
    "has are removed from docs/partners, docs/groups, docs/channels).",
)
@click.option(
    "--previous",
    help="An older snapshot: adds a changelog page with the diagram of the changes. A "
    "file, or ARCHIVE@DATE (or @ID): the snapshot an archive holds from that date.",
)
@click.option(
    "--compare",
    "other",
    help="Another installation (a file or ARCHIVE@DATE): adds a page of what differs from "
    "it, items matched by natural keys (as iptoolkit compare).",
)
@click.option("--title", help="The site's title (default: Integration estate).")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Processes writing the diagrams (default: 1; on Linux, more write them beside "
    "the pages' interactive views: less wall time, more CPU time).",
)
def docs_command(
    snapshot: Path,
    folder: Path,
    previous: str | None,
    other: str | None,
    title: str | None,
    jobs: int | None,
) -> None:
    """Write the documentation site of SNAPSHOT into a folder: an overview, a page per
    partner, group and channel type, the findings, SVG diagrams (and Mermaid charts where
    GitHub draws them). Build it with `mkdocs build -f DIR/mkdocs.yml` (the `docs` extra).

    \b
      iptoolkit docs estate.json -o site
      iptoolkit docs today.json -o site --previous yesterday.json --title "Our estate"
    """
    from ..docsite.writer import write_docs

    estate = load_estate(snapshot, keep_texts=True)
    old = None
    if previous is not None:
        with one_line_errors(EXIT_TROUBLE, prefix="--previous: "):  # a wrong option: 2
            old = _previous(previous)
    compared = None
    if other is not None:
        with one_line_errors(EXIT_TROUBLE, prefix="--compare: "):
            compared = load_reference(other, "--compare")
    command_progress().stage(f"Writing the site into {folder}")
    config = write_docs(
        estate, folder, previous=old, title=title, workers=jobs, compare=compared,
        compare_name=Path(other).name if other is not None else None,
    )  # fmt: skip
    keep_until_exit(estate, old, compared)  # the process ends without freeing them (1 s at 10k)
    pages = sum(1 for _ in (folder / "docs").rglob("*.md"))
    end_progress()
    click.echo(f"wrote {pages:,} pages into {folder / 'docs'}; build with mkdocs build -f {config}")


def _previous(text: str) -> Estate:
    """The older estate: a snapshot file, or `ARCHIVE@DATE` (an archive's snapshot)."""
    return load_reference(text, "--previous")
