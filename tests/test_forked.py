"""`support.forked.apart`: work done in a fork, its result pickled back, and done here
instead whenever a fork would not be safe or the child fails."""

from __future__ import annotations

import os
import threading

import pytest

from iptoolkit.support.forked import apart


def _run_in_a_process_of_its_own(check: str) -> None:
    """pytest-xdist's workers run threads, in which `apart` rightly makes no fork: the fork
    is checked in a fresh interpreter, which runs none."""
    import subprocess
    import sys

    code = "from iptoolkit.support.forked import apart\nimport os\n" + check
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok", result.stdout + result.stderr


def test_the_work_runs_in_a_fork_and_its_result_comes_back() -> None:
    _run_in_a_process_of_its_own(
        "collect = apart(lambda: (os.getpid(), {'table': list(range(100_000))}))\n"
        "pid, value = collect()\n"
        "assert pid != os.getpid(), 'not forked'\n"
        "assert value == {'table': list(range(100_000))}\n"
        "print('ok')\n"
    )


def test_a_child_that_fails_has_the_work_done_again_here_with_its_error() -> None:
    _run_in_a_process_of_its_own(
        "parent = os.getpid()\n"
        "def work():\n"
        "    if os.getpid() != parent:\n"
        "        raise RuntimeError('in the fork')\n"
        "    raise ValueError('here, with its traceback')\n"
        "collect = apart(work)\n"
        "try:\n    collect()\n"
        "except ValueError as exc:\n    assert str(exc) == 'here, with its traceback'\n"
        "else:\n    raise AssertionError('no error')\n"
        "print('ok')\n"
    )


def test_with_another_thread_running_no_fork_is_made() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        collect = apart(os.getpid)
        assert collect() == os.getpid()
    finally:
        stop.set()
        other.join()


def test_an_error_without_a_fork_is_raised_when_the_result_is_asked_for() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        collect = apart(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            collect()
    finally:
        stop.set()
        other.join()
