"""Bearer tokens and UI sessions: random, expiring, held in memory only.

Tokens and session ids come from `secrets.token_urlsafe` (256 bits). Both stores forget
entries when they expire and hold at most `max_per_principal` live entries for each
principal: a new one beyond that replaces the principal's own oldest. So a caller that asks
for tokens in a loop can neither grow the server without bound (principals are a fixed set)
nor log anyone else out. Values are never logged and never shown by `repr`.
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
    "DEFAULT_MAX_PER_PRINCIPAL",
    "IssuedToken",
    "Session",
    "TokenStore",
    "SessionStore",
]

DEFAULT_TOKEN_TTL = 3600.0
"""Bearer token lifetime in seconds: one hour."""
DEFAULT_SESSION_TTL = 8 * 3600.0
"""UI and guest session lifetime in seconds: a working day."""
DEFAULT_MAX_PER_PRINCIPAL = 1000
"""Live tokens (and sessions) one principal may hold; its oldest goes first beyond that."""

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


Owner = tuple[str, str]
"""Whose an entry is: an identity's kind and name."""


def _owner(identity: Identity) -> Owner:
    return (identity.kind, identity.name)


class _ExpiringStore(Generic[T]):
    """A thread-safe dict from random keys to values that expire, bounded per owner."""

    def __init__(self, ttl: float, *, max_per_principal: int, clock: Clock) -> None:
        if ttl <= 0:
            raise ValueError("a lifetime must be positive")
        if max_per_principal < 1:
            raise ValueError("max_per_principal must be at least 1")
        self.ttl = float(ttl)
        self._max = max_per_principal
        self._clock = clock
        self._entries: dict[str, tuple[float, T, Owner]] = {}
        self._owned: dict[Owner, dict[str, None]] = {}
        """Each owner's keys, oldest first."""
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._clock()

    def _put(self, key: str, value: T, expires_at: float, owner: Owner) -> None:
        with self._lock:
            self._entries[key] = (expires_at, value, owner)
            keys = self._owned.setdefault(owner, {})
            keys[key] = None
            if len(keys) > self._max:
                self._purge_locked(keys)

    def _get(self, key: str) -> T | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry[0] <= self._clock():
            with self._lock:
                self._forget_locked(key)
            return None
        return entry[1]

    def _forget_locked(self, key: str) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            keys = self._owned.get(entry[2], {})
            keys.pop(key, None)
            if not keys:
                self._owned.pop(entry[2], None)

    def _purge_locked(self, keys: dict[str, None]) -> None:
        """One owner is over its bound: drop its expired entries, then its oldest."""
        now = self._clock()
        for key in [k for k in keys if self._entries[k][0] <= now]:
            self._forget_locked(key)
        while len(keys) > self._max:
            self._forget_locked(next(iter(keys)))

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
        max_per_principal: int = DEFAULT_MAX_PER_PRINCIPAL,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(ttl, max_per_principal=max_per_principal, clock=clock)

    def issue(self, identity: Identity) -> IssuedToken:
        token = IssuedToken(secrets.token_urlsafe(32), identity, self.now() + self.ttl)
        self._put(token.value, token, token.expires_at, _owner(identity))
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
        max_per_principal: int = DEFAULT_MAX_PER_PRINCIPAL,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(ttl, max_per_principal=max_per_principal, clock=clock)

    def open(self, identity: Identity) -> Session:
        session = Session(secrets.token_urlsafe(32), identity, self.now() + self.ttl)
        self._put(session.id, session, session.expires_at, _owner(identity))
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
