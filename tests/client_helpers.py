"""What the client's test modules share: the fake platform's address, the credentials
they hand out, and the check that none of those credentials shows anywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from iptoolkit.client import AsyncClient, BearerToken, Client

BASE = "https://platform.test"
LISTING = "/api/preview/profiles"

CLIENT_SECRET = "client-Secret-Value-7781"
GUEST_TOKEN = "guest-Login-Token-5517"
SESSION_ID = "sess-Cookie-Value-2208"
BEARER = "bearer-Token-Value-3321"
ISSUED = ["issued-Bearer-A-0001", "issued-Bearer-B-0002", "issued-Bearer-C-0003"]
"""Tokens a fake platform issues, in turn."""
SECRETS = [CLIENT_SECRET, GUEST_TOKEN, SESSION_ID, BEARER, *ISSUED]


def assert_no_secrets(*texts: object) -> None:
    blob = "\n".join(str(text) for text in texts)
    for secret in SECRETS:
        assert secret not in blob


def bearer_client(handler: Callable[[httpx.Request], Any], **options: Any) -> Client:
    """A `Client` with a bearer token whose requests go to `handler` (a MockTransport)."""
    return Client(BASE, auth=BearerToken(BEARER), transport=httpx.MockTransport(handler), **options)


def async_bearer_client(handler: Callable[[httpx.Request], Any], **options: Any) -> AsyncClient:
    """The same as `bearer_client`, for the async client (`handler` may be async)."""
    transport = httpx.MockTransport(handler)
    return AsyncClient(BASE, auth=BearerToken(BEARER), transport=transport, **options)
