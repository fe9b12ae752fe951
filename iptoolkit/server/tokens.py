"""Bearer tokens and UI sessions: random, expiring, held in memory only.

Tokens and session ids come from `secrets.token_urlsafe` (256 bits). Both stores forget
entries when they expire and hold at most `max_entries` (the oldest go first), so a caller
that asks for tokens in a loop cannot grow the server without bound. Values are never
logged and never shown by `repr`.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .principals import Identity

__all__ = [
    "DEFAULT_TOKEN_TTL",
    "DEFAULT_SESSION_TTL",
    "IssuedToken",
    "Session",
    "TokenStore",
    "SessionStore",
]

DEFAULT_TOKEN_TTL = 3600.0
"""Bearer token lifetime in seconds: one hour."""
DEFAULT_SESSION_TTL = 8 * 3600.0
"""UI and guest session lifetime in seconds: a working day."""
_MAX_ENTRIES = 100_000

T = TypeVar("T")
Clock = Callable[[], float]


@dataclass(frozen=True)
class IssuedToken:
    """A bearer token, whom it stands for, and when it stops working."""

    value: str = field(repr=False)
    identity: Identity
    expires_at: float

    def expires_in(self, now: float) -> int:
        """Whole seconds left, rounded up, as the token response's `expires_in`."""
        return max(0, math.ceil(self.expires_at - now))


@dataclass
class Session:
    """A UI or guest session; it hands out one bearer token at a time."""

    id: str = field(repr=False)
    identity: Identity
    expires_at: float
    token: IssuedToken | None = field(default=None, repr=False)


class _ExpiringStore(Generic[T]):
    """A bounded, thread-safe dict from random keys to values that expire."""

    def __init__(self, ttl: float, *, max_entries: int, clock: Clock) -> None:
        if ttl <= 0:
            raise ValueError("a lifetime must be positive")
        self.ttl = float(ttl)
        self._max = max_entries
        self._clock = clock
        self._entries: dict[str, tuple[float, T]] = {}
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._clock()

    def _put(self, key: str, value: T, expires_at: float) -> None:
        with self._lock:
            self._entries[key] = (expires_at, value)
            if len(self._entries) > self._max:
                self._purge_locked()

    def _get(self, key: str) -> T | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry[0] <= self._clock():
            with self._lock:
                self._entries.pop(key, None)
            return None
        return entry[1]

    def _purge_locked(self) -> None:
        now = self._clock()
        for key in [k for k, (expires, _) in self._entries.items() if expires <= now]:
            del self._entries[key]
        while len(self._entries) > self._max:  # still full: drop the oldest
            del self._entries[next(iter(self._entries))]

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ttl={self.ttl:g}s entries={len(self)}>"


class TokenStore(_ExpiringStore[IssuedToken]):
    """Bearer tokens: `issue` one for an identity, `lookup` who holds one."""

    def __init__(
        self,
        ttl: float = DEFAULT_TOKEN_TTL,
        *,
        max_entries: int = _MAX_ENTRIES,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(ttl, max_entries=max_entries, clock=clock)

    def issue(self, identity: Identity) -> IssuedToken:
        token = IssuedToken(secrets.token_urlsafe(32), identity, self.now() + self.ttl)
        self._put(token.value, token, token.expires_at)
        return token

    def lookup(self, value: str) -> Identity | None:
        """The identity behind a live token; None for a forged or expired one."""
        token = self._get(value)
        return token.identity if token is not None else None


class SessionStore(_ExpiringStore[Session]):
    """UI and guest sessions, keyed by the session cookie's value."""

    def __init__(
        self,
        ttl: float = DEFAULT_SESSION_TTL,
        *,
        max_entries: int = _MAX_ENTRIES,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(ttl, max_entries=max_entries, clock=clock)

    def open(self, identity: Identity) -> Session:
        session = Session(secrets.token_urlsafe(32), identity, self.now() + self.ttl)
        self._put(session.id, session, session.expires_at)
        return session

    def get(self, session_id: str) -> Session | None:
        return self._get(session_id)

    def bearer(self, session: Session, tokens: TokenStore) -> IssuedToken:
        """The session's bearer token; a new one when there is none or it has expired."""
        with self._lock:
            token = session.token
            if token is None or tokens.lookup(token.value) is None:
                token = session.token = tokens.issue(session.identity)
            return token
