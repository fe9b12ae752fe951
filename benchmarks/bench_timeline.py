"""The Explorer's timeline over an archive (issue 43): 20 daily snapshots of a 10,000-profile
demo estate (each a day of the demo week's kind of changes), stored in an archive; then
`Explorer(archive=...)` with its Topology tab shown, and the time one step of the timeline
takes in the kernel (reading the snapshot, its stored changes, the union's graph, the
layout, the widget drawn), against the floors in the same run:

- reading one snapshot back from the archive (`Archive.estate`), and
- drawing the same estate plain in the same view (`TopologyView.update(estate)`: the map
  without the older snapshot, the union or the marks).

A step to the snapshot before, `--pause` seconds after the last (a reader looking at the
map, while the timeline reads the next step's snapshot and maps it, then reads every
other snapshot it keeps: `ArchiveTimeline.prefetch`), and a jump far away, are timed
apart; the issue asks under 1 s on a quiet machine. A jump made at once after the
Explorer opened, before the timeline has read ahead, is timed too (its snapshots read
then). The browser's own drawing is not in these figures (`bench_explorer_browser.py`
has it).

    python benchmarks/bench_timeline.py [--profiles 10000] [--snapshots 20] [--repeat 3]
                                        [--pause 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import iptoolkit as ipt
from iptoolkit.core.snapshot import SnapshotInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from timing import best_time  # noqa: E402

from tests.change_cases import WEEK_START  # noqa: E402


def daily(profiles: int, snapshots: int) -> list[ipt.Estate]:
    """`snapshots` estates a day apart, each the one before with a demo week's changes."""
    estates = [ipt.demo_estate(profiles, seed=5)]
    for day in range(1, snapshots):
        changed = ipt.demo_changes(estates[-1], seed=day)
        info = SnapshotInfo(fetched_at=WEEK_START + timedelta(days=day))
        estates.append(ipt.Estate.from_raw(list(changed.raw_profiles), info=info))
    first = estates[0]
    estates[0] = ipt.Estate.from_raw(
        list(first.raw_profiles), info=SnapshotInfo(fetched_at=WEEK_START)
    )
    return estates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--snapshots", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between steps")
    args = parser.parse_args()

    from iptoolkit.widgets import Explorer

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "estate.duckdb"
        start = time.perf_counter()
        estates = daily(args.profiles, args.snapshots)
        made = time.perf_counter() - start
        archive = ipt.Archive(path)
        start = time.perf_counter()
        for estate in estates:
            archive.add(estate)
        stored = time.perf_counter() - start
        print(
            f"{args.snapshots} daily snapshots of {args.profiles:,} profiles: made in "
            f"{made:.1f} s, archived in {stored:.1f} s ({path.stat().st_size / 2**20:.0f} MiB)"
        )
        del estates

        start = time.perf_counter()
        explorer = Explorer(archive=path, static_copy=False)
        explorer.tabs.selected_index = 0
        explorer._topology_tab.set_visible(True)
        print(f"Explorer(archive=...), the newest drawn: {time.perf_counter() - start:.1f} s")
        bar, view = explorer.timeline, explorer.topology
        assert bar is not None
        start = time.perf_counter()
        bar.show(len(bar.timeline) // 2)  # at once: read now, not ahead
        at_once = time.perf_counter() - start
        bar.show(len(bar.timeline) - 1)

        steps, jumps = [], []
        last = len(bar.timeline) - 1
        for index in range(last - 1, max(last - 1 - 4 * args.repeat, 0), -1):
            time.sleep(args.pause)
            start = time.perf_counter()
            bar.show(index)
            steps.append(time.perf_counter() - start)
        for index in (last, 1, last // 2)[: max(args.repeat, 1)]:
            time.sleep(args.pause)
            start = time.perf_counter()
            bar.show(index)
            jumps.append(time.perf_counter() - start)

        shown = bar.timeline.estate(bar.index)
        middle = bar.timeline.moments[last // 2].snapshot_id
        reader = ipt.Archive(path)  # not the one that added: it remembers its last estate
        read = best_time(lambda: reader.estate(middle), args.repeat)
        plain = best_time(lambda: view.update(shown), args.repeat)
        step = statistics.median(steps)
        print(f"floor, one snapshot read back from the archive: {read:.2f} s")
        print(f"floor, the same estate drawn plain in the view: {plain:.2f} s")
        print(
            f"a step to the snapshot before, {args.pause:g} s after the last (median of "
            f"{len(steps)}): {step:.2f} s, "
            f"worst {max(steps):.2f} s ({step / plain:.2f}x the plain drawing)"
        )
        print(
            f"a jump far away, {args.pause:g} s after the last (median of {len(jumps)}): "
            f"{statistics.median(jumps):.2f} s, worst {max(jumps):.2f} s "
            f"({statistics.median(jumps) / plain:.2f}x the plain drawing)"
        )
        print(
            f"a jump at once after opening (its two snapshots read then): {at_once:.2f} s "
            f"({at_once / (plain + 2 * read):.2f}x drawing plus two fresh reads)"
        )
        explorer.close()


if __name__ == "__main__":
    main()
