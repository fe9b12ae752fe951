"""Limits on guessing: failed logins and token requests, per principal and per address.

Each failed client-credentials request, UI login or guest login counts against the name it
tried (the client id or user name; a guest token has none) and against the caller's
address. Once either count reaches its limit within the window, further attempts
of that name or from that address answer 429 with `Retry-After`, without checking the
secret at all. A successful login clears its name's count (not its address's: one good
account must not buy guesses at others).

The counting is the `limits` library's moving window in memory: well tested, thread-safe,
and it forgets idle keys by itself, so a flood of addresses cannot grow the server for long.
A name is counted by its digest: a form field may be a megabyte long, and each name tried
would otherwise be held whole for the window.
Limits are written as `limits` reads them: "10 per 5 minutes", "100/hour"; None turns one off.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = [
    "DEFAULT_PRINCIPAL_LIMIT",
    "DEFAULT_ADDRESS_LIMIT",
    "Attempt",
    "LoginThrottle",
    "parse_limit",
]

DEFAULT_PRINCIPAL_LIMIT = "10 per 5 minutes"
"""Failed attempts one client id or user name may make before it waits."""
DEFAULT_ADDRESS_LIMIT = "100 per 5 minutes"
"""Failed attempts one address may make, whatever names it tries, before it waits."""


def parse_limit(text: str | None) -> RateLimitItem | None:
    """A limit from its text ("10 per 5 minutes"); None, "", "off" or "none" for no limit."""
    if text is None or text.strip().lower() in ("", "off", "none"):
        return None
    try:
        return parse(text)
    except ValueError:
        raise ValueError(
            f"cannot read the limit {text!r}: write it as '10 per 5 minutes' or '100/hour', "
            "or 'off'"
        ) from None


@dataclass(frozen=True)
class Attempt:
    """Who tries to log in: the kind of flow, the name tried (if any) and the address."""

    kind: str
    name: str | None
    address: str


class LoginThrottle:
    """Counts failed attempts and says how long a caller must wait before the next one."""

    def __init__(
        self,
        per_principal: str | None = DEFAULT_PRINCIPAL_LIMIT,
        per_address: str | None = DEFAULT_ADDRESS_LIMIT,
    ) -> None:
        self.per_principal = parse_limit(per_principal)
        self.per_address = parse_limit(per_address)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def _principal_key(self, attempt: Attempt) -> tuple[str, ...] | None:
        if self.per_principal is None or attempt.name is None:
            return None
        digest = hashlib.sha256(attempt.name.encode("utf-8", "surrogatepass")).hexdigest()
        return ("principal", attempt.kind, digest)

    def _keys(self, attempt: Attempt) -> list[tuple[RateLimitItem, tuple[str, ...]]]:
        keys = []
        name = self._principal_key(attempt)
        if name is not None and self.per_principal is not None:
            keys.append((self.per_principal, name))
        if self.per_address is not None:
            keys.append((self.per_address, ("address", attempt.address)))
        return keys

    def retry_after(self, attempt: Attempt) -> int | None:
        """Seconds to wait (at least 1) if this attempt is over a limit, else None."""
        waits = [
            self._limiter.get_window_stats(item, *key).reset_time - time.time()
            for item, key in self._keys(attempt)
            if not self._limiter.test(item, *key)
        ]
        return max(1, math.ceil(max(waits))) if waits else None

    def failed(self, attempt: Attempt) -> None:
        """Count a failed attempt against its name and its address."""
        for item, key in self._keys(attempt):
            self._limiter.hit(item, *key)

    def succeeded(self, attempt: Attempt) -> None:
        """A successful login: its name starts afresh."""
        name = self._principal_key(attempt)
        if name is not None and self.per_principal is not None:
            self._limiter.clear(self.per_principal, *name)

    def __repr__(self) -> str:
        return f"<LoginThrottle per_principal={self.per_principal} per_address={self.per_address}>"
