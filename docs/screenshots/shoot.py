"""Take the screenshots in this folder again: the static grouped diagram (`plot_topology`)
beside the interactive view of the app (`iptoolkit explore`) at 300 and 10,000 profiles,
a drill-down into a group of about 2,000 profiles, from its first level to the view
drawn node by node, and the app's page at first paint at 10,000 profiles (the first view
drawn on the server, before the live view; the live view after it is kept in the system's
temporary folder, to compare); and what a shared link can meet: the app's page for a link
without its token, and the message of an address whose partner and channel type match
nothing (`?partner=Acme+Tols&channel-type=AS9`).

    python docs/screenshots/shoot.py [--only static|app|drill|first|share]

Needs the `app` extra, Debian's Chromium and the `playwright` package (as the browser
tests, `tests/browser/lab.py`). Each app is the command's own (`app.runner`), on a free
port, stopped after; the PNGs are written here, optimised by Pillow.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

VIEWPORT = {"width": 1600, "height": 1100}
WAIT = 600_000  # ms


def _save(png: bytes, name: str, width: int | None = None, *, rare_colours: bool = False) -> None:
    """Write `png` here as a palette PNG (a tenth of the size, no visible loss), shrunk to
    `width` pixels when given. `rare_colours`: a page whose many small coloured items
    (legend swatches, channel dots) median-cut turns grey or orange keeps them, with an
    octree palette."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    if width and image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    method = Image.Quantize.FASTOCTREE if rare_colours else Image.Quantize.MEDIANCUT
    image = image.quantize(colors=256, method=method, dither=Image.Dither.NONE)
    image.save(HERE / name, optimize=True)
    print(f"{name}: {image.width}x{image.height}, {(HERE / name).stat().st_size // 1024} KiB")


def finance_estate(profiles: int = 2500, seed: int = 11):  # type: ignore[no-untyped-def]
    """The browser test's estate: four profiles in five moved under `Finance/` (their own
    groups its subgroups), so `Finance` holds 2,000 profiles on a few levels."""
    import iptoolkit as ipt

    raw = [dict(p) for p in ipt.demo_estate(n_profiles=profiles, seed=seed).raw_profiles]
    for number, profile in enumerate(raw):
        if number % 5:
            profile["group"] = f"Finance/{profile.get('group') or 'General'}"
    return ipt.Estate.from_raw(raw)


def static() -> None:
    import iptoolkit as ipt
    from iptoolkit.viewmodel.diagram import render_png

    for profiles in (300, 10_000):
        estate = ipt.demo_estate(n_profiles=profiles, seed=7)
        _save(render_png(estate, group_by="group"), f"static-grouped-{profiles}.png", 1400)


def _app(estate, folder: Path):  # type: ignore[no-untyped-def]
    from iptoolkit.app import runner
    from iptoolkit.support import env

    snapshot = folder / "estate.json"
    estate.save(snapshot)
    environ = {**os.environ, env.APP_SNAPSHOT: str(snapshot), env.APP_FOLDER: str(folder)}
    # the kernels import this checkout too, not whichever iptoolkit is installed
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return runner.start(runner.check_port(0), environ, timeout=120)


def _shoot(app, shots: list[tuple[str, str, str]]) -> None:  # type: ignore[no-untyped-def]
    """Open the app at each (query, the breadcrumb's last title, file name) and keep the
    Explorer's picture."""
    from playwright.sync_api import sync_playwright

    from tests.browser.lab import launch_chromium

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(app.url, timeout=WAIT)  # the token's cookie
            page.locator(".ipt-topology .ipysigma-container canvas").first.wait_for(timeout=WAIT)
            base = app.url.split("?", 1)[0]
            for query, title, name in shots:
                page.goto(base + ("?" + query if query else ""), timeout=WAIT)
                page.locator(".ipt-topology .ipysigma-container canvas").first.wait_for(
                    timeout=WAIT
                )
                if title:
                    page.wait_for_function(
                        "title => (document.querySelector('.ipt-topology-crumbs') || {})"
                        ".innerText.trim().endsWith(title)",
                        arg=title,
                        timeout=WAIT,
                    )
                page.wait_for_timeout(2500)  # sigma draws on the next frames
                _save(page.locator(".ipt-explorer").first.screenshot(), name)
        finally:
            browser.close()


def app_views() -> None:
    import iptoolkit as ipt
    from iptoolkit.app import runner

    for profiles in (300, 10_000):
        folder = Path(tempfile.mkdtemp(prefix="shoot-"))
        app = _app(ipt.demo_estate(n_profiles=profiles, seed=7), folder)
        try:
            time.sleep(20 if profiles < 1000 else 60)  # the warm kernel runs the notebook
            _shoot(app, [("", "", f"app-overview-{profiles}.png")])
        finally:
            runner.stop(app)


def drill() -> None:
    from iptoolkit.app import runner
    from iptoolkit.widgets.topology.view import TopologyView

    estate = finance_estate()
    view = TopologyView(estate, height=600, aspect=2.0)  # as the Explorer's
    first = None
    while view.data is not None and view.data.group_by is not None:
        groups = [k for k in view.data.members if k.startswith("group:profile:")]
        biggest = max(groups, key=lambda k: len(view.data.members[k]))  # type: ignore[union-attr]
        view.expand(biggest)
        first = first or view.drill_path
    path, last = view.drill_path, view.trail[-1].title
    folder = Path(tempfile.mkdtemp(prefix="shoot-"))
    app = _app(estate, folder)
    try:
        time.sleep(40)
        _shoot(
            app,
            [
                (
                    urlencode([("drill", t) for t in first or ()]),
                    "Finance",
                    "app-drill-finance.png",
                ),
                (urlencode([("drill", t) for t in path]), last, "app-drill-last.png"),
            ],
        )
    finally:
        runner.stop(app)


def first_view() -> None:
    """The page as it is first painted (the overview drawn at start, `app.first_view`), and
    the same page once the live canvas replaced it."""
    from playwright.sync_api import sync_playwright

    import iptoolkit as ipt
    from iptoolkit.app import runner
    from tests.browser.lab import FIRST_VIEW_WATCH, LIVE_CANVAS, launch_chromium

    folder = Path(tempfile.mkdtemp(prefix="shoot-"))
    app = _app(ipt.demo_estate(n_profiles=10_000, seed=7), folder)
    try:
        time.sleep(60)  # the first view is drawn, the warm kernel has run the notebook
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                page = browser.new_page(viewport=VIEWPORT)
                page.add_init_script(FIRST_VIEW_WATCH)
                page.goto(app.url, wait_until="commit", timeout=WAIT)
                page.locator("#ipt-first-view svg:visible").wait_for(state="visible", timeout=WAIT)
                _save(page.screenshot(), "app-first-view-10000.png", rare_colours=True)
                page.locator(LIVE_CANVAS).first.wait_for(timeout=WAIT)
                page.wait_for_timeout(2500)  # sigma draws on the next frames
                live = Path(tempfile.gettempdir()) / "app-live-after-first-view.png"
                live.write_bytes(page.screenshot())
                print(f"the live view after it: {live}")
            finally:
                browser.close()
    finally:
        runner.stop(app)


def acme_estate(profiles: int = 300, seed: int = 7):  # type: ignore[no-untyped-def]
    """A demo estate whose busiest partner is called `Acme Tools`: what `Acme Tols` meant."""
    import json

    import iptoolkit as ipt

    estate = ipt.demo_estate(n_profiles=profiles, seed=seed)
    busiest = max(estate.partners, key=lambda key: sum(key in r.partners for r in estate.records))
    name = estate.partners[busiest].model_dump(by_alias=True)["name"]
    text = json.dumps(list(estate.raw_profiles)).replace(json.dumps(name), json.dumps("Acme Tools"))
    return ipt.Estate.from_raw(json.loads(text))


def share() -> None:
    """A link without the token (the app's own page), and an address that matches nothing."""
    from playwright.sync_api import sync_playwright

    from iptoolkit.app import runner
    from tests.browser.lab import launch_chromium

    folder = Path(tempfile.mkdtemp(prefix="shoot-"))
    app = _app(acme_estate(), folder)
    base = app.url.split("?", 1)[0]
    try:
        time.sleep(20)  # the warm kernel runs the notebook
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                stranger = browser.new_page(viewport={"width": 1000, "height": 440})
                stranger.goto(base + "?partner=Acme+Tools", timeout=WAIT)  # no token
                _save(stranger.screenshot(), "app-token-page.png")
                page = browser.new_page(viewport=VIEWPORT)
                page.goto(app.url + "&partner=Acme+Tols&channel-type=AS9", timeout=WAIT)
                page.locator(".ipt-dead-end").first.wait_for(timeout=WAIT)  # no canvas: 0
                page.wait_for_timeout(1500)
                top = page.locator(".ipt-explorer").first.bounding_box()
                x, y = max(top["x"] - 12, 0), top["y"]
                clip = {"x": x, "y": y, "width": top["width"] + 24, "height": 430}
                _save(page.screenshot(clip=clip), "app-dead-end.png")
            finally:
                browser.close()
    finally:
        runner.stop(app)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("static", "app", "drill", "first", "share"))
    args = parser.parse_args()
    steps = (
        ("static", static),
        ("app", app_views),
        ("drill", drill),
        ("first", first_view),
        ("share", share),
    )
    for name, step in steps:
        if args.only in (None, name):
            step()


if __name__ == "__main__":
    main()
