"""Skips that become failures under CI: a green CI run means the browser tests and the
notebooks really ran.

On a developer's machine a missing Chromium, playwright or nbval skips the tests that need
it (with the reason). Under `CI=true` (GitHub Actions, `.ci/run` in CI) the same absence
fails the test, so a runner that lost Chromium cannot pass by skipping.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

__all__ = ["in_ci", "skip_or_fail", "import_or_fail"]


def in_ci() -> bool:
    """True when the `CI` variable says so (`true`, `1`, `yes`; any case)."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def skip_or_fail(reason: str | None) -> None:
    """Skip with `reason` (nothing when None); under CI, fail with it instead."""
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"{reason} (CI=true: a skip would hide that these tests never ran)")
    pytest.skip(reason)


def import_or_fail(name: str) -> ModuleType:
    """`pytest.importorskip`, failing under CI: the module, or a skip (a failure in CI)."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        skip_or_fail(f"could not import {name!r}: {exc}")
        raise  # unreachable: skip_or_fail raised
