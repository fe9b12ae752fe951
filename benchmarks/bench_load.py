"""Loading speed and memory: parse_profiles and ipt.load against plain orjson.loads.

For 1k, 10k and 100k demo profiles: the floor (`orjson.loads` of the payload bytes),
`ipt.parse_profiles` of the same bytes, and `ipt.load` of a snapshot file (which also
indexes channels and partners). Prints seconds, MB/s, peak memory and ratios.
`jiter, no check` and `read_json` show what the checks of hostile text cost (issue 14:
repeated keys caught by jiter, the signal for numbers beyond a double).
The floor (the first row; ratios are against it) is `orjson.loads` with the garbage
collector paused (`gc_paused`: gc.disable, then gc.freeze/unfreeze), as iptoolkit runs its
own parsing: a baseline slowed by its own collections would flatter every ratio. The old
GC-on figure follows, labelled. Goals (issue 25): `ipt.load` within 2x of the floor at 10k
and 100k, `parse_profiles` within 3x; peak memory no worse than 5.2x the payload.
(`bench_parse.py` times the same steps in a fresh process and beside a 10k estate held in
memory, on two payloads.)

On this kind of shared machine the floor itself moves by half from run to run, so one
ratio says little. `--fresh N` runs N fresh processes, each timing the floor and `ipt.load`
(CPU, the best of `--repeat`) side by side, and prints each process's ratio and the
median: the figure to compare between versions.

    python benchmarks/bench_load.py [--sizes 1000,10000,100000] [--repeat 3] [--fresh N]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jiter
import orjson
from timing import best_time, orjson_without_gc, status_kb

import iptoolkit as ipt
from iptoolkit.models import gc_paused, read_json
from iptoolkit.support.jsonio import dumps_json


def peak_memory(step: str, snapshot: Path) -> int:
    """Peak resident memory a step adds, in a fresh process (VmHWM - VmRSS before it).

    A fresh process, because freed memory stays with a process: a step run after others
    would reuse it and seem to need none. The payload is read before the mark is set, so
    what is measured is what the step builds, its result included (and C allocations
    tracemalloc would miss).
    """
    command = [sys.executable, __file__, "--peak", step, str(snapshot)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


def _peak_child(step: str, snapshot: Path) -> None:
    payload = snapshot.read_bytes()
    steps = _steps(payload, snapshot)
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # reset the high-water mark
    before = status_kb("VmRSS")
    result = steps[step]()
    print((status_kb("VmHWM") - before) * 1024)
    del result


def _steps(payload: bytes, snapshot: Path) -> dict[str, Callable[[], Any]]:
    return {
        "orjson, gc paused": lambda: orjson_without_gc(payload),
        "orjson, GC on": lambda: orjson.loads(payload),
        "jiter, no check": lambda: _unchecked(payload),
        "read_json": lambda: read_json(payload),
        "parse_profiles": lambda: ipt.parse_profiles(payload),
        "ipt.load": lambda: ipt.load(snapshot),
    }


def _unchecked(payload: bytes) -> Any:
    """jiter without the checks `read_json` adds (repeated keys, the infinity signal)."""
    with gc_paused():
        return jiter.from_json(payload, allow_inf_nan=False, cache_mode="all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fresh", type=int, default=0, help="paired runs in fresh processes")
    parser.add_argument("--peak", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--pair", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak:
        _peak_child(args.peak[0], Path(args.peak[1]))
        return
    if args.pair:
        _pair_child(Path(args.pair), args.repeat)
        return
    if args.fresh:
        for size in (int(s) for s in args.sizes.split(",")):
            with tempfile.TemporaryDirectory() as folder:
                paired(size, Path(folder) / "snap.json", args.fresh, args.repeat)
        return
    header = f"{'profiles':>9} {'MB':>7} {'step':<17} {'seconds':>8} {'MB/s':>7} {'x floor':>8}"
    print(header + f" {'peak MB':>8} {'x payload':>9}", flush=True)
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            measure(size, Path(folder) / "snap.json", args.repeat if size <= 10_000 else 1)


def measure(size: int, snapshot: Path, repeat: int) -> None:
    """Time and trace the three steps for one estate size."""
    payload = dumps_json(ipt.demo_profiles(size, seed=0))
    megabytes = len(payload) / 1e6
    snapshot.write_bytes(payload)  # a bare listing: ipt.load reads it as a snapshot
    floor = None
    for name, step in _steps(payload, snapshot).items():
        seconds = best_time(step, repeat)
        floor = floor or seconds
        peak = peak_memory(name, snapshot)
        print(
            f"{size:>9} {megabytes:>7.1f} {name:<17} {seconds:>8.3f} "
            f"{megabytes / seconds:>7.1f} {seconds / floor:>8.2f} "
            f"{peak / 1e6:>8.1f} {peak / len(payload):>9.2f}",
            flush=True,
        )


def paired(size: int, snapshot: Path, runs: int, repeat: int) -> None:
    """`ipt.load` against the floor in `runs` fresh processes, each its own ratio."""
    snapshot.write_bytes(dumps_json(ipt.demo_profiles(size, seed=0)))
    results = []
    for run in range(runs):
        command = [sys.executable, __file__, "--pair", str(snapshot), "--repeat", str(repeat)]
        out = subprocess.run(command, capture_output=True, text=True, check=True)
        floor, load = map(float, out.stdout.split())
        results.append((floor, load))
        print(f"{size:>9} run {run + 1:>2}: floor {floor:.3f} s, ipt.load {load:.3f} s CPU, "
              f"{load / floor:.2f}x", flush=True)  # fmt: skip
    ratios = sorted(load / floor for floor, load in results)
    loads = sorted(load for _, load in results)
    print(f"{size:>9} median of {runs}: ipt.load {statistics.median(loads):.3f} s CPU, "
          f"{statistics.median(ratios):.2f}x the floor (goal 2x)", flush=True)  # fmt: skip


def _pair_child(snapshot: Path, repeat: int) -> None:
    """The best CPU time of the floor and of `ipt.load`, taken in turns in this process."""
    payload = snapshot.read_bytes()
    ipt.load(snapshot)  # first-use costs (schemas, caches) are not what is compared
    floors, loads = [], []
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        document = orjson_without_gc(payload)
        floors.append(time.process_time() - start)
        del document
        gc.collect()
        start = time.process_time()
        estate = ipt.load(snapshot)
        loads.append(time.process_time() - start)
        del estate
    print(min(floors), min(loads))


if __name__ == "__main__":
    main()
