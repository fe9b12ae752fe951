"""Progress (`support/progress.py`): which mode shows bars where, the delay before one shows,
and what loading and auditing report. The commands' bars: `test_cli_progress.py`."""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.auditing.registry import BUILTIN_RULES
from iptoolkit.support import progress
from tests.progress_helpers import Recorder


@contextmanager
def _terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """stderr a pseudo-terminal (nobody reads it: only `isatty` is asked). Set in the
    test itself: pytest's capture sets stderr again after the fixtures."""
    master, slave = os.openpty()
    with open(slave, "w", encoding="utf-8") as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        yield
    os.close(master)


def test_never_and_always_ignore_where_the_output_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "watched", lambda: False)
    assert progress.progress_for("never") is progress.NO_PROGRESS
    assert progress.progress_for(False) is progress.NO_PROGRESS
    assert progress.progress_for("auto") is progress.NO_PROGRESS
    assert progress.progress_for(None) is progress.NO_PROGRESS
    always = progress.progress_for("always")
    assert isinstance(always, progress.BarProgress) and always.delay == 0
    assert isinstance(progress.progress_for(True), progress.BarProgress)
    with pytest.raises(ValueError, match="auto, always, never"):
        progress.progress_for("sometimes")


def test_auto_waits_the_delay_the_variable_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "watched", lambda: True)
    monkeypatch.delenv("IPTOOLKIT_PROGRESS_DELAY", raising=False)
    auto = progress.progress_for("auto")
    assert isinstance(auto, progress.BarProgress) and auto.delay == progress.DEFAULT_DELAY == 2
    for text, seconds in (("0", 0.0), ("0.5", 0.5), ("soon", 2.0), ("-1", 2.0), (" ", 2.0)):
        monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", text)
        assert progress.delay() == seconds, text


def test_a_terminal_is_watched_unless_ci_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with _terminal(monkeypatch):
        assert sys.stderr.isatty() and progress.watched()
        monkeypatch.setenv("CI", "1")
        assert not progress.watched()
        monkeypatch.setenv("CI", "true")
        assert not progress.watched()


def test_a_pipe_or_a_file_is_not_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    read, write = os.pipe()
    with open(write, "w", encoding="utf-8") as pipe:
        monkeypatch.setattr(sys, "stderr", pipe)
        assert not progress.watched()
    os.close(read)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert not progress.watched()


def _bars(monkeypatch: pytest.MonkeyPatch, bars: progress.BarProgress) -> str:
    """What a stage of three steps writes on stderr."""
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    bars.stage("Counting sheep", total=3)
    bars.advance(3)
    bars.close()
    return stderr.getvalue()


def test_a_bar_shows_only_once_its_step_ran_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _bars(monkeypatch, progress.BarProgress(delay=3600)) == ""  # the step was quicker
    shown = _bars(monkeypatch, progress.BarProgress(delay=0))
    assert "Counting sheep" in shown and "3/3" in shown


def test_the_delay_runs_from_the_first_step_not_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five quick steps are a long wait too: once the work has run the delay, the step it
    is in shows at once; after `close` (a command's report written) the clock starts again."""
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    now = [100.0]
    monkeypatch.setattr(progress, "_clock", lambda: now[0], raising=False)
    bars = progress.BarProgress(delay=10)
    bars.stage("Reading")
    now[0] += 11  # the reading took 11 s: the delay has passed
    bars.stage("Indexing", total=2)
    bars.advance(2)
    bars.close()
    assert "Reading" not in stderr.getvalue() and "2/2" in stderr.getvalue()
    now[0] += 1
    bars.stage("Writing the report")  # a first step again: 10 s to wait
    bars.close()
    assert "Writing" not in stderr.getvalue()


def test_a_step_that_counts_nothing_is_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """One long call (writing a site) still shows its clock moving, not a frozen bar."""
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(progress, "TICK", 0.01)
    bars = progress.BarProgress(delay=0)
    bars.stage("Thinking")
    deadline = time.monotonic() + 30  # a bound on a hung test, not a measurement
    while stderr.getvalue().count("Thinking") < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    bars.close()
    assert stderr.getvalue().count("Thinking") >= 3


def test_no_progress_and_given() -> None:
    recorder = Recorder()
    assert progress.given(recorder) is recorder
    assert progress.given(None) is progress.NO_PROGRESS
    progress.NO_PROGRESS.stage("nothing", 1)
    progress.NO_PROGRESS.advance()


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "estate.json"
    ipt.demo_estate(n_profiles=30, seed=3).save(path)
    return path


def test_load_reports_reading_and_each_profile_indexed(snapshot: Path) -> None:
    recorder = Recorder()
    estate = ipt.load(snapshot, progress=recorder)
    assert recorder.log == [
        ("stage", "Reading estate.json", None),
        ("stage", "Indexing profiles", 30),
        ("advance", 30),
    ]
    assert len(estate) == 30


def test_a_default_set_for_a_block_is_what_auto_reports_to(snapshot: Path) -> None:
    """A command's bars take the loads it calls (`archive add` of a file), or silence them."""
    recorder = Recorder()
    with progress.reporting_to(recorder):
        ipt.load(snapshot)
        ipt.load(snapshot, progress=False)  # a mode said is heard
    assert recorder.stages() == ["Reading estate.json", "Indexing profiles"]
    with progress.reporting_to(progress.NO_PROGRESS), progress.progress_scope(None) as used:
        assert used is progress.NO_PROGRESS


def test_the_audit_reports_each_rule(snapshot: Path) -> None:
    recorder = Recorder()
    ipt.audit(ipt.load(snapshot, progress=False), select=["SEC"], progress=recorder)
    ((_, name, total), (_, done)) = recorder.log
    assert name == "Auditing (rules)" and total == done
    assert 0 < total < len(BUILTIN_RULES)
