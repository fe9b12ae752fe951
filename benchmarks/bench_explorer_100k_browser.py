"""The Explorer at 100,000 profiles in JupyterLab, in Chromium, against `ipt.load` of the file.

Issue 42's goals for JupyterLab: the cell to a drawn view within 3x the time `ipt.load`
takes on the same file in the same run; drill-down, Reset and a click's Details under 2 s.
JupyterLab (its file browser open, a 1,280 px window: a laptop) runs one cell that loads
the snapshot and shows `ipt.Explorer(estate)`; the kernel writes when the cell started and
how long `ipt.load` took (wall and CPU seconds). The page records every label sigma.js
draws (`tests/browser/labels.py`), so a picture is "drawn" when its first labels are.
Measured, all on the machine's one clock (the kernel's `time.time()`, the page's
`Date.now()`):

- cell to a drawn view: from the cell's start to the map's first labels drawn, and the
  number of pictures drawn before the first action (1: no second layout replaced it);
- drill-down: the largest group picked to the group's picture drawn;
- back to the overview (the breadcrumb's "Overview");
- Reset: an agent type picked in the filters, then Reset, to the whole estate's picture
  drawn again and the counts back;
- Details: a partner picked to its details shown beside the map;
- the overview's labels at 1,280 and 1,000 px (the window made narrower): overlaps, labels
  and group nodes cut by the canvas's edge, counts cut, and the share of the characters
  kept against the same overview laid out on a canvas wide enough for every label (goals
  80% and 65%).

A node is picked in the map's search (typed, then Enter): the kernel's `Picture.pick`, as a
click on the node on the canvas.

    python benchmarks/bench_explorer_100k_browser.py [--profiles 100000] [--snapshot PATH]
        [--keep DIR]

Needs Chromium and playwright (as the browser tests: `tests/browser/lab.py`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import iptoolkit as ipt  # noqa: E402
from tests.browser.lab import (  # noqa: E402
    chromium_missing,
    launch_chromium,
    run_beside_file_browser,
    start_lab,
    stop_lab,
    write_notebook,
)
from tests.browser.labels import (  # noqa: E402
    RECORD_LABELS,
    kept_characters,
    read_labels,
    resize_and_wait,
    uncut_overview_labels,
    view_problems,
)

LOAD_RATIO = 3.0
"""The cell to a drawn view, at most this many times `ipt.load`'s time."""
STEP_GOAL = 2.0
"""s: drill-down, Reset, a click's Details."""
WIDTH, HEIGHT = 1280, 1000
KEPT_GOALS = {1280: 0.80, 1000: 0.65}
"""Page width -> the least share of the overview's label characters drawn (issue 42)."""
STEP_MS = 180_000  # any one step, at most (two cores shared with other work)

CELL = """\
import json, os, time
import iptoolkit as ipt
started, started_cpu = time.time(), time.process_time()
estate = ipt.load(os.environ["BENCH_SNAPSHOT"])
load = (time.time() - started, time.process_time() - started_cpu)
explorer = ipt.Explorer(estate)
built = (time.time() - started - load[0], time.process_time() - started_cpu - load[1])
data = explorer.topology.data
groups = [k for k in data.members if data.item(k) is None and k.startswith("group:profile:")]
largest = max(groups, key=lambda key: len(data.members[key]))
partner = next(k for k in data.members if str(data.item(k)).startswith("partner:"))
with open(os.environ["BENCH_STAMP"], "w") as stamp:
    json.dump({"started": started, "load": load, "Explorer": built,
               "group": str(data.graph.nodes[largest].get("crumb")),
               "members": len(data.members[largest]),
               "partner": str(data.graph.nodes[partner].get("name") or partner)}, stamp)
explorer
"""

FIRST_DRAWN = """() => {
  const r = window.__iptLabels;
  if (!r) return null;
  const times = r.history.map(f => f.size.at).concat(
    r.canvases.filter(c => (r.frames.get(c) || []).length).map(c => r.sizes.get(c).at));
  return times.length ? Math.min(...times) : null;
}"""
DRAWN_SINCE = """([since, crumb, counts]) => {
  const r = window.__iptLabels;
  const here = document.querySelector('.ipt-topology .ipt-crumb-here');
  if (crumb === '' && here) return false;  // the overview: no level opened
  if (crumb && !(here && here.innerText.includes(crumb))) return false;
  const shown = document.querySelector('.ipt-counts');
  if (counts !== null && !(shown && shown.innerText === counts)) return false;
  const drawn = r.canvases.filter(c => c.isConnected && (r.frames.get(c) || []).length
    && r.sizes.get(c).at >= since).map(c => r.sizes.get(c).at);
  return drawn.length ? Math.min(...drawn) : false;
}"""
PICTURES = "() => window.__iptLabels.canvases.length"
"""Label canvases drawn on: each picture is a new sigma widget, a new canvas."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=100_000)
    parser.add_argument("--snapshot", type=Path, default=None)
    parser.add_argument("--keep", type=Path, help="save screenshots into this folder")
    args = parser.parse_args()
    missing = chromium_missing()
    if missing:
        print(f"skipped: {missing}")
        return
    with tempfile.TemporaryDirectory(prefix="bench-explorer-100k-browser-") as name:
        folder = Path(name)
        snapshot = args.snapshot or folder / f"estate-{args.profiles}.json"
        if not snapshot.exists():
            start = time.perf_counter()
            ipt.demo_estate(args.profiles).save(snapshot)
            print(f"wrote {snapshot} in {time.perf_counter() - start:.1f} s")
        print(f"snapshot: {snapshot} ({snapshot.stat().st_size / 1e6:,.0f} MB)")
        found = _in_jupyterlab(folder, snapshot, args.keep)
    _report(found)


def _in_jupyterlab(folder: Path, snapshot: Path, keep: Path | None) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    notebooks = folder / "notebooks"
    notebooks.mkdir()
    write_notebook(notebooks / "explorer.ipynb", CELL)
    stamp = folder / "stamp.json"
    os.environ.update(BENCH_SNAPSHOT=str(snapshot), BENCH_STAMP=str(stamp))
    lab = start_lab(notebooks, folder / "lab")
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
                context.add_init_script(RECORD_LABELS)
                page = context.new_page()
                run_beside_file_browser(
                    page,
                    lab,
                    "explorer.ipynb",
                    first_widget=".ipt-explorer",
                    screenshot=folder / "first.png",
                    timeout=STEP_MS,
                )
                return _steps(page, json.loads(stamp.read_text()), keep, snapshot)
            finally:
                browser.close()
    finally:
        stop_lab(lab)


def _steps(page: Any, stamp: dict[str, Any], keep: Path | None, snapshot: Path) -> dict[str, Any]:
    found: dict[str, Any] = dict(stamp)
    first = page.wait_for_function(FIRST_DRAWN, timeout=STEP_MS, polling=100).json_value()
    page.wait_for_function("!document.querySelector('.ipt-explorer .ipt-busy')", timeout=STEP_MS)
    page.wait_for_timeout(3000)  # a second layout, if one comes, comes now
    found["cell to a drawn view"] = first / 1000 - stamp["started"]
    found["pictures before the first action"] = page.evaluate(PICTURES)
    _shot(page, keep, "bench-100k-first")
    whole = uncut_overview_labels(ipt.load(snapshot))
    for width in KEPT_GOALS:  # 1,280 px (as opened), then 1,000 px, then back
        if width != WIDTH:
            resize_and_wait(page, width, HEIGHT, 1, timeout=STEP_MS)
            _shot(page, keep, f"bench-100k-labels-{width}")
        found[f"labels at {width} px"] = _labels(page, whole)
    resize_and_wait(page, WIDTH, HEIGHT, 1, timeout=STEP_MS)
    counts = page.locator(".ipt-counts").first.inner_text()
    group, partner = stamp["group"], stamp["partner"]
    found["drill-down"] = _pick(page, group, crumb=group)
    _shot(page, keep, "bench-100k-drill")
    found["back to the overview"] = _timed(
        page, lambda: page.locator(".ipt-topology .ipt-crumb").first.click(), crumb=""
    )
    page.evaluate(
        """() => { const s = document.querySelector('.ipt-f-agent-types select');
        for (const o of s.options) o.selected = false; s.options[0].selected = true;
        s.dispatchEvent(new Event('change', {bubbles: true})); }"""
    )
    page.wait_for_function(
        "c => document.querySelector('.ipt-counts').innerText !== c", arg=counts, timeout=STEP_MS
    )
    page.wait_for_function("!document.querySelector('.ipt-explorer .ipt-busy')", timeout=STEP_MS)
    page.wait_for_timeout(1500)
    reset = """() => Array.from(document.querySelectorAll('.ipt-filters button'))
        .find(b => b.textContent.trim() === 'Reset').click()"""
    found["Reset"] = _timed(page, lambda: page.evaluate(reset), crumb="", counts=counts)
    _shot(page, keep, "bench-100k-reset")
    page.wait_for_timeout(1500)
    found["pick to Details"] = _pick(page, partner, details=partner)
    _shot(page, keep, "bench-100k-details")
    return found


def _labels(page: Any, whole: list[str]) -> tuple[str, float, bool]:
    """The overview's labels in the page: what is wrong with them (overlaps, cut by the
    canvas's edge, group nodes cut, too small), the share of characters kept, and whether
    a count is cut or a label matches none (`kept_characters`)."""
    page.locator(".ipt-topology").first.scroll_into_view_if_needed()
    frame, found = view_problems(page, 0)
    kept = kept_characters(read_labels(frame.boxes), whole)
    top = page.evaluate(
        "() => document.querySelector('.ipt-topology .ipysigma-container')"
        ".getBoundingClientRect().top - document.querySelector('.ipt-explorer')"
        ".getBoundingClientRect().top"
    )
    said = f"canvas {frame.width:.0f} px, {found.line()}, map {top:.0f} px below the Explorer's top"
    return said + (f"; {kept.line()}" if kept.wrong else ""), kept.share, bool(found or kept.wrong)


def _timed(page: Any, act: Any, *, crumb: str | None = None, counts: str | None = None) -> float:
    """Act; seconds to a picture drawn after it (with `crumb` shown, '' none; `counts`)."""
    since = time.time() * 1000
    act()
    handle = page.wait_for_function(
        DRAWN_SINCE, arg=[since, crumb, counts], timeout=STEP_MS, polling="raf"
    )
    return float(handle.json_value() - since) / 1000


def _pick(page: Any, name: str, *, crumb: str | None = None, details: str | None = None) -> float:
    """Pick the node `name` in the map's search (typed, then Enter: the kernel's `pick`, as
    a click on the node); seconds from Enter to the group's picture drawn (`crumb`) or to
    the item's details shown beside the map (`details`)."""
    search = page.locator(".ipt-topology .ipt-node-search-input").first
    search.scroll_into_view_if_needed()
    search.fill("")
    search.focus()
    page.keyboard.type(name)
    page.locator(".ipt-node-result").first.wait_for(timeout=STEP_MS)
    if crumb is not None:
        return _timed(page, lambda: page.keyboard.press("Enter"), crumb=crumb)
    since = time.time() * 1000
    page.keyboard.press("Enter")
    handle = page.wait_for_function(
        """name => { const t = document.querySelector('.ipt-beside .ipt-title');
            return t && t.offsetWidth > 0 && t.innerText.includes(name) ? Date.now() : false; }""",
        arg=details,
        timeout=STEP_MS,
        polling="raf",
    )
    return float(handle.json_value() - since) / 1000


def _shot(page: Any, keep: Path | None, name: str) -> None:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        page.locator(".ipt-topology").first.scroll_into_view_if_needed()
        page.screenshot(path=str(keep / f"{name}.png"))


def _report(found: dict[str, Any]) -> None:
    load_wall, load_cpu = found["load"]
    built_wall, built_cpu = found["Explorer"]
    print(f"\nin the kernel: ipt.load {load_wall:.2f} s ({load_cpu:.2f} s CPU), "
          f"Explorer(estate) {built_wall:.2f} s ({built_cpu:.2f} s CPU)")  # fmt: skip
    print(f"largest group: {found['group']} ({found['members']:,} members); "
          f"partner picked: {found['partner']}\n")  # fmt: skip
    view = found["cell to a drawn view"]
    ratio = view / load_wall
    verdict = "OK" if ratio <= LOAD_RATIO else "TOO SLOW"
    print(f"{'cell to a drawn view':24} {view:7.2f} s  {ratio:5.2f}x ipt.load  "
          f"(goal <= {LOAD_RATIO:.0f}x)  {verdict}")  # fmt: skip
    print(f"{'pictures before a click':24} {found['pictures before the first action']:7d}")
    for width, goal in KEPT_GOALS.items():
        said, share, wrong = found[f"labels at {width} px"]
        verdict = "OK" if share >= goal and not wrong else "MISSED"
        print(f"{f'labels at {width} px':24} {share:7.0%} kept (goal >= {goal:.0%})  {verdict}")
        print(f"{'':24} {said}")
    for name in ("drill-down", "back to the overview", "Reset", "pick to Details"):
        seconds = found[name]
        verdict = "OK" if seconds < STEP_GOAL else f"over {STEP_GOAL:.0f} s"
        print(f"{name:24} {seconds:7.2f} s  (goal < {STEP_GOAL:.0f} s)  {verdict}")


if __name__ == "__main__":
    main()
