"""The app's zygote: one process holds the estate, and each kernel is a fork of it.

A kernel of its own per tab read the snapshot and built the Explorer's model again: at
100,000 profiles about 1.75 GB and 15 s each, so a tab could not be live in seconds and
each one cost a whole estate. The zygote (`python -m iptoolkit.app.zygote FD VERDICT_FD`,
started by `iptoolkit explore` through `runner.start`) loads the snapshot once, says
whether it could (`verdict`: the command refuses a bad snapshot with the zygote's words,
so the estate is read once in all), builds what every page reads (`held.hold`), imports
what a kernel imports, and draws the first view (`first_view`), the collector paused, then
freezes it all (`gc.freeze`: the collector never walks, so never writes to, what the
zygote built). Then it forks a kernel for each request
(`fork_provisioner`, asked by Voila's kernel manager): the child shares the zygote's pages
copy-on-write and becomes an ipykernel on the connection file it was given, and its
`page.show` finds the estate held (`held.held`).

Requests come on a Unix socket in a folder only this user reaches (`start` binds it and
hands it over as FD), one JSON line each, answered with one line: `{"kernel": {"args", "env",
"cwd"}}` forks a kernel (`{"pid": N}`); `{"first_view": true}` asks for the drawing
(`{"html": ...}`, null when there is none), with `"filter": FILTER_JSON` the overview of
what that filter keeps, drawn and answered by a fork. The zygote serves one request at a
time (a fork takes milliseconds) and starts no thread, so that a fork copies a consistent
process.
It dies with the command (`guard.die_with_parent`), and each kernel with it.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..support import env
from ..support.error_line import one_line
from ..support.long_lived import freeze
from . import guard

if TYPE_CHECKING:
    from ..core.estate import Estate
    from .held import Held

__all__ = [
    "PROCESS_NAME",
    "MAX_REQUEST",
    "DRAW_WITHIN",
    "SnapshotError",
    "Zygote",
    "start",
    "verdict",
    "stop",
    "request",
    "prepare",
    "serve",
    "main",
]

PROCESS_NAME = "ipt-kernel"
"""A forked kernel's name in `ps` and `top` (its command line is the zygote's)."""
DRAW_WITHIN = 120
"""Seconds a fork drawing a filter's first view may take before it is ended (the page
waits far less: `server.FILTERED_WAIT`)."""
MAX_REQUEST = 4 << 20
"""Bytes a request line may hold: a kernel's environment, with room to spare."""
_PRELOADED = (
    "ipykernel.kernelapp",
    "ipywidgets",
    "iptoolkit.widgets",
    "iptoolkit.app.address",
    "iptoolkit.app.page",
)
"""What every kernel imports to show the app: imported once, in the zygote."""


class SnapshotError(ValueError):
    """The zygote could not read the app's snapshot: its message says why, in one line."""


@dataclass
class Zygote:
    """A running zygote: its process, the socket that asks it (in `folder`), and the pipe
    on which it says whether it could read the snapshot (`verdict`)."""

    process: subprocess.Popen[bytes]
    folder: Path
    said: BinaryIO
    ending: bool = False
    """It said it could not read the snapshot (`verdict`), and is ending by itself."""

    @property
    def address(self) -> str:
        return str(self.folder / "zygote")


def start(environ: Mapping[str, str]) -> Zygote:
    """Start a zygote over the app's snapshot (`environ`'s `IPTOOLKIT_APP_SNAPSHOT`), dying
    with this process. It says how the load went at once (`verdict`), then answers
    requests once it has prepared: a request waits in the socket's queue meanwhile."""
    folder = Path(tempfile.mkdtemp(prefix="iptoolkit-zygote-"))  # 0700: this user's alone
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    reading, writing = os.pipe()
    try:
        listener.bind(str(folder / "zygote"))
        listener.listen(64)
        process = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.app.zygote", str(listener.fileno()), str(writing)],
            env=dict(environ),
            stdin=subprocess.DEVNULL,
            pass_fds=(listener.fileno(), writing),
            preexec_fn=_dies_with(os.getpid()),
        )
    except BaseException:
        os.close(reading)
        _remove(folder)
        raise
    finally:
        listener.close()  # the zygote's now
        os.close(writing)
    return Zygote(process, folder, os.fdopen(reading, "rb"))


def _dies_with(parent: int) -> Any:
    return lambda: guard.die_with_parent(parent)


def verdict(zygote: Zygote, timeout: float | None) -> int | None:
    """The number of profiles the zygote holds (None: no word within `timeout` seconds,
    still reading); `SnapshotError` when it could not read the snapshot."""
    ready, _, _ = select.select([zygote.said], [], [], timeout)
    if not ready:
        return None
    line = zygote.said.readline()
    if not line:
        code = zygote.process.wait()
        raise SnapshotError(f"the app's zygote stopped while reading (exit code {code})")
    said = json.loads(line)
    if "error" in said:
        zygote.ending = True
        raise SnapshotError(str(said["error"]))
    return int(said["profiles"])


def stop(zygote: Zygote, timeout: float = 10.0) -> None:
    """Stop the zygote (its kernels see it go and stop too) and remove its socket. One that
    is ending by itself is let end: a signal in its exit cut short what it was writing
    (under `make test`, coverage's data: a traceback on the command's stderr)."""
    if zygote.ending:
        with contextlib.suppress(subprocess.TimeoutExpired):
            zygote.process.wait(timeout)
    if zygote.process.poll() is None:
        zygote.process.terminate()
        try:
            zygote.process.wait(timeout)
        except subprocess.TimeoutExpired:
            zygote.process.kill()
            zygote.process.wait()
    zygote.said.close()
    _remove(zygote.folder)


def _remove(folder: Path) -> None:
    with contextlib.suppress(OSError):
        (folder / "zygote").unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()


def request(address: str, message: Mapping[str, Any], timeout: float | None) -> Any:
    """Send one request and return its answer (blocking: for a thread, or a test). The
    answer is read whole: the zygote is this app's own (the first view runs to megabytes)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(address)
        sock.sendall(json.dumps(message).encode("utf-8") + b"\n")
        with sock.makefile("rb") as answer:
            line = answer.readline()
    if not line:
        raise ConnectionError("the app's zygote closed the connection without an answer")
    return json.loads(line)


# -- the zygote's side ------------------------------------------------------------------------


def prepare(
    estate: Estate,
    key: tuple[str, int, int] | None,
    since: tuple[tuple[str, int, int], Estate] | None = None,
) -> Held:
    """Hold the estate (`held.hold`), with the older one `since`, and import what a
    kernel imports."""
    import importlib

    from .held import hold

    kept = hold(estate, key, since)
    for name in _PRELOADED:
        importlib.import_module(name)
    return kept


Draw = Callable[[str], str]
"""Draws the first view of a filter (its JSON, `Filter.to_json`) over the estate held."""


def serve(listener: socket.socket, drawing: str, draw: Draw | None = None) -> None:
    """Answer requests for ever (until a signal ends the process). `drawing` is the first
    view of everything; `draw` draws a filter's, in a fork (`_draw_apart`)."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # an ended kernel is reaped by the system
    while True:
        connection, _ = listener.accept()
        with connection:
            try:
                message = _read(connection)
            except (OSError, ValueError) as exc:
                _answer(connection, {"error": str(exc)})
                continue
            if "kernel" in message:
                try:
                    forked = _fork_kernel(message["kernel"], listener, connection)
                except OSError as exc:
                    _answer(connection, {"error": f"no kernel forked: {one_line(exc)}"})
                    continue
                _answer(connection, {"pid": forked})
            elif message.get("first_view") and message.get("filter") and draw is not None:
                _draw_apart(draw, str(message["filter"]), listener, connection)
            elif message.get("first_view"):
                _answer(connection, {"html": drawing or None})
            else:
                _answer(connection, {"error": "unknown request"})


def _draw_apart(
    draw: Draw, chosen: str, listener: socket.socket, connection: socket.socket
) -> None:
    """Answer with `draw(chosen)` from a fork: the zygote goes on forking kernels meanwhile
    (a filter's view takes seconds at 100,000 profiles), and the fork's work, its caches
    included, goes with it. It ends within `DRAW_WITHIN` seconds, and with the zygote."""
    try:
        if os.fork():
            return
    except OSError as exc:  # out of memory or processes: the page goes without it
        _answer(connection, {"html": None, "error": one_line(exc)})
        return
    code = 1
    try:
        guard.die_with_parent(os.getppid())
        signal.alarm(DRAW_WITHIN)  # its default action ends the process
        listener.close()
        try:
            _answer(connection, {"html": draw(chosen) or None})
        except Exception as exc:  # noqa: BLE001  (the page goes without it)
            _answer(connection, {"html": None, "error": one_line(exc)})
        code = 0
    finally:
        os._exit(code)


def _read(connection: socket.socket) -> dict[str, Any]:
    with connection.makefile("rb") as lines:
        line = lines.readline(MAX_REQUEST)
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("a request is a JSON object")
    return message


def _answer(connection: socket.socket, message: Mapping[str, Any]) -> None:
    with contextlib.suppress(OSError):  # the asker went: nothing to tell
        connection.sendall(json.dumps(message).encode("utf-8") + b"\n")


def _fork_kernel(kernel: Mapping[str, Any], *inherited: socket.socket) -> int:
    """Fork; the child becomes the kernel (and never returns), the zygote gets its pid."""
    zygote = os.getpid()
    pid = os.fork()  # an OSError (out of memory) is answered by `serve`: it goes on
    if pid:
        return pid
    code = 1
    try:
        for sock in inherited:
            sock.close()
        _become_kernel(kernel, zygote)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def _become_kernel(kernel: Mapping[str, Any], zygote: int) -> None:
    """In the forked child: a process of its own (group, name, environment, folder), then
    an ipykernel on the connection file in `kernel["args"]`, until it is shut down."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # a kernel's subprocesses are its own
    os.setsid()  # a group of its own: Voila signals (interrupts, kills) the kernel's group
    guard.die_with_parent(zygote)
    _name_process(PROCESS_NAME)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(kernel["env"]).items()})
    os.chdir(str(kernel.get("cwd") or os.getcwd()))
    random.seed()  # not the zygote's sequence, shared by every kernel
    gc.enable()
    import ipywidgets
    from ipykernel.kernelapp import IPKernelApp

    # its poller watches the zygote (ipykernel read JPY_PARENT_PID when the zygote imported it)
    args = [f"--IPKernelApp.parent_handle={zygote}", *(str(arg) for arg in kernel["args"])]
    app = IPKernelApp.instance()
    app.initialize(args)  # type: ignore[no-untyped-call]  # ipykernel: untyped
    # ipywidgets registers its comm targets when imported inside IPython; the zygote
    # imported it before any kernel was. Without `jupyter.widget.control` a page's widget
    # manager asks each of some 300 widgets' state apart: a second and more of a tab's
    # start. (Registered here, after the kernel exists: no profile's config overrides it.)
    ipywidgets.register_comm_target()
    app.start()  # type: ignore[no-untyped-call]


def _name_process(name: str) -> None:
    """The name `ps` and `top` show (Linux `prctl(PR_SET_NAME)`); elsewhere, nothing."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(15, name.encode()[:15], 0, 0, 0)  # 15: PR_SET_NAME


def main(argv: list[str] | None = None) -> int:
    """`python -m iptoolkit.app.zygote FD VERDICT_FD`: read the snapshot and say how it
    went on VERDICT_FD (a JSON line: `profiles`, or the `error` in one line), prepare,
    freeze, then serve on socket FD."""
    from ..models import gc_paused

    args = sys.argv[1:] if argv is None else argv
    listener = socket.socket(fileno=int(args[0]))
    began = time.monotonic(), time.process_time()
    # millions of objects and no cycle worth a scan; at 100,000 profiles a last collection
    # would walk them all for seconds, so what is left is frozen as it is
    with gc_paused():
        prepared = _prepared(int(args[1]))
    if prepared is None:
        return 1
    drawing, draw = prepared
    freeze()  # never walked again by the collector: its pages stay shared with kernels
    print(
        f"iptoolkit: the estate read and prepared in {time.monotonic() - began[0]:.1f} s "
        f"(CPU {time.process_time() - began[1]:.1f} s); kernels are forked from it",
        file=sys.stderr,
        flush=True,
    )
    try:
        serve(listener, drawing, draw)
    except KeyboardInterrupt:
        return 0
    return 0


def _prepared(verdict: int) -> tuple[str, Draw] | None:
    """Read the snapshot, say how it went on the pipe `verdict`, prepare (`prepare`) and
    draw the first view: its HTML ("" when it cannot be drawn) and what draws a filter's,
    or None when the snapshot could not be read."""
    from ..core.selection import Filter
    from ..models import ParseError
    from .first_view import first_view_html
    from .held import snapshot_key
    from .page import _estate

    path = os.environ.get(env.APP_SNAPSHOT) or None
    with os.fdopen(verdict, "w", encoding="utf-8") as said:
        try:
            key = snapshot_key(path)
            estate = _estate(path)
        except (OSError, ValueError, ParseError) as exc:  # the command says it, and stops
            said.write(json.dumps({"error": one_line(exc)}) + "\n")
            return None
        try:
            since = _since(os.environ.get(env.APP_SINCE) or None)
        except (OSError, ValueError, ParseError) as exc:  # as the snapshot: before any page
            said.write(json.dumps({"error": f"--since: {one_line(exc)}"}) + "\n")
            return None
        said.write(json.dumps({"profiles": len(estate)}) + "\n")
    kept = prepare(estate, key, since)

    def draw(chosen: str) -> str:
        return first_view_html(
            kept.estate, path, model=kept.model, chosen=Filter.model_validate_json(chosen)
        )

    try:
        return first_view_html(kept.estate, path, model=kept.model), draw
    except Exception as exc:  # noqa: BLE001  (the pages work without it: Voila's alone)
        print(f"iptoolkit: no first view: {one_line(exc)}", file=sys.stderr)
        return "", draw


def _since(path: str | None) -> tuple[tuple[str, int, int], Estate] | None:
    """The older snapshot of `explore --since` (its key and estate), read once here so
    that a bad one is refused before the app starts, and shared by every kernel."""
    if path is None:
        return None
    from ..core.estate import load
    from .held import snapshot_key

    key = snapshot_key(path)  # before it is read, as the snapshot's
    return None if key is None else (key, load(path))


if __name__ == "__main__":
    sys.exit(main())
