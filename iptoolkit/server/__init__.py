"""The reference server: the spec's API for real, on loopback, serving an estate.

    with ipt.server.running(estate) as srv:
        print(srv.base_url, srv.client_id)

See `docs/server.md` for the endpoints, the principals file and the hashed-secret format.
This package never imports `iptoolkit.client`: the client is tested against it. It needs
the `server` extra (`pip install -e '.[server]'`); without it, importing this package
(`ipt.server`, `iptoolkit serve`, `iptoolkit demo`) raises an error that says so.
"""

from __future__ import annotations

from ..support.extras import require

require("server")

from .app import create_app  # noqa: E402 - after the check, which names the missing extra
from .demo_callers import demo_principals  # noqa: E402
from .hashing import hash_secret, verify_secret  # noqa: E402
from .principals import Principals  # noqa: E402
from .runner import RunningServer, running, serve  # noqa: E402
from .settings import ServerLimits  # noqa: E402

__all__ = [
    "running",
    "serve",
    "create_app",
    "RunningServer",
    "ServerLimits",
    "Principals",
    "demo_principals",
    "hash_secret",
    "verify_secret",
]
