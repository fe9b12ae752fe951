"""Documentation site speed: `ipt.write_docs` of the 10,000-profile demo estate, with a
changelog against the same estate less 100 profiles. Goal (issue 13): under a minute on
the 2-core machine, in a fresh process (`iptoolkit docs`, loading both snapshots included).

Figures, best of N runs, with ratios against baselines measured in the same run:
- held in memory: `write_docs(estate, folder, previous=old)` with one worker and with the
  default (the CPUs available), against drawing the whole estate once, grouped by group, as
  SVG (`plot_topology` and `save_figure`): what one diagram of the site costs;
- in a fresh process: `iptoolkit docs SNAPSHOT -o DIR --previous OLD` against
  `iptoolkit summary SNAPSHOT` (starting, importing and loading the snapshot), with the
  peak memory of the process.

    python benchmarks/bench_docs.py [--size 10000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import best_time

import iptoolkit as ipt
from iptoolkit.docsite.diagrams import default_workers
from iptoolkit.exporters import save_figure


def _fresh(args: list[str]) -> tuple[float, float]:
    """Wall time of an `iptoolkit` command in a new process, and the peak memory (MiB) of
    the biggest process run so far (getrusage keeps the maximum over children)."""
    command = [str(Path(sys.executable).with_name("iptoolkit")), *args]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    elapsed = time.perf_counter() - start
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    estate = ipt.demo_estate(args.size)
    old = estate.take(list(range(args.size - 100)))
    workers = default_workers()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        snapshot, previous = folder / "estate.json", folder / "old.json"
        estate.save(snapshot)
        old.save(previous)

        def one_diagram() -> None:
            figure = ipt.plot_topology(estate, group_by="group")
            save_figure(figure, folder / "whole.svg", "svg", tight=False)

        baseline = best_time(one_diagram, args.repeat)
        serial = best_time(
            lambda: ipt.write_docs(estate, folder / "serial", previous=old, workers=1),
            args.repeat,
        )
        parallel = best_time(
            lambda: ipt.write_docs(estate, folder / "parallel", previous=old), args.repeat
        )
        pages = sum(1 for _ in (folder / "parallel" / "docs").rglob("*.md"))
        svgs = sum(1 for _ in (folder / "parallel" / "docs").rglob("*.svg"))
        summary, _ = min(_fresh(["summary", str(snapshot)]) for _ in range(args.repeat))
        out = str(folder / "fresh")
        docs_args = ["docs", str(snapshot), "-o", out, "--previous", str(previous)]
        fresh, peak = min(_fresh(docs_args) for _ in range(args.repeat))

    print(f"{args.size:,} profiles: {pages:,} pages, {svgs:,} SVG diagrams")
    print("held in memory:")
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


if __name__ == "__main__":
    main()
