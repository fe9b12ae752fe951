"""The `docs` command: `iptoolkit docs SNAPSHOT -o DIR [--previous OLD] [--title TEXT]`.

Loaded on first use (see `COMMANDS` in `host.py`); errors are one line, as for every command.
"""

from __future__ import annotations

from pathlib import Path

import click

from .host import short_help
from .options import load_estate, snapshot_argument

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
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An older snapshot: adds a changelog page with the diagram of the changes.",
)
@click.option("--title", help="The site's title (default: Integration estate).")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Processes drawing the diagrams (default: the CPUs available, on Linux).",
)
def docs_command(
    snapshot: Path, folder: Path, previous: Path | None, title: str | None, jobs: int | None
) -> None:
    """Write the documentation site of SNAPSHOT into a folder: an overview, a page per
    partner, group and channel type, the findings, SVG diagrams (and Mermaid charts where
    GitHub draws them). Build it with `mkdocs build -f DIR/mkdocs.yml` (the `docs` extra).

    \b
      iptoolkit docs estate.json -o site
      iptoolkit docs today.json -o site --previous yesterday.json --title "Our estate"
    """
    from ..docsite.writer import write_docs

    estate = load_estate(snapshot)
    old = load_estate(previous) if previous is not None else None
    config = write_docs(estate, folder, previous=old, title=title, workers=jobs)
    pages = sum(1 for _ in (folder / "docs").rglob("*.md"))
    click.echo(f"wrote {pages:,} pages into {folder / 'docs'}; build with mkdocs build -f {config}")
