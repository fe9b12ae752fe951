"""The interactive topology view at 10,000 profiles: in the kernel, and in headless Chromium.

Kernel side (no browser), on the whole demo estate's graph (about 31,000 nodes):

- the view's data node by node (`view_data(group_by=False)`: layered layout, colours,
  labels) and the `ipysigma.Sigma` widget built from it (serialised for the browser);
- the same for the grouped overview the Explorer shows;
- the baseline, measured in the same run: `plot_topology` of the same graph to PNG (node by
  node, and grouped), and the ratio of the view to it;
- the Explorer's filter changes as the front end makes them: selection, counts, table and
  the topology view's data (the PNG fallback follows later and is left out), first visit
  and cached.

Browser side (`--browser`, needs Chromium and playwright): JupyterLab on loopback shows
`ipt.show_topology(estate, group_by=False)` and the grouped view; for each it times how
long after the output appears the canvas has drawn, and the frames while the mouse wheel
zooms in and out (median and 95th percentile frame time, from requestAnimationFrame). The
grouped view (56 nodes) is the baseline of the frame times.

    python benchmarks/bench_topology_view.py [--profiles 10000] [--repeat 2] [--browser]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import warnings
from functools import partial
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from timing import best_time  # noqa: E402

from iptoolkit.demo import demo_estate  # noqa: E402
from iptoolkit.query.filters import Filter  # noqa: E402
from iptoolkit.query.graph import build_graph  # noqa: E402
from iptoolkit.viewmodel.diagram import render_png  # noqa: E402
from iptoolkit.viewmodel.topology_data import view_data  # noqa: E402


def sigma_of(data: Any) -> Any:
    """The widget `TopologyView` builds for the data (serialising happens here)."""
    from iptoolkit.widgets.topology.view import TopologyView

    view = TopologyView()
    view.show(data)
    return view.sigma


def kernel_side(profiles: int, repeat: int) -> None:
    start = time.perf_counter()
    estate = demo_estate(n_profiles=profiles)
    graph = build_graph(estate)
    print(
        f"demo estate and graph: {len(estate):,} profiles, {graph.number_of_nodes():,} nodes, "
        f"{graph.number_of_edges():,} edges in {time.perf_counter() - start:.1f} s\n"
    )
    print(f"{'what':44} {'view s':>8} {'PNG s':>8} {'ratio':>6}")
    views: list[tuple[str, Literal[False] | str]] = [
        ("node by node (group_by=False)", False),
        ("grouped overview", "group"),
    ]
    for name, group_by in views:
        key = group_by or None
        data_s = best_time(partial(view_data, graph, group_by=key), repeat)
        data = view_data(graph, group_by=key)
        widget_s = best_time(partial(sigma_of, data), repeat)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a 20,000-row diagram warns that it is tall
            png_s = best_time(partial(render_png, graph, group_by=group_by), 1)
        total = data_s + widget_s
        print(f"{name + ': data':44} {data_s:>8.2f}")
        print(f"{name + ': Sigma widget':44} {widget_s:>8.2f}")
        print(f"{name + ': both, vs plot_topology PNG':44} {total:>8.2f} {png_s:>8.2f} "
              f"{total / png_s:>6.2f}")  # fmt: skip
    print()
    explorer_changes(estate, repeat)


def explorer_changes(estate: Any, repeat: int) -> None:
    from iptoolkit.widgets import Explorer

    explorer = Explorer(estate, debounce=0)
    # the PNG fallback follows later: not timed
    explorer._static_copy._drawing.trigger = lambda: None  # type: ignore[method-assign]
    panel = explorer.panel
    steps = [
        ("active only", Filter(active=True)),
        ("inactive only", Filter(active=False)),
        ("agent type SFTP", Filter(agent_types=["SFTPAgentSettings"])),
        ("everything", Filter()),
    ]
    print(f"{'Explorer filter change (topology included)':44} {'first s':>8} {'cached s':>8}")
    for name, chosen in steps:

        def forget() -> None:
            explorer.model._selections.clear()
            explorer._topology_tab._views._items.clear()
            panel.set(Filter(text="no such profile anywhere"))

        def back() -> None:
            panel.set(Filter(text="no such profile anywhere"))

        first = best_time(partial(panel.set, chosen), repeat, forget)
        cached = best_time(partial(panel.set, chosen), repeat, back)
        print(f"{name:44} {first:>8.2f} {cached:>8.2f}")
    explorer.close()


# -- the browser --------------------------------------------------------------------------

CELLS = [
    "import time\nimport iptoolkit as ipt\nfrom IPython.display import display\n"
    "estate = ipt.demo_estate(n_profiles={profiles})",
    "start = time.perf_counter()\nbig = ipt.show_topology(estate, group_by=False)\n"
    "big.widget.add_class('bench-big')\n"
    "print(f'kernel: {{time.perf_counter() - start:.2f}} s')\ndisplay(big.widget)",
    "small = ipt.show_topology(estate)\nsmall.widget.add_class('bench-small')\n"
    "display(small.widget)",
]

FRAMES_JS = """ms => {
    const frames = window.__iptFrames = []; let last = performance.now();
    const stop = last + ms;
    function tick(now) { frames.push(now - last); last = now;
        if (now < stop) requestAnimationFrame(tick); }
    requestAnimationFrame(tick);
}"""


def browser_side(profiles: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.lab import CHROMIUM, CHROMIUM_ARGS, start_lab, stop_lab

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "nb"
        root.mkdir()
        cells = [cell.format(profiles=profiles) for cell in CELLS]
        notebook = {
            "cells": [
                {"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": source,
                 "outputs": [], "execution_count": None}
                for i, source in enumerate(cells)
            ],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5,
        }  # fmt: skip
        (root / "bench.ipynb").write_text(json.dumps(notebook))
        lab = start_lab(root, Path(folder) / "state")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"{lab.url}/lab/tree/bench.ipynb", timeout=120_000)
                page.wait_for_selector(
                    ".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=120_000
                )
                page.wait_for_timeout(1000)
                page.click(".lm-MenuBar-itemLabel:text-is('Run')")
                page.click("li[data-command='runmenu:run-all']")
                print(f"{'in Chromium':30} {'drawn s':>8} {'median ms':>10} {'p95 ms':>8}")
                results = {}
                for name in ("big", "small"):
                    results[name] = measure(page, f".bench-{name}")
                    drawn, frames = results[name]
                    print(
                        f"{name + ' view':30} {drawn:>8.2f} {statistics.median(frames):>10.1f} "
                        f"{_p95(frames):>8.1f}"
                    )
                kernel = page.locator(".jp-OutputArea-output pre", has_text="kernel:").first
                print(f"\nshow_topology(group_by=False) in the kernel: {kernel.inner_text()}")
                ratio = statistics.median(results["big"][1]) / statistics.median(
                    results["small"][1]
                )
                print(f"zoom frame time, 31k nodes vs 56 (median): {ratio:.2f}x")
                browser.close()
        finally:
            stop_lab(lab)


def measure(page: Any, selector: str) -> tuple[float, list[float]]:
    """(seconds from the output appearing to a drawn canvas, frame times while zooming)."""
    import io

    import matplotlib.image as mpimg
    import numpy as np

    view = page.locator(selector).first
    view.wait_for(timeout=600_000)
    start = time.perf_counter()
    canvas = page.locator(f"{selector} .ipysigma-container").first
    canvas.locator("canvas").first.wait_for(timeout=120_000)
    view.scroll_into_view_if_needed()
    while True:
        pixels = mpimg.imread(io.BytesIO(canvas.screenshot()), format="png")[..., :3]
        if np.mean(pixels.max(axis=-1) - pixels.min(axis=-1) > 0.15) > 0.001:
            break
        if time.perf_counter() - start > 120:
            raise TimeoutError(f"{selector}: the canvas never drew")
        page.wait_for_timeout(50)
    drawn = time.perf_counter() - start
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 3)
    page.evaluate(FRAMES_JS, 3000)
    for step in range(12):  # zoom in, then out again
        page.mouse.wheel(0, -240 if step < 6 else 240)
        page.wait_for_timeout(200)
    page.wait_for_timeout(800)
    frames = page.evaluate("() => window.__iptFrames")
    return drawn, [float(f) for f in frames[1:]]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--browser", action="store_true", help="also time it in Chromium")
    args = parser.parse_args()
    kernel_side(args.profiles, args.repeat)
    if args.browser:
        print()
        browser_side(args.profiles)


if __name__ == "__main__":
    main()
