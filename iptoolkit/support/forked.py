"""`apart`: work done in a forked child while this process goes on, its result sent back.

The app's zygote builds, one after another, what every kernel shares (`app.held`): at
100,000 profiles some 10 s on one core while the machine's other core is mostly idle.
Some of it is a value of its own that pickles small and quickly (the profiles table: 12 MB,
0.15 s, against 1.5-1.9 s to build) and can be made in a fork, which shares the estate
copy-on-write, beside the rest. Python's threads would not run it
beside the rest (the GIL); a process pool would pickle the estate to a worker.

A fork is made only on a platform with `os.fork` and in a process running no other Python
thread (its locks would be copied held; native pools that mind forks themselves, such as
OpenBLAS's, are not counted). The child writes its pickled result to an unnamed file and
exits at once, so it holds no memory while this process goes on. Where no fork is made,
and when the fork or the child fails (its traceback on stderr, and a warning here with
its exit status), the work is done in this process, so that its error, if any, is raised
here with its own traceback: nothing is lost, only the time.
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from typing import IO, Generic, NoReturn, TypeVar

__all__ = ["Apart", "apart"]

T = TypeVar("T")

log = logging.getLogger(__name__)


class Apart(Generic[T]):
    """The work `apart` started: `result()` waits for it (once: the value is kept), and
    `close()` stops a child whose result is no longer wanted. A context manager."""

    def __init__(self, work: Callable[[], T], pid: int | None, out: IO[bytes] | None) -> None:
        self._work, self._pid, self._out = work, pid, out
        self._done = False
        self._value: T | None = None

    def result(self) -> T:
        """`work()`'s value: from the child, else (no fork, or the child failed) made here."""
        if not self._done:
            self._value = self._received() if self._pid is not None else self._work()
            self._done = True
        return self._value  # type: ignore[return-value]  # set above, T may hold None

    def close(self) -> None:
        """Stop the child if it still runs (its result unread), and let its file go."""
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:  # reaped already
                pass
            self._reap()
        if self._out is not None:
            self._out.close()
            self._out = None

    def __enter__(self) -> Apart[T]:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _received(self) -> T:
        code = self._reap()
        try:
            if code != 0:
                log.warning("the forked work failed (exit status %s): done here", code)
            elif self._out is not None:
                self._out.seek(0)
                value: T = pickle.load(self._out)  # noqa: S301  (our own fork's file)
                return value
        except Exception as exc:  # cut short (a child killed while SIGCHLD is ignored)
            log.warning("the forked work's result could not be read (%s): done here", exc)
        finally:
            self.close()
        return self._work()

    def _reap(self) -> int:
        """Wait for the child: its exit code (0 when it was reaped already, SIGCHLD
        ignored: the file then tells whether it finished)."""
        pid, self._pid = self._pid, None
        if pid is None:
            return 0
        try:
            return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        except ChildProcessError:
            return 0


def apart(work: Callable[[], T]) -> Apart[T]:
    """Start `work` in a forked child and return what waits for its result (see the
    module). Where no fork is made, `work` runs when its result is asked for."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return Apart(work, None, None)
    out = tempfile.TemporaryFile()
    try:
        pid = os.fork()
    except OSError:  # out of memory or processes: done here instead
        out.close()
        return Apart(work, None, None)
    except BaseException:
        out.close()
        raise
    if pid == 0:  # the child: never returns
        _send(work, out)
    return Apart(work, pid, out)


def _send(work: Callable[[], object], out: IO[bytes]) -> NoReturn:
    code = 1
    try:
        pickle.dump(work(), out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()
        code = 0
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
    finally:
        os._exit(code)  # no exit handlers, no flush of what the parent buffered
