"""The marks of a diff on the live map (issue 43), read in the browser the same way in the
app and in JupyterLab: the colours the sigma canvas draws against its legend, and what a
click on a changed item lists against the diff.

The legend is the level's (`LevelMarks.legend`: every status a node on it has); the
canvas is read from a screenshot (WebGL), so a status is seen when enough pixels have its
fill exactly. The plain "unchanged" is left out: context is drawn faded.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from iptoolkit.change.estate_diff import EstateDiff
from iptoolkit.topology.style import STATUS_LOOKS
from iptoolkit.viewmodel.change_marks import changes_by_item

from .steps import STEP, click_a_node, png_pixels, wait_settled

__all__ = ["legend_statuses", "canvas_statuses", "click_a_changed_item"]

_MARKED = ("added", "removed", "changed")
_ENOUGH_PIXELS = 12
"""A colour drawn on fewer pixels is an edge's blend, not a node."""
_RGB = re.compile(r"rgba?\((\d+), (\d+), (\d+)")


def _hex(css: str) -> str:
    found = _RGB.match(css)
    assert found, css
    return "#" + "".join(f"{int(part):02x}" for part in found.groups())


def legend_statuses(view: Any) -> set[str]:
    """The marked statuses the legend of `view` (a `.ipt-topology`) names, by its swatches'
    colours."""
    fills = {STATUS_LOOKS[status][0].lower(): status for status in _MARKED}
    swatches = view.locator(".ipt-topology-legend .ipt-swatch")
    colours = swatches.evaluate_all("els => els.map(e => getComputedStyle(e).backgroundColor)")
    return {fills[_hex(c)] for c in colours if _hex(c) in fills}


def canvas_statuses(view: Any) -> set[str]:
    """The marked statuses whose fill the canvas of `view` draws."""
    pixels = png_pixels(view.locator(".ipysigma-container").first.screenshot())
    seen = set()
    for status in _MARKED:
        colour = STATUS_LOOKS[status][0]
        target = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
        if int((np.abs(pixels - target).max(axis=-1) < 0.02).sum()) >= _ENOUGH_PIXELS:
            seen.add(status)
    return seen


def click_a_changed_item(page: Any, view: Any, diff: EstateDiff) -> tuple[str, set[str]]:
    """Click nodes drawn "changed" (a group opens) until one is an item whose changes show
    under the map; its owner in the diff (named in the picked line) and the paths listed."""
    canvas = view.locator(".ipysigma-container").first
    info = view.locator(".ipt-topology-info")
    by_item = changes_by_item(diff)
    for _ in range(4):
        assert click_a_node(page, canvas, STATUS_LOOKS["changed"][0]), "no changed node"
        wait_settled(page)
        page.wait_for_timeout(500)
        if info.locator("table.ipt-fields").count():
            break
    else:
        raise AssertionError("no click opened a changed item's changes")
    info.locator("table.ipt-fields").first.wait_for(timeout=STEP)
    picked = info.locator(".ipt-topology-hint").inner_text().strip("()")
    owner = next(key for key in by_item if key == picked or picked.endswith(key))
    listed = {t for t in info.locator("table.ipt-fields th").all_inner_texts() if t.startswith("$")}
    return owner, listed
