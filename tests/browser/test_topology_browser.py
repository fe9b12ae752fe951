"""The interactive topology view in a real browser: JupyterLab on loopback, Debian's
Chromium (WebGL through SwiftShader) via Playwright.

A notebook written in the test's folder shows `ipt.show_topology(estate)` with an HTML
line that prints what Python receives. The test waits for the canvas to draw, zooms with
the view's button (the camera reaches Python and the picture changes), clicks a group (it
opens in detail), clicks a node there (Python receives its estate node id) and goes back
to the overview. Screenshots are saved under the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from iptoolkit.topology.style import KIND_COLOURS

from ..ci import skip_or_fail
from .lab import (
    Lab,
    chromium_missing,
    chromium_page,
    open_and_run,
    run_in_lab,
)
from .steps import canvas_fingerprint, click_a_node, coloured_share, wait_canvas_change

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1400, "height": 1100}
FIRST_LAUNCH = 90_000  # ms: a fresh server's first kernel and page can be slow
STEP = 45_000  # ms: any later step (two cores shared with other browsers)
CELLS = [
    "import iptoolkit as ipt\n"
    "import ipywidgets as W\n"
    "estate = ipt.demo_estate(n_profiles=300, seed=7)",
    "picked = W.HTML('picked: none')\n"
    "picked.add_class('ipt-picked')\n"
    "camera = W.HTML('camera: none')\n"
    "camera.add_class('ipt-camera')\n"
    "view = ipt.show_topology(estate, on_select=lambda node: setattr(picked, 'value', "
    "f'picked: {node}'), height=560)\n"
    "def follow(change=None):  # a new canvas each time the view is laid out for its width\n"
    "    view.sigma.observe(lambda change: setattr(camera, 'value', "
    "f\"camera: {change['new']['ratio']:.3f}\"), 'camera_state')\n"
    "view._sigma_box._inner.observe(follow, 'children')\n"
    "W.VBox([picked, camera, view])  # the view is a widget: placed in a layout as one",
    "explorer = ipt.Explorer(estate, ipt.Filter(active=False))\nexplorer",
]


def test_topology_view_zooms_and_answers_clicks(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "topology.ipynb").write_text(json.dumps(_notebook(CELLS)))
    run_in_lab(folder, tmp_path, lambda lab: _session(lab, tmp_path))


def _notebook(cells: list[str]) -> dict[str, Any]:
    return {
        "cells": [
            {"cell_type": "code", "id": f"cell-{index}", "metadata": {}, "source": source,
             "outputs": [], "execution_count": None}
            for index, source in enumerate(cells)
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip


def _session(lab: Lab, tmp_path: Path) -> None:
    with chromium_page(VIEWPORT) as (page, errors):
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        shown = ".ipt-topology"
        open_and_run(page, lab, "topology.ipynb", first_widget=shown, timeout=FIRST_LAUNCH)
        try:
            _explore(page, tmp_path)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\nbrowser errors: {errors}") from exc
        assert errors == [], errors  # no allowance: the sigma child-view error is guarded


def _keys_stay_in_the_view(page: Any) -> None:
    """A key typed on the view's controls (the notebook in command mode) is not a notebook
    command: "m" turned the view's cell to Markdown, its output gone (`KeyGuard`)."""
    cells = "() => Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell'), c => c.className)"
    page.locator(".ipt-topology button:visible").first.focus()  # its cell is selected
    assert page.evaluate("() => !!document.activeElement.closest('.ipt-topology')")
    page.wait_for_timeout(300)
    before = page.evaluate(cells)
    page.keyboard.press("m")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(1000)
    assert page.evaluate(cells) == before, "a key on the view ran a notebook command"


def _explore(page: Any, tmp_path: Path) -> None:
    view = page.locator(".ipt-topology").first
    canvas = page.locator(".ipt-topology .ipysigma-container").first
    canvas.locator("canvas").first.wait_for(timeout=STEP)
    view.scroll_into_view_if_needed()
    page.wait_for_timeout(1000)  # sigma draws on the next animation frames
    first = canvas_fingerprint(page, canvas)
    _save(tmp_path, "overview", view.screenshot())
    assert coloured_share(canvas.screenshot()) > 0.005, "the canvas drew nothing"
    _keys_stay_in_the_view(page)
    status = page.locator(".ipt-topology-status").first
    assert "grouped by group" in status.inner_text()
    assert "input agents" in page.locator(".ipt-topology-legend").first.inner_text()
    assert "partners" in page.locator(".ipt-topology-legend").first.inner_text()

    # zoom with the view's button: the camera reaches Python, the picture changes
    camera = page.locator(".ipt-camera").first
    before = camera.inner_text()
    page.locator(".ipt-topology .ipysigma-zoom-button").first.click()
    page.wait_for_function(
        "before => document.querySelector('.ipt-camera').innerText !== before",
        arg=before,
        timeout=STEP,
    )
    ratio = float(camera.inner_text().split(":")[1])
    assert ratio < 1.0, camera.inner_text()
    wait_canvas_change(page, canvas, first)  # zooming redraws the canvas
    page.locator(".ipt-topology .ipysigma-reset-zoom-button").first.click()
    page.wait_for_timeout(800)

    # a click on a group opens it in detail
    assert click_a_node(page, canvas, KIND_COLOURS["profile"]), "no profile group found"
    back = page.locator(".ipt-topology-back").first
    back.wait_for(state="visible", timeout=STEP)
    assert "in detail" in status.inner_text()
    page.wait_for_timeout(1500)
    _save(tmp_path, "group-in-detail", view.screenshot())

    # a click on a node there: Python receives its estate node id
    assert click_a_node(page, canvas, KIND_COLOURS["partner"]), "no partner in the detail"
    page.wait_for_function(
        "() => document.querySelector('.ipt-picked').innerText !== 'picked: none'",
        timeout=STEP,
    )
    picked = page.locator(".ipt-picked").first.inner_text()
    assert picked.startswith("picked: partner:"), picked
    _save(tmp_path, "node-picked", view.screenshot())

    back.click()
    page.wait_for_function(
        "() => !document.querySelector('.ipt-topology-status').innerText.includes('in detail')",
        timeout=STEP,
    )

    # the Explorer's first tab is the same view of its selection; a click opens details
    explorer = page.locator(".ipt-explorer").first
    explorer.scroll_into_view_if_needed()
    tab = page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current").first
    assert tab.inner_text().strip() == "Topology"
    explorer_canvas = page.locator(".ipt-explorer .ipysigma-container").first
    explorer_canvas.locator("canvas").first.wait_for(timeout=STEP)
    page.wait_for_timeout(1500)
    _save(tmp_path, "explorer", explorer.screenshot())
    assert coloured_share(explorer_canvas.screenshot()) > 0.005, "the Explorer's view is blank"
    assert click_a_node(page, explorer_canvas, KIND_COLOURS["partner"]), "no partner found"
    page.locator(".ipt-explorer .ipt-beside .ipt-detail-body").first.wait_for(timeout=STEP)
    assert tab.inner_text().strip() == "Topology"  # the details beside the map, not instead
    assert explorer_canvas.is_visible()
    _save(tmp_path, "explorer-details", explorer.screenshot())


def _save(tmp_path: Path, name: str, png: bytes) -> None:
    path = tmp_path / f"topology-{name}.png"
    path.write_bytes(png)
    if os.environ.get("IPTOOLKIT_KEEP_SHOTS"):
        shutil.copy(path, Path(os.environ["IPTOOLKIT_KEEP_SHOTS"]) / path.name)
