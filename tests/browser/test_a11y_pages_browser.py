"""Pages everyone can use, without a kernel: the HTML file (`ipt.export(estate, "x.html")`)
and the docs site, checked by tools nobody here wrote and used by keyboard alone.

axe-core runs in Chromium on each page as its scripts left it (the HTML file's view is
drawn by its script; the docs pages' views too): no serious or critical violation, and the
HTML file has its main landmark. The W3C Nu checker reads the files themselves: the export,
and the built site's overview, a partner page and a group page (the theme's search and
keyboard dialogs once skipped heading levels on every page; its first page had a "previous"
link with no address). The docs theme's link colour reaches 4.5:1 on its backgrounds.

By keyboard alone (Tab, typing, arrows, Enter, Backspace; no click, no focus set by the
test) a reader of the HTML file opens a group from the map and from the search, an item's
details, and the paths between two items. One browser and one docs build for the module.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

from ..ci import skip_or_fail
from .checkers import axe_violations, checkers_missing, nu_errors, said
from .lab import chromium, chromium_missing, serving

pytestmark = pytest.mark.browser

PROFILES = 300
PARTNER = "Fjord Freight AG"
OTHER = "Mosel Retail"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    skip_or_fail(chromium_missing() or checkers_missing())
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.demo_estate(PROFILES)


@pytest.fixture(scope="module")
def html_file(estate: ipt.Estate, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ipt.export(estate, tmp_path_factory.mktemp("html") / "topology.html")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page whose script errors are kept: a test ends asserting there were none."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    try:
        yield page
    finally:
        page.close()


# -- the HTML file ---------------------------------------------------------------------


def test_the_html_file_passes_axe_and_the_nu_checker(
    page: Any, html_file: Path, tmp_path: Path
) -> None:
    page.goto(html_file.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    assert axe_violations(page) == [], said(axe_violations(page))
    # a reader's assistive technology jumps to the main content: there is one
    landmarks = axe_violations(page, rules=["landmark-one-main", "region"])
    assert landmarks == [], said(landmarks)
    assert page.locator("main").count() == 1
    # a group opened and an item's details shown: still nothing blocking
    page.fill(".ipt-search", PARTNER.lower())
    page.keyboard.press("Enter")
    page.wait_for_selector(f".ipt-detail-name:text-is('{PARTNER}')")
    assert axe_violations(page) == [], said(axe_violations(page))
    page.screenshot(path=str(tmp_path / "html-details.png"))
    assert nu_errors([html_file]) == []
    assert page.errors == []


def _tab_to(page: Any, selector: str, *, limit: int = 80, back: bool = False) -> None:
    """Press Tab (Shift+Tab with `back`) until the focused element matches `selector`."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector!r}")


def _focused(page: Any) -> str:
    return str(
        page.evaluate("document.activeElement?.className || document.activeElement?.tagName")
    )


def test_the_html_file_opens_groups_details_and_paths_by_keyboard(
    page: Any, html_file: Path, tmp_path: Path
) -> None:
    page.goto(html_file.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    view = "IptTopology.views[0]"
    # the map: Tab to it, arrows move between its nodes, Enter opens the group focused
    _tab_to(page, ".ipt-canvas canvas")
    page.keyboard.press("ArrowDown")
    keyed = page.evaluate(f"{view}.keyed")
    assert keyed >= 0, "an arrow focused no node"
    node = f"{view}.level().nodes[{view}.keyed]"
    name = page.evaluate(f"{view}.S({node}[7]) || {view}.S({node}[6])")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(f"{view}.keyed") != keyed  # the next node below
    page.keyboard.press("ArrowUp")
    assert page.evaluate(f"{view}.keyed") == keyed
    status = page.inner_text(".ipt-status")
    assert name in status and "Enter opens the group" in status, status
    page.keyboard.press("Enter")
    assert page.evaluate(f"{view}.trail.length") == 2, "Enter opened no group"
    here = page.inner_text(".ipt-here")
    page.screenshot(path=str(tmp_path / "keyboard-group.png"))
    page.keyboard.press("Backspace")
    assert page.evaluate(f"{view}.trail.length") == 1
    # the search lists groups: "Finance" first of all, and Enter opens it
    _tab_to(page, ".ipt-search", back=True)
    page.keyboard.type("finance")
    first_answer = page.locator(".ipt-result").first
    assert first_answer.inner_text().startswith("Finance (group"), first_answer.inner_text()
    page.keyboard.press("Enter")
    page.wait_for_selector(".ipt-here:text-is('Finance')")
    assert here  # (the group the map opened had a title too)
    # an item's details: typed, then picked from the answers with the arrows
    _tab_to(page, ".ipt-search", back=True)
    page.keyboard.press("Control+a")
    page.keyboard.type("fjord")
    page.keyboard.press("ArrowDown")
    assert "ipt-result" in _focused(page)
    page.keyboard.press("Enter")
    assert page.inner_text(".ipt-detail-name") == PARTNER
    # the paths from it to another item, by the details' buttons
    _tab_to(page, ".ipt-paths-from")
    page.keyboard.press("Enter")
    _tab_to(page, ".ipt-search", back=True)
    page.keyboard.press("Control+a")
    page.keyboard.type(OTHER.lower())
    page.keyboard.press("Enter")
    assert page.inner_text(".ipt-detail-name") == OTHER
    _tab_to(page, ".ipt-paths-to")
    page.keyboard.press("Space")
    page.wait_for_selector(".ipt-path-list")
    assert page.locator(".ipt-path-list > li").count() > 0
    assert page.evaluate(f"{view}.faded().length") > 0
    page.screenshot(path=str(tmp_path / "keyboard-paths.png"))
    assert page.errors == []


# -- the docs site -----------------------------------------------------------------------


# -- the HTML file's details pane and the keyboard's tip ----------------------------------
#
# An item the audit warns about lists its findings with a badge per severity: its words
# were in the ring's colour, amber on white at 2.4:1 (WCAG 1.4.3). A list of links whose
# names wrap put each bullet beside the last line of a name, not the first. Under 1,100
# px the details stack under the map, and an item opened there opened out of sight. The
# keyboard's tip stood below its node, over the label of the node ArrowDown goes to.


@pytest.fixture
def drawn(page: Any, html_file: Path) -> Any:
    """The HTML file at 1,280 px (the details beside the map), drawn; any request but the
    file's refused."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.route(
        "**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort()
    )
    page.goto(html_file.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    return page


def _show(page: Any, item_id: str) -> None:
    """Show an item's details, as a search answer or a click on the map does."""
    index = page.evaluate(
        "id => IptTopology.views[0].data.items.findIndex(r => r[0] === id)", item_id
    )
    assert index >= 0, item_id
    page.evaluate("n => IptTopology.views[0].open(n, true)", index)
    page.wait_for_selector(".ipt-detail-name")


def test_a_warning_badge_is_readable(drawn: Any, estate: ipt.Estate) -> None:
    warned = sorted(
        node
        for finding in ipt.findings(estate)
        if finding.severity == "warning"
        for node in finding.nodes
        if str(node).startswith(("profile:", "partner:", "channel:"))
    )
    assert warned, "the demo estate has no warning on an item"
    _show(drawn, warned[0])
    assert drawn.locator(".ipt-findings .ipt-sev").count() > 0
    contrast = axe_violations(drawn, rules=["color-contrast"], within=".ipt-details")
    assert contrast == [], said(contrast)
    assert drawn.errors == []


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


def test_a_wrapped_link_has_its_bullet_on_its_first_line(drawn: Any, estate: ipt.Estate) -> None:
    graph = ipt.build_graph(estate)
    partners = sorted(n for n, data in graph.nodes(data=True) if data.get("kind") == "partner")
    for partner in partners:  # the first whose "Where used" has a name that wraps
        _show(drawn, partner)
        lines = drawn.evaluate(_BULLET_LINES)
        if lines:
            break
    assert lines, "no wrapped name in any partner's lists"
    assert all(line < 0.9 for line in lines), lines  # beside the first line
    assert drawn.errors == []


_IN_SIGHT = """() => {
  const box = document.querySelector('.ipt-detail-name').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


@pytest.mark.parametrize("width", [1000, 1280])
def test_an_item_opened_from_the_search_is_in_sight(drawn: Any, width: int) -> None:
    """Under 1,100 px the details sit under the map: opening an item scrolls them into
    sight (it used to open below the window, as if nothing happened); beside the map
    nothing moves."""
    drawn.set_viewport_size({"width": width, "height": 800})
    name = drawn.evaluate("IptTopology.views[0].data.items.find(r => r[1] === 'partner')[2]")
    drawn.fill(".ipt-search", name)
    drawn.locator(".ipt-result").first.click()
    drawn.wait_for_selector(".ipt-detail-name")
    assert drawn.evaluate(_IN_SIGHT)
    stacked = drawn.evaluate("document.querySelector('.ipt-details').offsetTop > 400")
    assert stacked == (width < 1100)
    assert (drawn.evaluate("window.scrollY") > 0) == stacked
    drawn.click(".ipt-show")  # and back to the map, which shows where the item is
    top = drawn.evaluate("document.querySelector('.ipt-canvas canvas').getBoundingClientRect().top")
    assert 0 <= top < 400
    assert drawn.evaluate("document.activeElement.matches('.ipt-canvas canvas')")
    assert drawn.errors == []


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


def test_the_keyboards_tip_leaves_the_next_node_in_sight(drawn: Any) -> None:
    """Arrowing down the map, the tip named the node under the ring where the next node's
    label is: it stands on the ring's row, after its label (in the last column, over the
    label it says again)."""
    drawn.focus(".ipt-canvas canvas")
    for keys in (["Home", "ArrowDown"], ["ArrowRight"] * 4):  # the first column, the last
        for key in keys:
            drawn.keyboard.press(key)
        where = drawn.evaluate(_TIP_AND_NEXT)
        assert where["row"] < 6, where
        assert not where["covers"], where
    assert drawn.errors == []


@pytest.fixture(scope="module")
def built_site(estate: ipt.Estate, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The estate's docs site, built by MkDocs (strict)."""
    folder = tmp_path_factory.mktemp("site")
    ipt.write_docs(estate, folder / "src", workers=1)
    built = folder / "built"
    mkdocs = Path(sys.executable).with_name("mkdocs")
    subprocess.run(
        [str(mkdocs), "build", "--strict", "-q", "-f", str(folder / "src" / "mkdocs.yml")]
        + ["-d", str(built)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return built


@pytest.fixture(scope="module")
def served(built_site: Path) -> Iterator[str]:
    with serving(built_site) as address:
        yield address


def _docs_pages(built: Path) -> list[str]:
    """The overview, a partner's page and a group's page (with subgroups), as addresses."""
    partner = sorted(p.name for p in (built / "partners").iterdir() if p.is_dir())[0]
    return ["", f"partners/{partner}/", "groups/finance/"]


def test_the_docs_pages_pass_axe_and_the_nu_checker(
    page: Any, built_site: Path, served: str, tmp_path: Path
) -> None:
    pages = _docs_pages(built_site)
    for address in pages:
        page.goto(served + address)
        page.wait_for_selector(".ipt-view-live canvas")
        found = axe_violations(page)
        assert found == [], f"{address or 'overview'}:\n{said(found)}"
        # the theme's link colour, wherever a link stands (the navigation too): 4.5:1
        contrast = axe_violations(page, rules=["color-contrast"])
        assert contrast == [], f"{address or 'overview'}:\n{said(contrast)}"
        page.screenshot(path=str(tmp_path / f"docs-{address.count('/')}.png"))
    # the search dialog, opened: its heading and field named, its colours readable
    page.keyboard.press("s")
    page.wait_for_selector("#mkdocs_search_modal.show #mkdocs-search-query")
    page.keyboard.type("finance")
    page.wait_for_selector("#mkdocs-search-results a")
    found = axe_violations(page, within="#mkdocs_search_modal")
    assert found == [], said(found)
    page.screenshot(path=str(tmp_path / "docs-search.png"))
    assert nu_errors([built_site / a / "index.html" for a in pages]) == []
    assert page.errors == []


def test_a_long_name_without_spaces_wraps_instead_of_widening_the_page(
    page: Any, tmp_path: Path
) -> None:
    """A partner or group named by one long word (`Meridian_Electronics_Procurement_...`)
    wraps in the page's heading, trail and contents: at 1,280 px the page does not scroll
    sideways (it did, to 5,500 px: headings and the sidebar kept the word on one line)."""
    from ..factories import agent, channel, partner, profile
    from ..test_docsite import built_site

    long = "Meridian_Electronics_Procurement_Gateway_" * 5
    raw = [
        profile(
            "L1",
            name="Long",
            group=f"Top/{long}",
            agent=agent("SFTP", channels=[channel(5, partner=partner(7, long))]),
        )
    ]
    folder = tmp_path / "site"
    ipt.write_docs(ipt.Estate.from_raw(raw), folder, workers=1)
    built = tmp_path / "built"
    built_site(folder, built, strict=False).check_returncode()
    pages = sorted((built / "partners").glob("*/index.html"))
    pages += sorted((built / "groups").glob("top-*/index.html"))
    assert len(pages) == 2
    page.set_viewport_size({"width": 1280, "height": 800})
    for path in pages:
        page.goto(path.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280, path
    # (read from disk, the theme's search cannot start its worker: no errors asserted)
