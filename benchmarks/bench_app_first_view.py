"""The app's first view: from opening the page to the topology's canvas, and the memory of
a session's kernel, with Voila's preheated kernel (what `iptoolkit explore` runs) against
Voila starting a kernel per page (the baseline, measured in the same run).

For each mode the app is started on a demo snapshot (`iptoolkit.app.runner.start`, the
command's own runner), left to settle (the warm kernel has run the notebook), then the page
is opened `--visits` times in headless Chromium, one after another, each closed as a person
closes it (so its kernel goes). Printed: the time to the first canvas per visit, the median,
the ratio preheated / per-page, and the resident memory of each kernel once a page is shown.

The floor is measured in the same run: the same Voila, preheated, on a notebook of one
`HTML` widget, timed to that widget. What the app takes beyond it is ours (the Explorer's
widgets, ipysigma's bundle, the canvas); the floor itself is Voila's front end (about 3.5
MB of JavaScript in some 75 files, then the widget manager) on this machine.

    python benchmarks/bench_app_first_view.py [--profiles 10000] [--visits 3] [--settle 60]
        [--skip-baseline]

Needs Chromium and playwright (see tests/browser/lab.py) and the `app` extra.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _kernels_mb(pid: int) -> list[int]:
    import psutil

    return sorted(
        round(child.memory_info().rss / 2**20)
        for child in psutil.Process(pid).children(recursive=True)
        if "ipykernel_launcher" in " ".join(child.cmdline())
    )


FLOOR_CELL = "import ipywidgets as W\nW.HTML('<b class=\"ipt-floor\">shown</b>')"
CANVAS = ".ipt-topology .ipysigma-container canvas"


def _floor_notebook(folder: Path) -> Path:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(FLOOR_CELL)]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    path = folder / "floor.ipynb"
    nbformat.write(notebook, path)
    return path


def _visits(url: str, pid: int, visits: int, shown: str = CANVAS) -> tuple[list[float], list[int]]:
    from playwright.sync_api import sync_playwright

    from tests.browser.lab import launch_chromium

    times: list[float] = []
    memory: list[int] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for _ in range(visits):
                page = browser.new_page(viewport={"width": 1600, "height": 1100})
                start = time.monotonic()
                page.goto(url, timeout=600_000)
                page.locator(shown).first.wait_for(timeout=600_000)
                times.append(time.monotonic() - start)
                memory = _kernels_mb(pid)
                page.close(run_before_unload=True)
                time.sleep(20)  # the pool refills (preheated) or the kernel goes
        finally:
            browser.close()
    return times, memory


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
    from iptoolkit import env
    from iptoolkit.app import runner

    folder = Path(tempfile.mkdtemp(prefix="bench-app-"))
    snapshot = folder / "estate.json"
    ipt.demo_estate(n_profiles=args.profiles, seed=7).save(snapshot)
    environ = {**os.environ, env.APP_SNAPSHOT: str(snapshot), env.APP_FOLDER: str(folder)}
    results: dict[str, list[float]] = {}
    modes = (("per page (baseline)", False), ("preheated", True))
    for name, preheat in modes[1:] if args.skip_baseline else modes:
        app = runner.start(runner.check_port(0), environ, preheat=preheat, timeout=120)
        try:
            time.sleep(args.settle)
            times, memory = _visits(app.url, app.process.pid, args.visits)
        finally:
            runner.stop(app)
        results[name] = times
        shown = ", ".join(f"{t:.1f}" for t in times)
        print(
            f"{name:>20}: first canvas {shown} s (median {statistics.median(times):.1f} s); "
            f"kernels while a page is shown: {memory} MB"
        )
    app = runner.start(runner.check_port(0), environ, notebook=_floor_notebook(folder), timeout=120)
    try:
        time.sleep(min(args.settle, 20))
        floor, _ = _visits(app.url, app.process.pid, args.visits, ".ipt-floor")
    finally:
        runner.stop(app)
    shown = ", ".join(f"{t:.1f}" for t in floor)
    print(f"{'floor (one widget)':>20}: shown {shown} s (median {statistics.median(floor):.1f} s)")
    preheated = statistics.median(results["preheated"])
    load = os.getloadavg()[0]
    if "per page (baseline)" in results:
        ratio = preheated / statistics.median(results["per page (baseline)"])
        print(f"preheated / per page: {ratio:.2f} ({args.profiles:,} profiles, load {load:.1f})")
    print(
        f"preheated - floor: {preheated - statistics.median(floor):.1f} s is the app's own; "
        f"preheated / floor: {preheated / statistics.median(floor):.2f} (load {load:.1f})"
    )


if __name__ == "__main__":
    main()
