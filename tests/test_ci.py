"""Under CI=true a missing Chromium, playwright or nbval fails the run instead of skipping.

The finders are made to miss (Chromium's path and PATH, `sys.modules[name] = None` for a
module) and the environment says CI or not; `skip_or_fail` must skip in the one and fail in
the other, through the same calls the browser tests and the notebook tests make.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from typing import Any

import pytest

from . import ci
from .browser import lab


def _outcome(call: Callable[[], Any]) -> BaseException:
    """What the call raised: a skip or a failure (caught, so that a skip where a failure
    was due fails this test instead of skipping it)."""
    try:
        call()
    except (pytest.skip.Exception, pytest.fail.Exception) as exc:
        return exc
    raise AssertionError("neither skipped nor failed")


def _failed(call: Callable[[], Any]) -> str:
    outcome = _outcome(call)
    assert isinstance(outcome, pytest.fail.Exception), f"not a failure: {outcome!r}"
    return str(outcome)


def _skipped(call: Callable[[], Any]) -> str:
    outcome = _outcome(call)
    assert isinstance(outcome, pytest.skip.Exception), f"not a skip: {outcome!r}"
    return str(outcome)


@pytest.fixture
def no_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(shutil, "which", lambda name: None)  # the shutil lab asks


@pytest.mark.parametrize("value", ["true", "TRUE", "1", "yes"])
def test_a_missing_chromium_fails_under_ci(
    no_chromium: None, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CI", value)
    message = _failed(lambda: ci.skip_or_fail(lab.chromium_missing()))
    assert "Chromium not found" in message and "CI=true" in message


@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_a_missing_chromium_skips_elsewhere(
    no_chromium: None, monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert "Chromium not found" in _skipped(lambda: ci.skip_or_fail(lab.chromium_missing()))


def test_a_missing_playwright_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "CHROMIUM", sys.executable)  # a file that exists
    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setenv("CI", "true")
    assert "playwright" in _failed(lambda: ci.skip_or_fail(lab.chromium_missing()))


@pytest.mark.parametrize("value", ["true", "false"])
def test_nothing_missing_neither_skips_nor_fails(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """Called bare, a skip would only mark this test skipped: caught, it fails it."""
    monkeypatch.setenv("CI", value)
    try:
        ci.skip_or_fail(None)
    except (pytest.skip.Exception, pytest.fail.Exception) as exc:
        raise AssertionError(f"nothing is missing, yet it said {exc!r}") from None


def test_a_missing_nbval_fails_under_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "nbval", None)
    monkeypatch.setenv("CI", "true")
    message = _failed(lambda: ci.import_or_fail("nbval"))
    assert "'nbval'" in message and "CI=true" in message
    monkeypatch.setenv("CI", "false")
    assert "'nbval'" in _skipped(lambda: ci.import_or_fail("nbval"))


def test_a_present_module_is_returned() -> None:
    assert ci.import_or_fail("json") is sys.modules["json"]
