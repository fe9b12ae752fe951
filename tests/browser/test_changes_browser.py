"""Issue 43, a diff in the offline HTML file, in Chromium from file:// with every other
request refused: the demo's week (`ipt.demo_changes`) drawn at the overview and inside a
group with each node in the colour its data gives it (`test_offline_changes` holds those
colours to the diff's), the breaking ones ringed, the legend naming the statuses shown; a
click on a changed profile lists exactly the diff's field paths for it; "Changes only"
fades exactly what neither changed nor touches a change; axe finds nothing blocking; and
the hostile diff runs no script and shows no secret in any item's details."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.topology.style import BREAKING_COLOUR, STATUS_LOOKS

from ..hostile_estate import SECRETS, hostile_changed, hostile_estate
from .checkers import axe_violations, checkers_missing, said
from .lab import chromium, chromium_missing
from .test_offline_browser import Watched

pytestmark = pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing()))
pytest.importorskip("playwright")

# for each node drawn big enough on the level shown: [its fill in the data, the pixel at
# its centre, the colour of the pixel on its ring straight above it, whether it is ringed]
_DRAWN = """() => {
  const v = IptTopology.views[0], level = v.level(), n = v.trail[v.trail.length - 1];
  const ratio = window.devicePixelRatio || 1, ctx = v.canvas.getContext("2d");
  const hex = px => "#" + [0, 1, 2].map(k => px[k].toString(16).padStart(2, "0")).join("");
  const at = (x, y) => hex(
    ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data);
  const status = v.changes.status(n), out = [];
  level.nodes.forEach((node, i) => {
    if (node[8] === 5) return;  // a port
    const p = v.screen(node[0], node[1]), r = v.radius(node[2]);
    if (r < 3 || p[0] < 12 || p[0] > v.width - 12 || p[1] < 12 || p[1] > v.height - 12) return;
    const ringed = (level.changes || []).some(e => e[0] === i && e[2] > 0);
    out.push([v.data.palette[node[3]].toLowerCase(), at(p[0], p[1]),
              at(p[0], p[1] - Math.max(r, 1) - 3), ringed, status[i]]);
  });
  return out;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as browser:
        yield browser


def _close(a: str, b: str, within: int = 40) -> bool:
    return all(abs(int(a[k : k + 2], 16) - int(b[k : k + 2], 16)) < within for k in (1, 3, 5))


def _drawn_as_their_data(page: Any) -> list[Any]:
    """Every node in sight drawn in its data's fill, the ringed ones with a breaking ring."""
    drawn = page.evaluate(_DRAWN)
    assert len(drawn) > 5
    for fill, centre, ring, ringed, _ in drawn:
        assert _close(fill, centre), (fill, centre)
        if ringed:
            assert _close(BREAKING_COLOUR.lower(), ring, 70), ring
    return list(drawn)


def test_the_weeks_changes_are_drawn_in_their_colours(browser: Any, tmp_path: Path) -> None:
    old = ipt.demo_estate()
    diff = ipt.diff(old, ipt.demo_changes(old, seed=1))
    path = ipt.export(diff, tmp_path / "changes.html")
    watched = Watched(browser, "file://")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-changes-toggle")
    overview = _drawn_as_their_data(page)
    fills = {STATUS_LOOKS[s][0].lower(): s for s in STATUS_LOOKS}
    assert {fills[d[0]] for d in overview} >= {"changed", "unchanged"}
    assert any(d[3] for d in overview)  # a breaking ring at the overview
    legend = page.inner_text(".ipt-legend")
    assert "changed, or a group with changes" in legend and "breaking" in legend
    watched.click_node("Finance", 0)
    page.wait_for_selector(".ipt-here:text('Finance')")
    inside = _drawn_as_their_data(page)
    assert {fills[d[0]] for d in inside} >= {"changed", "unchanged"}
    page.screenshot(path=str(tmp_path / "changes-finance.png"))

    # "Changes only": faded is what has no news and no link to a node with news
    page.click(".ipt-changes-toggle")
    faded = set(page.evaluate("IptTopology.views[0].faded()"))
    level = page.evaluate("IptTopology.views[0].level()")
    news = {entry[0] for entry in level["changes"]}
    assert news and not news & faded
    linked = {b for a, b, *_ in level["edges"] if a in news} | {
        a for a, b, *_ in level["edges"] if b in news
    }
    drawn = {i for i, node in enumerate(level["nodes"]) if node[8] != 5}
    assert faded & drawn == drawn - news - linked - _through_ports(level, news), "faded"
    page.click(".ipt-changes-toggle")
    assert page.evaluate("IptTopology.views[0].faded()") == []

    # a changed profile found by search: its details open with exactly the diff's paths
    key = next(c.key for c in diff.of(op="changed") if c.kind == "profile")
    page.fill(".ipt-search", key.split(":", 1)[1])
    page.wait_for_selector(".ipt-result")
    page.click(f".ipt-result[title='{key}']")
    first = page.locator(".ipt-details .ipt-section").first
    assert first.locator("h3").inner_text() == "Changes"
    shown = {t for t in first.locator("th").all_inner_texts() if t.startswith("$")}
    assert shown == {c.path for c in diff.changes if c.key == key and c.path}
    page.screenshot(path=str(tmp_path / "changes-details.png"))
    if checkers_missing() is None:
        assert axe_violations(page) == [], said(axe_violations(page))
    assert watched.refused == []
    watched.clean()
    page.close()


def _through_ports(level: dict[str, Any], news: set[int]) -> set[int]:
    """Nodes a link joins to one with news through that node's port (a link leaves from
    the port right of its node's label, at the node's height)."""
    nodes, found = level["nodes"], set()
    for i in news:
        ports = {j for j, n in enumerate(nodes) if n[8] == 5 and n[1] == nodes[i][1]}
        for a, b, *_ in level["edges"]:
            if a in ports:
                found.add(b)
            if b in ports:
                found.add(a)
    for a, b, *_ in level["edges"]:  # a node whose own port leads to one with news
        if b in news and nodes[a][8] == 5:
            found.update(j for j, n in enumerate(nodes) if n[8] != 5 and n[1] == nodes[a][1])
    return found


def test_a_hostile_diff_runs_no_script_and_shows_no_secret(browser: Any, tmp_path: Path) -> None:
    diff = ipt.diff(hostile_estate(), hostile_changed())
    path = ipt.export(diff, tmp_path / "hostile-changes.html", group_by=False)
    watched = Watched(browser, "file://")
    page = watched.page
    watched.trap_scripts()
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-changes-toggle")
    items = page.evaluate("IptTopology.views[0].data.items.length")
    assert items > 3
    seen = ""
    for item in range(items):  # every item's details, changes first
        page.evaluate("n => IptTopology.views[0].open(n, true)", item)
        seen += page.inner_text(".ipt-details")
    assert "headers[0].value" in seen and "*****" in seen  # the rotated pair, masked
    for secret in SECRETS:
        assert secret not in seen and secret not in page.content(), secret
    assert page.evaluate("document.querySelectorAll('img, iframe').length") == 0
    assert watched.ran() == []
    assert watched.refused == []
    watched.clean()
    page.close()


def test_a_comparison_is_drawn_in_its_colours(browser: Any, tmp_path: Path) -> None:
    """The demo's planted differences (`ipt.demo_environment(plant=True)`), on one map:
    each node in its kind of difference's colour, the legend in the comparison's words, a
    click on the profile whose secret header differs lists exactly its field paths, masked."""
    from iptoolkit.demo.environment import TEST_HOSTS
    from iptoolkit.topology.comparestatus import compare_marking

    prod = ipt.demo_estate(300)
    test = ipt.demo_environment(prod, plant=True)
    substitute = list(TEST_HOSTS.items())
    result = ipt.compare(prod, test, names=("prod", "test"), substitute=substitute)
    path = ipt.export(result, tmp_path / "prod-vs-test.html")
    looks = compare_marking(result.names).looks
    fills = {fill.lower(): status for status, (fill, _) in looks.items()}
    watched = Watched(browser, "file://")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector(".ipt-changes-toggle")
    overview = _drawn_as_their_data(page)
    assert {fills[d[0]] for d in overview} >= {"changed", "same"}
    legend = page.inner_text(".ipt-legend")
    assert "fields differ" in legend and "the same" in legend
    secret = next(d for d in result.differences if any(f.secret for f in d.fields))
    watched.click_node(secret.key[0].split("/")[0], 0)
    page.wait_for_selector(f".ipt-here:text('{secret.key[0].split('/')[0]}')")
    inside = _drawn_as_their_data(page)
    assert {fills[d[0]] for d in inside} >= {"changed", "same"}
    page.screenshot(path=str(tmp_path / "compare-group.png"))
    assert secret.b is not None
    page.fill(".ipt-search", secret.b.split(":", 1)[1])
    page.wait_for_selector(".ipt-result")
    page.click(f".ipt-result[title='{secret.b}']")
    first = page.locator(".ipt-details .ipt-section").first
    assert first.locator("h3").inner_text() == "Differences"
    shown = {t for t in first.locator("th").all_inner_texts() if t.startswith("$")}
    assert shown == {f.path for f in secret.fields}
    assert "**********" in first.inner_text() and "s3cr3t" not in page.content()
    page.screenshot(path=str(tmp_path / "compare-details.png"))
    if checkers_missing() is None:
        assert axe_violations(page) == [], said(axe_violations(page))
    assert watched.refused == []
    watched.clean()
    page.close()
