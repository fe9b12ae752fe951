"""Facets and the export tab in a real browser (JupyterLab on loopback, Debian's Chromium).

A small notebook opens an Explorer on a 300-profile demo estate. In the page: the options
carry counts, a click on an agent type relabels every other list and the activity toggle
while the clicked option stays selected, the partner list too (every partner, zeros kept),
and the box above it narrows that list to the partners whose name holds what is typed;
the export tab suggests a file name from the filter, writes a PNG and an Excel workbook,
each offered as a download link when it is the newest. Screenshots go under the test's
temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ..ci import skip_or_fail
from .lab import (
    Lab,
    chromium_missing,
    chromium_page,
    open_and_run,
    run_in_lab,
)
from .steps import label_counts, open_tab, option_labels, wait_options_change

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 1100}
FIRST_LAUNCH = 90_000  # ms: a fresh server's first kernel and page can be slow
STEP = 30_000  # ms: any later step
CELL = """import iptoolkit as ipt

explorer = ipt.Explorer(ipt.demo_estate(n_profiles=300, seed=0), folder="out", diagram=False)
explorer"""


def _notebook(path: Path) -> None:
    cell: dict[str, Any] = {"cell_type": "code", "metadata": {}, "source": CELL, "outputs": []}
    cell["execution_count"] = None
    notebook = {
        "cells": [cell],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


def test_facets_follow_the_selection_and_every_format_exports(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    folder = tmp_path / "notebooks"
    folder.mkdir()
    _notebook(folder / "facets.ipynb")
    shots = tmp_path / "screenshots"
    shots.mkdir()
    run_in_lab(folder, tmp_path, lambda lab: _session(lab, shots))
    written = folder / "out"
    assert (written / "as2-active.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    from openpyxl import load_workbook

    assert load_workbook(written / "as2-active.xlsx", read_only=True).sheetnames


def _session(lab: Lab, shots: Path) -> None:
    with chromium_page(VIEWPORT) as (page, _errors):
        open_and_run(
            page,
            lab,
            "facets.ipynb",
            first_widget=".ipt-counts",
            screenshot=shots / "first-launch-timeout.png",
            timeout=FIRST_LAUNCH,
        )
        _facets(page, shots)
        _export(page, shots)


def _facets(page: Any, shots: Path) -> None:
    counts = page.locator(".ipt-counts")
    assert counts.inner_text().startswith("300 of 300 profiles"), counts.inner_text()
    toggles = page.locator(".ipt-f-active button").all_inner_texts()
    assert [t.split(" (")[0] for t in toggles] == ["all", "active", "inactive"], toggles
    assert label_counts(toggles)[0] == 300 == sum(label_counts(toggles)[1:])
    before_channels = option_labels(page, "channel-types")
    assert sum(label_counts(option_labels(page, "agent-types"))) == 300
    before_partners = option_labels(page, "partners")
    assert len(before_partners) > 20 and min(label_counts(before_partners)) > 0
    page.locator(".ipt-filters").screenshot(path=str(shots / "facets-everything.png"))

    # choose an input agent type: the other lists and the toggle are relabelled
    agent_types = page.locator(".ipt-f-agent-types select")
    label = agent_types.locator("option", has_text="AS2 (").first.inner_text()
    chosen = label_counts([label])[0]
    agent_types.select_option(label=label)
    page.wait_for_function(
        "n => document.querySelector('.ipt-counts').innerText.startsWith(n + ' of 300')",
        arg=str(chosen),
        timeout=STEP,
    )
    after_channels = wait_options_change(page, "channel-types", before_channels)
    assert len(after_channels) == len(before_channels)  # none disappears, zeros stay
    assert any(label.endswith("(0)") for label in after_channels), after_channels
    assert label_counts(page.locator(".ipt-f-active button").all_inner_texts())[0] == chosen
    after_partners = wait_options_change(page, "partners", before_partners)
    assert len(after_partners) == len(before_partners)
    assert any(label.endswith("(0)") for label in after_partners), after_partners
    # narrowing the partners: only names holding the typed part (any case), same counts
    page.locator(".ipt-partner-search input").fill("PACK")
    narrowed = wait_options_change(page, "partners", after_partners)
    assert narrowed and set(narrowed) < set(after_partners), narrowed
    assert all("pack" in label.lower() for label in narrowed), narrowed
    assert page.locator(".ipt-counts").inner_text().startswith(f"{chosen} of 300")
    page.locator(".ipt-filters").screenshot(path=str(shots / "facets-partners-narrowed.png"))
    # the other agent types still show what choosing them would add
    assert sum(label_counts(option_labels(page, "agent-types"))) == 300

    # "active": the agent types are relabelled (active ones only), AS2 stays chosen
    before_agents = option_labels(page, "agent-types")
    page.locator(".ipt-f-active button", has_text="active (").first.click()
    wait_options_change(page, "agent-types", before_agents)
    selected = agent_types.evaluate(
        "s => Array.from(s.selectedOptions).map(o => o.textContent.replaceAll('\\u00a0', ' '))"
    )
    assert len(selected) == 1 and selected[0].startswith("AS2 ("), selected
    assert label_counts(selected)[0] < chosen  # relabelled, still chosen
    pressed = page.locator(".ipt-f-active button.mod-active").all_inner_texts()
    assert len(pressed) == 1 and pressed[0].startswith("active ("), pressed
    page.locator(".ipt-filters").screenshot(path=str(shots / "facets-as2-active.png"))


def _export(page: Any, shots: Path) -> None:
    open_tab(page, "Export")
    name = page.locator(".ipt-export input").nth(1)
    name.wait_for(timeout=STEP)
    assert name.input_value() == "as2-active"  # suggested from the filter
    log = page.locator(".ipt-export .widget-html-content").last
    for suffix in ("png", "xlsx"):
        page.locator(".ipt-export button", has_text=f".{suffix}").first.click()
        page.locator(f".ipt-export a[download='as2-active.{suffix}']").wait_for(timeout=STEP)
    assert "ipt-error" not in (log.inner_html() or "")
    page.locator(".ipt-explorer").first.screenshot(path=str(shots / "export-tab.png"))
