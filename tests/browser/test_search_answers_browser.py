"""The HTML file's search, as a reader reads its answers (`ipt.export(estate, "x.html")`).

A partner's profiles are a group under each group and channel type they sit in, all named
for the partner: searching "Mosel Retail" listed "Mosel Retail Inc. (group of 2
profiles)" three times over, and nothing told the three apart. Each answer now says
where its group is (its breadcrumb's levels) when its name is shared. One browser for the
module; every request but the file's refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

from ..ci import skip_or_fail
from .lab import chromium, chromium_missing

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    skip_or_fail(chromium_missing())
    with chromium() as browser:
        yield browser


def test_groups_of_one_name_are_told_apart(browser: Any, tmp_path: Path) -> None:
    path = ipt.export(ipt.demo_estate(2000), tmp_path / "topology.html")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route(
        "**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort()
    )
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".ipt-canvas canvas")
        # the names the file's groups share (the level each opens is its own)
        levels = page.evaluate(
            "() => { const v = IptTopology.views[0], seen = {}; const out = [];"
            " v.data.levels.forEach(l => Object.values(l.groups).forEach(g => {"
            "   if (g[3] >= 0 && !seen[g[3]]) { seen[g[3]] = 1;"
            "     out.push(v.S(v.data.levels[g[3]].title)); } })); return out; }"
        )
        shared = sorted(name for name, n in Counter(levels).items() if n > 1)
        assert shared, "no two groups of one name: nothing to tell apart"
        for name in shared[:8]:
            page.fill(".ipt-search", name)
            page.wait_for_selector(".ipt-result")
            answers = page.locator(".ipt-result-group").all_inner_texts()
            alike = [text for text, n in Counter(answers).items() if n > 1]
            assert alike == [], (name, answers)
        # an answer still opens its own group, whose breadcrumb says what the answer said
        page.fill(".ipt-search", shared[0])
        page.wait_for_selector(".ipt-result-group")
        said = page.locator(".ipt-result-group").first.inner_text()
        page.locator(".ipt-result-group").first.click()
        crumbs = [c.strip() for c in page.inner_text(".ipt-crumbs").split("\u203a")]
        assert crumbs[-1] == shared[0], crumbs
        assert said.endswith(" \u203a ".join(crumbs[1:-1]) + ")"), (said, crumbs)
    finally:
        page.close()
    assert errors == []
