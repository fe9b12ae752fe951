"""`apart`: work done in a forked child while this process goes on, its result sent back.

The app's zygote builds, one after another, what every kernel shares (`app.held`): at
100,000 profiles some 10 s on one core while the machine's other core is mostly idle.
Some of it is a value of its own that pickles small and quickly (the profiles table: 12 MB,
0.15 s, against 1.5-1.9 s to build) and can be made in a fork, which shares the estate
copy-on-write, beside the rest. Python's threads would not run it
beside the rest (the GIL); a process pool would pickle the estate to a worker.

A fork is only made where it is safe: on a platform with `os.fork`, in a process running
no other thread (a thread's locks would be copied held). Elsewhere, and when the fork or
the child fails, the work is done in this process, so that its error, if any, is raised
here with its own traceback: nothing is lost, only the time.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["apart"]

T = TypeVar("T")


def apart(work: Callable[[], T]) -> Callable[[], T]:
    """Start `work` in a forked child and return what waits for its result (`work()`'s
    value, pickled back through a pipe). Where no fork is made (see the module), `work`
    runs when its result is asked for."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return work
    reading, writing = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # out of memory or processes: done here instead
        os.close(reading)
        os.close(writing)
        return work
    if pid == 0:  # the child: never returns
        _send(work, reading, writing)
    os.close(writing)
    return lambda: _received(work, pid, reading)


def _send(work: Callable[[], object], reading: int, writing: int) -> None:
    code = 1
    try:
        os.close(reading)
        # pickled whole before the first write: the pipe holds 64 KiB, and the parent
        # reads only once it asks for the result
        data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(writing, "wb") as out:
            out.write(data)
        code = 0
    finally:
        os._exit(code)  # no exit handlers, no flush of what the parent buffered


def _received(work: Callable[[], T], pid: int, reading: int) -> T:
    with os.fdopen(reading, "rb") as given:
        data = given.read()
    code = 0
    with contextlib.suppress(ChildProcessError):  # reaped already (SIGCHLD ignored)
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code != 0 or not data:  # the child failed: again here, where its error shows
        return work()
    result: T = pickle.loads(data)  # noqa: S301  (our own fork's, through our own pipe)
    return result
