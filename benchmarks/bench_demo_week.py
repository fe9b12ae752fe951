"""`ipt.demo_changes` (a week of changes to an estate) against building the estate it returns.

The floor is `Estate.from_raw` of the changed listing, which `demo_changes` ends with: what
it costs beyond that is the copy of the raw JSON and the changes themselves. Timed in a
fresh process (one run each, nothing else in memory) and, best of N, beside the input
estate and a second 10k-profile estate held in memory. Prints seconds and ratios.

    python benchmarks/bench_demo_week.py [--profiles 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from timing import best_time

import iptoolkit as ipt
from iptoolkit.core.estate import Estate

FRESH = """
import sys, time
sys.path.insert(0, {here!r})
import iptoolkit as ipt
from iptoolkit.core.estate import Estate
estate = ipt.demo_estate(n_profiles={n})
later = ipt.demo_changes(estate, seed=1)
raw = list(later.raw_profiles)
del later
start = time.perf_counter(); Estate.from_raw(raw); floor = time.perf_counter() - start
start = time.perf_counter(); ipt.demo_changes(estate, seed=1); week = time.perf_counter() - start
print(floor, week)
"""


def fresh_process(n: int) -> tuple[float, float]:
    """(floor, demo_changes) seconds, one run each, in a new interpreter."""
    code = FRESH.format(here=str(Path(__file__).parent), n=n)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    floor, week = (float(value) for value in out.stdout.split())
    return floor, week


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.profiles

    floor, week = fresh_process(n)
    print(f"fresh process, {n:,} profiles")
    print(f"  Estate.from_raw of the changed listing   {floor:7.3f} s   1.00x")
    print(f"  demo_changes                             {week:7.3f} s   {week / floor:.2f}x")

    started = time.perf_counter()
    estate = ipt.demo_estate(n_profiles=n)
    held = ipt.demo_estate(n_profiles=10_000, seed=9)  # another estate, as a notebook holds
    raw = list(ipt.demo_changes(estate, seed=1).raw_profiles)
    print(
        f"held in memory: the input and a second 10,000-profile estate (built in "
        f"{time.perf_counter() - started:.1f} s); best of {args.repeat}"
    )
    floor = best_time(lambda: Estate.from_raw(raw), args.repeat)
    week = best_time(lambda: ipt.demo_changes(estate, seed=1), args.repeat)
    print(f"  Estate.from_raw of the changed listing   {floor:7.3f} s   1.00x")
    print(f"  demo_changes                             {week:7.3f} s   {week / floor:.2f}x")
    del held


if __name__ == "__main__":
    main()
