"""Issue 42: a progress bar while the Explorer's kernel works, gone when the view is drawn.

In the cell that builds it, the Explorer reports its steps (indexing, the graph, the map's
layout) to the progress it is given, or to a bar in the cell that goes after; later
work for the page (the width its front end reports, another selection) shows in the view
itself (`WidgetProgress`), hidden once done. The browser sees both in
tests/browser/test_layout_browser.py."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

import iptoolkit as ipt  # noqa: E402
from iptoolkit.support import progress  # noqa: E402
from iptoolkit.widgets import progress_bar  # noqa: E402
from iptoolkit.widgets.progress_bar import WidgetProgress, progress_css  # noqa: E402
from tests.progress_helpers import Recorder  # noqa: E402


def test_building_the_explorer_reports_its_steps() -> None:
    told = Recorder()
    explorer = ipt.Explorer(ipt.demo_estate(n_profiles=40, seed=2), progress=told)
    try:
        stages = told.stages()
        assert stages[0] == "Indexing 40 profiles"
        assert "Building the graph of 40 profiles" in stages
        assert stages.index("Laying out the map") < stages.index("Drawing the map")
        assert stages[-1] == "Drawing the notebook's static copy"
        assert not explorer.topology.progress.active  # the cell's bar had it, not the view
    finally:
        explorer.close()


def test_the_cell_bar_shows_after_its_delay_and_goes_when_the_explorer_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[object] = []

    class Handle:
        def update(self, data: object, raw: bool = False) -> None:
            shown.append(("update", data, raw))

    def display(widget: object, display_id: bool = False) -> Handle:
        shown.append(widget)
        return Handle()

    import IPython.display

    monkeypatch.setattr(IPython.display, "display", display)
    monkeypatch.setattr(progress_bar, "watched", lambda: True)
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "86400")  # nbval's notebooks: no bar
    ipt.Explorer(ipt.demo_estate(n_profiles=20, seed=2), static_copy=False).close()
    assert shown == []
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "0")
    ipt.Explorer(ipt.demo_estate(n_profiles=20, seed=2), static_copy=False).close()
    bar = shown[0]
    assert isinstance(bar, WidgetProgress) and "Drawing the map" in bar.value  # the last step
    assert shown[-1] == ("update", {"text/plain": ""}, True)  # its output emptied: gone
    assert bar.comm is None  # and its widget closed
    with progress_bar.cell_progress(False) as none:
        assert none is progress.NO_PROGRESS
    told = Recorder()
    with progress.reporting_to(told), progress_bar.cell_progress(None) as used:
        assert used is told  # the app's bar, made for the load and the Explorer together


def test_a_new_width_shows_the_views_own_bar_until_laid_out() -> None:
    explorer = ipt.Explorer(ipt.demo_estate(n_profiles=60, seed=2), static_copy=False)
    view = explorer.topology
    view.expand(next(iter(view.data.members)) if view.data else "")  # two levels to lay out
    seen: list[tuple[bool, str]] = []
    view.progress.observe(
        lambda change: seen.append((view.progress.active, change["new"])), "value"
    )
    try:
        view._width.width = 900  # as the front end reports it
        said = [value for _, value in seen]
        assert any("Laying out level 1 of 2 for the map" in value for value in said), said
        assert any("Laying out level 2 of 2 for the map" in value for value in said), said
        assert not view.progress.active  # gone once drawn
        assert "<progress" in view.progress.value and "role='status'" in view.progress.value
    finally:
        explorer.close()


def test_the_widget_bar_counts_and_waits_its_delay() -> None:
    bar = WidgetProgress(delay=3)
    assert not bar.active
    bar.stage("Laying out <levels>", 4)
    assert bar.active and "&lt;levels&gt;: 0 of 4" in bar.value  # escaped
    bar.advance(2)
    assert "value='2'" in bar.value and "2 of 4" in bar.value
    bar.stage("Building the graph")  # no count: a <progress> without a value
    assert "<progress aria-label" in bar.value and "Building the graph\u2026" in bar.value
    bar.done()
    assert not bar.active
    assert "ipt-progress-late 0s linear 3s both" in progress_css(3)  # shown after 3 s


def test_the_cell_bar_appears_when_the_work_has_run_its_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A timer shows the bar while the cell is still busy, at the step it is in; a quicker
    work shows nothing at all."""
    import time

    import IPython.display

    shown: list[object] = []

    class Handle:
        def update(self, data: object, raw: bool = False) -> None:
            shown.append(("update", data))

    def display(widget: object, display_id: bool = False) -> Handle:
        shown.append(widget)
        return Handle()

    monkeypatch.setattr(IPython.display, "display", display)
    quick = progress_bar.CellProgress(delay=30)
    quick.stage("Indexing 20 profiles")
    quick.close()
    assert shown == []
    slow = progress_bar.CellProgress(delay=0.2)
    slow.stage("Reading x.json", 10)
    slow.advance(3)
    deadline = time.monotonic() + 10
    while not shown and time.monotonic() < deadline:
        time.sleep(0.05)  # the cell is busy; the timer's thread shows the bar
    bar = shown[0]
    assert isinstance(bar, WidgetProgress) and (bar.name, bar.total, bar.count) == (
        "Reading x.json",
        10,
        3,
    )
    slow.advance(2)
    assert bar.count == 5 and "5 of 10" in bar.value
    slow.close()
    assert shown[-1] == ("update", {"text/plain": ""}) and bar.comm is None
