"""Running Voila on the app's notebook: on loopback, on one port, stopped cleanly.

Voila runs in a child process of its own session, so a Ctrl-C reaches the command alone,
which then asks Voila to stop (SIGTERM: Voila shuts its kernels down, then exits) and
waits; only a Voila that does not stop in time is killed. A port already taken is refused
before Voila starts (and `port_retries=0` keeps Voila from moving to another one).
"""

from __future__ import annotations

import errno
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..support import env
from . import guard, zygote

__all__ = [
    "NOTEBOOK",
    "HOST",
    "DEFAULT_PORT",
    "FREE_AFTER",
    "IOPUB_WAIT",
    "cull_timings",
    "PortInUseError",
    "SnapshotError",
    "App",
    "check_port",
    "command",
    "start",
    "stop",
]

NOTEBOOK = Path(__file__).with_name("explorer.ipynb")
"""The app's notebook, shipped in the package, which Voila runs."""
HOST = "127.0.0.1"
DEFAULT_PORT = 8866
"""Voila's own default port."""
STOP_TIMEOUT = 20.0
"""Seconds Voila gets to shut its kernels down before it is killed."""
MAX_SESSIONS = 20
"""Pages `iptoolkit explore` serves at once by default (`--max-sessions`): each holds a
kernel of a few hundred MB at 100,000 profiles, and a loop over a shared link must not
start kernels until the machine runs out of memory (0 lifts the cap)."""
FREE_AFTER = 55
"""Seconds within which the kernel of a tab that died without telling Voila (a crashed or
killed browser, a lost network) is shut down: idle `cull_idle_timeout` seconds with no
page connected, checked every `cull_interval` (see `cull_timings`). A closed or reloaded
tab does tell Voila, and its kernel goes at once; a tab left open keeps its kernel however
long it sits idle (`cull_connected=False`). A page handed a kernel has
`server.CONNECT_GRACE` seconds to connect to it before the culler may take it (a
10,000-profile page takes a few seconds, more on a busy machine), so a tab lost before
its page connected frees its kernel within that grace and one interval."""


def cull_timings(free_after: int) -> tuple[int, int]:
    """The culler's idle timeout and interval that free a dead tab's kernel within
    `free_after` seconds: the idle timeout, then at most one interval until the next check
    (two thirds and one third)."""
    if free_after < 3:
        raise ValueError(f"free_after: at least 3 seconds, not {free_after}")
    interval = max(free_after // 3, 1)
    return free_after - interval, interval


IOPUB_WAIT = 120
"""Seconds Voila waits for a cell's output after the kernel said the cell ran (nbclient's
`iopub_timeout`, 4 s by default). Past it, the output is dropped with a "Timeout waiting for
IOPub output" warning: on a busy machine the Explorer's widget message came later than 4 s,
and its page showed no Explorer at all. A cell that shows nothing costs no wait (the
kernel's idle message ends it)."""
POOL_SIZE = 1
"""Kernels Voila keeps started, the app's notebook already run in them (preheated), so that
a page's live view waits for no kernel start and no load (see `session_options`)."""


REFILL_AFTER = 3.0
"""Seconds after a page takes the preheated kernel before the pool starts the next one
(Voila's default is 1 s). The refill runs the notebook in a new kernel, some 2 s of CPU at
100,000 profiles; started at once, it competed on a two-core machine with the page it was
refilled for, which itself becomes live about 2.5 s after it is asked for (live 1.9-2.6 s
with 3 s, 2.3-2.7 s with Voila's 1 s: `benchmarks/bench_app_100k.py`). The cost: Voila
puts the waiting refill in the pool at once, so a second tab opened within those seconds
waits for it, up to 2 s longer than with 1 s."""


class PortInUseError(OSError):
    """The port asked for is taken by another program."""


SnapshotError = zygote.SnapshotError
"""The app's snapshot cannot be read (the zygote's words, one line)."""
READ_TIMEOUT = 900.0
"""Seconds the zygote may take to read the snapshot (100,000 profiles on a busy machine)."""
REFUSED_WITHIN = 3.0
"""Seconds Voila waits for the zygote's word on the snapshot before starting beside it: a
bad file is refused before Voila says a word, a large one is read while Voila starts."""


@dataclass
class App:
    """A running Voila: its address (with the token) and process."""

    url: str
    process: subprocess.Popen[bytes]
    config: Path | None = field(default=None, repr=False)
    """The private folder holding Voila's config (the token); removed by `stop`."""
    zygote: zygote.Zygote | None = field(default=None, repr=False)
    """The process holding the estate, which forks the kernels (`app.zygote`)."""
    profiles: int | None = None
    """How many profiles the zygote read (None: no zygote)."""


def check_port(port: int) -> int:
    """The port to serve on (a free one for 0); `PortInUseError` when it is taken."""
    with socket.socket() as sock:
        try:
            sock.bind((HOST, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise PortInUseError(
                    exc.errno,
                    f"port {port} on {HOST} is in use (choose another with --port, or 0 for any)",
                ) from None
            raise
        return int(sock.getsockname()[1])


def command(
    port: int,
    notebook: Path = NOTEBOOK,
    config: Path | None = None,
    *,
    max_sessions: int = 0,
    preheat: bool = True,
    free_after: int = FREE_AFTER,
    zygote_address: str | None = None,
) -> list[str]:
    """The Voila command line: loopback only, this port only, no browser of its own; the
    app's Voila (`app.server`) with the session options of `session_options`; with
    `config`, the folder of its `voila.json` (the token and the Host check, `guard`); with
    `zygote_address`, its kernels forked from the zygote there (`app.zygote`)."""
    return [
        sys.executable,
        "-m",
        "iptoolkit.app.server",
        str(notebook),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={HOST}",
        "--Voila.port_retries=0",
        # kernels on Unix sockets in Voila's private folder, not TCP: only this user
        # reaches them, and no kernel logs that its traffic could be overheard
        "--KernelManager.transport=ipc",
        f"--VoilaExecutor.iopub_timeout={IOPUB_WAIT}",
        *session_options(max_sessions=max_sessions, preheat=preheat, free_after=free_after),
        # the first view draws the app's overview: another notebook gets none
        *([] if notebook == NOTEBOOK else ["--ExplorerVoila.first_view=False"]),
        *([f"--ExplorerVoila.zygote={zygote_address}"] if zygote_address else []),
        *([f"--Voila.config_file_paths={config}"] if config is not None else []),
    ]


def session_options(
    *, max_sessions: int = 0, preheat: bool = True, free_after: int = FREE_AFTER
) -> list[str]:
    """What keeps an app up for a team: kernels without a page culled within `free_after`
    seconds (never one whose page is still connected, however idle), a cap on sessions (0:
    none), and `POOL_SIZE` preheated kernels (one more kernel's memory, for a live view
    about three times sooner: at 10,000 profiles about 5 s after the page is opened
    instead of 14, `benchmarks/bench_app_first_view.py`; the drawn first view of
    `app.first_view` comes before either), refilled `REFILL_AFTER` seconds after a page
    takes one."""
    idle, interval = cull_timings(free_after)
    options = [
        f"--MappingKernelManager.cull_idle_timeout={idle}",
        f"--MappingKernelManager.cull_interval={interval}",
        "--MappingKernelManager.cull_connected=False",
        "--MappingKernelManager.cull_busy=False",
        f"--max-sessions={max_sessions}",
    ]
    if preheat:
        options += [
            "--preheat_kernel=True",
            f"--pool_size={POOL_SIZE}",
            f"--VoilaKernelManager.fill_delay={REFILL_AFTER}",
        ]
    return options


def start(
    port: int,
    environ: Mapping[str, str],
    *,
    notebook: Path = NOTEBOOK,
    timeout: float = 60.0,
    max_sessions: int = 0,
    preheat: bool = True,
    free_after: int = FREE_AFTER,
    fork: bool = True,
) -> App:
    """Start Voila on `notebook` (the app's unless told) and wait until it accepts
    connections (it starts a kernel per page; see `session_options`). Only a caller with
    the token in `App.url` and a loopback Host may use it; it dies with this process (see
    `guard`).

    The app's notebook gets a zygote (`app.zygote`) that reads the snapshot once and forks
    every kernel from it (`fork=False`: each kernel reads it, as Voila alone does). A
    snapshot it cannot read is `SnapshotError`: before Voila starts when the zygote says so
    within `REFUSED_WITHIN` seconds (a bad file), else once it does (Voila stopped)."""
    token = guard.new_token()
    config = guard.write_config(token)
    # the kernels' "Copy link" adds it (`app.address`); an environment is private to its
    # user, unlike a command line
    environ = {**environ, env.APP_TOKEN: token}
    forking = zygote.start(environ) if fork and notebook == NOTEBOOK else None
    try:
        profiles = zygote.verdict(forking, REFUSED_WITHIN) if forking is not None else None
        process = subprocess.Popen(
            command(
                port,
                notebook,
                config,
                max_sessions=max_sessions,
                preheat=preheat,
                free_after=free_after,
                zygote_address=forking.address if forking is not None else None,
            ),
            env=dict(environ),
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            preexec_fn=functools.partial(guard.die_with_parent, os.getpid()),
        )
    except BaseException:
        if forking is not None:
            zygote.stop(forking)
        shutil.rmtree(config, ignore_errors=True)
        raise
    app = App(f"http://{HOST}:{port}/?token={token}", process, config, forking, profiles)
    try:
        if forking is not None and profiles is None:
            app.profiles = zygote.verdict(forking, READ_TIMEOUT)
            if app.profiles is None:
                raise TimeoutError(f"the snapshot was not read within {READ_TIMEOUT:.0f} s")
        _wait_listening(app, port, timeout)
    except BaseException:  # Ctrl-C while waiting: Voila is in its own session, stop it
        stop(app)
        raise
    return app


def _wait_listening(app: App, port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.process.poll() is not None:
            raise RuntimeError(f"Voila stopped at start (exit code {app.process.returncode})")
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"Voila did not answer on {app.url} within {timeout:.0f} s")


def stop(app: App, timeout: float = STOP_TIMEOUT) -> int:
    """Ask Voila to stop (it shuts its kernels down) and wait, killing it if it hangs; then
    stop the zygote."""
    process = app.process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    if app.zygote is not None:  # after Voila, which shut the kernels it forked down
        zygote.stop(app.zygote)
    if app.config is not None:
        shutil.rmtree(app.config, ignore_errors=True)
    return process.returncode
