"""The API client: auth flows, typed errors, retries and paging, sync and async.

import iptoolkit as ipt
with ipt.Client(base_url, auth=ipt.ClientCredentials(client_id, client_secret)) as client:
    estate = client.fetch_estate()
"""

from __future__ import annotations

from .auth import BearerToken, ClientCredentials, GuestLogin, Secret, SessionCookie
from .client import AsyncClient, Client
from .errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    ApiTransportError,
    AuthenticationError,
    BadRequestError,
    DeadlineExceededError,
    InternalServerError,
    NotFoundError,
    PagingError,
    PermissionDeniedError,
    RateLimitError,
    ResponseParseError,
    ResponseTooLargeError,
    error_class_for_status,
)

__all__ = [
    "Client",
    "AsyncClient",
    "ClientCredentials",
    "SessionCookie",
    "GuestLogin",
    "BearerToken",
    "Secret",
    "ApiError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "RateLimitError",
    "InternalServerError",
    "PagingError",
    "ResponseParseError",
    "ResponseTooLargeError",
    "ApiTransportError",
    "ApiConnectionError",
    "ApiTimeoutError",
    "DeadlineExceededError",
    "error_class_for_status",
]
