"""`iptoolkit mcp --http` and `iptoolkit explore` against floods of connections that never
finish their headers (issue 44, findings 5 and 6), run as it happened: the commands as
processes on 127.0.0.1, their open-file limit lowered (`RLIMIT_NOFILE`) so that a few
hundred stalled connections exhaust it, and real sockets.

Before: `mcp --http` exited ("Too many open files": asyncio's traceback for a failed
accept, which the MCP SDK's rich log handler could not render without a file, ended the
loop); the app logged a traceback per turn of its loop and answered nothing while the flood
held. Now each holds a capped number of connections, closes the oldest stalled one for a
new one and the rest after the header deadline (`hardening/`, `app/connections.py`), keeps
answering, and logs a line a minute. Two tests also use up the descriptors with files, as
something else in the process could, so that accepting fails outright (EMFILE): the server
waits, says so once, and answers again once the flood lets descriptors go.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

import iptoolkit as ipt
from iptoolkit.hardening.flood_log import ACCEPT_FAILED, FloodLog

from .browser.lab import printed_app_url, stop_explore
from .test_app import _kill_leftovers

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="open-file limits are POSIX")

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "flood-test-" + "t" * 32
MCP_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "flood-test", "version": "1"},
    },
}
MCP_HEADERS = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream"}
HEADER_TIMEOUT = 10.0
"""Both servers' deadline for a request's line and headers."""
WAIT = 60.0
"""The most any condition below is waited for: generous, on a busy machine."""


def environment(**variables: str) -> dict[str, str]:
    """This process's environment, running this checkout's code (a worktree's too), its
    log lines unwrapped (the MCP SDK's rich handler wraps at 80 columns otherwise)."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400", **variables}


def limited_to(open_files: int) -> Callable[[], None]:
    """A `preexec_fn` giving the child (and what it starts) at most `open_files` descriptors."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    return limit


def alive(process: subprocess.Popen[bytes], log: Path) -> bool:
    """True, or a failure with the end of the server's log."""
    assert process.poll() is None, log.read_text(errors="replace")[-3000:]
    return True


def wait_for(condition: Callable[[], bool], what: str, *, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout:g} s: {what}"
        time.sleep(0.2)


def stall(port: int, count: int, request: bytes) -> list[socket.socket]:
    """`count` connections that each send `request` (a request line and a header, never the
    blank line that ends the headers) and then nothing, opened one after the other; fewer
    if the server stops taking them. A pause after every ten lets the server accept them:
    its listen queue is short under a low open-file limit (16 at 256 files), and a
    connection the queue cannot take waits a second for the kernel's retry."""
    stalled: list[socket.socket] = []
    try:
        for index in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            stalled.append(sock)
            sock.sendall(request)
            if index % 10 == 9:
                time.sleep(0.02)
    except OSError:  # refused (the server is gone) or never accepted (its queue is full)
        pass
    for sock in stalled:
        sock.setblocking(False)
    return stalled


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(65536) == b""
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()


def accept_failed(log: Path) -> bool:
    """The server's log says accepting failed: its line a minute, or a traceback of old."""
    text = log.read_text(errors="replace")
    return ACCEPT_FAILED in text or "Too many open files" in text


def assert_quiet(log: Path, *, limit: int = 25) -> str:
    """The server's log holds a few lines, and no traceback (once: one per failed accept)."""
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "Too many open files" not in text, text[-3000:]
    assert len(text.splitlines()) < limit, text[-3000:]
    return text


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("flood") / "snapshot.json"
    ipt.demo_estate(40, seed=7).save(path)
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- iptoolkit mcp --http ------------------------------------------------------------------


@contextmanager
def mcp_http(
    command: list[str], log: Path, *, open_files: int
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A server started by `command` (`iptoolkit mcp ... --http`), its address once it
    answers the token's holder; stopped at the end."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=out,
            env=environment(IPTOOLKIT_MCP_TOKEN=TOKEN),
            preexec_fn=limited_to(open_files),
        )
    try:
        found: list[str] = []

        def started() -> bool:
            alive(process, log)
            found[:] = re.findall(r"http://127\.0\.0\.1:\d+/mcp", log.read_text())
            return bool(found) and mcp_answers(found[0])

        wait_for(started, "the MCP server answers")
        yield process, found[0]
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def mcp_answers(base: str) -> bool:
    """A client with the token starts a session (200), as an assistant does first."""
    try:
        answer = httpx.post(base, json=MCP_INITIALIZE, headers=MCP_HEADERS, timeout=10)
    except httpx.TransportError:
        return False
    return answer.status_code == 200 and '"result"' in answer.text


def port_of(address: str) -> int:
    return int(address.rsplit(":", 1)[1].split("/")[0])


@pytest.mark.slow
def test_mcp_http_answers_through_a_flood_of_stalled_connections(
    snapshot: Path, tmp_path: Path
) -> None:
    """400 token-less connections stalled in their headers against a limit of 256 open
    files (before: the command exited): a session starts while they hold, each is closed
    (the oldest at once beyond the cap, the rest after the header deadline), the process
    lives on, and a session starts at once after them."""
    log = tmp_path / "mcp.log"
    command = [sys.executable, "-m", "iptoolkit.cli", "mcp", str(snapshot), "--http", "0"]
    with mcp_http(command, log, open_files=256) as (process, base):
        partial = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        stalled = stall(port_of(base), 400, partial)
        try:
            assert len(stalled) == 400 and alive(process, log)
            assert mcp_answers(base), log.read_text()[-3000:]  # while the flood holds
            wait_for(
                lambda: alive(process, log) and all(closed_by_server(s) for s in stalled),
                "the server closes every stalled connection",
                timeout=HEADER_TIMEOUT + WAIT,
            )
        finally:
            close_all(stalled)
        wait_for(lambda: mcp_answers(base), "a session after the flood", timeout=30)
    text = assert_quiet(log)
    assert "the open-file limit is 256: at most 144 open connections" in text  # fitted, said


MCP_HOGGED = """
import os, socket, sys, threading, time
from pathlib import Path
from iptoolkit.mcp import Store, build_server
from iptoolkit.mcp.http import serve_http

snapshot, port, left = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
held = []

def hold_descriptors():
    # once the server answers: every descriptor but `left` held, as files or another
    # library might, so that accepting a connection fails outright (EMFILE)
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(0.5)
    try:
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        pass
    for _ in range(left):
        os.close(held.pop())
    print("descriptors held", file=sys.stderr, flush=True)

threading.Thread(target=hold_descriptors, daemon=True).start()
serve_http(
    build_server(Store.from_paths([Path(snapshot)])),
    port,
    os.environ["IPTOOLKIT_MCP_TOKEN"],
    lambda address: print("iptoolkit mcp:", address, file=sys.stderr, flush=True),
)
"""


def test_mcp_http_survives_running_out_of_descriptors(snapshot: Path, tmp_path: Path) -> None:
    """Descriptors held elsewhere in the process, so that accepting fails (EMFILE) under 20
    stalled connections (before: the SDK's log handler failed to render the traceback and
    the loop ended): the server lives, says so in a line, and serves once they close."""
    log = tmp_path / "mcp.log"
    port = free_port()
    command = [sys.executable, "-c", MCP_HOGGED, str(snapshot), str(port), "8"]
    with mcp_http(command, log, open_files=256) as (process, base):
        wait_for(
            lambda: alive(process, log) and "descriptors held" in log.read_text(),
            "the descriptors are held",
        )
        stalled = stall(port, 20, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            wait_for(lambda: alive(process, log) and accept_failed(log), "accepting fails")
            time.sleep(1.0)  # the loop meets the failure again and again meanwhile
            alive(process, log)
        finally:
            close_all(stalled)
        wait_for(
            lambda: alive(process, log) and mcp_answers(base),
            "a session once the descriptors are free",
            timeout=30,
        )
    assert_quiet(log)


# -- iptoolkit explore -----------------------------------------------------------------------


def app_answers(base: str, token: str) -> bool:
    """A script the app's page loads, asked for with the token, arrives (200)."""
    try:
        answer = httpx.get(f"{base}/voila/static/voila.js", params={"token": token}, timeout=10)
    except httpx.TransportError:
        return False
    return answer.status_code == 200


@pytest.mark.slow
def test_explore_answers_through_a_flood_of_stalled_connections(
    snapshot: Path, tmp_path: Path
) -> None:
    """600 token-less connections stalled in their headers against a limit of 512 open
    files (before: a traceback per turn of the loop, and nothing answered while they held):
    the app's script still arrives, each stalled connection is closed (the oldest at once
    beyond the cap, the rest after the header deadline), Voila lives on, and answers at
    once after them."""
    port, log = free_port(), tmp_path / "explore.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.cli", "explore", str(snapshot), "--no-browser",
             "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, start_new_session=True,
            env=environment(), preexec_fn=limited_to(512),
        )  # fmt: skip
    stalled: list[socket.socket] = []
    try:
        token = printed_app_url(log, port, timeout=WAIT).split("token=")[1]
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: app_answers(base, token), "the app answers")
        stalled = stall(port, 600, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert len(stalled) == 600 and alive(process, log)
        assert app_answers(base, token), log.read_text()[-3000:]  # while the flood holds
        wait_for(
            lambda: alive(process, log) and all(closed_by_server(s) for s in stalled),
            "the app closes every stalled connection",
            timeout=HEADER_TIMEOUT + WAIT,
        )
        close_all(stalled)
        wait_for(lambda: app_answers(base, token), "an answer after the flood", timeout=30)
        assert stop_explore(process), "the app did not stop on Ctrl-C"
    finally:
        close_all(stalled)
        _kill_leftovers(process)
    text = assert_quiet(log, limit=40)
    assert "beyond the cap of 256" in text  # 512 files, 256 kept for the kernels: said once


APP_HOGGED = """
import asyncio, logging, os, sys
import tornado.web
from iptoolkit.app.connections import guarded_listen

port, left = int(sys.argv[1]), int(sys.argv[2])
logging.basicConfig(format="%(message)s")

class Hello(tornado.web.RequestHandler):
    def get(self):
        self.write("hello")

async def main():
    app = tornado.web.Application([(r"/", Hello)])
    guarded_listen(app, port, "127.0.0.1", logger=logging.getLogger("iptoolkit.app"),
                   reserved=16, header_timeout=60)
    held = []  # every descriptor but `left`, as kernels or files might hold them
    try:
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        pass
    for _ in range(left):
        os.close(held.pop())
    print("descriptors held", file=sys.stderr, flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


def test_the_apps_server_survives_running_out_of_descriptors(tmp_path: Path) -> None:
    """The app's server (`guarded_listen`, as its Voila serves) with descriptors held
    elsewhere, so that accepting fails (EMFILE) under 30 stalled connections (before: a
    traceback at every turn of the loop): it lives, says so in a line, and answers once
    they close."""
    port, log = free_port(), tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", APP_HOGGED, str(port), "8"],
            stderr=out, env=environment(), preexec_fn=limited_to(256),
        )  # fmt: skip
    stalled: list[socket.socket] = []
    base = f"http://127.0.0.1:{port}/"

    def answers() -> bool:
        try:
            return httpx.get(base, timeout=5).text == "hello"
        except httpx.TransportError:
            return False

    try:
        wait_for(
            lambda: alive(process, log) and "descriptors held" in log.read_text(),
            "the descriptors are held",
        )
        stalled = stall(port, 30, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        wait_for(lambda: alive(process, log) and accept_failed(log), "accepting fails")
        time.sleep(1.0)  # the loop meets the failure again meanwhile
        alive(process, log)
        assert_quiet(log)
        close_all(stalled)
        wait_for(answers, "an answer once the descriptors are free", timeout=30)
    finally:
        close_all(stalled)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    assert_quiet(log)


# -- the flood log ---------------------------------------------------------------------------


def test_a_flood_line_that_cannot_be_written_is_counted_into_the_next() -> None:
    """Out of descriptors, a log handler that opens or imports on first use fails (the MCP
    SDK's rich handler does); the line is tried again at the next event, with the count,
    and the caller (an accept loop, a timer) never sees the error, which would end it."""
    lines: list[str] = []

    class NoDescriptorLeft(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            raise OSError(errno.EMFILE, "Too many open files")

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("tests.floods.no_descriptor_left")
    logger.propagate = False
    failing, kept = NoDescriptorLeft(), Kept()
    logger.addHandler(failing)
    try:
        flood = FloodLog(logger)
        flood.note("connections closed")
        flood.note("connections closed")
        logger.removeHandler(failing)
        logger.addHandler(kept)
        flood.note("connections closed")
        flood.note("connections closed")  # within the minute: counted, not written
    finally:
        logger.removeHandler(failing)
        logger.removeHandler(kept)
    assert lines == ["connections closed (3 since the last such line; logged at most every 60s)"]
