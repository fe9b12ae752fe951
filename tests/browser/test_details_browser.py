"""Click-through details and the Findings tab in a real browser (JupyterLab, Chromium).

A notebook written in the test's folder shows an Explorer on the demo estate. In the page:
the Details tab, the Channel kind, a channel's exact name typed (it opens at once), a click
on its partner's link (the partner's details), Back, the same link reached by keyboard and
Enter; then the Findings tab and a click on a finding's profile (its details), and a filter
that leaves that profile out (the details say so). Screenshots
are saved under the test's folder (and `IPTOOLKIT_SCREENSHOTS`, when set, for a person to
look at).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from iptoolkit.core.nodes import label, partner_of
from iptoolkit.demo import demo_estate

from ..ci import skip_or_fail
from .lab import (
    Lab,
    chromium_missing,
    chromium_page,
    first_launch,
    open_notebook,
    run_all,
    run_in_lab,
    write_notebook,
)
from .steps import DETAIL_TITLE, find_in_details, follow_link, open_tab, shot, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 1000}
STEP = 30_000  # ms: each step, on a machine shared with other browsers
CHANNEL = "Lakeside Packaging AS4"
NOTEBOOK = "details.ipynb"


def test_links_lead_from_a_channel_to_its_partner_and_from_findings(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    folder = tmp_path / "notebooks"
    folder.mkdir()
    write_notebook(
        folder / NOTEBOOK,
        "import iptoolkit as ipt\n"
        "explorer = ipt.Explorer(ipt.demo_estate(), diagram=False)\n"
        "explorer",
    )
    shots = tmp_path / "screenshots"
    shots.mkdir()
    run_in_lab(folder, tmp_path, lambda lab: _session(lab, shots))
    copy_to = os.environ.get("IPTOOLKIT_SCREENSHOTS")
    if copy_to:
        shutil.copytree(shots, copy_to, dirs_exist_ok=True)


def _session(lab: Lab, shots: Path) -> None:
    with chromium_page(VIEWPORT) as (page, errors):
        with first_launch(page):
            open_notebook(page, lab, NOTEBOOK)
            run_all(page)
            page.locator(".ipt-explorer .ipt-counts").wait_for(timeout=STEP)
        _follow_links(page, shots)
        assert errors == [], errors  # no script error of any kind


def _follow_links(page: Any, shots: Path) -> None:
    estate = demo_estate()
    key = next(k for k, c in estate.channels.items() if label(c, k) == CHANNEL)
    partner_key, partner = partner_of(estate.channels[key])
    partner_name = label(partner, partner_key)
    explorer = page.locator(".ipt-explorer").first
    explorer.scroll_into_view_if_needed()
    body = page.locator(".ipt-explorer .ipt-detail .ipt-detail-body")  # the tab's, not beside

    # the Details tab, the channel kind, its exact name typed: it opens at once
    find_in_details(page, "Channel", CHANNEL)
    assert "Where used" in body.inner_text()
    shot(explorer, shots / "channel-details.png")

    # its partner's link: the partner's details
    link = body.locator(f"a.ipt-link[data-node='partner:{partner_key}']")
    assert link.inner_text() == partner_name
    follow_link(page, f"partner:{partner_key}", f"Partner {partner_name}")
    assert "Its channels" in body.inner_text()
    page.locator(".ipt-detail .widget-toggle-button.mod-active", has_text="Partner").wait_for(
        timeout=STEP
    )  # the kind switch follows
    shot(explorer, shots / "partner-details.png")

    # back to the channel; then the partner again, by keyboard
    page.locator(".ipt-detail .ipt-back").click()
    wait_text(page, DETAIL_TITLE, f"Channel {CHANNEL}")
    link.focus()
    page.keyboard.press("Enter")
    wait_text(page, DETAIL_TITLE, f"Partner {partner_name}")

    # the Findings tab: a finding's profile opens its details
    open_tab(page, "Findings")
    findings = page.locator(".ipt-explorer .ipt-findings-body")
    findings.wait_for(timeout=STEP)
    assert "finding" in findings.locator(".ipt-findings-total").inner_text()
    shot(explorer, shots / "findings-folded.png")
    kind = findings.locator("details.ipt-finding-kind[data-kind='active_profile_inactive_channel']")
    kind.locator("summary").click()  # unfold one kind
    item = kind.locator("a.ipt-link[data-node^='profile:']").first
    item.wait_for(state="visible", timeout=STEP)
    shot(explorer, shots / "findings.png")
    node = item.get_attribute("data-node") or ""
    item.click()
    profile_id = node.partition(":")[2]
    wait_text(page, DETAIL_TITLE, f"Profile {profile_id}")
    # the Details tab comes to the front (its content may be written a moment before)
    page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current", has_text="Details").wait_for(
        timeout=STEP
    )
    shot(explorer, shots / "finding-opened.png")

    # a filter that leaves this (active) profile out: the open details say so at once
    assert not body.locator(".ipt-outside-note").count()
    page.locator(".ipt-f-active button", has_text="inactive").click()
    body.locator(".ipt-outside-note").wait_for(timeout=STEP)
    assert "not in the current selection" in body.locator(".ipt-outside-note").inner_text()
    assert body.locator("a.ipt-link.ipt-outside").count()
    shot(explorer, shots / "outside-selection.png")
