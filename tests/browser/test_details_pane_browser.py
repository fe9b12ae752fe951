"""The HTML file's details pane as a reader sees it (`ipt.export(estate, "x.html")`).

An item the audit warns about lists its findings with a badge per severity: the badge's
words were written in the ring's colour, amber on white at 2.4:1, which axe-core calls a
serious contrast failure (WCAG 1.4.3). A list of links whose names wrap ("Where used")
put each bullet beside the last line of its name, not the first: a button's baseline is
its last line's, and the bullet sits on it, so a wrapped name's tail read as an entry of
its own. One browser for the module; every request but the file's refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

from ..ci import skip_or_fail
from .checkers import axe_violations, checkers_missing, said
from .lab import chromium, chromium_missing

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    skip_or_fail(chromium_missing() or checkers_missing())
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.demo_estate(300)


@pytest.fixture
def page(browser: Any, estate: ipt.Estate, tmp_path: Path) -> Iterator[Any]:
    """The estate's HTML file at 1,280 px (the details beside the map), drawn."""
    path = ipt.export(estate, tmp_path / "topology.html")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.route(
        "**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort()
    )
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".ipt-canvas canvas")
        yield page
    finally:
        page.close()


def _show(page: Any, item_id: str) -> None:
    """Show an item's details, as a search answer or a click on the map does."""
    index = page.evaluate(
        "id => IptTopology.views[0].data.items.findIndex(r => r[0] === id)", item_id
    )
    assert index >= 0, item_id
    page.evaluate("n => IptTopology.views[0].open(n, true)", index)
    page.wait_for_selector(".ipt-detail-name")


def test_a_warning_badge_is_readable(page: Any, estate: ipt.Estate) -> None:
    warned = sorted(
        node
        for finding in ipt.findings(estate)
        if finding.severity == "warning"
        for node in finding.nodes
        if str(node).startswith(("profile:", "partner:", "channel:"))
    )
    assert warned, "the demo estate has no warning on an item"
    _show(page, warned[0])
    assert page.locator(".ipt-findings .ipt-sev").count() > 0
    contrast = axe_violations(page, rules=["color-contrast"], within=".ipt-details")
    assert contrast == [], said(contrast)
    assert page.errors == []


# for each entry of the details' lists that is one wrapped link: how far below the
# link's top its bullet's line is, in lines (a text node put before the link sits on the
# line the bullet sits on; it is taken out again)
_BULLET_LINES = """() => [...document.querySelectorAll('.ipt-details li')]
  .filter(li => li.children.length === 1 && li.firstElementChild.matches('button.ipt-link'))
  .map(li => {
    const link = li.firstElementChild, box = link.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(link).lineHeight) || 18;
    if (box.height < 1.6 * line) return null;  // on one line: nothing to see
    const probe = document.createTextNode('\\u200b'), range = document.createRange();
    li.insertBefore(probe, link);
    range.selectNodeContents(probe);
    const at = range.getBoundingClientRect();
    probe.remove();
    return (at.top - box.top) / line;
  }).filter(x => x !== null)"""


def test_a_wrapped_link_has_its_bullet_on_its_first_line(page: Any, estate: ipt.Estate) -> None:
    graph = ipt.build_graph(estate)
    partners = sorted(n for n, data in graph.nodes(data=True) if data.get("kind") == "partner")
    for partner in partners:  # the first whose "Where used" has a name that wraps
        _show(page, partner)
        lines = page.evaluate(_BULLET_LINES)
        if lines:
            break
    assert lines, "no wrapped name in any partner's lists"
    assert all(line < 0.9 for line in lines), lines  # beside the first line
    assert page.errors == []


_IN_SIGHT = """() => {
  const box = document.querySelector('.ipt-detail-name').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


@pytest.mark.parametrize("width", [1000, 1280])
def test_an_item_opened_from_the_search_is_in_sight(page: Any, width: int) -> None:
    """Under 1,100 px the details sit under the map: opening an item scrolls them into
    sight (it used to open below the window, as if nothing happened); beside the map
    nothing moves."""
    page.set_viewport_size({"width": width, "height": 800})
    name = page.evaluate("IptTopology.views[0].data.items.find(r => r[1] === 'partner')[2]")
    page.fill(".ipt-search", name)
    page.locator(".ipt-result").first.click()
    page.wait_for_selector(".ipt-detail-name")
    assert page.evaluate(_IN_SIGHT)
    stacked = page.evaluate("document.querySelector('.ipt-details').offsetTop > 400")
    assert stacked == (width < 1100)
    assert (page.evaluate("window.scrollY") > 0) == stacked
    page.click(".ipt-show")  # and back to the map, which shows where the item is
    top = page.evaluate("document.querySelector('.ipt-canvas canvas').getBoundingClientRect().top")
    assert 0 <= top < 400
    assert page.evaluate("document.activeElement.matches('.ipt-canvas canvas')")
    assert page.errors == []


# where the tip stands against the keyboard's node and the node ArrowDown goes to next
_TIP_AND_NEXT = """() => {
  const view = IptTopology.views[0], level = view.level(), nodes = level.nodes;
  const box = view.canvas.getBoundingClientRect(), tip = view.tip.getBoundingClientRect();
  const at = view.screen(nodes[view.keyed][0], nodes[view.keyed][1]);
  const next = view.screen(...nodes[view.nextNode([0, 1])].slice(0, 2));
  const r = Math.max(view.radius(nodes[view.nextNode([0, 1])][2]), 4);
  const label = [box.left + next[0] + r + 3, box.top + next[1]];  // where its label starts
  return {
    row: Math.abs(tip.top + tip.height / 2 - (box.top + at[1])),
    covers: tip.left <= label[0] + 30 && label[0] <= tip.right
      && tip.top <= label[1] && label[1] <= tip.bottom,
  };
}"""


def test_the_keyboards_tip_leaves_the_next_node_in_sight(page: Any) -> None:
    """Arrowing down the map, the tip named the node under the ring where the next node's
    label is: it stands on the ring's row, after its label (in the last column, over the
    label it says again)."""
    page.focus(".ipt-canvas canvas")
    for keys in (["Home", "ArrowDown"], ["ArrowRight"] * 4):  # the first column, the last
        for key in keys:
            page.keyboard.press(key)
        where = page.evaluate(_TIP_AND_NEXT)
        assert where["row"] < 6, where
        assert not where["covers"], where
    assert page.errors == []
