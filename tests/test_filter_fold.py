"""The Explorer's filter panel folds away where the page is narrow (issue 42: on a laptop
the map sat a screen down, below the filters): open by default from `OPEN_FROM_PX`, by CSS
in the browser; the button says what a click does and overrides the default either way.
The browser side is measured in tests/browser/test_labels_browser.py (`first screen`)."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

import iptoolkit as ipt  # noqa: E402
from iptoolkit.widgets.filter_fold import FOLD_CSS, OPEN_FROM_PX, FilterFold  # noqa: E402


def _state(explorer: object) -> set[str]:
    classes = set(explorer.widget._dom_classes)  # type: ignore[attr-defined]
    return {name for name in classes if name.startswith("ipt-filters-")}


def test_the_fold_follows_the_width_until_a_click_chooses() -> None:
    explorer = ipt.Explorer(ipt.demo_estate(n_profiles=30, seed=1))
    fold = explorer.fold
    assert _state(explorer) == {"ipt-filters-auto"}  # the CSS decides by the width
    assert fold.button.description == "Hide filters"  # no width known: shown
    fold.width.width = OPEN_FROM_PX - 300  # a laptop: folded by default
    assert not fold.shown() and fold.button.description == "Show filters"
    fold.button.click()
    assert fold.shown() and _state(explorer) == {"ipt-filters-open"}
    assert fold.button.description == "Hide filters"
    fold.width.width = OPEN_FROM_PX + 300  # a click's choice holds at any width
    fold.button.click()
    assert not fold.shown() and _state(explorer) == {"ipt-filters-shut"}
    assert fold.button.description == "Show filters"


def test_the_default_is_open_from_its_width_and_the_css_says_the_same() -> None:
    fold = FilterFold()
    fold.width.width = OPEN_FROM_PX
    assert fold.shown()
    fold.width.width = OPEN_FROM_PX - 1
    assert not fold.shown()
    assert f"max-width: {OPEN_FROM_PX - 1}px" in FOLD_CSS
    assert ".ipt-filters-auto .ipt-filters" in FOLD_CSS and ".ipt-filters-shut" in FOLD_CSS
