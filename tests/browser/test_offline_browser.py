"""The offline topology in Chromium with every request refused but the file's own (or the
served site's): the HTML file draws, names its counts, answers a search, drills into a
group and back and shows details; hostile names run no script; the docs site's partner
page, served from a folder, draws its view over its SVG. No console error anywhere.

Positions on the canvas come from the page's own view (`IptTopology.views`): the script
keeps what it drew, so a test clicks where a node is drawn."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

from ..hostile_estate import SCRIPT, SECRETS, hostile_changed, hostile_estate
from .lab import chromium, chromium_missing, serving
from .labels import Box, Frame, kept_characters, problems, whole_of

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
    with chromium() as browser:
        yield browser


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

    def trap_scripts(self) -> None:
        """From the next page on, a script a name smuggled in that calls `alert` is kept in
        `window.__ran` (`ran()`), not shown."""
        self.page.add_init_script("window.__ran = []; window.alert = (m) => window.__ran.push(m);")

    def ran(self) -> list[Any]:
        """What `trap_scripts` caught (nothing, if no name ran)."""
        return list(self.page.evaluate("window.__ran"))

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


# every label the view's canvas draws, from its last clear on: text, x, y, width
_RECORD = """() => {
  const v = IptTopology.views[0], ctx = v.canvas.getContext("2d");
  const fill = ctx.fillText, clear = ctx.clearRect;
  window.__drawn = [];
  ctx.fillText = function (text, x, y) {
    window.__drawn.push([String(text), x, y, this.measureText(text).width]);
    return fill.apply(this, arguments);
  };
  ctx.clearRect = function () { window.__drawn = []; return clear.apply(this, arguments); };
  v.draw();
}"""
# the level's labels uncut: what a label cut for the canvas was cut from, else the label
_WHOLE = """() => {
  const v = IptTopology.views[0], level = v.level(), whole = level.nodes.map(n => v.S(n[6]));
  (level.uncut || []).forEach(entry => { whole[entry[0]] = v.S(entry[1]); });
  return whole.filter(Boolean);
}"""


def test_zoomed_in_labels_show_more_of_their_names(browser: Any, tmp_path: Path) -> None:
    """Issue 42: labels cut for the unzoomed view grow as one zooms in (the type keeps
    its size while the columns move apart), keep their counts whole and never overlap."""
    demo = ipt.demo_estate(300)  # groups named long: the file's canvas cuts some labels
    raw = [
        dict(p, group=f"Department of {p['group']}") if p.get("group") else p
        for p in demo.raw_profiles
    ]
    path = ipt.export(ipt.Estate.from_raw(raw), tmp_path / "topology.html")
    watched = Watched(browser, "file://")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    page.evaluate(_RECORD)
    whole = page.evaluate(_WHOLE)
    drawn: list[dict[str, str]] = []
    for factor in (1.0, 1.25, 1.6):  # zoomed in by 1, 1.25 and 2 in turn
        page.evaluate(f"() => IptTopology.views[0].zoomBy({factor})")
        texts = [label[0] for label in page.evaluate("window.__drawn")]
        kept = kept_characters(texts, whole)
        assert not kept.wrong, kept.wrong  # each a cut of a label, its count whole
        boxes = [
            Box(text, x, y - 9.6, x + width, y + 2.4, 12.0)
            for text, x, y, width in page.evaluate("window.__drawn")
        ]
        assert problems(Frame(1e6, 1e6, 0, 0, boxes)).overlaps == []
        drawn.append({whole_of(text, whole) or text: text for text in texts})
        page.screenshot(path=str(tmp_path / f"zoomed-{len(drawn)}.png"))
    start = {label: text for label, text in drawn[0].items() if "\u2026" in text}
    assert len(start) >= 3, "too few labels cut at the start to see them grow"
    for before, after in zip(drawn, drawn[1:], strict=False):
        both = [label for label in start if label in before and label in after]
        assert both, "no cut label left in sight"
        shown = [(_chars(before[label]), _chars(after[label])) for label in both]
        assert all(b <= a for b, a in shown), shown  # never less of a name
        assert sum(a for _, a in shown) > sum(b for b, _ in shown), shown  # more, zoomed in
    assert all(drawn[-1][label] == label for label in start if label in drawn[-1])  # whole
    assert watched.refused == []
    watched.clean()
    page.close()


# where the level's nodes are drawn on the canvas (not its ports), and the picked one
_PLACES = """() => {
  const v = IptTopology.views[0], level = v.level();
  const drawn = level.nodes.filter(n => n[8] !== 5), picked = level.nodes[v.picked];
  return {width: v.width, height: v.height, at: drawn.map(n => v.screen(n[0], n[1])),
          pickedAt: picked ? v.screen(picked[0], picked[1]) : null};
}"""


def test_the_drawing_uses_its_canvas_and_a_search_keeps_its_level_in_view(
    browser: Any, tmp_path: Path
) -> None:
    """Issue 42: on a wide window the overview's columns move apart to use the canvas (the
    drawing filled 40% of a 1,920 px one) and its names are drawn whole; a search result is
    shown with its whole level on the canvas (it was centred, half its level off it)."""
    estate = ipt.demo_estate(300)
    path = ipt.export(estate, tmp_path / "topology.html")
    graph = ipt.build_graph(estate)
    kinds = {node: str(data.get("kind")) for node, data in graph.nodes(data=True)}
    partner, profile = (
        max(n for n, kind in kinds.items() if kind == wanted) for wanted in ("partner", "profile")
    )
    watched = Watched(browser, "file://")
    page = watched.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    page.evaluate(_RECORD)
    drawn = page.evaluate("window.__drawn")
    places = page.evaluate(_PLACES)
    xs = [x for x, _ in places["at"]]
    right = max(x + width for _, x, _, width in drawn)
    assert (right - min(xs)) / places["width"] > 0.75, (min(xs), right, places["width"])
    assert right <= places["width"]
    assert not [text for text, *_ in drawn if "\u2026" in text]  # room for every name
    for name in (partner, profile):  # in the rightmost column, the leftmost
        _open(page, name)
        places = page.evaluate(_PLACES)
        assert places["pickedAt"] is not None, name
        outside = [
            (x, y)
            for x, y in places["at"]
            if not (0 <= x <= places["width"] and 0 <= y <= places["height"])
        ]
        assert outside == [], (name, outside)
        page.click(".ipt-fit")
    page.screenshot(path=str(tmp_path / "wide.png"))
    assert watched.refused == []
    watched.clean()
    page.close()


def _chars(label: str) -> int:
    return len(label) - label.count("\u2026")


def test_hostile_names_run_no_script(browser: Any, tmp_path: Path) -> None:
    path = ipt.export(hostile_estate(), tmp_path / "hostile.html", group_by=False)
    watched = Watched(browser, "file://")
    page = watched.page
    watched.trap_scripts()
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
    assert watched.ran() == []
    assert watched.refused == []
    watched.clean()
    page.close()


@pytest.fixture(scope="module")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The hostile estate's docs site a day later (`hostile_changed`, with its changelog),
    built by MkDocs and served from its folder on a free loopback port (stopped after)."""
    folder = tmp_path_factory.mktemp("site")
    ipt.write_docs(hostile_changed(), folder / "src", previous=hostile_estate(), workers=1)
    built = folder / "built"
    mkdocs = Path(sys.executable).with_name("mkdocs")
    subprocess.run(
        [str(mkdocs), "build", "--strict", "-f", str(folder / "src" / "mkdocs.yml")]
        + ["-d", str(built)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    with serving(built) as address:
        yield address


def _site_page(browser: Any, site: str, path: str) -> Watched:
    """A page of the served site, scripts trapped (`Watched.trap_scripts`)."""
    watched = Watched(browser, site)
    watched.trap_scripts()
    watched.page.goto(site + path)
    return watched


def test_a_docs_partner_page_draws_its_view(browser: Any, served_site: str) -> None:
    watched = _site_page(browser, served_site, "partners/partner-x/")
    page = watched.page
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
    assert watched.ran() == []
    assert watched.refused == []
    watched.clean()
    page.close()


def test_the_docs_changelog_draws_what_changed_on_its_map(browser: Any, served_site: str) -> None:
    watched = _site_page(browser, served_site, "changes/")
    page = watched.page
    page.wait_for_selector(".ipt-view-live .ipt-changes-toggle")
    statuses = page.evaluate("IptTopology.views[0].changes.status(0)")
    assert "changed" in statuses  # every profile was deactivated
    assert "breaking" in page.inner_text(".ipt-view-live .ipt-legend")
    key = page.evaluate(
        "IptTopology.views[0].data.items.findIndex(r => r[0].startsWith('profile:'))"
    )
    page.evaluate("n => IptTopology.views[0].open(n, true)", key)
    details = page.inner_text(".ipt-view-live .ipt-details")
    assert "Changes" in details and "$.active" in details
    assert not any(secret in page.content() for secret in SECRETS)
    assert watched.ran() == []
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
    assert isinstance(href, str) and href, "no page for the hostile partner"
    return href.split("partners/", 1)[1]


# -- findings on the map and the path view (an HTML file's) ------------------------------


@pytest.fixture(scope="module")
def five_hundred(tmp_path_factory: pytest.TempPathFactory) -> tuple[ipt.Estate, Path]:
    """A 500-profile estate (its audit names items at every severity) and its file."""
    estate = ipt.demo_estate(500)
    return estate, ipt.export(estate, tmp_path_factory.mktemp("marks") / "topology.html")


def _levels(estate: ipt.Estate) -> list[Any]:
    """The file's levels, laid out again as the export lays them out."""
    from iptoolkit.offline.levels import drill_levels
    from iptoolkit.offline.view import FILE_CANVAS
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    return drill_levels(ExplorerModel(estate).graph, FILE_CANVAS)[0]


def _stands_for(data: Any, key: str) -> tuple[str, ...]:
    """The estate nodes a level's node stands for (a port: its node's)."""
    from iptoolkit.viewmodel.topology_data import PORT_SUFFIX

    return tuple(data.members.get(key.removesuffix(PORT_SUFFIX), ()))


def _open(view_page: Any, item_id: str) -> int:
    """Find an item by its id with the search box; its index in the file's items."""
    view_page.fill(".ipt-search", item_id.split(":", 1)[1])
    view_page.wait_for_selector(".ipt-result")
    view_page.click(f".ipt-result[title='{item_id}']")
    return int(
        view_page.evaluate(
            "id => IptTopology.views[0].data.items.findIndex(r => r[0] === id)", item_id
        )
    )


def test_the_findings_toggle_rings_what_the_audit_names(
    browser: Any, five_hundred: tuple[ipt.Estate, Path], tmp_path: Path
) -> None:
    from iptoolkit.topology.finding_marks import SEVERITY_COLOURS, worst_by_node
    from iptoolkit.viewmodel.topology_data import detail_node

    estate, path = five_hundred
    found = ipt.findings(estate)
    rank = {"error": 0, "warning": 1, "info": 2}
    worst: dict[str, str] = {}  # worked out here, and the toolkit's own must agree
    for finding in found:
        for node in finding.nodes:
            if node not in worst or rank[finding.severity] < rank[worst[node]]:
                worst[node] = finding.severity
    assert worst == worst_by_node(found) and set(worst.values()) == set(rank)
    watched = Watched(browser, "file://")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-findings-toggle")
    levels = _levels(estate)
    assert page.evaluate("IptTopology.views[0].data.levels.length") == len(levels)
    off = page.evaluate("IptTopology.views[0].findings.rung(0)")
    assert not any(off)  # nothing ringed before the toggle
    page.click(".ipt-findings-toggle")
    seen: set[str] = set()
    for number, level in enumerate(levels):
        expected = []
        for key in level.data.graph.nodes:
            named = [worst[m] for m in _stands_for(level.data, key) if m in worst]
            is_port = level.data.graph.nodes[key].get("kind") == "port"
            severity = min(named, key=rank.__getitem__) if named and not is_port else None
            expected.append(SEVERITY_COLOURS[severity] if severity else None)
            seen.update([severity] if severity else [])
        got = page.evaluate("n => IptTopology.views[0].findings.rung(n)", number)
        assert got == expected, f"level {number} ({level.title})"
    assert seen == set(rank)  # every severity ringed somewhere
    legend = page.inner_text(".ipt-legend")
    shown = {
        worst[m]
        for k in levels[0].data.graph.nodes
        for m in _stands_for(levels[0].data, k)
        if m in worst
    }
    for severity in rank:
        assert (f"findings: worst is {severity}" in legend) == (severity in shown), severity
    # the ring is drawn: the canvas holds its colour just above a ringed node of the overview
    drawn = page.evaluate(_RING_PIXELS)
    assert drawn and sum(ok for ok in drawn) >= 0.8 * len(drawn), drawn
    page.screenshot(path=str(tmp_path / "findings.png"))
    # the item the error names: found, its level opened, ringed red; a click lists its codes
    error = next(f for f in found if f.severity == "error")
    profile = next(n for n in error.nodes if n.startswith("profile:"))
    graph = ipt.build_graph(estate)
    codes = {f.code for f in found if any(detail_node(graph, n) == profile for n in f.nodes)}
    _open(page, profile)
    page.click(".ipt-fit")
    at = page.evaluate(
        """() => { const v = IptTopology.views[0], n = v.level().nodes[v.picked];
        const p = v.screen(n[0], n[1]), box = v.canvas.getBoundingClientRect();
        const ring = v.findings.rung(v.trail[v.trail.length - 1])[v.picked];
        return [box.left + p[0], box.top + p[1], ring]; }"""
    )
    assert at[2] == SEVERITY_COLOURS["error"]
    page.evaluate("IptTopology.views[0].placeholder()")
    page.mouse.click(at[0], at[1])
    page.wait_for_selector(".ipt-findings code")
    assert set(page.locator(".ipt-findings code").all_inner_texts()) == codes
    assert "error" in page.inner_text(".ipt-findings")
    page.screenshot(path=str(tmp_path / "findings-item.png"))
    assert watched.refused == []
    watched.clean()
    page.close()


# for each ringed node in sight on the level shown: is the pixel on its ring, straight
# above it, the ring's colour (within anti-aliasing)?
_RING_PIXELS = """() => {
  const v = IptTopology.views[0], level = v.level(), n = v.trail[v.trail.length - 1];
  const colours = v.findings.rung(n), ratio = window.devicePixelRatio || 1;
  const ctx = v.canvas.getContext("2d"), out = [];
  level.nodes.forEach((node, i) => {
    if (!colours[i]) return;
    const p = v.screen(node[0], node[1]), r = Math.max(v.radius(node[2]), 1) + 3;
    if (p[1] - r < 2 || p[1] > v.height || p[0] < 0 || p[0] > v.width) return;
    const x = Math.round(p[0] * ratio), y = Math.round((p[1] - r) * ratio);
    const px = ctx.getImageData(x, y, 1, 1).data;
    const want = [1, 3, 5].map(k => parseInt(colours[i].slice(k, k + 2), 16));
    out.push(want.every((c, k) => Math.abs(c - px[k]) < 60));
  });
  return out;
}"""


def test_the_path_view_fades_what_is_off_the_paths(
    browser: Any, five_hundred: tuple[ipt.Estate, Path], tmp_path: Path
) -> None:
    estate, path = five_hundred
    graph = ipt.build_graph(estate)
    watched = Watched(browser, "file://")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-canvas canvas")
    page.wait_for_function("IptTopology.views.length && IptTopology.views[0].paths")
    index = page.evaluate(
        "Object.fromEntries(IptTopology.views[0].data.items.map((r, i) => [r[0], i]))"
    )
    # the script finds the paths ipt.paths finds, with its bounds
    pairs = _pairs(graph)
    kinds = set()
    bounded = [(a, b, limit, cutoff) for a, b in pairs[:12] for limit, cutoff in ((1, 8), (2, 4))]
    for a, b, limit, cutoff in [(a, b, 20, 8) for a, b in pairs] + bounded:
        want = ipt.paths(graph, a, b, limit=limit, cutoff=cutoff)
        got = page.evaluate(
            "([a, b, l, c]) => IptTopology.views[0].paths.between(a, b, l, c)",
            [index[a], index[b], limit, cutoff],
        )
        lengths = [len(p) for p in got["ids"]]
        assert lengths == sorted(lengths), (a, b)  # shortest first
        assert (got["more"], got["longer"]) == (want.more, want.longer), (a, b)
        if not want.more:
            assert sorted(got["ids"]) == sorted(want.paths), (a, b)
        else:  # the same number, of the same lengths (which of equal ones: either)
            assert lengths == [len(p) for p in want.paths], (a, b)
        kinds.add(
            "none" if not want else "more" if want.more else "longer" if want.longer else "some"
        )
    assert kinds == {"none", "more", "longer", "some"}, kinds
    # two profiles of one level tied by more than one path: picked as a reader picks them
    levels = _levels(estate)
    a, b, found = _two_tied(graph, levels)
    _open(page, a)
    page.click(".ipt-paths-from")
    _open(page, b)
    page.click(".ipt-paths-to")
    page.wait_for_selector(".ipt-path-list")
    assert page.locator(".ipt-path-list > li").count() == len(found)
    shown = page.evaluate("IptTopology.views[0].trail.slice(-1)[0]")
    level = levels[shown]
    keys = list(level.data.graph.nodes)
    faded = page.evaluate("IptTopology.views[0].faded()")
    assert faded == _off(level, found) and 0 < len(faded) < len(keys)
    drawn = {key for i, key in enumerate(keys) if i not in faded}
    assert {a, b} <= drawn  # both ends on the level shown, node by node
    assert level.data.group_by is None
    page.screenshot(path=str(tmp_path / "paths.png"))
    page.click(".ipt-crumb:text('Overview')")  # the overview: groups on the paths stay
    faded = page.evaluate("IptTopology.views[0].faded()")
    assert faded == _off(levels[0], found) and 0 < len(faded) < len(levels[0].data.graph)
    page.click(".ipt-paths-clear")
    assert page.evaluate("IptTopology.views[0].faded()") == []
    assert watched.refused == []
    watched.clean()
    page.close()


def _off(level: Any, found: Any) -> list[int]:
    """The nodes of a level that stand for nothing on the paths found."""
    on = set(found.nodes)
    keys = list(level.data.graph.nodes)
    return [i for i, key in enumerate(keys) if not on & set(_stands_for(level.data, key))]


def _pairs(graph: Any) -> list[tuple[str, str]]:
    """Items 3 and 6 steps apart (shared channels and partners: many paths), and items of
    parts of the estate that no path joins."""
    import networkx as nx

    items = {n for n, k in graph.nodes(data="kind") if k in ("profile", "channel", "partner")}
    both_ways = graph.to_undirected(as_view=True)
    pairs = []
    for a in [n for n in graph if n in items][::25]:
        steps = nx.single_source_shortest_path_length(both_ways, a, cutoff=6)
        for far in (3, 6):
            named = [n for n, d in steps.items() if d == far and n in items]
            pairs += [(a, max(named))] if named else []  # not BFS order: that follows str hashes
        joined = nx.node_connected_component(both_ways, a)  # once: it is the whole part
        alone = [n for n in items if n not in joined]
        pairs += [(a, min(alone))] if alone else []
    return pairs


def _two_tied(graph: Any, levels: list[Any]) -> tuple[str, str, Any]:
    """Two profiles drawn on one node-by-node level with 2 to 20 paths between them (the
    first such)."""
    for level in levels:
        if level.data.group_by is not None:
            continue
        profiles = [
            n for n in level.data.graph.nodes if graph.nodes.get(n, {}).get("kind") == "profile"
        ]
        for a in profiles:
            for b in profiles:
                found = ipt.paths(graph, a, b) if a < b else None
                if found and len(found) >= 2 and not found.more:
                    return a, b, found
    raise AssertionError("no two profiles of one level tied by paths")
