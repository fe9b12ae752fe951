"""Whole `iptoolkit` processes against one file's floor, in CPU seconds (issue 45).

Each job runs as a fresh child process, as a shell or CI runs it (interpreter start,
imports, loading, the work, the default text output, exit), and is measured in CPU
seconds (user + system, `resource.getrusage` of the children): on a shared machine wall
time is several times CPU time and varies more. The floor is one file's least work, in a
fresh child too: read the snapshot and `orjson.loads` it with the collector paused
(`timing.orjson_without_gc`). Runs are interleaved (every job once, then again) and the
best of `--repeat` is kept, so that a busy moment of the machine costs every job alike.

The files: A, `ipt.demo_estate(n)`; B, A a week later (`bench_diff.next_week`: a few
hundred changes, the listing reordered); C, A as a test installation holds it
(`ipt.demo_environment(A, plant=True)`: new ids, timestamps and hosts, shuffled, seven
planted differences). Jobs: `compare A C`, `diff A B`, `summary A`, `audit A`.

Goal (issue 45): `compare` and `diff` of two files within 5x one file's floor (2.5x for
each side). `summary` and `audit` read one file: their ratios are shown beside, no goal.

    python benchmarks/bench_two_files.py [--size 10000] [--large] [--repeat 3]

`--large` also measures 100,000 profiles (some 350 MB a file; making the files takes
minutes).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_diff import next_week

import iptoolkit as ipt

ENTRY = [sys.executable, "-m", "iptoolkit.cli"]
GOAL = 5.0
"""compare and diff: at most this many times one file's floor."""
WITH_GOAL = ("compare", "diff")
LABELS = {
    "compare": "iptoolkit compare A C",
    "diff": "iptoolkit diff A B",
    "summary": "iptoolkit summary A",
    "audit": "iptoolkit audit A",
}

_FLOOR = (
    "import sys\n"
    "from pathlib import Path\n"
    "sys.path.insert(0, sys.argv[2])\n"
    "from timing import orjson_without_gc\n"
    "orjson_without_gc(Path(sys.argv[1]).read_bytes())\n"
)


def cpu_seconds(command: list[str]) -> float:
    """User + system CPU of one fresh child running `command` (its output thrown away).
    Exit 1 is a finding (`compare`, `audit` found something), not a failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.decode()[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def make_files(size: int, folder: Path) -> tuple[Path, Path, Path]:
    """A, B (a week later) and C (the test installation) of `size` profiles."""
    raw = ipt.demo_profiles(size, seed=0)
    a = ipt.Estate.from_raw(raw)
    paths = folder / "a.json", folder / "b.json", folder / "c.json"
    a.save(paths[0])
    ipt.Estate.from_raw(next_week(raw)).save(paths[1])
    ipt.demo_environment(a, plant=True).save(paths[2])
    return paths


def jobs(a: Path, b: Path, c: Path) -> dict[str, list[str]]:
    """Each measured process by name, the floor first."""
    here = str(Path(__file__).parent)
    return {
        "floor": [sys.executable, "-c", _FLOOR, str(a), here],
        "compare": [*ENTRY, "compare", str(a), str(c)],
        "diff": [*ENTRY, "diff", str(a), str(b)],
        "summary": [*ENTRY, "summary", str(a)],
        "audit": [*ENTRY, "audit", str(a)],
    }


def measure(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """The best CPU seconds of each command over `repeat` interleaved rounds."""
    best = {name: float("inf") for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            best[name] = min(best[name], cpu_seconds(command))
    return best


def report(size: int, best: dict[str, float]) -> bool:
    """Print one size's figures and ratios; whether compare and diff meet the goal."""
    floor = best["floor"]
    print(f"\n{size:,} profiles: CPU seconds of whole processes, best of the rounds")
    print(f"  {'one file: read + orjson.loads (floor)':44} {floor:8.3f} s  {1.0:5.2f}x")
    met = True
    for name, seconds in best.items():
        if name == "floor":
            continue
        ratio = seconds / floor
        goal = ""
        if name in WITH_GOAL:
            ok = ratio <= GOAL
            met &= ok
            goal = f"  goal <= {GOAL:.0f}x: {'met' if ok else 'NOT met'}"
        print(f"  {LABELS[name]:44} {seconds:8.3f} s  {ratio:5.2f}x{goal}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--large", action="store_true", help="also 100,000 profiles")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    sizes = [args.size, *([100_000] if args.large and args.size != 100_000 else [])]
    verdicts = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            a, b, c = make_files(size, Path(tmp))
            verdicts.append((size, report(size, measure(jobs(a, b, c), args.repeat))))
    said = ", ".join(f"{size:,}: {'met' if ok else 'NOT met'}" for size, ok in verdicts)
    print(f"\ngoal: compare and diff within {GOAL:.0f}x one file's floor: {said}")


if __name__ == "__main__":
    main()
