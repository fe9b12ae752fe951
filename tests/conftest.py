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

RUN_FIRST = (
    "tests/browser/test_app_team_browser.py",
    "tests/test_binder.py",
    "tests/test_docsite.py",
    "tests/browser/test_labels_browser.py",
    "tests/test_notebooks.py",
    "tests/browser/test_topology_browser.py",
    "tests/browser/test_explorer_browser.py",
    "tests/test_hostile_outputs.py",
    "tests/browser/test_app_browser.py",
    "tests/test_floods.py",
)
"""The files that take longest (`pytest --durations=60`, quiet machine: 133 s, 77 s, 51 s
...), sent to the workers first: `make test` hands out whole files (`--dist loadfile`,
`--no-loadscope-reorder`), and a long file started last kept one core busy for minutes
after the other had finished."""


CHILDREN_MEASURED = frozenset(
    {
        "tests/test_app.py",
        "tests/test_app_address.py",
        "tests/test_app_first_view.py",
        "tests/test_app_guard.py",
        "tests/test_app_zygote.py",
        "tests/test_floods.py",
        "tests/browser/test_app_browser.py",
        "tests/browser/test_a11y_app_browser.py",
        "tests/test_mcp.py",
        "tests/test_mcp_archive.py",
        "tests/test_server_cli.py",
        "tests/test_watch.py",
        "tests/test_watch_hostile.py",
    }
)
"""The files whose children coverage measures (`make test`): the app (its Voila, zygote
and kernels), the MCP server, the reference server's runner and `watch` run code there
that no test reaches in-process. Other tests' children (the command line run again and
again, JupyterLab and its kernels, docs builds) run code the tests reach in-process too,
and tracing them cost a third of the suite's CPU."""


@pytest.fixture(scope="module", autouse=True)
def children_measured_where_needed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Coverage's subprocess patch (`pyproject.toml`) hands its settings to every child
    through COVERAGE_PROCESS_CONFIG; outside `CHILDREN_MEASURED` the variable is
    withdrawn for the module (before its fixtures start their servers, an autouse fixture
    coming first in its scope), so its children run untraced."""
    module = request.path.relative_to(request.config.rootpath).as_posix()
    if "COVERAGE_PROCESS_CONFIG" not in os.environ or module in CHILDREN_MEASURED:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("COVERAGE_PROCESS_CONFIG")
        yield


NBVAL_HERE = "tests/test_notebooks.py::test_notebooks_pass_nbval"
NBVAL_IN_BINDER = "tests/test_binder.py::test_binder_environment_runs_the_notebooks"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest files first (`RUN_FIRST`), the rest in their order: the same order on
    every worker, as xdist requires. The notebooks run under nbval once a run: in the
    Binder test's environment when that test runs (it is the stricter: only what Binder
    installs), in this one otherwise (`-m "not slow"`); twice cost a minute of a core."""
    rank = {name: index for index, name in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    ids = {item.nodeid for item in items}
    if NBVAL_IN_BINDER in ids:
        for item in items:
            if item.nodeid == NBVAL_HERE:
                item.add_marker(
                    pytest.mark.skip(reason=f"the notebooks run under nbval in {NBVAL_IN_BINDER}")
                )


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
