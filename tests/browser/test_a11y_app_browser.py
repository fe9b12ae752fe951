"""The app everyone can use: `iptoolkit explore` (Voila) checked by axe-core and used by
keyboard alone, in Debian's Chromium.

The W3C Nu checker reads the pages the app serves as it sends them: the page of the
overview's address (its first view drawn on the server, then the cells Voila ran) and of a
filtered one, the page for a link without its token and the one past the session cap (Voila's
template wrote the page icon between </head> and <body>, a fatal error, an SVG with RDF
metadata, a `cell-index` attribute and a `</main>` never opened; the first view put a
<style> in <body>).

axe-core runs on the page as its scripts left it: the first view drawn on the server (its
drawn tabs were #949494 on #eeeeee, 2.61:1), then the live Explorer in its Topology,
Details, Table, Findings and Export tabs: no serious or critical violation (the four
filter lists had no name, a critical one; ipysigma's search box gave its item an ARIA
attribute its role does not allow; the tabs not shown were 4.45:1).

By keyboard alone (Tab, typing, arrows, Enter, Space; no click, no focus set by the test):
the topology's search finds "Finance", a group, first (ipysigma's search answered an
invisible port, and picking it drew an empty picture) and Enter opens it; the "up" button
goes back; a partner picked in the search shows its details beside the map (axe passes
there), whose button opens the Details tab; "Paths from here", another
item found in the details' search, "Paths to here" shows the paths in the Topology tab.
One app and one browser for the module.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

from ..ci import skip_or_fail
from .checkers import axe_violations, checkers_missing, nu_errors, said
from .lab import (
    LIVE_CANVAS,
    chromium,
    chromium_missing,
    launch_explore,
    printed_app_url,
    stop_explore,
    wait_listening,
    wait_logged,
)
from .steps import DETAIL_TITLE, STEP, find_in_details, open_tab, shot, wait_settled, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1600, "height": 1000}
FIRST_RENDER = 120_000  # ms: Voila starts a kernel per page, the machine is shared
PARTNER, OTHER = "Acme Beverages AG", "Maple Systems GmbH"  # one path between them


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`iptoolkit explore` on a 120-profile snapshot: the address it printed."""
    skip_or_fail(chromium_missing() or checkers_missing())
    folder = tmp_path_factory.mktemp("app")
    snapshot = folder / "estate.json"
    ipt.demo_estate(n_profiles=120, seed=3).save(snapshot)
    process, port, log = launch_explore(snapshot, folder, "--folder", str(folder / "exports"))
    try:
        wait_listening(process, port, log)
        wait_logged(log, "first view drawn", process)
        yield printed_app_url(log, port)
    finally:
        assert stop_explore(process, signal.SIGINT), "explore did not stop on Ctrl-C"


@pytest.fixture(scope="module")
def browser(app: str) -> Iterator[Any]:
    with chromium() as browser:
        yield browser


def _live(browser: Any, url: str) -> Any:
    """A page of the app, its live Explorer drawn; its script errors in `page.errors`."""
    page = browser.new_page(viewport=VIEWPORT)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url, timeout=FIRST_RENDER)
    page.locator(LIVE_CANVAS).first.wait_for(timeout=FIRST_RENDER)
    page.locator(".ipt-counts").wait_for(timeout=FIRST_RENDER)
    wait_settled(page)
    return page


def test_the_served_pages_pass_the_nu_checker(app: str, tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    from iptoolkit.app.server import busy_page, token_page

    pages = {"overview.html": app, "filtered.html": app + "&group=Finance"}
    for name, address in pages.items():
        with urllib.request.urlopen(address, timeout=FIRST_RENDER / 1000) as response:
            (tmp_path / name).write_bytes(response.read())  # the whole stream: cells run
    overview = (tmp_path / "overview.html").read_text()
    assert 'id="ipt-first-view"' in overview and "data-cell-index=" in overview
    with pytest.raises(urllib.error.HTTPError) as refused:  # no token: the app's own page
        urllib.request.urlopen(app.split("?", 1)[0], timeout=60)
    assert refused.value.code == 403
    (tmp_path / "no-token.html").write_bytes(refused.value.read())
    (tmp_path / "busy.html").write_text(busy_page(4))
    assert token_page() in (tmp_path / "no-token.html").read_text()
    files = [tmp_path / name for name in (*pages, "no-token.html", "busy.html")]
    assert nu_errors(files) == []


def test_the_first_view_passes_axe(browser: Any, app: str, tmp_path: Path) -> None:
    page = browser.new_page(viewport=VIEWPORT)
    # no script loads: the page stays at what its HTML draws, the first view
    page.route(
        "**/*", lambda r: r.abort() if r.request.resource_type == "script" else r.continue_()
    )
    try:
        page.goto(app, timeout=FIRST_RENDER)
        page.locator("#ipt-first-view svg:visible").wait_for(state="visible", timeout=STEP)
        shot(page, tmp_path / "first-view.png")
        found = axe_violations(page, within="#ipt-first-view")
        assert found == [], said(found)
    finally:
        page.close()


def test_the_live_app_passes_axe_in_every_tab(browser: Any, app: str, tmp_path: Path) -> None:
    page = _live(browser, app)
    try:
        found = {"Topology": axe_violations(page)}
        shot(page, tmp_path / "live.png")
        find_in_details(page, "Partner", PARTNER)
        found["Details"] = axe_violations(page)
        shot(page, tmp_path / "details.png")
        for tab in ("Table", "Findings", "Export"):
            open_tab(page, tab)
            page.wait_for_timeout(500)
            found[tab] = axe_violations(page)
            shot(page, tmp_path / f"{tab.lower()}.png")
        blocking = {tab: said(v) for tab, v in found.items() if v}
        assert not blocking, "\n".join(f"{tab}:\n{text}" for tab, text in blocking.items())
        assert page.errors == []
    finally:
        page.close()


def _tab_to(page: Any, selector: str, *, limit: int = 120, back: bool = False) -> None:
    """Press Tab (Shift+Tab with `back`) until the focused element matches `selector`."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector!r}")


def _tab_key(page: Any, title: str) -> None:
    """Bring the Explorer's tab `title` to the front by keyboard: Tab to the tab bar, the
    arrows to the tab, Enter."""
    _tab_to(page, ".ipt-explorer .lm-TabBar-tab")
    for _ in range(8):
        if page.evaluate("() => document.activeElement.textContent.trim()") == title:
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current", has_text=title).wait_for(
        timeout=STEP
    )


def test_the_app_opens_a_group_details_and_paths_by_keyboard(
    browser: Any, app: str, tmp_path: Path
) -> None:
    page = _live(browser, app)
    try:
        search = ".ipt-topology .ipt-node-search-input"
        here = ".ipt-topology .ipt-crumb-here"
        # the topology's search: "Finance" is the group, first; Enter opens it
        _tab_to(page, search)
        page.keyboard.type("Finance")
        answers = page.locator(".ipt-node-result")
        answers.first.wait_for(timeout=STEP)
        texts = answers.all_inner_texts()
        assert texts[0].startswith("Finance (34") and "group of 34 profiles" in texts[0], texts
        assert not any("\u2192" in text for text in texts), texts  # no port answers
        page.keyboard.press("Enter")
        wait_text(page, here, "Finance")
        shot(page, tmp_path / "keyboard-group.png")
        assert page.evaluate("s => document.activeElement.matches(s)", search)
        # back up to the overview by the "up" button
        _tab_to(page, ".ipt-topology-back", back=True)
        page.keyboard.press("Enter")
        page.locator(here).wait_for(state="detached", timeout=STEP)
        # a partner picked in the search: its details
        _tab_to(page, search)
        page.keyboard.type(PARTNER[:9])
        answers.first.wait_for(timeout=STEP)
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.className") == "ipt-node-result"
        page.keyboard.press("Enter")
        wait_text(page, DETAIL_TITLE, f"Partner {PARTNER}")
        # its details beside the map, the Topology tab in front; their links and the button
        # to the Details tab are reached by Tab
        page.locator(".ipt-beside .ipt-detail-body").first.wait_for(timeout=STEP)
        _tab_to(page, ".ipt-beside .ipt-beside-more")
        found = axe_violations(page)
        assert found == [], said(found)
        page.keyboard.press("Enter")
        page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current", has_text="Details").wait_for(
            timeout=STEP
        )
        # paths: from it, to another partner found by the details' search
        _tab_to(page, ".ipt-detail .ipt-paths-from")
        page.keyboard.press("Enter")
        _tab_to(page, ".ipt-detail input", back=True)
        page.keyboard.press("Control+a")
        page.keyboard.type(OTHER.upper())
        wait_text(page, DETAIL_TITLE, f"Partner {OTHER}")
        _tab_to(page, ".ipt-detail .ipt-paths-to")
        page.keyboard.press("Space")
        page.locator(".ipt-explorer .lm-TabBar-tab.lm-mod-current", has_text="Topology").wait_for(
            timeout=STEP
        )
        wait_text(page, here, f"paths: {PARTNER} \u2192 {OTHER}")
        shot(page, tmp_path / "keyboard-paths.png")
        # and the tabs answer the keyboard: Details again
        _tab_key(page, "Details")
        assert page.errors == []
    except Exception:
        shot(page, tmp_path / "keyboard-failure.png")
        raise
    finally:
        page.close()
