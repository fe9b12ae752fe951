"""Issue 42: a progress bar while the Explorer's kernel works, gone when the view is drawn.

In the cell that builds it, the Explorer reports its steps (indexing, the graph, the map's
layout) to the progress it is given, or to a `tqdm` bar made with `leave=False`; later
work for the page (the width its front end reports, another selection) shows in the view
itself (`WidgetProgress`), hidden once done. The browser sees both in
tests/browser/test_layout_browser.py."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

import iptoolkit as ipt  # noqa: E402
from iptoolkit.support import progress  # noqa: E402
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


def test_the_cell_bar_goes_when_the_explorer_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[progress.BarProgress] = []
    real = progress.BarProgress

    def bar(**options: object) -> progress.BarProgress:
        made.append(real(**options))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(progress, "watched", lambda: True)
    monkeypatch.setattr(progress, "BarProgress", bar)
    ipt.Explorer(ipt.demo_estate(n_profiles=20, seed=2), static_copy=False).close()
    assert made and made[0].leave is False  # tqdm's leave=False: the bar goes, no line stays


def test_a_new_width_shows_the_views_own_bar_until_laid_out() -> None:
    explorer = ipt.Explorer(ipt.demo_estate(n_profiles=60, seed=2), static_copy=False)
    view = explorer.topology
    seen: list[tuple[bool, str]] = []
    view.progress.observe(
        lambda change: seen.append((view.progress.active, change["new"])), "value"
    )
    try:
        view._width.width = 900  # as the front end reports it
        assert any("Laying out the map for its width" in value for _, value in seen)
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
    bar.close()
    assert not bar.active
    assert "ipt-progress-late 0s linear 3s both" in progress_css(3)  # shown after 3 s
