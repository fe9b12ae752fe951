"""Issue 42, the Explorer on a laptop: details open beside the map where the Topology tab
is wide enough and below it otherwise, never in its place; a view never inherits another's
scroll. The browser side is measured in tests/browser/test_layout_browser.py."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

import iptoolkit as ipt  # noqa: E402
from iptoolkit.widgets.map_details import BESIDE_FROM_PX, BESIDE_PX, MAP_DETAILS_CSS  # noqa: E402


def test_the_css_puts_the_details_beside_the_map_only_from_its_width() -> None:
    assert f"@container ipt-map (min-width: {BESIDE_FROM_PX}px)" in MAP_DETAILS_CSS
    assert "flex-direction: column" in MAP_DETAILS_CSS.split("@container")[0]  # below
    wide = MAP_DETAILS_CSS.split("@container")[1]
    assert "flex-direction: row" in wide and f"width: {BESIDE_PX}px" in wide
    assert BESIDE_FROM_PX - BESIDE_PX >= 720  # the map keeps its overview's width


def test_each_picture_and_each_tab_starts_at_its_scroll_home() -> None:
    explorer = ipt.Explorer(ipt.demo_estate(n_profiles=60, seed=1))
    try:
        box = explorer.topology._sigma_box
        before = box._home.turn
        data = explorer.topology.data
        assert data is not None
        explorer.topology.expand(next(iter(data.members)))
        assert box._home.turn > before  # a new picture: its panel back to the top left
        assert box._home.target == ".ipt-topology-canvas"
        tabs = explorer._home.turn
        explorer.tabs.selected_index = 1
        assert explorer._home.turn == tabs + 1  # another tab: back to the left edge
    finally:
        explorer.close()
