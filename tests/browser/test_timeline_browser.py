"""Issue 43's timeline in the app, in Debian's Chromium at 1,280 px: `iptoolkit explore
--archive` over three weekly snapshots, opened at the address of the second
(`?at=DAY`): the timeline says which snapshot it shows, the map draws its changes in
their legend's words, "Later" steps to the newest and the address follows (no `at` for
the newest), and axe finds nothing blocking. The screenshot is kept under the test's
folder."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.viewmodel.timeline import ArchiveTimeline

from ..ci import skip_or_fail
from .checkers import axe_violations, checkers_missing, said
from .lab import (
    LIVE_CANVAS,
    chromium,
    chromium_missing,
    launch_explore,
    printed_app_url,
    stop_explore,
    wait_listening,
)
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
            if checkers_missing() is None:
                found = axe_violations(page)
                assert found == [], said(found)
            page.get_by_role("button", name="Later").click()
            wait_text(page, STATUS, "Snapshot 3 of 3", timeout=STEP)
            page.wait_for_function("() => !location.search.includes('at=')", timeout=STEP)
            assert errors == []
    finally:
        assert stop_explore(process, signal.SIGINT), "explore did not stop on Ctrl-C"
