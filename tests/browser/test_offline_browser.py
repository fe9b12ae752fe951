"""The offline topology in Chromium with every request refused but the file's own (or the
served site's): the HTML file draws, names its counts, answers a search, drills into a
group and back and shows details; hostile names run no script; the docs site's partner
page, served from a folder, draws its view over its SVG. No console error anywhere.

Positions on the canvas come from the page's own view (`IptTopology.views`): the script
keeps what it drew, so a test clicks where a node is drawn."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

from ..hostile_estate import SCRIPT, hostile_estate
from .lab import chromium_missing, free_port, launch_chromium

pytestmark = pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing()))
pytest.importorskip("playwright")

# where a node is drawn, in page coordinates: the first node in sight whose label holds `text`
_WHERE = """([text, kind]) => {
  const v = IptTopology.views[0], level = v.level();
  v.canvas.scrollIntoView({block: "center", behavior: "instant"});
  const seen = n => { const p = v.screen(n[0], n[1]); return p[1] > 10 && p[1] < v.height - 10; };
  const i = level.nodes.findIndex(
    n => v.S(n[6]).includes(text) && (kind < 0 || n[8] === kind) && seen(n));
  if (i < 0) return null;
  const p = v.screen(level.nodes[i][0], level.nodes[i][1]);
  const box = v.canvas.getBoundingClientRect();
  return [box.left + p[0], box.top + p[1]];
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


class Watched:
    """A page whose requests outside `allowed` are refused (and kept), with its script
    errors, console errors and dialogs."""

    def __init__(self, browser: Any, allowed: str) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

        def dialog(d: Any) -> None:
            self.dialogs.append(d.message)
            d.dismiss()

        self.page.on("dialog", dialog)

        def route(request_route: Any) -> None:
            url = request_route.request.url
            if url.startswith(allowed):
                request_route.continue_()
            else:
                self.refused.append(url)
                request_route.abort()

        self.page.route("**/*", route)

    def click_node(self, text: str, kind: int = -1) -> None:
        at = self.page.evaluate(_WHERE, [text, kind])
        assert at is not None, f"no node labelled {text!r} drawn"
        self.page.mouse.click(*at)

    def clean(self) -> None:
        assert not self.errors, self.errors
        assert not self.dialogs, self.dialogs


def test_the_html_file_explores_offline(browser: Any, tmp_path: Path) -> None:
    path = ipt.export(ipt.demo_estate(300), tmp_path / "topology.html")
    watched = Watched(browser, "file://")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    assert page.inner_text(".ipt-counts").startswith("300 of 300 profiles, 25 partners")
    status = page.inner_text(".ipt-status")
    assert "items, grouped by group" in status
    assert page.evaluate("IptTopology.views[0].level().nodes.length") > 20
    # drill into a group, then back through the breadcrumb
    watched.click_node("Finance", 0)
    page.wait_for_selector(".ipt-here:text('Finance')")
    assert page.inner_text(".ipt-status").startswith("Finance: ")
    page.click(".ipt-crumb:text('Overview')")
    page.wait_for_selector(".ipt-here:text('Overview')")
    assert not page.is_enabled(".ipt-back")
    # a search finds a partner: its level is opened and its details shown
    page.fill(".ipt-search", "fjord freight")
    page.wait_for_selector(".ipt-result")
    page.click(".ipt-result")
    assert page.inner_text(".ipt-detail-name") == "Fjord Freight AG"
    details = page.inner_text(".ipt-details")
    assert "Where used" in details and "Impact if it goes away" in details
    # a linked item opens its details, and Back returns
    page.click(".ipt-details .ipt-link >> nth=0")
    assert page.inner_text(".ipt-detail-name") != "Fjord Freight AG"
    page.click(".ipt-detail-back")
    assert page.inner_text(".ipt-detail-name") == "Fjord Freight AG"
    # from the overview, drilled to the bottom: a profile's details
    if page.locator(".ipt-crumb:text('Overview')").count():
        page.click(".ipt-crumb:text('Overview')")
    page.click(".ipt-fit")  # the search centred the partner: the whole level again
    for _ in range(6):
        if page.evaluate("IptTopology.views[0].level().by") is None:
            break
        watched.click_node("", 0)
    watched.click_node("", 0)
    assert page.inner_text(".ipt-detail-id").startswith("profile \u00b7 profile:")
    assert "Input agent settings" in page.inner_text(".ipt-details")
    page.screenshot(path=str(tmp_path / "drilled.png"))
    assert watched.refused == []
    watched.clean()
    page.close()


def test_hostile_names_run_no_script(browser: Any, tmp_path: Path) -> None:
    path = ipt.export(hostile_estate(), tmp_path / "hostile.html", group_by=False)
    watched = Watched(browser, "file://")
    page = watched.page
    page.add_init_script("window.__ran = []; window.alert = (m) => window.__ran.push(m);")
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    page.fill(".ipt-search", "<img")
    page.wait_for_selector(".ipt-result")
    assert SCRIPT.strip() in page.inner_text(".ipt-results")  # shown as text
    page.click(".ipt-result >> nth=0")
    assert SCRIPT.strip() in page.inner_text(".ipt-details")
    page.fill(".ipt-search", "</script>")
    page.wait_for_selector(".ipt-result")
    page.click(".ipt-result >> nth=0")
    assert page.evaluate("document.querySelectorAll('img, iframe').length") == 0
    assert page.evaluate("window.__ran") == []
    assert watched.refused == []
    watched.clean()
    page.close()


@pytest.fixture(scope="module")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The hostile estate's docs site, built by MkDocs and served from its folder on a
    free loopback port (stopped after)."""
    folder = tmp_path_factory.mktemp("site")
    ipt.write_docs(hostile_estate(), folder / "src", workers=1)
    built = folder / "built"
    mkdocs = Path(sys.executable).with_name("mkdocs")
    subprocess.run(
        [str(mkdocs), "build", "--strict", "-f", str(folder / "src" / "mkdocs.yml")]
        + ["-d", str(built)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(built))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    handler.func.log_message = lambda *args: None  # type: ignore[attr-defined, method-assign]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_a_docs_partner_page_draws_its_view(browser: Any, served_site: str) -> None:
    watched = Watched(browser, served_site)
    page = watched.page
    page.add_init_script("window.__ran = []; window.alert = (m) => window.__ran.push(m);")
    page.goto(served_site + "partners/partner-x/")
    page.wait_for_selector(".ipt-view-live canvas")
    svg = page.locator(".ipt-view img")
    assert svg.count() == 1 and not svg.is_visible()  # the picture stays, for print
    assert "items, node by node" in page.inner_text(".ipt-view-live .ipt-status")
    watched.click_node("Partner X", 4)
    assert page.inner_text(".ipt-view-live .ipt-detail-name") == "Partner X"
    page.goto(served_site + "partners/" + _hostile_page(page, served_site))
    page.wait_for_selector(".ipt-view-live canvas")
    watched.click_node("img src", 4)
    assert SCRIPT.strip() in page.inner_text(".ipt-view-live .ipt-details")
    assert page.evaluate("window.__ran") == []
    assert watched.refused == []
    watched.clean()
    page.close()


def _hostile_page(page: Any, site: str) -> str:
    """The folder of the partner page named for the script name (from the nav)."""
    page.goto(site)
    href = page.evaluate(
        "[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))"
        ".find(h => h && h.includes('partners/img'))"
    )
    assert href, "no page for the hostile partner"
    return href.split("partners/", 1)[1]
