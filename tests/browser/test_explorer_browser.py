"""The Explorer in a real browser: JupyterLab on loopback, Debian's Chromium via Playwright.

Opens `notebooks/03-explorer.ipynb` (a copy), checks the static copy shows before the
kernel runs (a reopened notebook), runs every cell from the Run menu, changes filters in
the page and checks that the counts and the diagram follow, opens a profile from the
table, and saves screenshots under `tests/browser/screenshots/` (git-ignored). With
`IPTOOLKIT_UPDATE_DOCS=1` the explorer's screenshot also replaces `docs/explorer.png`.

JupyterLab rather than Voila: it is what analysts use (and Binder opens), it is already a
test dependency, and it exercises the widget manager and the Run menu they will use.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from ..ci import skip_or_fail
from .lab import (
    Lab,
    chromium_missing,
    chromium_page,
    first_launch,
    open_notebook,
    run_all,
    run_in_lab,
)
from .steps import (
    canvas_fingerprint,
    open_tab,
    option_labels,
    shot,
    wait_canvas_change,
    wait_counts_change,
    wait_options_change,
    wait_settled,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "03-explorer.ipynb"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
DOCS_PNG = ROOT / "docs" / "explorer.png"
VIEWPORT = {"width": 1500, "height": 1250}
FIRST_LAUNCH = 90_000  # ms: a fresh server's first kernel and page can be slow
STEP = 30_000  # ms: any later step


def test_explorer_follows_filters_in_jupyterlab(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(NOTEBOOK, folder / NOTEBOOK.name)
    SCREENSHOTS.mkdir(exist_ok=True)
    run_in_lab(folder, tmp_path, _session)


def _session(lab: Lab) -> None:
    with chromium_page(VIEWPORT) as (page, _errors):
        with first_launch(page, SCREENSHOTS / "first-launch-timeout.png"):
            open_notebook(page, lab, NOTEBOOK.name, timeout=FIRST_LAUNCH)
            started = _run_over_static_copy(page)
        _explore(page, started)


def _run_over_static_copy(page: Any) -> float:
    """Check the static copy a notebook opened without its kernel shows, run every cell and
    wait for the live Explorer (inside `first_launch`: a fresh lab's first widget); the
    time the run started."""
    static = page.locator(".iptoolkit-explorer-static").first
    static.wait_for(state="visible", timeout=STEP)
    assert "static copy" in static.inner_text()
    static.scroll_into_view_if_needed()
    _shot(page, "reopened-page")
    started = time.monotonic()
    run_all(page, timeout=FIRST_LAUNCH)
    page.locator(".ipt-counts").wait_for(timeout=FIRST_LAUNCH)
    return started


def _explore(page: Any, started: float) -> None:
    counts = page.locator(".ipt-counts")
    explorer = page.locator(".ipt-explorer").first
    explorer.scroll_into_view_if_needed()
    wait_settled(page)
    print(f"run all: {time.monotonic() - started:.1f} s")
    # the notebook's later cells set a filter from code: the page shows it
    first = counts.inner_text()
    assert first.startswith("16 of 300 profiles"), first
    assert not page.locator(".iptoolkit-explorer-static").first.is_visible()
    canvas = page.locator(".ipt-explorer .ipysigma-container").first
    first_png = canvas_fingerprint(page, canvas)
    assert first_png, "the Topology tab drew nothing"
    _shot(page, "explorer-from-code", explorer)

    # a click on "all": counts and diagram follow
    started = time.monotonic()
    page.locator(".ipt-f-active button", has_text="all").click()
    second = wait_counts_change(page, first)
    wait_canvas_change(page, canvas, first_png)
    print(f"filter change to diagram: {time.monotonic() - started:.1f} s")
    assert second.startswith("19 of 300 profiles"), second

    wait_settled(page)
    explorer.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    shot = _shot(page, "explorer-filtered", explorer)
    if os.environ.get("IPTOOLKIT_UPDATE_DOCS") == "1":
        shutil.copy(shot, DOCS_PNG)

    # pick another input agent type in the list: the selection follows
    agent_types = page.locator(".ipt-f-agent-types select")
    label = agent_types.locator("option", has_text="AS4 (").first.inner_text()
    before_png = canvas_fingerprint(page, canvas)
    agent_types.select_option(label=label)
    third = wait_counts_change(page, second)
    assert third.startswith("7 of 300 profiles"), third
    wait_canvas_change(page, canvas, before_png)

    # a partner: narrow the list by a part of its name (no filter change), then pick it
    every_partner = option_labels(page, "partners")
    page.locator(".ipt-partner-search input").fill("lakeside")
    shown = wait_options_change(page, "partners", every_partner)
    assert shown and all("lakeside" in name.lower() for name in shown), shown
    assert page.locator(".ipt-counts").inner_text() == third  # narrowing is no filter
    # the list shows spaces as no-break spaces (ipywidgets does): select by the label as shown
    wanted = "Lakeside Packaging S.A. ("
    lakeside = next((n for n in shown if n.replace("\u00a0", " ").startswith(wanted)), "")
    assert lakeside, shown
    page.locator(".ipt-f-partners select").select_option(label=lakeside)
    third = wait_counts_change(page, third)
    assert "partner Lakeside Packaging S.A." in page.locator(".ipt-description").inner_text()

    # free text, typed as a person types: one update after the pause
    page.locator(".ipt-f-text input").fill("orders")
    fourth = wait_counts_change(page, third)
    assert "filter:" in page.locator(".ipt-description").inner_text()

    # the table, then a row: its details open
    open_tab(page, "Table")
    rows = page.locator(".ipt-table tbody tr")
    rows.first.wait_for(timeout=STEP)
    _shot(page, "explorer-table", explorer)
    rows.nth(0).click()
    detail = page.locator(".ipt-detail .ipt-detail-body")
    detail.wait_for(timeout=STEP)
    assert "Profile " in detail.inner_text()
    assert "Impact if it goes away" in detail.inner_text()
    _shot(page, "explorer-details", explorer)
    assert fourth != third


def _shot(page: Any, name: str, element: Any = None) -> Path:
    return shot(element or page, SCREENSHOTS / f"{name}.png")
