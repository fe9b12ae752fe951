"""Issue 42, the Explorer on a laptop: details open beside the map where the Topology tab
is wide enough and below it otherwise, never in its place; a view never inherits another's
scroll. The browser side is measured in tests/browser/test_layout_browser.py."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

import iptoolkit as ipt  # noqa: E402
from iptoolkit.viewmodel.topology_fit import (  # noqa: E402
    CHAR_PX,
    MIN_LABEL_CHARS,
    NARROW_LABEL_CHARS,
    Canvas,
    label_budget,
    label_gaps,
)
from iptoolkit.widgets.map_details import BESIDE_FROM_PX, BESIDE_PX, MAP_DETAILS_CSS  # noqa: E402


def test_the_css_puts_the_details_beside_the_map_only_from_its_width() -> None:
    assert f"@container ipt-map (min-width: {BESIDE_FROM_PX}px)" in MAP_DETAILS_CSS
    assert "flex-direction: column" in MAP_DETAILS_CSS.split("@container")[0]  # below
    wide = MAP_DETAILS_CSS.split("@container")[1]
    assert "flex-direction: row" in wide and f"width: {BESIDE_PX}px" in wide
    assert BESIDE_FROM_PX - BESIDE_PX >= 720  # the map keeps its overview's width


def test_a_laptop_pane_cuts_labels_shorter_rather_than_scroll_sideways() -> None:
    longest = {float(column): 200.0 for column in range(4)}  # four columns of long labels
    gaps = label_gaps(4)
    pane = Canvas.of(540, 600)  # JupyterLab beside its file browser, a window of 1,000 px
    budget = label_budget(longest, pane)
    assert sum(budget.values()) <= pane.inner_width - gaps
    assert min(budget.values()) < MIN_LABEL_CHARS * CHAR_PX
    tiny = label_budget(longest, Canvas.of(300, 600))  # past the narrowest: never shorter
    assert min(tiny.values()) == pytest.approx(NARROW_LABEL_CHARS * CHAR_PX)
    wide = label_budget(longest, Canvas.of(1400, 600))
    assert wide == longest


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


def test_a_narrow_label_keeps_its_name_and_a_namesake_its_count() -> None:
    """Cut for a laptop's pane, a label keeps its name rather than `… (90)`; two that would
    then read the same keep their counts, which tell them apart (and their whole names
    show on hover: `HoverNames` names only labels drawn once)."""
    from iptoolkit.viewmodel.topology_fit import cut_apart, cut_to_px

    room = NARROW_LABEL_CHARS * CHAR_PX
    assert cut_to_px("\u25a0 Finance (90)", 60.0) == "\u25a0 Finan\u2026"
    cut = cut_apart(
        {1: "\u25c0 AS2 agents (41)", 2: "\u25c0 AS4 agents (10)", 3: "\u25a0 Logistics (75)"},
        dict.fromkeys((1, 2, 3), room),
    )
    assert cut[1] != cut[2] and cut[1].endswith("(41)") and cut[2].endswith("(10)"), cut
    assert "(" not in cut[3] and cut[3].startswith("\u25a0 Lo"), cut
