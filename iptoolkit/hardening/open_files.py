"""Fitting the connection cap into the process's open-file limit, so a flood never meets it.

asyncio accepts up to `backlog` connections each time the listening socket is ready, and
the connections the cap evicts close a loop turn later, so during a flood the descriptors
in use pass the cap by a few such batches (2,582 against a cap of 1,000 with uvicorn's
backlog of 2,048). Should they reach the open-file limit, Python 3.11's accept loop logs a
traceback for every attempt, and normal requests wait for minutes: with the common limit of
1024, 5,000 stalled connections gave 460,000 tracebacks in 20 s and no answer to anyone.

So before serving, the soft limit is raised toward the hard one as far as the cap and its
batches need; where the hard limit is too low for that, the server accepts in smaller
batches and holds fewer connections, and says so once, with how to allow more. Each server
keeps descriptors for what is not a connection (`reserved`): the reference server and
`mcp --http` the listening socket, epoll, logs and files (`RESERVED_FILES`); the app also
its kernels' channels and their pages' websockets (`app/connections.py`). An accept loop
that sheds a connection beyond the cap as it accepts it, before the next accept (the
app's), never passes the cap: it fits with `accept_batches=0`, and its batch is its own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

try:
    import resource
except ImportError:  # Windows: no open-file limit to fit
    resource = None  # type: ignore[assignment]  # a module or, on Windows, None

__all__ = ["MAX_BACKLOG", "RESERVED_FILES", "ACCEPT_BATCHES", "Fitted", "fit_open_files"]

MAX_BACKLOG = 2048
"""uvicorn's backlog, and the largest accept batch."""
RESERVED_FILES = 64
"""Descriptors kept for everything but connections: the listening socket, epoll, logs, files."""
ACCEPT_BATCHES = 3
"""By how many accept batches asyncio's open connections may pass the cap before evictions
land."""


@dataclass(frozen=True)
class Fitted:
    """The connection cap and accept batch that fit the open-file limit (None: no limit)."""

    max_connections: int
    backlog: int
    open_files: int | None


def fit_open_files(
    max_connections: int,
    logger: logging.Logger,
    *,
    reserved: int = RESERVED_FILES,
    accept_batches: int = ACCEPT_BATCHES,
) -> Fitted:
    """Raise the soft open-file limit as far as `max_connections`, `accept_batches` batches
    beyond it and `reserved` other descriptors need, never past the hard one; if that is
    not enough, a smaller cap and batch that fit, logged once to `logger`."""
    if resource is None:
        return Fitted(max_connections, MAX_BACKLOG, None)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max_connections + accept_batches * MAX_BACKLOG + reserved
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass  # keep the soft limit we have, and fit into it
    if soft == resource.RLIM_INFINITY:
        return Fitted(max_connections, MAX_BACKLOG, None)
    if soft >= wanted:
        return Fitted(max_connections, MAX_BACKLOG, soft)
    room = max(soft - reserved, 4 * accept_batches, 1)
    backlog = (
        max(1, min(MAX_BACKLOG, room // (4 * accept_batches))) if accept_batches else MAX_BACKLOG
    )
    cap = max(1, min(max_connections, room - accept_batches * backlog))
    if cap < max_connections:
        logger.warning(
            "the open-file limit is %d: at most %d open connections, not %d (raise the "
            "limit with `ulimit -n` to hold more)",
            soft,
            cap,
            max_connections,
        )
    return Fitted(cap, backlog, soft)
