"""The reference server: the spec's API for real, on loopback, serving an estate.

    with ipt.server.running(estate) as srv:
        print(srv.base_url, srv.client_id)

See `docs/server.md` for the endpoints, the principals file and the hashed-secret format.
This package never imports `iptoolkit.client`: the client is tested against it.
"""

from __future__ import annotations

from .app import create_app
from .principals import Principals, demo_principals, hash_secret, verify_secret
from .runner import RunningServer, running, serve

__all__ = [
    "running",
    "serve",
    "create_app",
    "RunningServer",
    "Principals",
    "demo_principals",
    "hash_secret",
    "verify_secret",
]
