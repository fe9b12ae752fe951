"""Bearer tokens and sessions: random, expiring, bounded."""

from __future__ import annotations

import pytest

from iptoolkit.server.principals import Identity
from iptoolkit.server.tokens import SessionStore, TokenStore

WHO = Identity("client", "c", frozenset({"profiles:view"}), ("*",))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_tokens_are_random_and_expire() -> None:
    clock = Clock()
    store = TokenStore(60, clock=clock)
    first, second = store.issue(WHO), store.issue(WHO)
    assert first.value != second.value and len(first.value) >= 40
    assert first.expires_in(clock.now) == 60
    assert store.lookup(first.value) == WHO
    clock.now += 59.5
    assert first.expires_in(clock.now) == 1
    assert store.lookup(first.value) == WHO
    clock.now += 0.5
    assert store.lookup(first.value) is None and store.lookup(second.value) is None
    assert len(store) == 0  # expired tokens are dropped when looked up
    assert store.lookup("forged") is None


def test_token_store_is_bounded() -> None:
    clock = Clock()
    store = TokenStore(60, max_per_principal=10, clock=clock)
    tokens = [store.issue(WHO) for _ in range(25)]
    assert len(store) <= 10
    assert store.lookup(tokens[-1].value) == WHO
    assert store.lookup(tokens[0].value) is None  # the oldest went first


def test_expired_tokens_are_purged_before_live_ones() -> None:
    clock = Clock()
    store = TokenStore(60, max_per_principal=10, clock=clock)
    keep = store.issue(WHO)
    clock.now += 30
    for _ in range(9):
        store.issue(WHO)
    clock.now += 31  # `keep` has expired, the nine others have not
    fresh = [store.issue(WHO) for _ in range(2)]
    assert store.lookup(keep.value) is None
    assert all(store.lookup(token.value) == WHO for token in fresh)


def test_repr_shows_no_token() -> None:
    store = TokenStore(60)
    token = store.issue(WHO)
    assert token.value not in repr(token) and token.value not in repr(store)
    session = SessionStore(60).open(WHO)
    assert session.id not in repr(session)


def test_session_bearer_is_reused_until_it_expires() -> None:
    clock = Clock()
    tokens = TokenStore(10, clock=clock)
    sessions = SessionStore(100, clock=clock)
    session = sessions.open(WHO)
    assert sessions.get(session.id) is session
    first = sessions.bearer(session, tokens)
    assert sessions.bearer(session, tokens) is first
    clock.now += 11
    second = sessions.bearer(session, tokens)
    assert second.value != first.value and tokens.lookup(second.value) == WHO
    clock.now += 90
    assert sessions.get(session.id) is None


def test_lifetimes_must_be_positive() -> None:
    with pytest.raises(ValueError):
        TokenStore(0)
