"""Compare speed: 10,000 profiles against the same 10,000 as another installation holds them.

B is `ipt.demo_environment(A, plant=True)`: new ids everywhere, later timestamps, the
listing shuffled, every `example.com`/`example.net` host renamed, seven planted
differences; the comparison substitutes the hosts back, so every host field is walked and
silenced (the worst case of a test-against-production run). Goal (issue 36): a comparison
in about the time of two loads.

Figures, best of N runs, with ratios against floors measured in the same run on the same
files:
- `ipt.compare(a, b)` of two estates held in memory, against `ipt.load` of both snapshots;
- `ipt.compare(a_path, b_path)` (both loads included) against the same two loads.

    python benchmarks/bench_compare.py [--size 10000] [--repeat 3]

The whole `iptoolkit compare` and `diff` processes against one file's floor, in CPU
seconds (issue 45): `bench_two_files.py`.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from timing import best_time

import iptoolkit as ipt
from iptoolkit.comparing import Rules

HOSTS = Rules(substitute=((".test.example.", ".example."),))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    prod = ipt.demo_estate(args.size, seed=0)
    test = ipt.demo_environment(prod, plant=True)
    with tempfile.TemporaryDirectory() as tmp:
        a_path, b_path = Path(tmp, "prod.json"), Path(tmp, "test.json")
        prod.save(a_path)
        test.save(b_path)
        a, b = ipt.load(a_path), ipt.load(b_path)
        start = time.perf_counter()
        result = ipt.compare(a, b, rules=HOSTS)
        first = time.perf_counter() - start
        print(f"{args.size:,} profiles against {len(b):,}: {result.summary()}")
        print(f"  fields silenced by the host substitution: {result.ignored:,}")
        loads = best_time(lambda: (ipt.load(a_path), ipt.load(b_path)), args.repeat)
        held = best_time(lambda: ipt.compare(a, b, rules=HOSTS), args.repeat)
        same = best_time(lambda: ipt.compare(a, a), args.repeat)
        whole = best_time(lambda: ipt.compare(a_path, b_path, rules=HOSTS), args.repeat)
    print("\nagainst two loads (ipt.load of both snapshots, the floor)")
    print(f"  ipt.load x2 (floor)          {loads:8.3f} s  {1.0:6.2f}x")
    print(
        f"  compare, held in memory      {held:8.3f} s  {held / loads:6.2f}x  (first {first:.3f} s)"
    )
    print(f"  compare, an estate to itself {same:8.3f} s  {same / loads:6.2f}x")
    print(f"  compare(paths), loads in     {whole:8.3f} s  {whole / loads:6.2f}x")
    goal = "met" if held <= loads * 1.2 else "NOT met"
    print(f"\ngoal: compare in about the time of two loads: {goal} ({held / loads:.2f}x)")


if __name__ == "__main__":
    main()
