"""The app for a team at 100,000 profiles: start, first picture, live view, and what each
tab costs in memory, against issue 42's goals.

`iptoolkit explore SNAPSHOT` is started as people start it (the command, on a free port);
"ready" is when it has drawn its first view, filled its pool (one kernel, started) and that
kernel has gone quiet (its notebook run, so the next page waits for neither). Then tabs are
opened one after another in headless Chromium (1,280 x 800 px), each in a context of its
own (one per colleague: no shared cache), each after the app has gone quiet again (the
pool refilled): from the moment a page is asked for, the first picture (the server-drawn
`#ipt-first-view` shown) and live (the Explorer's topology
canvas exists: `tests/browser/lab.LIVE_CANVAS`, what the browser tests wait for), noted at
every animation frame (`FIRST_VIEW_WATCH`). Memory is the proportional set size (PSS,
`/proc/PID/smaps_rollup`: a page shared by the zygote and its kernels is counted once,
split between them) summed over the command, Voila, the zygote and every kernel, with one
tab open and with all of them; CPU seconds are those the app's processes used.

Goals (issue 42): ready within 15 s of start, first picture under 1 s, live under 3 s after
opening, and the tabs after the first at most 0.5 GB each. Printed with the ratio of each
figure to its goal (at most 1 holds it) and the load average: wall times on a shared
machine are inflated, CPU seconds and memory much less.

    python benchmarks/bench_app_100k.py [--profiles 100000] [--tabs 3] [--snapshot FILE]

Needs Chromium and playwright (see tests/browser/lab.py) and the `app` extra.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

READY_GOAL, FIRST_GOAL, LIVE_GOAL, TAB_GOAL = 15.0, 1.0, 3.0, 0.5 * 2**30
VIEWPORT = {"width": 1280, "height": 800}
QUIET_CPU = 0.15
"""CPU seconds the app's processes may use in `QUIET_SPAN` and still count as quiet."""
QUIET_SPAN = 2.0
QUIET_STEP = 0.1
"""Seconds between two samples of the CPU used (the resolution of "ready")."""


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def _cpu(pid: int) -> float:
    """CPU seconds used by the app's processes alive now (and the children they reaped)."""
    import psutil

    from tests.app_processes import tree

    total = 0.0
    for process in tree(pid):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _wait(what: str, done: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not {what} within {timeout:.0f} s")
        time.sleep(0.2)


def _quiet(pid: int, kernels: int, timeout: float) -> float:
    """Wait until `kernels` kernels run and the app's processes have gone quiet; return the
    moment (`time.monotonic()`) quiet began: the first sample, taken every `QUIET_STEP`
    seconds once the kernels run, after which they used under `QUIET_CPU` in `QUIET_SPAN`."""
    from tests.app_processes import app_kernels

    deadline = time.monotonic() + timeout
    samples: deque[tuple[float, float]] = deque()
    while time.monotonic() < deadline:
        if len(app_kernels(pid)) < kernels:
            samples.clear()
        else:
            now, used = time.monotonic(), _cpu(pid)
            samples.append((now, used))
            while now - samples[0][0] >= QUIET_SPAN:  # a span that was busy stays so
                at, before = samples.popleft()
                if used - before < QUIET_CPU:
                    return at
        time.sleep(QUIET_STEP)
    raise TimeoutError(f"the app did not go quiet with {kernels} kernels in {timeout:.0f} s")


def _memory(pid: int) -> tuple[int, list[str]]:
    """The PSS of the app's processes summed, and a line per process."""
    import psutil

    from tests.app_processes import pss_bytes, tree

    total, lines = 0, []
    for process in tree(pid):
        try:
            name = process.name()
            command = " ".join(process.cmdline()[1:4])
            rss = process.memory_info().rss
        except psutil.Error:
            continue
        pss = pss_bytes(process.pid)
        total += pss
        lines.append(f"    {process.pid:>7} {name:<12} PSS {pss / 2**20:7.0f} MB  "
                     f"RSS {rss / 2**20:7.0f} MB  {command[:60]}")  # fmt: skip
    return total, lines


def _open_tab(browser: Any, url: str) -> tuple[Any, float | None, float]:
    """A new tab on `url`, in a browser context of its own (a colleague's: no cache, no
    cookie shared): the page, seconds to the first picture (None: never shown) and to the
    live canvas, from the moment it was asked for."""
    from tests.browser.lab import FIRST_VIEW_WATCH, LIVE_CANVAS

    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.add_init_script(FIRST_VIEW_WATCH)
    start = time.time()
    page.goto(url, timeout=600_000)
    page.locator(LIVE_CANVAS).first.wait_for(timeout=600_000)
    seen = page.evaluate("window.__iptFirstView")
    first = seen["first"] / 1000 - start if seen["first"] else None
    return page, first, seen["live"] / 1000 - start


def _command() -> list[str]:
    """The `iptoolkit` console script beside this Python, as people start it (`python -m
    iptoolkit.cli` where there is none)."""
    script = Path(sys.executable).with_name("iptoolkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "iptoolkit.cli"]


def _start(snapshot: Path, folder: Path) -> tuple[subprocess.Popen[bytes], int, Path]:
    from tests.browser.lab import free_port

    port = free_port()
    log = folder / "explore.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*_command(), "explore", str(snapshot), "--no-browser",
             "--port", str(port), "--folder", str(folder / "exports")],
            stdout=out, stderr=subprocess.STDOUT, cwd=folder, start_new_session=True,
        )  # fmt: skip
    return process, port, log


def _ready(process: subprocess.Popen[bytes], log: Path, timeout: float) -> dict[str, float]:
    """Seconds from start to each step of being ready (see the module)."""
    began = time.monotonic()
    steps: dict[str, float] = {}
    for step, line in (("address printed", "The Explorer app shows"),
                       ("first view drawn", "first view drawn"),
                       ("pool filled", "is filled with")):  # fmt: skip
        _wait(step, lambda line=line: line in log.read_text(errors="replace"), timeout)  # type: ignore[misc]
        steps[step] = time.monotonic() - began
    steps["pool kernel quiet"] = _quiet(process.pid, 1, timeout) - began
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profiles", type=int, default=100_000)
    parser.add_argument("--tabs", type=int, default=3)
    parser.add_argument("--snapshot", type=Path, help="a snapshot to serve (default: a demo)")
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.browser.lab import launch_chromium, printed_app_url

    folder = Path(tempfile.mkdtemp(prefix="bench-app-100k-"))
    snapshot = args.snapshot
    if snapshot is None:
        import iptoolkit as ipt

        snapshot = folder / "estate.json"
        ipt.demo_estate(n_profiles=args.profiles).save(snapshot)
    print(f"{snapshot} ({snapshot.stat().st_size / 2**20:.0f} MB); load before: {_load()}")
    process, port, log = _start(snapshot, folder)
    try:
        steps = _ready(process, log, args.timeout)
        ready = steps["pool kernel quiet"]
        print("ready: " + ", ".join(f"{step} {at:.1f} s" for step, at in steps.items())
              + f"; CPU {_cpu(process.pid):.1f} s; load {_load()}")  # fmt: skip
        url = printed_app_url(log, port)
        figures: list[tuple[float | None, float]] = []
        memory: list[int] = []
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                for tab in range(1, args.tabs + 1):
                    cpu = _cpu(process.pid)
                    _, first, live = _open_tab(browser, url)
                    figures.append((first, live))
                    _quiet(process.pid, tab + 1, args.timeout)  # its kernel, and the pool's
                    total, lines = _memory(process.pid)
                    memory.append(total)
                    shown = "never" if first is None else f"{first:.2f} s"
                    print(f"tab {tab}: first picture {shown}, live {live:.2f} s; app CPU "
                          f"{_cpu(process.pid) - cpu:.1f} s for it; PSS of the app "
                          f"{total / 2**30:.2f} GB; load {_load()}")  # fmt: skip
                    if tab in (1, args.tabs):
                        print("\n".join(lines))
            finally:
                browser.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
    first_worst = max((first or float("inf")) for first, _ in figures)
    live_worst = max(live for _, live in figures)
    per_tab = (memory[-1] - memory[0]) / max(len(memory) - 1, 1)
    print(f"goals ({args.profiles:,} profiles; figure / goal, at most 1 holds it):")
    print(f"  ready {ready:.1f} s / {READY_GOAL:.0f} s = {ready / READY_GOAL:.2f}")
    print(f"  first picture (worst tab) {first_worst:.2f} s / {FIRST_GOAL:.0f} s = "
          f"{first_worst / FIRST_GOAL:.2f}")  # fmt: skip
    print(f"  live (worst tab) {live_worst:.2f} s / {LIVE_GOAL:.0f} s = "
          f"{live_worst / LIVE_GOAL:.2f}")  # fmt: skip
    print(f"  each tab after the first {per_tab / 2**30:.2f} GB / 0.5 GB = "
          f"{per_tab / TAB_GOAL:.2f} (1 tab {memory[0] / 2**30:.2f} GB, {len(memory)} tabs "
          f"{memory[-1] / 2**30:.2f} GB)")  # fmt: skip


if __name__ == "__main__":
    main()
