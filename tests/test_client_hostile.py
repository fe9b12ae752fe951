"""Issue 14, findings 9-12: the client against a hostile server on a real socket.

9: error messages stay short and carry no terminal escapes; 10: every failure of a request
is an `ApiError`; 11: endless paging stops early; 12: one token renewal at a time.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.client import (
    ApiError,
    AsyncClient,
    AuthenticationError,
    BearerToken,
    Client,
    ClientCredentials,
    GuestLogin,
    PagingError,
    ResponseParseError,
    auth,
    paging,
)
from iptoolkit.models import ParseError

from .hostile_server import Hostile, hostile_server, send_head

LISTING = "/api/preview/profiles"
TOKEN_PATH = "/dw/register/oauth/token"


def send_json(handler: Any, body: Any, status: int = 200, **headers: str) -> None:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    send_head(handler, status, Content_Type="application/json", Content_Length=len(data), **headers)
    handler.wfile.write(data)


def profiles(start: int, count: int) -> list[dict[str, Any]]:
    return [
        {"class": "core:IntegrationProfile", "id": f"P{i}"} for i in range(start, start + count)
    ]


def client(hostile: Hostile, **options: Any) -> Client:
    options.setdefault("auth", BearerToken("t"))
    return Client(hostile.url, max_retries=0, **options)


def query(handler: Any, name: str, default: int = 0) -> int:
    for part in handler.path.partition("?")[2].split("&"):
        key, _, value = part.partition("=")
        if key == name:
            return int(value)
    return default


# -- 9: messages ---------------------------------------------------------------------------


def test_a_huge_error_text_with_terminal_escapes_is_cut_and_escaped_in_the_message() -> None:
    text = "\x1b]0;pwned\x07\x1b[2J" + "denied " * 300_000  # 2.1 MB, sets a terminal title

    def respond(hostile: Hostile, handler: Any) -> None:
        envelope = {"errorInfo": {"errorCode": "CORESYSTEM_permission_403", "errorText": text}}
        send_json(handler, envelope, 403)

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(ApiError) as caught:
            c.fetch_raw()
    message = str(caught.value)
    assert len(message) < 2_000
    assert "\x1b" not in message and "\x07" not in message
    assert "\\x1b]0;pwned\\x07" in message  # shown, harmless
    assert "more characters" in message and LISTING in message
    assert caught.value.error_text == text  # the whole text stays on the exception


def test_control_characters_in_a_body_excerpt_and_a_status_are_escaped() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        body = b"<html>\x1b[31mred\x1b[0m \x9b2J</html>"
        send_head(handler, 502, Content_Type="text/html", Content_Length=len(body))
        handler.wfile.write(body)

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(ApiError) as caught:
            c.fetch_raw()
    message = str(caught.value)
    assert not any(ord(char) < 32 or 0x7F <= ord(char) < 0xA0 for char in message), message
    assert "\\x1b[31mred" in message


# -- 10: every failure is an ApiError ------------------------------------------------------


def test_a_non_ascii_token_is_an_authentication_error() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        if handler.path.startswith(TOKEN_PATH):
            send_json(handler, {"access_token": "tök€n", "expires_in": 300})
        else:
            send_json(handler, profiles(0, 1))

    with hostile_server(respond) as hostile:
        with client(hostile, auth=ClientCredentials("cid", "secret")) as c:
            with pytest.raises(AuthenticationError, match="not printable ASCII"):
                c.fetch_raw()


def test_a_non_ascii_session_cookie_from_the_guest_login_is_an_authentication_error() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, 200, Set_Cookie="JSESSIONID=s\xe9ss; Path=/", Content_Length=0)

    with hostile_server(respond) as hostile:
        with client(hostile, auth=GuestLogin("guest")) as c:
            with pytest.raises(AuthenticationError, match="cookie that is not printable ASCII"):
                c.fetch_raw()


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"content": [', "not JSON"),
        (b"<html>oops</html>", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b'[{"class": "core:IntegrationProfile", "id": "P1", "id": "P2"}]', "$[0].id: the key"),
        (b'[{"class": "core:IntegrationProfile", "id": "P", "n": 1e400}]', "$[0].n: a number"),
        (b'[{"class": "core:IntegrationProfile", "id": "\\ud800"}]', "lone surrogate"),
    ],
)
def test_malformed_json_in_a_200_listing_is_an_api_error_and_a_parse_error(
    body: bytes, said: str
) -> None:
    """Also a repeated key, a number beyond a double and a lone surrogate (the loading
    checks of findings 13, 14 and 16) fail a fetch as an `ApiError`."""

    def respond(hostile: Hostile, handler: Any) -> None:
        send_json(handler, body)

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(ApiError) as caught:
            c.fetch_raw()
    assert isinstance(caught.value, ResponseParseError)
    assert isinstance(caught.value, ParseError)  # caught as any parse error is
    assert isinstance(caught.value, ValueError)
    assert caught.value.status_code == 200
    assert f"page 1 ({hostile.url}{LISTING})" in str(caught.value)
    assert said in str(caught.value)


def test_a_next_link_that_is_no_url_is_a_paging_error() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        send_json(handler, {"items": profiles(0, 1), "next": "\x00nowhere"})

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(PagingError, match="not a URL"):
            c.fetch_raw()


def test_a_user_given_token_that_cannot_be_a_header_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="printable ASCII"):
        BearerToken("tök€n")


# -- 11: endless paging --------------------------------------------------------------------


def test_paging_stops_when_the_announced_total_is_reached() -> None:
    """The server announces 5 profiles but keeps linking to more pages of new ones."""

    def respond(hostile: Hostile, handler: Any) -> None:
        start = query(handler, "from")
        body = {"items": profiles(start, 2), "total": 5, "next": f"{LISTING}?from={start + 2}"}
        send_json(handler, body)

    with hostile_server(respond) as hostile, client(hostile) as c:
        raw = c.fetch_raw(max_pages=50)  # without the stop: PagingError at 50 pages
    assert [item["id"] for item in raw] == ["P0", "P1", "P2", "P3", "P4", "P5"]
    assert len(hostile.requests) == 3


def test_a_page_of_profiles_seen_before_is_a_paging_error() -> None:
    """Each page is new as a page (a window moving back and forth), but holds only
    profiles already received."""

    def respond(hostile: Hostile, handler: Any) -> None:
        n = query(handler, "n")
        window = [0, 2, 1][n % 3]
        send_json(handler, {"items": profiles(window, 2), "next": f"{LISTING}?n={n + 1}"})

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(PagingError, match="page 3 .* only profiles of earlier pages"):
            c.fetch_raw()
    assert len(hostile.requests) == 3


def test_the_default_page_limit_comes_from_the_announced_page_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Spring listing says 20 pages of 2 but never says `last`: 20 pages and a margin of
    10 are read, not `MAX_PAGES` (made 200 here, so that a failure is quick)."""
    monkeypatch.setattr(paging, "MAX_PAGES", 200)

    def respond(hostile: Hostile, handler: Any) -> None:
        number = query(handler, "page")
        body = {"content": profiles(number * 2, 2), "number": number, "size": 2}
        send_json(handler, {**body, "totalPages": 20 + number, "last": False})

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(PagingError, match=r"more than 30 pages \(the pages its first page"):
            c.fetch_raw()
    assert len(hostile.requests) == 30


def test_an_explicit_max_pages_still_wins() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        number = query(handler, "page")
        body = {"content": profiles(number * 2, 2), "number": number, "size": 2}
        send_json(handler, {**body, "totalPages": 100, "last": False})

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(PagingError, match="more than 3 pages"):
            c.fetch_raw(max_pages=3)


# -- 12: one token renewal at a time -------------------------------------------------------


class TokenServer:
    """A token endpoint that answers slowly (so that requests overlap) and counts."""

    def __init__(self) -> None:
        self.issued = 0
        self.lock = threading.Lock()

    def __call__(self, hostile: Hostile, handler: Any) -> None:
        if handler.path.startswith(TOKEN_PATH):
            time.sleep(0.2)
            with self.lock:
                self.issued += 1
                token = f"tok-{self.issued}"
            send_json(handler, {"access_token": token, "expires_in": 3600})
        elif handler.headers.get("Authorization", "").startswith("Bearer tok-"):
            send_json(handler, profiles(0, 1))
        else:
            send_json(handler, {"errorInfo": {"errorCode": "AUTH_401"}}, 401)


@pytest.fixture
def expire(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Let every cached token expire, as if an hour had passed."""
    return lambda: monkeypatch.setattr(auth, "_clock", lambda: time.monotonic() + 7200)


@pytest.mark.anyio
async def test_concurrent_async_requests_after_expiry_renew_the_token_once(
    expire: Callable[[], None],
) -> None:
    tokens = TokenServer()
    with hostile_server(tokens) as hostile:
        credentials = ClientCredentials("cid", "secret")
        async with AsyncClient(hostile.url, auth=credentials, max_retries=0) as c:
            await c.fetch_raw()
            assert tokens.issued == 1
            expire()
            results = await asyncio.gather(*(c.fetch_raw() for _ in range(20)))
    assert all(result == profiles(0, 1) for result in results)
    assert tokens.issued == 2  # one renewal for 20 requests


def test_threads_sharing_a_client_renew_the_token_once(expire: Callable[[], None]) -> None:
    tokens = TokenServer()
    with hostile_server(tokens) as hostile:
        with client(hostile, auth=ClientCredentials("cid", "secret")) as c:
            c.fetch_raw()
            expire()
            results: list[Any] = []
            threads = [
                threading.Thread(target=lambda: results.append(c.fetch_raw())) for _ in range(10)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(10)
    assert len(results) == 10
    assert tokens.issued == 2


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# -- issue 35, finding 14: one faulty profile in a live fetch --------------------------------

DOUBLED = (
    b'[{"class": "core:IntegrationProfile", "id": "P3"},\n'
    b' {"class": "core:IntegrationProfile", "id": "P4", "id": "P5"}]'
)
"""Page 2 of a listing: its second profile gives `id` twice."""


def test_a_profile_with_a_repeated_key_is_a_problem_of_a_live_fetch_as_of_a_file(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key given twice in one profile once refused the whole page, so a fetch (and the
    nightly watch) stored nothing; from a file the same profile is one of `problems`. Over
    real HTTP, two pages (the fault on the second): the estate holds the other profiles and
    the same problem a file gives, by its index in the whole listing; `watch --once`
    stores the snapshot; the readers that take profiles unchecked still refuse the page."""
    first = json.dumps(profiles(1, 2)).encode()

    def respond(hostile: Hostile, handler: Any) -> None:
        if query(handler, "page") == 0:
            send_json(
                handler, first, Link=f'<{hostile.url}/api/preview/profiles?page=1>; rel="next"'
            )
        else:
            send_json(handler, DOUBLED)

    listing = tmp_path / "listing.json"
    listing.write_bytes(first[:-1] + b",\n" + DOUBLED[1:])
    from_file = ipt.load(listing)
    expected = [(p.index, [str(i) for i in p.issues]) for p in from_file.problems]
    assert expected == [(3, ['$[3].id: the key "id" is given 2 times in one object; a JSON '
                             "reader keeps the last value and drops the others"])]  # fmt: skip
    with hostile_server(respond) as hostile:
        with client(hostile) as c:
            fetched = c.fetch_estate(progress=False)
            with pytest.raises(ParseError, match=r"^page 2 \(.*\): \$\[1\]\.id: the key"):
                c.fetch_raw()
            with pytest.raises(ParseError, match=r"^page 2 \(.*\): \$\[1\]\.id: the key"):
                c.list_profiles()

        async def fetch_async() -> ipt.Estate:
            async with AsyncClient(hostile.url, auth=BearerToken("t"), max_retries=0) as ac:
                return await ac.fetch_estate(progress=False)

        for estate in (fetched, asyncio.run(fetch_async())):
            assert [r.id for r in estate.valid_records] == ["P1", "P2", "P3"]
            assert [(p.index, [str(i) for i in p.issues]) for p in estate.problems] == expected
            assert list(estate.raw_profiles) == list(from_file.raw_profiles)
        pytest.importorskip("duckdb")
        from click.testing import CliRunner

        from iptoolkit.archive import Archive
        from iptoolkit.cli import main

        monkeypatch.setenv("IPTOOLKIT_BEARER_TOKEN", "t")
        archive = tmp_path / "estate.duckdb"
        ran = CliRunner().invoke(
            main, ["watch", "--archive", str(archive), "--once", "--base-url", hostile.url]
        )
        assert ran.exit_code == 0, ran.output
        stored = Archive(archive).estate()  # as a file's estate saved: the last value kept
        assert list(stored.raw_profiles) == list(from_file.raw_profiles)
