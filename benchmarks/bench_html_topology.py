"""The interactive topology in one HTML file (`ipt.export(estate, "x.html")`) against its
peer, ipysigma's `Sigma.write_html` of the same graph, and against the PNG of the same
view (`ipt.export(estate, "x.png")`, the grouped diagram), per estate size:

- writing the HTML file, ours and ipysigma's, each in a fresh child process that loads
  the same snapshot file (`ipt.load`), in CPU seconds of the whole process (user +
  system, `resource.getrusage` of children: the machine is shared, wall time is not the
  work), and the ratio ours / ipysigma's (the goal: at most 1 at 10k, 1.5 at 100k);
  ipysigma is given `ipt.build_graph` of the estate, as our export builds it, with the
  attributes JSON can hold (it cannot write the raw profile or its models);
- writing the PNG (seconds, in this process) and each file's size (MB), HTML / PNG;
- the HTML file's first draw in headless Chromium: milliseconds from the page's start to
  the canvas's first frame (`IptTopology.firstDraw`: reading the inline JSON included),
  opened from disk with every other request refused; the PNG's baseline is the same
  browser showing the PNG in a page of its own.

    python benchmarks/bench_html_topology.py [--profiles 300 10000 100000] [--no-browser]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import iptoolkit as ipt  # noqa: E402

OURS = "import sys, iptoolkit as ipt; ipt.export(ipt.load(sys.argv[1]), sys.argv[2])"
PEER = """
import sys
import networkx as nx
import iptoolkit as ipt
from ipysigma import Sigma

graph = ipt.build_graph(ipt.load(sys.argv[1]))
plain = (str, int, float, bool, type(None))
same = nx.MultiDiGraph()
same.add_nodes_from(
    (node, {k: v for k, v in data.items() if isinstance(v, plain)})
    for node, data in graph.nodes(data=True)
)
same.add_edges_from(
    (u, v, key, {k: x for k, x in data.items() if isinstance(x, plain)})
    for u, v, key, data in graph.edges(keys=True, data=True)
)
Sigma.write_html(same, sys.argv[2])
"""


def child_cpu(script: str, *args: str) -> float:
    """CPU seconds (user + system) of a fresh `python -c script args...`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", script, *args], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def first_draw(page: object, url: str, script: str) -> float:
    """Milliseconds from navigation start to what `script` reports, for `url` (the page
    times itself; asked from here, as `wait_for_function` evaluates its predicate as a
    string, which the file's policy refuses while the page is still busy)."""
    page.goto(url)  # type: ignore[attr-defined]
    deadline = time.monotonic() + 300
    while not (value := page.evaluate(script)):  # type: ignore[attr-defined]
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url}: {script} never came")
        time.sleep(0.05)
    return float(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, nargs="+", default=[300, 10_000])
    parser.add_argument("--no-browser", action="store_true", help="skip the first-draw columns")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-html-"))
    print(f"{'profiles':>9} {'html cpu':>8} {'sigma cpu':>9} {'x sigma':>7} {'png s':>7} "
          f"{'html MB':>8} {'sigma MB':>8} {'png MB':>7} {'size x':>7} {'draw ms':>8} "
          f"{'png ms':>7} {'draw x':>7}")  # fmt: skip
    page = browser = None
    if not args.no_browser:
        from playwright.sync_api import sync_playwright

        from tests.browser.lab import launch_chromium

        playwright = sync_playwright().start()
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.route(
            "**/*",
            lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort(),
        )
    for count in args.profiles:
        estate = ipt.demo_estate(count)
        snapshot = estate.save(folder / f"s{count}.json")
        html, peer = folder / f"t{count}.html", folder / f"sigma{count}.html"
        html_cpu = child_cpu(OURS, str(snapshot), str(html))
        peer_cpu = child_cpu(PEER, str(snapshot), str(peer))
        start = time.perf_counter()
        png = ipt.export(estate, folder / f"t{count}.png")
        png_s = time.perf_counter() - start
        draw = png_draw = float("nan")
        if page is not None:
            viewer = folder / f"t{count}-png.html"
            viewer.write_text(
                f"<img src='{png.name}' onload='window.drawn = performance.now()'>",
                encoding="utf-8",
            )
            draw = first_draw(page, html.as_uri(), "window.IptTopology && IptTopology.firstDraw")
            png_draw = first_draw(page, viewer.as_uri(), "window.drawn")
        html_mb, png_mb = html.stat().st_size / 1e6, png.stat().st_size / 1e6
        peer_mb = peer.stat().st_size / 1e6
        print(f"{count:>9,} {html_cpu:>8.1f} {peer_cpu:>9.1f} {html_cpu / peer_cpu:>7.2f} "
              f"{png_s:>7.1f} {html_mb:>8.2f} {peer_mb:>8.2f} {png_mb:>7.2f} "
              f"{html_mb / png_mb:>7.1f} {draw:>8.0f} {png_draw:>7.0f} "
              f"{draw / max(png_draw, 1):>7.1f}")  # fmt: skip
        sys.stdout.flush()
    if browser is not None:
        browser.close()
        playwright.stop()


if __name__ == "__main__":
    main()
