"""Fixtures shared by the test modules.

A module asks for one by argument, or for all its tests with
`pytestmark = pytest.mark.usefixtures("no_sleep")`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

# In CI every property and schema test draws the same examples each run, so a landing is
# never decided by luck; elsewhere hypothesis explores anew (and remembers what failed).
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

pytest.register_assert_rewrite("tests.client_helpers")

from iptoolkit.client import _retry  # noqa: E402


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Retry waits become no-ops; the list records what was asked for."""
    delays: list[float] = []

    async def async_sleep(seconds: float) -> None:
        delays.append(seconds)

    monkeypatch.setattr(_retry, "sleep", delays.append)
    monkeypatch.setattr(_retry, "async_sleep", async_sleep)
    yield delays


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 60-profile demo snapshot on disk, for the command line's tests."""
    import iptoolkit as ipt

    path = tmp_path_factory.mktemp("cli") / "snapshot.json"
    ipt.demo_estate(n_profiles=60, seed=1).save(path)
    return path


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def no_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The watch's and its webhooks' back-off waits become no-ops; the list records what was
    asked for."""
    from iptoolkit.archive import notify, watch

    asked: list[float] = []
    monkeypatch.setattr(watch, "sleep", asked.append)
    monkeypatch.setattr(notify, "sleep", asked.append)
    return asked
