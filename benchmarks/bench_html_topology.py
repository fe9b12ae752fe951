"""The interactive topology in one HTML file (`ipt.export(estate, "x.html")`) against the
PNG of the same view (`ipt.export(estate, "x.png")`, the grouped diagram), per estate size:

- writing each file (seconds) and its size (MB), and the ratios HTML / PNG;
- the HTML file's first draw in headless Chromium: milliseconds from the page's start to
  the canvas's first frame (`IptTopology.firstDraw`: reading the inline JSON included),
  opened from disk with every other request refused; the PNG's baseline is the same
  browser showing the PNG in a page of its own.

    python benchmarks/bench_html_topology.py [--profiles 300 10000 100000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import iptoolkit as ipt  # noqa: E402


def first_draw(page: object, url: str, script: str) -> float:
    """Milliseconds from navigation start to what `script` reports, for `url`."""
    page.goto(url)  # type: ignore[attr-defined]
    page.wait_for_function(script, timeout=120_000)  # type: ignore[attr-defined]
    return float(page.evaluate(script))  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, nargs="+", default=[300, 10_000])
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.lab import launch_chromium

    folder = Path(tempfile.mkdtemp(prefix="bench-html-"))
    print(f"{'profiles':>9} {'html s':>8} {'png s':>7} {'html MB':>8} {'png MB':>7} "
          f"{'size x':>7} {'draw ms':>8} {'png ms':>7} {'draw x':>7}")  # fmt: skip
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.route(
            "**/*",
            lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort(),
        )
        for count in args.profiles:
            estate = ipt.demo_estate(count)
            start = time.perf_counter()
            html = ipt.export(estate, folder / f"t{count}.html")
            html_s = time.perf_counter() - start
            start = time.perf_counter()
            png = ipt.export(estate, folder / f"t{count}.png")
            png_s = time.perf_counter() - start
            viewer = folder / f"t{count}-png.html"
            viewer.write_text(
                f"<img src='{png.name}' onload='window.drawn = performance.now()'>",
                encoding="utf-8",
            )
            draw = first_draw(page, html.as_uri(), "window.IptTopology && IptTopology.firstDraw")
            png_draw = first_draw(page, viewer.as_uri(), "window.drawn")
            html_mb, png_mb = html.stat().st_size / 1e6, png.stat().st_size / 1e6
            print(f"{count:>9,} {html_s:>8.1f} {png_s:>7.1f} {html_mb:>8.2f} {png_mb:>7.2f} "
                  f"{html_mb / png_mb:>7.1f} {draw:>8.0f} {png_draw:>7.0f} "
                  f"{draw / max(png_draw, 1):>7.1f}")  # fmt: skip
            sys.stdout.flush()
        browser.close()


if __name__ == "__main__":
    main()
