"""The Explorer at 10,000 profiles in a real browser: Voila and headless Chromium (WebGL on).

A notebook (written to a temporary folder) loads a 10k-profile demo snapshot, builds
`Explorer(estate)` and writes the wall-clock time at which the constructor returned; Voila
serves it, and Chromium (SwiftShader WebGL) opens the page. Measured, all on the same clock:

- first render: from `Explorer(estate)` returning in the kernel to the Explorer's header
  (counts) and to its view (the topology image or canvas) being visible in the page;
- filter changes made in the page as a person makes them (an agent type picked, the
  "active" toggle, Reset; then the same filters again, now from the diagram cache): from
  the click to the counts text changing, and to the view settling (its image or canvas
  changed, the "updating" marker gone).

The baseline is the kernel-side time of the same changes, measured in this process on the
same estate (`Explorer(estate, debounce=0)`: the selection, counts and table, then the
drawing), so the ratio is what the browser, the widget messages and the debounce add.
Targets from issue 11: first render < 3 s, counts < 0.3 s, view < 1 s.

    python benchmarks/bench_explorer_browser.py [--profiles 10000] [--keep DIR]

Needs Chromium (`/usr/bin/chromium`, or IPTOOLKIT_CHROMIUM; launched as the browser tests
launch it, `tests/browser/lab.py`), playwright and the `app`
extra. Selectors are the Explorer's CSS classes (`ipt-counts`, `ipt-f-*`, `ipt-busy`,
`ipt-diagram`; a canvas or `ipt-topology` when the view is interactive).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from iptoolkit.app import runner  # noqa: E402
from iptoolkit.demo import demo_estate  # noqa: E402
from iptoolkit.query.filters import Filter  # noqa: E402
from iptoolkit.widgets import Explorer  # noqa: E402
from tests.browser.lab import chromium_missing, launch_chromium  # noqa: E402

TARGETS = {"first render": 3.0, "counts": 0.3, "view": 1.0}
TIMEOUT = 60.0  # s for any one step; the first page gets three times that

NOTEBOOK_CODE = """\
import os, time
import iptoolkit as ipt

estate = ipt.load(os.environ["BENCH_SNAPSHOT"])
started = time.time()
explorer = ipt.Explorer(estate)
returned = time.time()
with open(os.environ["BENCH_STAMP"], "w") as stamp:
    stamp.write(f"{started} {returned}")
explorer
"""

# Polls the page every few milliseconds from before its first script: when the header
# and the view first show, and, once armed for a change, when the counts and the view
# change. All times are Date.now() (ms), the clock the kernel's time.time() shares.
WATCH = """
(() => {
  const view = () => document.querySelector('.ipt-topology')
      || document.querySelector('.ipt-diagram')
      || document.querySelector('.ipt-explorer .widget-tab-contents > *');
  const viewShown = () => {
    const box = view();
    if (!box) return false;
    for (const c of box.querySelectorAll('canvas')) if (c.offsetWidth > 0) return true;
    for (const i of box.querySelectorAll('img'))
      if (i.offsetWidth > 0 && i.complete && i.naturalWidth > 0) return true;
    return false;
  };
  const signature = () => {
    const box = view();
    if (!box) return '';
    const imgs = Array.from(box.querySelectorAll('img')).map(i => i.src.length + i.src.slice(-48));
    const canvases = Array.from(box.querySelectorAll('canvas')).filter(c => c.offsetWidth > 0);
    return imgs.join('|') + '#' + canvases.length + '#' + box.textContent;
  };
  const counts = () => {
    const c = document.querySelector('.ipt-counts');
    return c && c.offsetWidth > 0 ? c.innerText : null;
  };
  const state = {header: null, view: null, change: null};
  window.__iptBench = state;
  window.__iptArm = () => {
    state.change = {counts0: counts(), view0: signature(), busySeen: false,
                    at: Date.now(), counts: null, view: null, idle: null, lastViewChange: null};
    return state.change.at;
  };
  setInterval(() => {
    const now = Date.now();
    if (state.header === null && counts() !== null) state.header = now;
    if (state.view === null && viewShown()) state.view = now;
    const c = state.change;
    if (!c) return;
    if (c.counts === null && counts() !== c.counts0) c.counts = now;
    const sig = signature();
    if (sig !== c.view0) {
      if (c.view === null) c.view = now;
      c.lastViewChange = now;
      c.view0 = sig;
    }
    const busy = !!document.querySelector('.ipt-explorer .ipt-busy');
    if (busy) { c.busySeen = true; c.idle = null; }
    else if (c.counts !== null && c.idle === null) c.idle = now;
  }, 4);
})();
"""

STEPS: list[tuple[str, str]] = [
    ("agent type", "select"),
    ("+ active only", "active"),
    ("reset (cached)", "reset"),
    ("agent type (cached)", "select"),
    ("+ active only (cached)", "active"),
]
ACTIONS = {  # done inside the page, right after the watch is armed
    "select": """() => { const s = document.querySelector('.ipt-f-agent-types select');
        for (const o of s.options) o.selected = false;
        s.options[AGENT].selected = true;
        s.dispatchEvent(new Event('change', {bubbles: true})); }""",
    "active": """() => Array.from(document.querySelectorAll('.ipt-f-active button'))
        .find(b => b.textContent.trim().startsWith('active')).click()""",
    "reset": """() => Array.from(document.querySelectorAll('.ipt-filters button'))
        .find(b => b.textContent.trim() === 'Reset').click()""",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="save screenshots into this folder")
    args = parser.parse_args()
    missing = _missing()
    if missing:  # `make bench` runs every script: say why, and leave the others to run
        print(f"skipped: {missing}")
        return

    folder = Path(tempfile.mkdtemp(prefix="bench-explorer-browser-"))
    try:
        start = time.perf_counter()
        estate = demo_estate(n_profiles=args.profiles)
        snapshot = folder / "estate.json"
        estate.save(snapshot)
        print(f"demo estate: {estate!r}, saved in {time.perf_counter() - start:.1f} s")
        agent = _busiest_agent_index(estate)
        kernel = _kernel_side(estate, agent)
        browser = _in_the_browser(folder, snapshot, agent, args.keep)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    _report(kernel, browser)


def _missing() -> str | None:
    """Why the benchmark cannot run here (no Chromium, playwright or Voila), or None."""
    import importlib.util

    if importlib.util.find_spec("voila") is None:
        return "voila is not installed (the app extra)"
    return chromium_missing()


def _busiest_agent_index(estate: Any) -> int:
    """The position of the most common agent type in the panel's list (its order)."""
    explorer = Explorer(estate, debounce=0, diagram=False)
    types = list(explorer.model.facets.agent_types)
    counts = explorer.model.facets.agent_types
    explorer.close()
    return types.index(max(types, key=counts.__getitem__))


def _kernel_side(estate: Any, agent: int) -> dict[str, tuple[float, float]]:
    """Step -> (seconds to the counts, seconds to the drawn view), in this process."""
    start = time.perf_counter()
    with_view = Explorer(estate, debounce=0)
    print(f"kernel side: Explorer(estate) in {time.perf_counter() - start:.2f} s")
    counts_only = Explorer(estate, debounce=0, diagram=False)
    agent_type = list(with_view.model.facets.agent_types)[agent]

    def step(explorer: Explorer, action: str) -> Callable[[], None]:
        panel = explorer.panel
        if action == "select":
            return lambda: setattr(panel.agent_types, "value", (agent_type,))
        if action == "active":
            return lambda: setattr(panel.active, "value", True)
        return lambda: panel.set(Filter())

    times: dict[str, tuple[float, float]] = {}
    for name, action in STEPS:
        counted = _timed(step(counts_only, action))
        viewed = _timed(step(with_view, action))
        times[name] = (counted, viewed)
    with_view.close()
    counts_only.close()
    return times


def _timed(func: Callable[[], None]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def _in_the_browser(folder: Path, snapshot: Path, agent: int, keep: Path | None) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    notebook = folder / "explorer-bench.ipynb"
    notebook.write_text(json.dumps(_notebook(NOTEBOOK_CODE)))
    stamp = folder / "returned.txt"
    environ = dict(os.environ, BENCH_SNAPSHOT=str(snapshot), BENCH_STAMP=str(stamp))
    app = runner.start(runner.check_port(0), environ, notebook=notebook)
    results: dict[str, Any] = {}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                page = browser.new_page(viewport={"width": 1600, "height": 1000})
                page.add_init_script(WATCH)
                opened = time.time()
                page.goto(app.url, wait_until="commit", timeout=TIMEOUT * 3000)
                state = _wait(page, "s => s.header !== null && s.view !== null", 3 * TIMEOUT)
                started, returned = map(float, stamp.read_text().split())
                results["page to Explorer() returned"] = returned - opened
                results["Explorer(estate) in the kernel"] = returned - started
                results["first render: header"] = state["header"] / 1000 - returned
                results["first render: view"] = state["view"] / 1000 - returned
                _shot(page, keep, "bench-first-render")
                page.wait_for_timeout(1500)  # let the first drawing settle
                for name, action in STEPS:
                    code = ACTIONS[action].replace("AGENT", str(agent))
                    results[name] = _change(page, code)
                    _shot(page, keep, f"bench-{action}")
            finally:
                browser.close()
    finally:
        runner.stop(app)
    return results


def _change(page: Any, action: str) -> tuple[float, float | None]:
    """Arm the watch, act in the page; (s to the counts, s to the settled view)."""
    page.evaluate("() => window.__iptArm()")
    page.evaluate(action)
    change = _wait(page, "s => s.change.counts !== null && s.change.idle !== null", TIMEOUT)
    page.wait_for_timeout(1500)  # a later view change would still be seen
    change = page.evaluate("() => window.__iptBench.change")
    counts = (change["counts"] - change["at"]) / 1000
    ends = [t for t in (change["lastViewChange"], change["idle"]) if t is not None]
    view = (max(ends) - change["at"]) / 1000 if ends else None
    return counts, view


def _wait(page: Any, condition: str, timeout: float) -> dict[str, Any]:
    page.wait_for_function(f"() => ({condition})(window.__iptBench)", timeout=timeout * 1000)
    found = page.evaluate("() => window.__iptBench")
    assert isinstance(found, dict), found
    return found


def _shot(page: Any, keep: Path | None, name: str) -> None:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(keep / f"{name}.png"))


def _notebook(code: str) -> dict[str, Any]:
    return {
        "cells": [
            {"cell_type": "code", "execution_count": None, "id": "bench", "metadata": {},
             "outputs": [], "source": code.splitlines(keepends=True)},
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}, "title": "Explorer benchmark"},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip


def _verdict(seconds: float | None, target: float) -> str:
    if seconds is None:
        return "not seen"
    return "OK" if seconds < target else f"over {target} s"


def _report(kernel: dict[str, tuple[float, float]], browser: dict[str, Any]) -> None:
    print()
    for name in ("page to Explorer() returned", "Explorer(estate) in the kernel"):
        print(f"{name:34} {browser[name]:7.2f} s")
    for part in ("header", "view"):
        seconds = browser[f"first render: {part}"]
        verdict = _verdict(seconds, TARGETS["first render"])
        print(f"{'first render: ' + part:34} {seconds:7.2f} s   {verdict}")
    print(
        f"\n{'filter change':24} {'counts s':>9} {'kernel s':>9} {'ratio':>6} {'':10}"
        f" {'view s':>7} {'kernel s':>9} {'ratio':>6}"
    )
    for name, _ in STEPS:
        counts, view = browser[name]
        kernel_counts, kernel_view = kernel[name]
        shown_view = f"{view:7.2f}" if view is not None else "   none"
        view_ratio = f"{view / kernel_view:6.1f}" if view is not None else "     -"
        print(
            f"{name:24} {counts:9.3f} {kernel_counts:9.3f} {counts / kernel_counts:6.1f} "
            f"{_verdict(counts, TARGETS['counts']):10} {shown_view} {kernel_view:9.3f} "
            f"{view_ratio} {_verdict(view, TARGETS['view'])}"
        )
    print(
        "\nkernel s: the same change in this process (selection, counts, table; then the "
        "drawing for the view), the floor a browser adds its share to"
    )


if __name__ == "__main__":
    main()
