"""Ending a blocking request at its deadline, even while the server trickles its headers.

A blocking read cannot be cancelled, and httpcore takes the read timeout once for the whole
header phase, so a server sending a header line every second holds a `Client` for as long
as it likes. The watchdog knows the sockets of its client's connections (httpcore's
`trace` extension reports each one it opens) and, when a request's deadline passes, shuts
them down: the blocked read wakes with end-of-file and the request fails at once (the
flow then reports `DeadlineExceededError`). Shutting a duplicate of the descriptor leaves
the socket object itself (plain or TLS) to httpcore. Idle connections shut this way are
discarded by the pool; a request of another thread sharing the client fails as a dropped
connection and is retried.
"""

from __future__ import annotations

import os
import socket
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from ._limits import time_left
from ._retry import logger

__all__ = ["Watchdog"]

_OPENED = ("connection.connect_tcp.complete", "connection.start_tls.complete")


class Watchdog:
    """The sockets of one client, and a timer per request that shuts them at its deadline."""

    def __init__(self) -> None:
        self._sockets: weakref.WeakSet[socket.socket] = weakref.WeakSet()
        self._lock = threading.Lock()

    def watch(self, request: httpx.Request) -> None:
        """A request hook: have httpcore report the connections this request opens."""
        request.extensions["trace"] = self._trace

    def _trace(self, event: str, info: dict[str, Any]) -> None:
        if event in _OPENED and info.get("return_value") is not None:
            sock = info["return_value"].get_extra_info("socket")
            if isinstance(sock, socket.socket):
                with self._lock:
                    self._sockets.add(sock)

    @contextmanager
    def armed(self, deadline: float | None) -> Iterator[None]:
        """Shut this client's connections if the block is still running at `deadline`."""
        left = time_left(deadline)
        if left is None:
            yield
            return
        timer = threading.Timer(left, self._cut)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _cut(self) -> None:
        with self._lock:
            sockets = list(self._sockets)
        logger.debug("deadline passed: shutting %d connection(s)", len(sockets))
        for sock in sockets:
            try:
                fd = sock.fileno()
                if fd < 0:
                    continue
                with socket.socket(fileno=os.dup(fd)) as duplicate:
                    duplicate.shutdown(socket.SHUT_RDWR)
            except OSError:  # already closed, or never connected
                continue
