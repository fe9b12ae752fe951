"""plot_diff and history on demo estates (10,000 profiles by default).

- `plot_diff` of a "next week" (a few profiles added and removed, an agent edited, a shared
  channel deactivated) against `plot_topology` of the new estate in the same run (the
  floor: the same drawing without the old graph, the union or the statuses); the first
  call (matplotlib imported) and the best of N; `only_changed=True` too.
- the diff as the interactive HTML file (`ipt.export(diff, "x.html")`: both snapshots'
  map, every level coloured, each item's changes) against the HTML file of the new estate
  alone in the same run (the floor: the same levels and details without the union, the
  statuses or the older snapshot's details), with the sizes of both files.
- `history` of four weekly snapshots written to a temporary folder: the timeline (each
  snapshot loaded once, one at a time) and the diffs of the three pairs, timed against
  loading the four snapshots one after another, with their peak of traced memory against
  the peak of loading one snapshot (a history holds one estate while counting and about
  two at most while diffing).

    python benchmarks/bench_change_views.py [--profiles 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import iptoolkit as ipt
from iptoolkit.change.estate_diff import EstateDiff
from iptoolkit.core.snapshot import SnapshotInfo
from iptoolkit.plot.backend import pyplot

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from timing import best_time  # noqa: E402

from tests.change_cases import WEEK_START, next_week  # noqa: E402


def peak(func: Callable[[], Any]) -> tuple[float, Any]:
    """(peak traced MiB while `func` runs, its result)."""
    tracemalloc.start()
    try:
        result = func()
        return tracemalloc.get_traced_memory()[1] / 2**20, result
    finally:
        tracemalloc.stop()


def dated(estate: ipt.Estate, week: int) -> ipt.Estate:
    info = SnapshotInfo(fetched_at=WEEK_START + timedelta(days=7 * week))
    return ipt.Estate.from_raw(list(estate.raw_profiles), info=info)


def bench_plot(diff: EstateDiff, repeat: int) -> None:
    plt = pyplot()
    start = time.perf_counter()
    plt.close(ipt.plot_diff(diff))
    print(f"plot_diff, first call (imports matplotlib): {time.perf_counter() - start:.2f} s")
    floor = best_time(lambda: plt.close(ipt.plot_topology(diff.new)), repeat)
    grouped = best_time(lambda: plt.close(ipt.plot_diff(diff)), repeat)
    only = best_time(lambda: plt.close(ipt.plot_diff(diff, only_changed=True)), repeat)
    print(f"plot_topology(new), the floor: {floor:.2f} s")
    print(f"plot_diff, grouped:            {grouped:.2f} s  ({grouped / floor:.2f}x the floor)")
    print(f"plot_diff, only_changed:       {only:.2f} s  ({only / floor:.2f}x the floor)")


def bench_html(diff: EstateDiff, repeat: int, folder: Path) -> None:
    estate_file, diff_file = folder / "estate.html", folder / "changes.html"
    floor = best_time(lambda: ipt.export(diff.new, estate_file), repeat)
    marked = best_time(lambda: ipt.export(diff, diff_file), repeat)
    mib = [path.stat().st_size / 2**20 for path in (diff_file, estate_file)]
    print(f"export(new estate, .html), the floor: {floor:.2f} s, {mib[1]:.1f} MiB")
    print(
        f"export(diff, .html): {marked:.2f} s ({marked / floor:.2f}x the floor), {mib[0]:.1f} MiB"
    )


def bench_history(folder: Path) -> None:
    paths = sorted(folder.glob("*.json.gz"))

    def load_each() -> None:
        for path in paths:
            ipt.load(path)

    loading = best_time(load_each, 1)
    counted = best_time(lambda: ipt.history(folder), 1)
    one, _ = peak(lambda: ipt.load(paths[0]))  # traced: slower, so timed apart
    counting, h = peak(lambda: ipt.history(folder))
    print(f"load the 4 snapshots in turn, the floor: {loading:.2f} s; one: {one:.0f} MiB peak")
    print(
        f"history (timeline of 4):       {counted:.2f} s ({counted / loading:.2f}x the loads), "
        f"{counting:.0f} MiB peak ({counting / one:.2f}x one load)"
    )
    diffing = best_time(ipt.history(folder).severities, 1)
    traced, _ = peak(h.severities)
    print(
        f"history diffs (3 pairs):       {diffing:.2f} s ({diffing / loading:.2f}x the loads), "
        f"{traced:.0f} MiB peak ({traced / one:.2f}x one load)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    old = dated(ipt.demo_estate(n_profiles=args.profiles, seed=0), 0)
    diff = next_week(old)
    print(f"estates: {len(diff.old):,} -> {len(diff.new):,} profiles, {len(diff)} changes")
    bench_plot(diff, args.repeat)
    with tempfile.TemporaryDirectory() as folder:
        bench_html(diff, args.repeat, Path(folder))
    with tempfile.TemporaryDirectory() as folder:
        weeks = [old, dated(diff.new, 1), dated(next_week(dated(diff.new, 1)).new, 2)]
        weeks.append(dated(weeks[-1], 3))
        for n, estate in enumerate(weeks):
            estate.save(Path(folder) / f"week{n}.json.gz")
        del weeks, old, diff, estate  # the history loads what it needs
        bench_history(Path(folder))


if __name__ == "__main__":
    main()
