"""The API client: auth flows, typed errors, retries and paging, sync and async.

import iptoolkit as ipt
with ipt.Client(base_url, auth=ipt.ClientCredentials(client_id, client_secret)) as client:
    estate = client.fetch_estate()
"""

from __future__ import annotations

from . import errors
from .auth import BearerToken, ClientCredentials, GuestLogin, Secret, SessionCookie
from .client import AsyncClient, Client, check_endpoint
from .errors import *  # noqa: F403 - the error classes: `errors.__all__`, listed once

__all__ = [
    "Client",
    "AsyncClient",
    "ClientCredentials",
    "SessionCookie",
    "GuestLogin",
    "BearerToken",
    "Secret",
    "check_endpoint",
]
__all__ += errors.__all__
