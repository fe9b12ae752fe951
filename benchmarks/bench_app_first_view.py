"""The app's first view: from opening the page to the first drawn view (the overview drawn
at start and sent in the page, `app.first_view`) and to the live topology canvas, and the
memory of a session's kernel, with Voila's preheated kernel (what `iptoolkit explore` runs)
against Voila starting a kernel per page (the baseline, measured in the same run).

For each mode the app is started on a demo snapshot (`iptoolkit.app.runner.start`, the
command's own runner), left to settle (the warm kernel has run the notebook, the first view
is drawn), then the page is opened `--visits` times in headless Chromium, one after
another, each closed as a person closes it (so its kernel goes). A script the page runs
from its start notes, at every animation frame, when `#ipt-first-view` is first shown (its
SVG in the DOM, displayed) and when the live canvas first exists (and whether the drawing
is hidden then). Printed per visit and as medians: both times, wall clock from the moment
the page is asked for, with the load average; the ratio preheated / per-page; the resident
memory of each kernel once a page is shown.

The floor is measured in the same run: the same Voila, preheated, on a notebook of one
`HTML` widget, timed to that widget. What the live view takes beyond it is ours (the
Explorer's widgets, ipysigma's bundle, the canvas); the floor itself is Voila's front end
(some 120 scripts, 6.8 MB) and its kernel connection, which no widget can go under: the
first drawn view can, being in the page's HTML.

    python benchmarks/bench_app_first_view.py [--profiles 10000] [--visits 3] [--settle 60]
        [--skip-baseline]

Needs Chromium and playwright (see tests/browser/lab.py) and the `app` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _kernels_mb(pids: Sequence[int]) -> list[int]:
    """The resident memory of the kernels under Voila and under the zygote (which forks
    them: `app.zygote`)."""
    from tests.app_processes import app_kernels

    kernels = [kernel for pid in pids for kernel in app_kernels(pid)]
    return sorted(round(kernel.memory_info().rss / 2**20) for kernel in kernels)


def _server_mb(pid: int) -> int:
    """Voila's own resident memory (the server, without its kernels)."""
    import psutil

    rss: int = psutil.Process(pid).memory_info().rss
    return round(rss / 2**20)


FLOOR_CELL = "import ipywidgets as W\nW.HTML('<b class=\"ipt-floor\">shown</b>')"
CANVAS = ".ipt-topology .ipysigma-container canvas"  # tests.browser.lab.LIVE_CANVAS


def _floor_notebook(folder: Path) -> Path:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(FLOOR_CELL)]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    path = folder / "floor.ipynb"
    nbformat.write(notebook, path)
    return path


def _visits(
    url: str, pids: Sequence[int], visits: int, shown: str = CANVAS
) -> tuple[list[tuple[float | None, float]], list[int]]:
    """Per visit (seconds to the first drawn view or None, seconds to `shown`), and the
    kernels' memory while the last page was shown."""
    from playwright.sync_api import sync_playwright

    from tests.browser.lab import FIRST_VIEW_WATCH, launch_chromium

    times: list[tuple[float | None, float]] = []
    memory: list[int] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for _ in range(visits):
                page = browser.new_page(viewport={"width": 1600, "height": 1100})
                page.add_init_script(
                    FIRST_VIEW_WATCH.replace(json.dumps(CANVAS), json.dumps(shown))
                )
                start = time.time()
                page.goto(url, timeout=600_000)
                page.locator(shown).first.wait_for(timeout=600_000)
                page.wait_for_function("window.__iptFirstView.hiddenWithLive !== null")
                seen = page.evaluate("window.__iptFirstView")
                first = (seen["first"] / 1000 - start) if seen["first"] else None
                times.append((first, seen["live"] / 1000 - start))
                if seen["first"] and not seen["hiddenWithLive"]:
                    print("  (the drawing was still shown with the live canvas)")
                memory = _kernels_mb(pids)
                page.close(run_before_unload=True)
                time.sleep(20)  # the pool refills (preheated) or the kernel goes
        finally:
            browser.close()
    return times, memory


def _median(values: Sequence[float | None]) -> str:
    known = [value for value in values if value is not None]
    if len(known) < len(values):
        return "not always shown"
    return f"median {statistics.median(known):.1f} s"


def _seconds(values: Sequence[float | None]) -> str:
    return ", ".join("none" if value is None else f"{value:.1f}" for value in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--visits", type=int, default=3)
    parser.add_argument("--settle", type=float, default=60.0, help="seconds before visiting")
    parser.add_argument(
        "--skip-baseline", action="store_true", help="leave out a kernel per page (slow)"
    )
    args = parser.parse_args()

    import iptoolkit as ipt
    from iptoolkit.app import runner
    from iptoolkit.support import env

    folder = Path(tempfile.mkdtemp(prefix="bench-app-"))
    snapshot = folder / "estate.json"
    ipt.demo_estate(n_profiles=args.profiles, seed=7).save(snapshot)
    environ = {**os.environ, env.APP_SNAPSHOT: str(snapshot), env.APP_FOLDER: str(folder)}
    results: dict[str, list[float]] = {}
    firsts: dict[str, list[float | None]] = {}
    modes = (("per page (baseline)", False), ("preheated", True))
    print(f"{args.profiles:,} profiles; load average before: {_load()}")
    for name, preheat in modes[1:] if args.skip_baseline else modes:
        app = runner.start(runner.check_port(0), environ, preheat=preheat, timeout=120)
        try:
            time.sleep(args.settle)
            parents = [app.process.pid, *([app.zygote.process.pid] if app.zygote else [])]
            visits, memory = _visits(app.url, parents, args.visits)
            server = _server_mb(app.process.pid)
        finally:
            runner.stop(app)
        firsts[name] = [first for first, _ in visits]
        results[name] = [live for _, live in visits]
        print(
            f"{name:>20}: first drawn view {_seconds(firsts[name])} s "
            f"({_median(firsts[name])}); live canvas {_seconds(results[name])} s "
            f"(median {statistics.median(results[name]):.1f} s); "
            f"kernels while a page is shown: {memory} MB; Voila itself {server} MB (the "
            f"first view drawn by the zygote, which the kernels are forked from); load {_load()}"
        )
    app = runner.start(runner.check_port(0), environ, notebook=_floor_notebook(folder), timeout=120)
    try:
        time.sleep(min(args.settle, 20))
        floor_visits, _ = _visits(app.url, [app.process.pid], args.visits, ".ipt-floor")
    finally:
        runner.stop(app)
    floor = [shown for _, shown in floor_visits]
    print(
        f"{'floor (one widget)':>20}: shown {_seconds(floor)} s "
        f"(median {statistics.median(floor):.1f} s); load {_load()}"
    )
    preheated = statistics.median(results["preheated"])
    first = [value for value in firsts["preheated"] if value is not None]
    if "per page (baseline)" in results:
        ratio = preheated / statistics.median(results["per page (baseline)"])
        print(f"live canvas, preheated / per page: {ratio:.2f}")
    print(
        f"live canvas - floor: {preheated - statistics.median(floor):.1f} s is the app's own; "
        f"preheated / floor: {preheated / statistics.median(floor):.2f}"
    )
    if first:
        print(
            f"first drawn view / floor: {statistics.median(first) / statistics.median(floor):.2f}"
            f"; first drawn view / live canvas: {statistics.median(first) / preheated:.2f} "
            f"(load {_load()})"
        )


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
