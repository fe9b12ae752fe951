"""Steps the browser tests share, in JupyterLab and in the Voila app alike.

Each step acts on the Explorer's page as a person would (a tab, a toggle, a typed name, a
click on the sigma canvas) and waits for what the page shows next. Waits are generous
(`STEP`): the machine running them is shared with other browsers; no step measures time.
The sigma view draws on a WebGL canvas, so what it shows is read from screenshots of it:
a fingerprint to see that it redrew, the colours of its nodes to find one to click.
"""

from __future__ import annotations

import hashlib
import io
import re
import time
from pathlib import Path
from typing import Any

__all__ = [
    "STEP",
    "DETAIL_TITLE",
    "wait_settled",
    "wait_counts_change",
    "wait_text",
    "open_tab",
    "canvas_fingerprint",
    "wait_canvas_change",
    "coloured_share",
    "png_pixels",
    "click_a_node",
    "find_in_details",
    "follow_link",
    "option_labels",
    "label_counts",
    "wait_options_change",
    "shot",
]

STEP = 45_000
"""ms: any one step (two cores shared with other browsers)."""
DETAIL_TITLE = ".ipt-explorer .ipt-detail .ipt-detail-body .ipt-title"
"""The Details tab's title (the same details show beside the map too: `.ipt-beside`)."""
_COUNT = re.compile(r"\(([\d,]+)\)$")


def wait_settled(page: Any, *, timeout: float = STEP) -> None:
    """Wait until the Explorer shows no pending update ("updating ...")."""
    page.wait_for_function("!document.querySelector('.ipt-explorer .ipt-busy')", timeout=timeout)


def wait_counts_change(page: Any, before: str, *, timeout: float = STEP) -> str:
    """Wait until the counts line differs from `before`; return it."""
    page.wait_for_function(
        "before => document.querySelector('.ipt-counts').innerText !== before",
        arg=before,
        timeout=timeout,
    )
    return str(page.locator(".ipt-counts").first.inner_text())


def wait_text(page: Any, selector: str, text: str, *, timeout: float = STEP) -> None:
    """Wait until the first element of `selector` shows `text` (case as written)."""
    page.wait_for_function(
        "([selector, text]) => {"
        "  const found = document.querySelector(selector);"
        "  return found !== null && found.innerText.includes(text);"
        "}",
        arg=[selector, text],
        timeout=timeout,
    )


def open_tab(page: Any, title: str, *, timeout: float = STEP) -> None:
    """Bring the Explorer's tab `title` to the front."""
    page.locator(".ipt-explorer .lm-TabBar-tab", has_text=title).first.click()
    page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current", has_text=title).first.wait_for(
        timeout=timeout
    )


# -- the sigma canvas ----------------------------------------------------------------------


def canvas_fingerprint(page: Any, canvas: Any, *, timeout: float = STEP) -> str:
    """A fingerprint of the sigma view (`canvas`: its `.ipysigma-container`) as drawn now."""
    canvas.locator("canvas").first.wait_for(timeout=timeout)
    page.wait_for_timeout(500)  # sigma draws on the next animation frames
    return hashlib.sha1(canvas.screenshot()).hexdigest()


def wait_canvas_change(page: Any, canvas: Any, before: str, *, timeout: float = STEP) -> str:
    """Wait until the sigma view draws something other than `before`; its new fingerprint."""
    deadline = time.monotonic() + timeout / 1000
    while (now := canvas_fingerprint(page, canvas)) == before:
        if time.monotonic() > deadline:
            raise AssertionError("the topology view did not redraw")
    return now


def coloured_share(png: bytes) -> float:
    """The share of pixels that are not (nearly) white or grey: nodes and lines."""
    import numpy as np

    pixels = png_pixels(png)
    spread = pixels.max(axis=-1) - pixels.min(axis=-1)
    return float(np.mean(spread > 0.15))


def click_a_node(page: Any, canvas: Any, colour: str) -> bool:
    """Click the middle of a node drawn in `colour` (found in a screenshot of the canvas),
    after checking that sigma shows a pointer there; False when there is none."""
    import numpy as np

    pixels = png_pixels(canvas.screenshot())
    target = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    match = (np.abs(pixels - target).max(axis=-1) < 0.04).astype(float)
    box = canvas.bounding_box()
    scale = box["width"] / match.shape[1]  # screenshots are in device pixels
    # a canvas taller or wider than its view scrolls in a panel: only what shows counts
    shown = canvas.evaluate(_SHOWN)
    rows = box["y"] + (np.arange(match.shape[0]) + 0.5) * scale
    columns = box["x"] + (np.arange(match.shape[1]) + 0.5) * scale
    inside_rows = (rows > shown["top"] + 4) & (rows < shown["bottom"] - 4)
    inside_columns = (columns > shown["left"] + 4) & (columns < shown["right"] - 4)
    match *= np.outer(inside_rows, inside_columns)
    if not match.any():
        return False
    # the pixel with the most matching neighbours: the middle of a disc, not an edge
    padded = np.pad(match, 3)
    around = sum(
        padded[3 + dy : 3 + dy + match.shape[0], 3 + dx : 3 + dx + match.shape[1]]
        for dy in range(-3, 4)
        for dx in range(-3, 4)
    )
    row, column = np.unravel_index(np.argmax(around * match), match.shape)
    x, y = box["x"] + (column + 0.5) * scale, box["y"] + (row + 0.5) * scale
    page.mouse.move(x, y)
    page.wait_for_timeout(200)
    if canvas.evaluate("el => el.style.cursor") != "pointer":
        return False
    page.mouse.click(x, y)
    return True


_SHOWN = """
el => {
  const panel = el.closest('.ipt-topology-canvas');
  const r = (panel || el).getBoundingClientRect();
  const width = panel ? panel.clientWidth : r.width, height = panel ? panel.clientHeight : r.height;
  return {left: r.left, top: r.top, right: r.left + width, bottom: r.top + height};
}
"""
"""The part of the page where a canvas shows: its scrolling panel's, less its scroll bars."""


def png_pixels(png: bytes) -> Any:
    """A screenshot's pixels: rows of RGB triples from 0 to 1."""
    import matplotlib.image as mpimg

    return mpimg.imread(io.BytesIO(png), format="png")[..., :3]


# -- details -------------------------------------------------------------------------------


def find_in_details(page: Any, kind: str, name: str, *, timeout: float = STEP) -> None:
    """Open the Details tab, choose `kind` ("Channel"...), type `name` in the search box
    (upper case: the match ignores case) and wait for its details."""
    open_tab(page, "Details", timeout=timeout)
    page.locator(".ipt-explorer .ipt-detail .widget-toggle-button", has_text=kind).click()
    page.locator(".ipt-explorer .ipt-detail input").fill(name.upper())
    wait_text(page, DETAIL_TITLE, f"{kind} {name}", timeout=timeout)


def follow_link(page: Any, node: str, title: str, *, timeout: float = STEP) -> Any:
    """Click the details' link to graph node `node` and wait for the title `title`; return
    the link (a locator)."""
    link = page.locator(
        f".ipt-explorer .ipt-detail .ipt-detail-body a.ipt-link[data-node='{node}']"
    ).first
    link.click()
    wait_text(page, DETAIL_TITLE, title, timeout=timeout)
    return link


# -- facets --------------------------------------------------------------------------------


def option_labels(page: Any, field: str) -> list[str]:
    """The labels of a filter list's options (`field`: "agent-types", "channel-types"...)."""
    return list(page.locator(f".ipt-f-{field} select option").all_inner_texts())


def label_counts(labels: list[str]) -> list[int]:
    """The "(N)" counts that end each label ("Kafka (8)" -> 8); every label must have one."""
    found = [_COUNT.search(label.strip()) for label in labels]
    assert all(found), labels
    return [int(match.group(1).replace(",", "")) for match in found if match]


def wait_options_change(
    page: Any, field: str, before: list[str], *, timeout: float = STEP
) -> list[str]:
    """Wait until a filter list's option labels differ from `before`; return them."""
    page.wait_for_function(
        """([field, before]) => Array.from(document.querySelectorAll(`.ipt-f-${field} option`))
            .map(o => o.textContent).join('|') !== before""",
        arg=[field, "|".join(before)],
        timeout=timeout,
    )
    return option_labels(page, field)


def shot(element: Any, path: Path) -> Path:
    """A screenshot of `element` (a page or locator) at `path`; it never raises, so that it
    cannot hide the failure it documents."""
    try:
        element.screenshot(path=str(path))
    except Exception:
        pass
    return path
