"""`iptoolkit demo`: the whole toolkit against the embedded reference server (`make demo`)."""

from __future__ import annotations

from pathlib import Path

import click

from .host import short_help

__all__ = ["demo", "MAX_DEMO_PROFILES"]

MAX_DEMO_PROFILES = 1_000_000
"""The largest demo estate `demo` builds: ten times the benchmarks' 100,000 profiles. The
estate is built in memory and served whole, so a typo of many digits ran the machine out of
memory (killed, exit 137) instead of being refused."""


@click.command("demo", short_help=short_help("demo"))
@click.option(
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("demo-output"),
    show_default=True,
    help="Folder for the snapshot, diagrams and exports.",
)
@click.option(
    "--profiles",
    type=click.IntRange(min=1, max=MAX_DEMO_PROFILES),
    default=300,
    show_default=True,
    help=f"Size of the demo estate (at most {MAX_DEMO_PROFILES:,}).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Demo estate seed.")
def demo(output: Path, profiles: int, seed: int) -> None:
    """Run the whole toolkit against the embedded reference server (what `make demo` does)."""
    from ..demo.run import run_demo

    run_demo(output, n_profiles=profiles, seed=seed, echo=click.echo)
