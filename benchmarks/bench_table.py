"""The Explorer's table at 10,000 profiles: what one update costs and sends to the browser.

The table pages and sorts in the kernel (`iptoolkit/viewmodel/table_pages.py`) and sends only the
page on view. The baseline, measured in the same run, is the whole selection as one JSON
payload of text cells: what a table that pages in the browser must receive on every filter
change (itables did that; its widget state was ~2.4 MB at 10k rows, 0.14 s to build).

For each update (a filter change, a sort, the next page, a bigger page) it prints the best
time of N runs and the bytes of the payload that travels, with both ratios to the
baseline; then the same first update in a fresh process (imports included), and the
memory the table holds beside the frame (its sort order) against the baseline's peak.

    python benchmarks/bench_table.py [--profiles 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from timing import best_time

from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.explorer_model import ExplorerModel
from iptoolkit.viewmodel.table_pages import cell_text
from iptoolkit.widgets.table import SelectionTable

FRESH = """\
import json, sys, time
from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.explorer_model import ExplorerModel
model = ExplorerModel(demo_estate(n_profiles={profiles}))
frame = model.table(model.select(Filter()))
start = time.perf_counter()
from iptoolkit.widgets.table import SelectionTable
table = SelectionTable(lambda row: None)
table.show(frame)
print(json.dumps([time.perf_counter() - start, len(json.dumps(table.widget.view))]))
"""


def whole_frame_payload(frame: Any) -> str:
    """The baseline: every row of the selection as text cells, in one JSON document."""
    columns = [str(name) for name in frame.columns]
    rows = [[cell_text(value) for value in row] for row in frame.itertuples(index=False)]
    return json.dumps({"columns": columns, "data": rows})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    start = time.perf_counter()
    model = ExplorerModel(demo_estate(n_profiles=args.profiles))
    frame = model.table(model.select(Filter()))
    active = model.table(model.select(Filter(active=True)))
    print(
        f"demo estate and table frame ({len(frame):,} rows) in {time.perf_counter() - start:.1f} s"
    )

    base_time = best_time(lambda: whole_frame_payload(frame), args.repeat)
    base_bytes = len(whole_frame_payload(frame))
    print(f"baseline, the whole frame as one payload: {base_time:.4f} s, {base_bytes:,} bytes\n")

    table = SelectionTable(lambda row: None)
    table.show(frame)

    def sent() -> int:
        return len(json.dumps(table.widget.view))

    def flip() -> None:
        table.pager.column = None  # every run shows the frame fresh, then sorts by name

    def first_page_of_25() -> None:
        table.go(0)
        table.resize(25)

    steps: list[tuple[str, Callable[[], Any], Callable[[], Any] | None]] = [
        ("filter change, all rows", lambda: table.show(frame), None),
        ("filter change, active only", lambda: table.show(active), None),
        ("sort by name (whole frame)", lambda: table.sort_by("name"), flip),
        ("sort again (descending)", lambda: table.sort_by("name"), None),
        ("next page", lambda: table.go(table.pager.page + 1), None),
        ("last page", lambda: table.go(10**9), lambda: table.go(0)),
        ("100 rows a page", lambda: table.resize(100), first_page_of_25),
    ]
    print(f"{'update':28} {'rows':>5} {'time s':>8} {'x base':>7} {'bytes':>8} {'x base':>8}")
    for name, step, setup in steps:
        elapsed = best_time(step, args.repeat, setup)
        if setup is not None:
            setup()
        step()  # once more, to measure what this step sends
        size = sent()
        print(
            f"{name:28} {len(table.widget.view['rows']):>5} {elapsed:>8.4f} "
            f"{elapsed / base_time:>7.3f} {size:>8,} {size / base_bytes:>8.4f}"
        )

    code = FRESH.format(profiles=args.profiles)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    fresh_time, fresh_bytes = json.loads(out.stdout.strip().splitlines()[-1])
    print(
        f"\nfresh process, import + first show: {fresh_time:.3f} s, {fresh_bytes:,} bytes "
        f"(baseline payload alone: {base_time:.3f} s, {base_bytes:,} bytes)"
    )

    tracemalloc.start()
    table.show(frame)
    table.sort_by("last modified")
    _, table_peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    payload = whole_frame_payload(frame)
    _, base_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del payload
    held = table.pager._order.nbytes
    print(
        f"memory: the table holds {held / 1024:,.0f} KiB beside the frame (its sort order); "
        f"peak while sorting {table_peak / 2**20:.1f} MiB, while building the baseline "
        f"payload {base_peak / 2**20:.1f} MiB"
    )


if __name__ == "__main__":
    main()
