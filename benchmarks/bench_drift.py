"""Schema drift on a demo estate (10,000 profiles by default): `schema_report` and
`schema_changes` against `orjson.loads` of the same profiles' bytes.

`schema_report` walks every profile's raw JSON against a table of declared fields instead
of building models; building the models of the same estate (`estate.profiles`) is timed
too, to show what that saves. The walk is cached on an estate, so each run times a fresh
view of it (`estate.take`, made untimed). Figures: beside the 10k estate held in memory,
then the first report in a fresh process (imports and the field table included), and the
peak memory the walk adds (tracemalloc) against the payload.

    python benchmarks/bench_drift.py [--profiles 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import copy
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from timing import best_time, orjson_without_gc

import iptoolkit as ipt
from iptoolkit.change.drift import schema_changes, schema_report
from iptoolkit.core.estate import Estate
from iptoolkit.support.jsonio import dumps_json

FRESH_PROCESS = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from timing import orjson_without_gc
import iptoolkit as ipt
estate = ipt.load(sys.argv[1])
start = time.perf_counter()
orjson_without_gc(Path(sys.argv[1]).read_bytes())
floor = time.perf_counter() - start
start = time.perf_counter()
from iptoolkit.change.drift import schema_report
schema_report(estate)
print(floor, time.perf_counter() - start)
"""
"""The first report in a new process: importing the drift modules and building the field
tables included; its floor is reading and `orjson.loads` of the snapshot in that process."""


def fresh(estate: Estate) -> Estate:
    """A view of the same records with empty caches (so the walk runs again)."""
    return estate.take(range(len(estate)))


def drifted(profiles: list[dict[str, Any]]) -> Estate:
    """The same profiles with a few hundred drifts: new fields, classes, wrong types."""
    changed = copy.deepcopy(profiles)
    for index, profile in enumerate(changed[::50]):
        agent = profile["inputAgentSettings"]
        agent["retryPolicy"] = {"max": 3}
        if index % 3 == 0:
            agent["class"] = "core:FtpsAgentSettings"
        if index % 5 == 0:
            profile["active"] = "yes"
    return Estate.from_raw(changed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    profiles = ipt.demo_profiles(args.profiles, seed=0)
    payload = dumps_json(profiles)
    estate = Estate.from_raw(profiles)
    other = drifted(profiles)
    print(f"{len(estate):,} profiles, {len(payload) / 1e6:.1f} MB of JSON, held in memory")

    views: list[Estate] = []

    def new_views() -> None:
        views[:] = [fresh(estate), fresh(other)]

    floor = best_time(lambda: orjson_without_gc(payload), args.repeat)
    steps = {
        "orjson.loads (floor)": floor,
        "schema_report": best_time(lambda: schema_report(views[0]), args.repeat, new_views),
        "schema_changes": best_time(
            lambda: schema_changes(views[0], views[1]), args.repeat, new_views
        ),
        "models (compare)": best_time(lambda: fresh(estate).profiles, max(1, args.repeat // 3)),
    }
    print(f"{'step':<22} {'seconds':>8} {'x floor':>8}")
    for name, seconds in steps.items():
        print(f"{name:<22} {seconds:>8.3f} {seconds / floor:>8.2f}")
    report = schema_report(other)
    print(f"drifted copy: {report.summary()}")
    print(f"schema changes: {len(schema_changes(estate, other))}")

    view = fresh(estate)
    tracemalloc.start()
    schema_report(view)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"walk peak memory {peak / 1e6:.1f} MB, {peak / len(payload):.3f} x payload")

    with tempfile.TemporaryDirectory() as folder:
        path = estate.save(Path(folder) / "snap.json")
        here = str(Path(__file__).resolve().parent)
        command = [sys.executable, "-c", FRESH_PROCESS, str(path), here]
        runs = []
        for _ in range(max(1, args.repeat // 2)):
            out = subprocess.run(command, capture_output=True, text=True, check=True)
            loads, first_report = (float(word) for word in out.stdout.split()[-2:])
            runs.append((first_report, loads))
    first_report, loads = min(runs)
    print(
        f"fresh process, first schema_report: {first_report:.3f} s, "
        f"{first_report / loads:.2f} x reading and orjson.loads of the snapshot there "
        f"({loads:.3f} s)"
    )


if __name__ == "__main__":
    main()
