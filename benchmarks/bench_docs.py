"""Documentation site speed: `iptoolkit docs` of the demo estate (10,000 profiles, or
`--size`), with a changelog against the same estate less 100 profiles.

Goal (issue 45): `iptoolkit docs` within 1.5x of `mkdocs build --strict` of its output, in
CPU seconds of whole process trees (the command's forked workers included: wall time would
favour more workers on a shared machine). Figures, with ratios against baselines measured
in the same run:

- CPU seconds, fresh processes: `iptoolkit docs SNAPSHOT -o DIR --previous OLD` (default
  workers) beside `mkdocs build --strict` of what it wrote, and the ratio;
- CPU seconds by phase of one `write_docs` held in memory, one worker (`--phases`): its
  SVGs, its interactive views (levels laid out, details, the rest), pages, CSV lists...;
- wall time, best of N (`--wall`): `write_docs` held in memory with one worker and with
  forked workers (at least two), against drawing the whole estate once as SVG with
  matplotlib; `iptoolkit docs` against `iptoolkit summary` in a fresh process, with the
  peak memory of a process.

    python benchmarks/bench_docs.py [--size 10000] [--repeat 1] [--phases] [--wall]

At 100,000 profiles (`--size 100000`) the CPU comparison alone runs for some minutes.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from timing import best_time

import iptoolkit as ipt
from iptoolkit.docsite.diagrams import default_workers
from iptoolkit.exporters import save_figure


def _command(name: str, args: list[str]) -> list[str]:
    return [str(Path(sys.executable).with_name(name)), *args]


def _fresh(args: list[str]) -> tuple[float, float]:
    """Wall time of an `iptoolkit` command in a new process, and the peak memory (MiB) of
    the biggest process run so far (getrusage keeps the maximum over children)."""
    start = time.perf_counter()
    subprocess.run(_command("iptoolkit", args), check=True, capture_output=True)
    elapsed = time.perf_counter() - start
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def _cpu(command: list[str]) -> float:
    """CPU seconds (user and system) of a command and every process it starts: a child's
    usage counts its waited-for children, the docs command's forked workers among them."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_against_mkdocs(folder: Path, snapshot: Path, previous: Path, repeat: int) -> None:
    """`iptoolkit docs` and `mkdocs build --strict` of its output, CPU seconds of each
    process tree (the least of `repeat` runs), and the ratio."""
    out = folder / "cpu"
    docs_args = ["docs", str(snapshot), "-o", str(out), "--previous", str(previous)]
    docs = min(_cpu(_command("iptoolkit", docs_args)) for _ in range(repeat))
    build = ["build", "--strict", "-q", "-f", str(out / "mkdocs.yml"), "-d", str(folder / "html")]
    mkdocs = min(_cpu(_command("mkdocs", build)) for _ in range(repeat))
    print("CPU seconds of whole process trees (fresh processes, workers included):")
    print(f"  mkdocs build --strict of the output (baseline) {mkdocs:7.2f} s")
    print(
        f"  iptoolkit docs --previous ({default_workers()} workers)        {docs:7.2f} s  "
        f"{docs / mkdocs:5.2f}x  (goal: 1.5x)"
    )


_PHASES = (  # (module, attribute, phase): the time inside, less that of the phases inside it
    ("iptoolkit.docsite.writer", "_write_site", "pages, site map, the rest"),
    ("iptoolkit.docsite.writer", "write_full_lists", "CSV full lists"),
    ("iptoolkit.docsite.writer", "_changes", "changelog (diff, its diagram)"),
    ("iptoolkit.docsite.writer", "mermaid_block", "Mermaid charts"),
    ("iptoolkit.plot", "plot_topology", "SVGs: plot_topology"),
    ("iptoolkit.docsite.diagrams", "save_figure", "SVGs: save_figure"),
    ("iptoolkit.plot.topology_svg", "write_topology_svg", "SVGs: written (topology_svg)"),
    ("iptoolkit.docsite.diagrams", "write_view", "views: the rest (level_json, writing)"),
    ("iptoolkit.offline.view", "drill_levels", "views: levels laid out"),
    ("iptoolkit.offline.details_data:ItemTable", "details", "views: items' details"),
    ("iptoolkit.docsite.views", "drill_levels", "views: levels laid out"),
    ("iptoolkit.docsite.views", "item_details", "views: items' details"),
)
"""Where the site's time goes; a row the package does not have (a module or a function
gone since) is skipped: the table then names the phases it has."""


@contextmanager
def _phase_clock(spent: dict[str, float]) -> Iterator[None]:
    """Wrap each function of `_PHASES` (those the package has) so that its CPU seconds,
    less those of the phases it calls, add up in `spent`; unwrapped on leaving."""
    import importlib

    inside: list[float] = []
    undo: list[tuple[Any, str, Any]] = []

    def clocked(func: Callable[..., Any], phase: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            inside.append(0.0)
            try:
                return func(*args, **kwargs)
            finally:
                elapsed = time.process_time() - start
                spent[phase] += elapsed - inside.pop()
                if inside:
                    inside[-1] += elapsed

        return run

    for where, name, phase in _PHASES:
        module_name, _, owner = where.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        module = getattr(module, owner) if owner else module
        if hasattr(module, name):
            undo.append((module, name, getattr(module, name)))
            setattr(module, name, clocked(getattr(module, name), phase))
    try:
        yield
    finally:
        for module, name, func in reversed(undo):
            setattr(module, name, func)


def phases(folder: Path, snapshot: Path, previous: Path) -> None:
    """CPU seconds of each phase of one `write_docs`, one worker, the snapshots loaded."""
    spent: dict[str, float] = defaultdict(float)
    start = time.process_time()
    estate, old = ipt.load(snapshot, keep_texts=True), ipt.load(previous)
    spent["loading both snapshots"] = time.process_time() - start
    with _phase_clock(spent):
        ipt.write_docs(estate, folder / "phases", previous=old, workers=1)
    print("CPU seconds by phase (held in memory, 1 worker):")
    for phase, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {phase:46s} {seconds:7.2f} s")
    print(f"  {'all':46s} {sum(spent.values()):7.2f} s")


def wall(
    folder: Path, estate: ipt.Estate, old: ipt.Estate, snapshot: Path, previous: Path, repeat: int
) -> None:
    """The wall-time figures (best of `repeat`): held in memory and in a fresh process."""
    workers = max(2, len(os.sched_getaffinity(0)))  # forked workers, asked for

    def one_diagram() -> None:
        figure = ipt.plot_topology(estate, group_by="group")
        save_figure(figure, folder / "whole.svg", "svg", tight=False)

    baseline = best_time(one_diagram, repeat)
    serial = best_time(
        lambda: ipt.write_docs(estate, folder / "serial", previous=old, workers=1), repeat
    )
    parallel = best_time(
        lambda: ipt.write_docs(estate, folder / "parallel", previous=old, workers=workers), repeat
    )
    pages = sum(1 for _ in (folder / "parallel" / "docs").rglob("*.md"))
    svgs = sum(1 for _ in (folder / "parallel" / "docs").rglob("*.svg"))
    summary, _ = min(_fresh(["summary", str(snapshot)]) for _ in range(repeat))
    docs_args = ["docs", str(snapshot), "-o", str(folder / "fresh"), "--previous", str(previous)]
    fresh, peak = min(_fresh(docs_args) for _ in range(repeat))
    print(f"wall time ({pages:,} pages, {svgs:,} SVG diagrams), held in memory:")
    print(f"  one diagram of the whole estate (baseline)  {baseline:7.2f} s")
    print(
        f"  write_docs, 1 worker                         {serial:7.2f} s  {serial / baseline:5.1f}x"
    )
    print(
        f"  write_docs, {workers} workers                       {parallel:7.2f} s  "
        f"{parallel / baseline:5.1f}x"
    )
    print("fresh process:")
    print(f"  iptoolkit summary (baseline)                {summary:7.2f} s")
    print(f"  iptoolkit docs --previous                   {fresh:7.2f} s  {fresh / summary:5.1f}x")
    print(f"  peak memory of a process                    {peak:7.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--phases", action="store_true", help="CPU seconds by phase")
    parser.add_argument("--wall", action="store_true", help="the wall-time figures too")
    args = parser.parse_args()

    estate = ipt.demo_estate(args.size)
    old = estate.take(list(range(args.size - 100)))
    print(f"{args.size:,} profiles")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        snapshot, previous = folder / "estate.json", folder / "old.json"
        estate.save(snapshot)
        old.save(previous)
        cpu_against_mkdocs(folder, snapshot, previous, args.repeat)
        if args.phases:
            phases(folder, snapshot, previous)
        if args.wall:
            wall(folder, estate, old, snapshot, previous, args.repeat)


if __name__ == "__main__":
    main()
