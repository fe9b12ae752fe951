"""The Explorer's paged table in a real browser: JupyterLab on loopback, Debian's Chromium.

A notebook written in the test's folder shows a `SelectionTable` of the demo estate's
10,000 profiles, with an HTML widget that the row-click callback fills. In the page: a
click on a header's text sorts (again: the other way, the arrow follows), Enter on a
focused header sorts, the next page shows rows 26-50, a click on a row reaches Python with
that row's position in the frame. Screenshots (light and dark theme) go under tmp_path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..ci import skip_or_fail
from .lab import (
    Lab,
    chromium_missing,
    chromium_page,
    open_and_run,
    run_in_lab,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

NOTEBOOK = "table.ipynb"
VIEWPORT = {"width": 1400, "height": 1100}
FIRST_LAUNCH = 120_000  # ms: a fresh server's first kernel and page can be slow
STEP = 45_000  # ms: any later step (2 cores shared with other browsers)
CODE = [
    """\
import ipywidgets as W
from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.explorer_model import ExplorerModel
from iptoolkit.widgets.table import SelectionTable

model = ExplorerModel(demo_estate(n_profiles=10_000))
frame = model.table(model.select(Filter()))
received = W.HTML("<span class='picked-row'>none yet</span>")


def on_pick(row):
    received.value = f"<span class='picked-row'>picked {row} {frame.iloc[row]['id']}</span>"


table = SelectionTable(on_pick)
table.show(frame)
W.VBox([received, table.widget])""",
]


def _notebook(path: Path) -> None:
    import nbformat

    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(code) for code in CODE],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    )
    nbformat.write(notebook, str(path))


def test_table_sorts_pages_and_picks_in_jupyterlab(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    folder = tmp_path / "notebooks"
    folder.mkdir()
    _notebook(folder / NOTEBOOK)
    run_in_lab(folder, tmp_path, lambda lab: _session(lab, tmp_path))


def _session(lab: Lab, tmp_path: Path) -> None:
    with chromium_page(VIEWPORT) as (page, errors):
        open_and_run(page, lab, NOTEBOOK, first_widget=".ipt-table tbody tr", timeout=FIRST_LAUNCH)
        _use_the_table(page, tmp_path)
        assert errors == [], errors


def _use_the_table(page: Any, tmp_path: Path) -> None:
    table = page.locator(".ipt-table").first
    rows = table.locator("tbody tr")
    assert rows.count() == 25
    assert _label(page) == "rows 1–25 of 10,000"
    before = _column(page, "name")

    # a click on the header's text (not an arrow) sorts the whole selection by it
    table.locator("th .ipt-pt-name:text-is('name')").click()
    ascending = _wait_column_change(page, "name", before)
    assert ascending == sorted(ascending, key=str.casefold)
    header = table.locator("th", has=page.locator(".ipt-pt-name:text-is('name')"))
    assert header.get_attribute("aria-sort") == "ascending"
    assert header.locator(".ipt-pt-arrow").inner_text() == "▲"
    assert ascending[0].startswith("Archive"), ascending[:3]  # the first of 10,000, not of 25

    # again, from the keyboard: Enter on the focused header turns the direction
    header.locator("button").focus()
    page.keyboard.press("Enter")
    descending = _wait_column_change(page, "name", ascending)
    assert descending == sorted(descending, key=str.casefold, reverse=True)
    assert header.get_attribute("aria-sort") == "descending"
    assert header.locator(".ipt-pt-arrow").inner_text() == "▼"
    _shot(table, tmp_path / "table-sorted.png")

    # the next page
    table.locator("button[aria-label='next page']").click()
    page.wait_for_function(
        "() => document.querySelector('.ipt-pt-label').innerText.startsWith('rows 26–50')",
        timeout=STEP,
    )
    second = _column(page, "name")
    assert second != descending and second == sorted(second, key=str.casefold, reverse=True)
    assert second[0].casefold() <= descending[-1].casefold()

    # a click on a row reaches Python with that row's position in the frame
    row = rows.nth(2)
    ident = row.locator("td").first.inner_text()
    at = row.get_attribute("data-at")
    row.click()
    page.wait_for_function(
        "text => document.querySelector('.picked-row').innerText === text",
        arg=f"picked {at} {ident}",
        timeout=STEP,
    )
    page.wait_for_selector(".ipt-table tbody tr.ipt-pt-picked", timeout=STEP)
    _shot(table, tmp_path / "table-picked.png")

    # the dark theme: JupyterLab's variables carry it
    page.click(".lm-MenuBar-itemLabel:text-is('Settings')")
    page.hover("li.lm-Menu-item:has-text('Theme')")
    page.click("li[data-command='apputils:change-theme']:has-text('JupyterLab Dark')")
    page.wait_for_selector("body[data-jp-theme-light='false']", state="attached", timeout=STEP)
    page.wait_for_timeout(1000)
    background = table.locator("tbody tr").first.evaluate(
        "row => getComputedStyle(row).backgroundColor"
    )
    assert _dark(background), background
    _shot(table, tmp_path / "table-dark.png")


def _label(page: Any) -> str:
    text = page.locator(".ipt-pt-label").first.inner_text()
    assert isinstance(text, str)
    return text


def _column(page: Any, name: str) -> list[str]:
    cells = page.evaluate(
        """name => {
            const table = document.querySelector('.ipt-table table');
            const names = Array.from(table.querySelectorAll('thead .ipt-pt-name'))
                .map(n => n.textContent);
            const index = names.indexOf(name);
            return Array.from(table.querySelectorAll('tbody tr'))
                .map(tr => tr.children[index].textContent);
        }""",
        name,
    )
    assert isinstance(cells, list) and all(isinstance(cell, str) for cell in cells), cells
    return cells


def _wait_column_change(page: Any, name: str, before: list[str]) -> list[str]:
    page.wait_for_function(
        """([name, before]) => {
            const table = document.querySelector('.ipt-table table');
            const names = Array.from(table.querySelectorAll('thead .ipt-pt-name'))
                .map(n => n.textContent);
            const index = names.indexOf(name);
            const now = Array.from(table.querySelectorAll('tbody tr'))
                .map(tr => tr.children[index].textContent);
            return JSON.stringify(now) !== JSON.stringify(before);
        }""",
        arg=[name, before],
        timeout=STEP,
    )
    return _column(page, name)


def _dark(css_color: str) -> bool:
    """True for an `rgb(r, g, b)` colour darker than mid-grey."""
    parts = [float(p) for p in css_color[css_color.index("(") + 1 : -1].split(",")[:3]]
    return sum(parts) / 3 < 128


def _shot(element: Any, path: Path) -> Path:
    element.screenshot(path=str(path))
    return path
