"""Issue 43's timeline in Debian's Chromium at 1,280 px, over three snapshots a week apart
(the second is the first with the demo's week of changes, `ipt.demo_changes`):

- the app (`iptoolkit explore --archive`) opened at the address of the second
  (`?at=DAY`): the timeline says which snapshot it shows, the canvas draws exactly the
  statuses its legend names (`marks.py`), a click on a changed item lists exactly the
  diff's field paths for it, "Later" (by the keyboard) steps to the newest and the address
  follows (no `at` for the newest), the focus moving to the list as "Later" is disabled,
  and axe finds nothing blocking;
- JupyterLab beside its file browser (`ipt.Explorer(archive=..., at=DAY)`): the same
  marks and click, then "Earlier" (the first snapshot: nothing marked) and "Later" twice
  (the newest, its own changes), each step drawing its legend's statuses.

Screenshots are kept under the test's folder."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.change.estate_diff import EstateDiff
from iptoolkit.viewmodel.timeline import ArchiveTimeline

from ..ci import skip_or_fail
from .checkers import axe_violations, checkers_missing, said
from .lab import (
    LIVE_CANVAS,
    Lab,
    chromium,
    chromium_missing,
    chromium_page,
    keep_screenshot,
    launch_explore,
    printed_app_url,
    run_beside_file_browser,
    run_in_lab,
    stop_explore,
    wait_listening,
    write_notebook,
)
from .marks import canvas_statuses, click_a_changed_item, legend_statuses
from .steps import STEP, wait_settled, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1280, "height": 800}
FIRST_RENDER = 120_000  # ms: a kernel per page, on a shared machine
STATUS = ".ipt-timeline-status"


def _archive(folder: Path) -> Path:
    first = ipt.demo_estate(n_profiles=80, seed=3, fetched_at="2026-11-09T06:00:00")
    second = ipt.demo_changes(first, seed=1)
    path = folder / "estate.duckdb"
    archive = ipt.Archive(path)
    for estate in (first, second, ipt.demo_changes(second, seed=2)):
        archive.add(estate)
    return path


def test_the_app_opens_a_moment_from_its_address_and_steps_on(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    path = _archive(tmp_path)
    second = ArchiveTimeline(path).moments[1]
    process, port, log = launch_explore(
        None, tmp_path, "--archive", str(path), "--folder", str(tmp_path / "exports")
    )
    try:
        wait_listening(process, port, log)
        url = printed_app_url(log, port)
        with chromium() as browser:
            page = browser.new_page(viewport=VIEWPORT)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{url}&at={second.day}", timeout=FIRST_RENDER)
            page.locator(LIVE_CANVAS).first.wait_for(timeout=FIRST_RENDER)
            wait_text(page, STATUS, "Snapshot 2 of 3", timeout=FIRST_RENDER)
            wait_settled(page)
            assert f"at={second.at}" in page.url
            assert "changed" in page.locator(".ipt-topology-below").first.inner_text()
            page.screenshot(path=str(tmp_path / "timeline-1280.png"))
            _marks_drawn_and_listed(page, ArchiveTimeline(path).changes(1))
            if checkers_missing() is None:
                found = axe_violations(page)
                assert found == [], said(found)
            page.get_by_role("button", name="Later").focus()  # the keyboard's way
            page.keyboard.press("Enter")
            wait_text(page, STATUS, "Snapshot 3 of 3", timeout=STEP)
            page.wait_for_function("() => !location.search.includes('at=')", timeout=STEP)
            # "Later" is disabled at the newest: the focus moves to the list, not the page
            page.wait_for_function(
                "() => document.activeElement && document.activeElement.tagName === 'SELECT'",
                timeout=STEP,
            )
            assert errors == []
    finally:
        assert stop_explore(process, signal.SIGINT), "explore did not stop on Ctrl-C"


def _marks_drawn_and_listed(page: Any, diff: EstateDiff | None) -> None:
    """The canvas draws what its legend names, at the overview and on the level where a
    click on a changed item (a group with changes opens) lists exactly the diff's field
    paths for it."""
    assert diff is not None
    view = page.locator(".ipt-explorer .ipt-topology").first
    assert legend_statuses(view) == canvas_statuses(view) != set()
    owner, listed = click_a_changed_item(page, view, diff)
    assert legend_statuses(view) == canvas_statuses(view) != set()  # the level it is on
    assert listed == {c.path for c in diff.changes if c.key == owner and c.path}, owner


def test_jupyterlab_beside_its_file_browser_steps_through_the_marks(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    folder = tmp_path / "notebooks"
    folder.mkdir()
    path = _archive(folder)
    timeline = ArchiveTimeline(path)
    write_notebook(
        folder / "timeline.ipynb",
        "import iptoolkit as ipt\n"
        f"explorer = ipt.Explorer(archive='{path.name}', at='{timeline.moments[1].day}')\n"
        "explorer",
    )
    run_in_lab(folder, tmp_path, lambda lab: _lab_session(lab, timeline, tmp_path))


def _lab_session(lab: Lab, timeline: ArchiveTimeline, tmp_path: Path) -> None:
    with chromium_page(VIEWPORT) as (page, errors):
        run_beside_file_browser(
            page,
            lab,
            "timeline.ipynb",
            first_widget=".ipt-explorer .ipt-topology .ipysigma-container canvas",
            screenshot=tmp_path / "lab-first-launch.png",
            timeout=FIRST_RENDER,
        )
        wait_text(page, STATUS, "Snapshot 2 of 3", timeout=FIRST_RENDER)
        wait_settled(page)
        keep_screenshot(page, tmp_path, "timeline-lab-1280")
        _marks_drawn_and_listed(page, timeline.changes(1))
        view = page.locator(".ipt-explorer .ipt-topology").first
        page.get_by_role("button", name="Earlier").click()
        wait_text(page, STATUS, "Snapshot 1 of 3")
        wait_settled(page)
        page.wait_for_timeout(500)
        assert legend_statuses(view) == set()  # nothing before it: drawn by kind, no marks
        assert view.locator(".ipt-topology-legend li").count() > 1  # the kinds' legend
        for _ in range(2):
            page.get_by_role("button", name="Later").click()
        wait_text(page, STATUS, "Snapshot 3 of 3")
        wait_settled(page)
        page.wait_for_timeout(500)
        assert legend_statuses(view) == canvas_statuses(view) != set()
        keep_screenshot(page, tmp_path, "timeline-lab-newest")
        assert errors == [], errors
