"""`ShownTab`: a tab is drawn when it changes while shown, or when shown after a change."""

from __future__ import annotations

from iptoolkit.support.shown_tab import ShownTab


def _tab(**state: bool) -> tuple[ShownTab, list[int]]:
    drawn: list[int] = []
    return ShownTab(lambda: drawn.append(1), **state), drawn


def test_a_change_while_hidden_waits_for_the_tab_to_be_shown() -> None:
    tab, drawn = _tab(visible=False, stale=False)
    tab.invalidate()
    tab.invalidate()
    assert drawn == [] and tab.stale
    tab.set_visible(True)
    assert drawn == [1] and not tab.stale
    tab.set_visible(False)
    tab.set_visible(True)
    assert drawn == [1], "shown again without a change: not drawn again"


def test_a_change_while_shown_draws_at_once() -> None:
    tab, drawn = _tab(visible=True, stale=False)
    tab.invalidate()
    assert drawn == [1] and not tab.stale


def test_a_stale_tab_is_drawn_when_first_shown_and_drawn_marks_it_fresh() -> None:
    tab, drawn = _tab()  # hidden and stale: nothing drawn yet
    tab.invalidate()
    tab.drawn()  # drawn by other means (an item opened)
    tab.set_visible(True)
    assert drawn == []
    tab.set_visible(False)
    tab.invalidate()
    tab.set_visible(True)
    assert drawn == [1]
