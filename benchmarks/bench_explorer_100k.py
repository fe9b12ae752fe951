"""The cell `ipt.Explorer(estate)` at 100,000 profiles against `ipt.load` of the same file.

Issue 42 ("size without surprises"): the Explorer must reach a drawn view (the filter
panel with its counts, the table's first page, the topology's overview laid out and the
static copy a notebook keeps) within 3x the time `ipt.load` takes: load + Explorer
construction <= 3 x load. Each figure comes from a fresh process, as a notebook's kernel
starts:

- `ipt.load` alone, in a process of its own (the floor);
- in another process, `ipt.load` again, then `Explorer(estate)`: the constructor (what
  the cell waits for before it returns), then the static copy's PNG where the
  constructor leaves it for later (`explorer.refresh()` draws it at once), then the
  display bundle the notebook saves (the widget's and the static copy's).

Wall and CPU seconds are both printed: other work on a shared machine stretches wall time,
much less the CPU time of a single-threaded process. Ratios are of the same run.

    python benchmarks/bench_explorer_100k.py [--profiles 100000] [--snapshot PATH]
        [--cprofile 25]

`--snapshot` reuses a snapshot file (written there first when it does not exist);
`--cprofile N` prints the N costliest calls (cumulative) of the Explorer's construction.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import iptoolkit as ipt

TARGET = 3.0


class Clock:
    """Wall and CPU seconds since the last `lap`."""

    def __init__(self) -> None:
        self._wall = time.perf_counter()
        self._cpu = time.process_time()

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        lapped = (wall - self._wall, cpu - self._cpu)
        self._wall, self._cpu = wall, cpu
        return lapped


def _child(mode: str, snapshot: Path, cprofile: int) -> None:
    """One fresh process: its figures as one JSON line on stdout."""
    clock = Clock()
    estate = ipt.load(snapshot)
    figures: dict[str, tuple[float, float]] = {"load": clock.lap()}
    if mode == "explorer":
        clock.lap()
        if cprofile:  # its figures include the profiler's cost
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            explorer = profiler.runcall(ipt.Explorer, estate)
            figures["Explorer(estate) returns"] = clock.lap()
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(cprofile)
            clock.lap()
        else:
            explorer = ipt.Explorer(estate)
            figures["Explorer(estate) returns"] = clock.lap()
        explorer.refresh()  # the static copy's PNG, if the constructor left it for later
        figures["static PNG drawn"] = clock.lap()
        explorer.widget._repr_mimebundle_()
        explorer._static_copy.html()
        figures["display bundle"] = clock.lap()
        assert explorer.diagram_png, "no static PNG"
        assert explorer.topology.data is not None, "no topology drawn"
    print(json.dumps(figures))


def fresh(mode: str, snapshot: Path, cprofile: int = 0) -> dict[str, tuple[float, float]]:
    command = [sys.executable, __file__, "--child", mode, "--snapshot", str(snapshot)]
    if cprofile:
        command += ["--cprofile", str(cprofile)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the {mode} process failed:\n{done.stderr}")
    if cprofile:
        print(done.stderr)
    figures: dict[str, tuple[float, float]] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=100_000)
    parser.add_argument("--snapshot", type=Path, default=None)
    parser.add_argument("--cprofile", type=int, default=0)
    parser.add_argument("--child", choices=("load", "explorer"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.snapshot, args.cprofile)
        return

    with tempfile.TemporaryDirectory() as folder:
        snapshot = args.snapshot or Path(folder) / f"estate-{args.profiles}.json"
        if not snapshot.exists():
            start = time.perf_counter()
            ipt.demo_estate(args.profiles).save(snapshot)
            print(f"wrote {snapshot} in {time.perf_counter() - start:.1f} s")
        size = snapshot.stat().st_size / 1e6
        print(f"snapshot: {snapshot} ({size:,.0f} MB)\n")
        alone = fresh("load", snapshot)["load"]
        figures = fresh("explorer", snapshot, args.cprofile)

    print(f"{'step (each process fresh)':34} {'wall s':>8} {'cpu s':>8}")
    print(f"{'ipt.load, a process of its own':34} {alone[0]:>8.2f} {alone[1]:>8.2f}")
    for name, (wall, cpu) in figures.items():
        print(f"{name:34} {wall:>8.2f} {cpu:>8.2f}")
    load = figures["load"]
    cell = figures["Explorer(estate) returns"]
    drawn = [a + b for a, b in zip(cell, figures["static PNG drawn"], strict=True)]
    print()
    for which, index in (("wall", 0), ("cpu", 1)):
        floor = load[index]
        returns = (floor + cell[index]) / floor
        complete = (floor + drawn[index]) / floor
        print(
            f"{which:4}: (load + Explorer) / load = {returns:.2f} when the cell returns, "
            f"{complete:.2f} with the static PNG drawn (target <= {TARGET:.0f})"
        )
    verdict = "OK" if (load[1] + drawn[1]) / load[1] <= TARGET else "TOO SLOW"
    print(f"\nverdict (cpu, everything drawn): {verdict}")


if __name__ == "__main__":
    main()
