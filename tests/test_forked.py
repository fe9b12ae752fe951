"""`support.forked.apart`: work done in a fork, its result pickled back, and done here
instead whenever a fork would not be safe or the child fails (said, not silent)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from iptoolkit.support.forked import apart

HEAD = (
    "import logging, os, signal, sys\n"
    "from iptoolkit.support.forked import apart\n"
    "logging.basicConfig(stream=sys.stdout, format='%(levelname)s %(message)s')\n"
    "parent = os.getpid()\n"
    "def in_child():\n    return os.getpid() != parent\n"
)


def _run_in_a_process_of_its_own(check: str) -> list[str]:
    """pytest-xdist's workers run threads, in which `apart` rightly makes no fork: the fork
    is checked in a fresh interpreter, which runs none. Its lines printed, the last "ok";
    what the child wrote on stderr is in the error."""
    result = subprocess.run(
        [sys.executable, "-c", HEAD + check + "print('ok')\n"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines and lines[-1] == "ok", result.stdout + result.stderr
    return lines[:-1] + ["stderr: " + line for line in result.stderr.splitlines()]


def test_the_work_runs_in_a_fork_and_its_result_comes_back() -> None:
    said = _run_in_a_process_of_its_own(
        "with apart(lambda: (os.getpid(), {'table': list(range(100_000))})) as pending:\n"
        "    pid, value = pending.result()\n"
        "    assert pending.result()[0] == pid, 'asked twice: the same result'\n"
        "assert pid != os.getpid(), 'not forked'\n"
        "assert value == {'table': list(range(100_000))}\n"
    )
    assert said == []  # no warning: nothing done twice


@pytest.mark.parametrize(
    ("failing", "warned"),
    [
        ("raise RuntimeError('in the fork')", "failed (exit status 1)"),
        ("os.kill(os.getpid(), signal.SIGKILL)", "failed (exit status -9)"),
        ("return lambda: 0  # cannot be pickled", "failed (exit status 1)"),
    ],
)
def test_a_child_that_fails_is_said_and_the_work_done_again_here(
    tmp_path: Path, failing: str, warned: str
) -> None:
    marker = tmp_path / "forked"
    said = _run_in_a_process_of_its_own(
        "def work():\n"
        "    if in_child():\n"
        f"        open({str(marker)!r}, 'w').close()\n"
        f"        {failing}\n"
        "    raise ValueError('here, with its traceback')\n"
        "pending = apart(work)\n"
        "try:\n    pending.result()\n"
        "except ValueError as exc:\n    assert str(exc) == 'here, with its traceback'\n"
        "else:\n    raise AssertionError('no error')\n"
    )
    assert marker.exists(), "no fork was made"
    assert f"WARNING the forked work {warned}: done here" in said
    if "RuntimeError" in failing:  # the child's own error, on stderr
        assert "stderr: RuntimeError: in the fork" in said


def test_a_result_no_longer_wanted_stops_the_child() -> None:
    said = _run_in_a_process_of_its_own(
        "import time\n"
        "pending = apart(lambda: time.sleep(60))\n"
        "pid = pending._pid\n"
        "started = time.monotonic()\n"
        "pending.close()\n"
        "assert time.monotonic() - started < 10, 'waited for the child'\n"
        "try:\n    os.kill(pid, 0)\n"
        "except ProcessLookupError:\n    pass\n"
        "else:\n    raise AssertionError('the child still runs')\n"
    )
    assert said == []


def test_with_another_thread_running_no_fork_is_made() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with apart(os.getpid) as pending:
            assert pending.result() == os.getpid()
    finally:
        stop.set()
        other.join()


def test_an_error_without_a_fork_is_raised_when_the_result_is_asked_for() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        pending = apart(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            pending.result()
    finally:
        stop.set()
        other.join()
