"""The reference server's limits against hostile callers, as one value to pass around.

`running`, `serve` and `create_app` take a `ServerLimits`; `iptoolkit serve` has an option
for each field. docs/server.md explains what each limit guards against.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hardening.h11_protocol import (
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_HEADER_BYTES,
    DEFAULT_SEND_TIMEOUT,
)
from .connections import DEFAULT_BODY_TIMEOUT
from .throttle import DEFAULT_ADDRESS_LIMIT, DEFAULT_PRINCIPAL_LIMIT, parse_limit
from .tokens import DEFAULT_MAX_PER_PRINCIPAL

__all__ = ["ServerLimits"]


@dataclass(frozen=True)
class ServerLimits:
    """Limits on guessing, tokens and connections; the defaults suit a shared demo server."""

    login_limit_principal: str | None = DEFAULT_PRINCIPAL_LIMIT
    """Failed logins and token requests per client id or user name ("10 per 5 minutes");
    None: no limit."""
    login_limit_address: str | None = DEFAULT_ADDRESS_LIMIT
    """Failed logins and token requests per client address; None: no limit."""
    max_tokens_per_principal: int = DEFAULT_MAX_PER_PRINCIPAL
    """Live bearer tokens (and sessions) per principal; a new one replaces its oldest."""
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    """Seconds to receive a request's line and headers."""
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    """Seconds to receive a request's body, counted from its headers."""
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    """Open connections; beyond it the oldest stalled or idle one is closed."""
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    """Bytes of request line plus headers."""
    send_timeout: float = DEFAULT_SEND_TIMEOUT
    """Seconds a client may read nothing of a response before it is disconnected."""

    def __post_init__(self) -> None:
        parse_limit(self.login_limit_principal)  # a clear error now, not at the first login
        parse_limit(self.login_limit_address)
        positive = {
            "max_tokens_per_principal": self.max_tokens_per_principal,
            "header_timeout": self.header_timeout,
            "body_timeout": self.body_timeout,
            "max_connections": self.max_connections,
            "max_header_bytes": self.max_header_bytes,
            "send_timeout": self.send_timeout,
        }
        for name, value in positive.items():
            if value <= 0:
                raise ValueError(f"ServerLimits.{name} must be positive, not {value!r}")
