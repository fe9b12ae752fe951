"""The standalone app in a real browser: `iptoolkit explore` (Voila), Debian's Chromium.

Starts the command as a user would (`--no-browser`, a free port, a small snapshot, the
Export tab writing into the test's folder), opens the page in Chromium with WebGL on
(SwiftShader) and waits for the Explorer. Then, as the issue's tests ask of both
JupyterLab and the app: a filter changes the counts and the options' "(N)" facets; the
Topology tab's zoom button redraws the canvas; a click on a partner node shows its
details beside the map; a channel typed in the details search links to its partner, whose
details open; the Export tab writes a PNG. The steps are those of the JupyterLab tests
(`steps.py`). Screenshots go under the test's temporary folder (and
`IPTOOLKIT_KEEP_SCREENSHOTS`, when set). Then Ctrl-C (SIGINT) stops the command, and
Voila's kernel with it; the browser logged no error at all (no request to a CDN fails, no
script error from ipysigma's child view: both are fixed, not allowed). Before all that, the
first view drawn on the server (`app.first_view`) is shown from the page's first frames,
before the live canvas exists, and is hidden once it does.
"""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest

from iptoolkit.core.nodes import label, partner_of
from iptoolkit.topology.style import KIND_COLOURS

from ..ci import skip_or_fail
from .lab import (
    FIRST_VIEW_WATCH,
    LIVE_CANVAS,
    chromium_missing,
    launch_chromium,
    launch_explore,
    printed_app_url,
    stop_explore,
    wait_listening,
    wait_logged,
)
from .steps import (
    DETAIL_TITLE,
    STEP,
    canvas_fingerprint,
    click_a_node,
    coloured_share,
    find_in_details,
    follow_link,
    label_counts,
    open_tab,
    option_labels,
    shot,
    wait_canvas_change,
    wait_counts_change,
    wait_options_change,
    wait_settled,
    wait_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1600, "height": 1000}
FIRST_RENDER = 120_000  # ms: Voila starts a kernel per page, the machine is shared
PROFILES, SEED = 120, 3
CHANNEL = "Acme Packaging AS2"  # its partner's key is above 2**53: the link must keep it


def test_the_app_filters_zooms_links_and_exports_in_chromium(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    import iptoolkit as ipt

    estate = ipt.demo_estate(n_profiles=PROFILES, seed=SEED)
    snapshot = tmp_path / "estate.json"
    estate.save(snapshot)
    exports = tmp_path / "exports"
    process, port, log = launch_explore(snapshot, tmp_path, "--folder", str(exports))
    try:
        wait_listening(process, port, log)
        wait_logged(log, "first view drawn", process)
        errors = _session(printed_app_url(log, port), estate, tmp_path, exports)
    finally:
        if not stop_explore(process, signal.SIGINT):
            raise AssertionError("explore did not stop on Ctrl-C")
    text = log.read_text(errors="replace")
    assert process.returncode == 0, text[-3000:]
    assert "Stopping the Explorer app" in text and "Kernel shutdown" in text, text[-3000:]
    assert errors == [], errors  # no allowance: no CDN request, no ipysigma child-view error


def _session(url: str, estate: Any, tmp_path: Path, exports: Path) -> list[str]:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []  # console errors and page errors
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.on(
                "console",
                lambda message: errors.append(message.text) if message.type == "error" else None,
            )
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.add_init_script(FIRST_VIEW_WATCH)
            try:
                _use_the_app(page, url, estate, tmp_path, exports)
            except Exception:
                _shot(page, tmp_path, "app-failure")
                raise
        finally:
            browser.close()
    return errors


def _use_the_app(page: Any, url: str, estate: Any, tmp_path: Path, exports: Path) -> None:
    page.goto(url, timeout=FIRST_RENDER)
    _first_view_then_live(page, tmp_path)
    counts = page.locator(".ipt-counts")
    counts.wait_for(timeout=FIRST_RENDER)
    wait_settled(page)
    assert page.title().strip() == "iptoolkit Explorer"
    assert page.locator(".ipt-app-title h1").inner_text() == "iptoolkit Explorer"
    assert "estate.json" in page.locator(".ipt-app-source").inner_text()
    # no code: Voila strips the inputs
    assert page.locator(".jp-InputArea, .jp-CodeMirrorEditor, .cm-editor").count() == 0
    assert "import" not in page.locator("body").inner_text()
    first = counts.inner_text()
    assert first.startswith(f"{PROFILES} of {PROFILES} profiles"), first
    page.wait_for_timeout(500)
    _shot(page, tmp_path, "app-first-render")
    explorer = page.locator(".ipt-explorer").first

    _filter_and_see_facets(page, first, tmp_path)
    _zoom_and_click_a_node(page, explorer, estate, tmp_path)
    _follow_a_channel_to_its_partner(page, explorer, estate, tmp_path)

    open_tab(page, "Export")
    export = page.locator(".ipt-export")
    export.wait_for(timeout=STEP)
    export.locator("button", has_text=".png").first.click()
    export.locator("li", has_text="wrote").first.wait_for(timeout=STEP * 2)
    written = sorted(exports.iterdir())
    assert [p.suffix for p in written] == [".png"], written
    assert written[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    _shot(page, tmp_path, "app-exported")


def _first_view_then_live(page: Any, tmp_path: Path) -> None:
    """The overview drawn on the server shows at once, and goes when the live canvas is
    there (`FIRST_VIEW_WATCH` noted both from the page's first frame)."""
    drawing = page.locator("#ipt-first-view")
    drawing.locator("svg:visible").wait_for(state="visible", timeout=STEP)
    assert f"Overview of {PROFILES} profiles" in drawing.inner_text()
    _shot(page, tmp_path, "app-first-view")
    page.locator(LIVE_CANVAS).first.wait_for(timeout=FIRST_RENDER)
    page.wait_for_function("window.__iptFirstView.hiddenWithLive !== null", timeout=STEP)
    seen = page.evaluate("window.__iptFirstView")
    assert seen["first"] is not None and seen["first"] < seen["live"], seen
    assert seen["hiddenWithLive"] is True, seen  # by the page's CSS, not the 90 s bound
    assert drawing.is_hidden()


def _filter_and_see_facets(page: Any, first: str, tmp_path: Path) -> None:
    """ "active": the counts and the other lists' "(N)" follow; then an agent type; Reset."""
    channel_types = option_labels(page, "channel-types")
    assert sum(label_counts(option_labels(page, "agent-types"))) == PROFILES
    page.locator(".ipt-f-active button", has_text="active").first.click()
    second = wait_counts_change(page, first)
    assert f" of {PROFILES} profiles" in second and not second.startswith(f"{PROFILES} of"), second
    relabelled = wait_options_change(page, "channel-types", channel_types)
    assert len(relabelled) == len(channel_types), relabelled  # none disappears
    assert sum(label_counts(relabelled)) < sum(label_counts(channel_types)), relabelled

    page.locator(".ipt-f-agent-types select").select_option(index=0)
    third = wait_counts_change(page, second)
    wait_settled(page)
    _shot(page, tmp_path, "app-filtered")

    page.locator(".ipt-filters button", has_text="Reset").click()
    assert wait_counts_change(page, third).startswith(f"{PROFILES} of {PROFILES} profiles")
    wait_options_change(page, "channel-types", relabelled)
    assert option_labels(page, "channel-types") == channel_types
    wait_settled(page)


def _zoom_and_click_a_node(page: Any, explorer: Any, estate: Any, tmp_path: Path) -> None:
    """The Topology tab: the zoom button redraws the canvas; a click on a partner node
    shows that partner's details beside the map, the map still in view."""
    open_tab(page, "Topology")
    canvas = explorer.locator(".ipysigma-container").first
    before = canvas_fingerprint(page, canvas)
    assert coloured_share(canvas.screenshot()) > 0.005, "the topology view drew nothing"
    explorer.locator(".ipysigma-zoom-button").first.click()
    wait_canvas_change(page, canvas, before)
    _shot(explorer, tmp_path, "app-zoomed")
    explorer.locator(".ipysigma-reset-zoom-button").first.click()
    page.wait_for_timeout(1000)  # the camera's animation back

    assert click_a_node(page, canvas, KIND_COLOURS["partner"]), "no partner on the canvas"
    # beside the map (or below it), never in its place: the Topology tab stays in front
    page.locator(".ipt-explorer .ipt-beside .ipt-detail-body").first.wait_for(timeout=STEP)
    wait_text(page, DETAIL_TITLE, "Partner ")
    assert page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current").first.inner_text() == (
        "Topology"
    )
    assert canvas.is_visible()
    title = page.locator(DETAIL_TITLE).first.inner_text()
    names = {label(partner, key) for key, partner in estate.partners.items()}
    assert title.removeprefix("Partner ").strip() in names, title
    _shot(explorer, tmp_path, "app-node-details")


def _follow_a_channel_to_its_partner(page: Any, explorer: Any, estate: Any, tmp_path: Path) -> None:
    """A channel typed in the details search; its partner's link opens the partner."""
    key = next(k for k, c in estate.channels.items() if label(c, k) == CHANNEL)
    partner_key, partner = partner_of(estate.channels[key])
    find_in_details(page, "Channel", CHANNEL)
    assert "Where used" in explorer.locator(".ipt-detail .ipt-detail-body").first.inner_text()
    _shot(explorer, tmp_path, "app-channel-details")
    follow_link(page, f"partner:{partner_key}", f"Partner {label(partner, partner_key)}")
    assert "Its channels" in explorer.locator(".ipt-detail .ipt-detail-body").first.inner_text()
    page.locator(".ipt-detail .widget-toggle-button.mod-active", has_text="Partner").wait_for(
        timeout=STEP
    )  # the kind switch follows
    _shot(explorer, tmp_path, "app-partner-details")


def _shot(element: Any, folder: Path, name: str) -> Path:
    path = shot(element, folder / f"{name}.png")
    keep = os.environ.get("IPTOOLKIT_KEEP_SCREENSHOTS")
    if keep and path.exists():
        shutil.copy(path, Path(keep) / path.name)
    return path
