"""The async client: the same surface and behaviour as `Client`, awaited."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from iptoolkit.client import (
    ApiConnectionError,
    AsyncClient,
    AuthenticationError,
    ClientCredentials,
    GuestLogin,
    InternalServerError,
    PagingError,
    PermissionDeniedError,
    SessionCookie,
)
from iptoolkit.core.estate import Estate
from iptoolkit.models import IntegrationProfile, ParseError

from .client_helpers import (
    BASE,
    CLIENT_SECRET,
    GUEST_TOKEN,
    ISSUED,
    LISTING,
    SESSION_ID,
    assert_no_secrets,
    async_bearer_client,
)

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("no_sleep")]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def page(number: int, size: int = 2, total: int = 5) -> dict[str, Any]:
    ids = range(number * size, min((number + 1) * size, total))
    return {
        "content": [{"class": "core:IntegrationProfile", "id": f"P{i}"} for i in ids],
        "number": number,
        "size": size,
        "totalElements": total,
        "totalPages": -(-total // size),
    }


class Platform:
    """Spring pages behind all three flows; a token dies when `expire()` is called."""

    def __init__(self) -> None:
        self.issued = iter(ISSUED)
        self.valid: str | None = None
        self.log: list[str] = []
        self.fail_next: list[int] = []

    def issue(self) -> httpx.Response:
        self.valid = next(self.issued)
        return httpx.Response(200, json={"access_token": self.valid, "expires_in": 3600})

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.log.append(
            f"{request.method} {path}"
            + (f"?{request.url.query.decode()}" if request.url.query and path != "/" else "")
        )
        if self.fail_next:
            return httpx.Response(self.fail_next.pop(0))
        if path == "/dw/register/oauth/token":
            form = dict(httpx.QueryParams(request.content.decode()))
            if form["client_secret"] != CLIENT_SECRET:
                return httpx.Response(
                    401,
                    json={
                        "errorInfo": {
                            "errorCode": "CORESYSTEM_AuthenticationManager_401",
                            "errorText": "Unknown client.",
                        }
                    },
                )
            return self.issue()
        if path == "/":
            assert request.url.params["loginToken"] == GUEST_TOKEN
            return httpx.Response(
                303, headers={"Location": "/", "Set-Cookie": f"JSESSIONID={SESSION_ID}; Path=/"}
            )
        if path == "/auth/sessionBearerToken":
            if request.headers.get("cookie") != f"JSESSIONID={SESSION_ID}":
                return httpx.Response(
                    401, json={"errorInfo": {"errorCode": "CORESYSTEM_AuthenticationManager_401"}}
                )
            return self.issue()
        if request.headers.get("authorization") != f"Bearer {self.valid}":
            return httpx.Response(
                401, json={"errorInfo": {"errorCode": "CORESYSTEM_AuthenticationManager_401"}}
            )
        if "page" not in request.url.params and "size" not in request.url.params:
            return httpx.Response(200, json=page(0))
        return httpx.Response(200, json=page(int(request.url.params["page"])))


FLOWS: list[Callable[[], httpx.Auth]] = [
    lambda: ClientCredentials("reporting", CLIENT_SECRET),
    lambda: SessionCookie({"JSESSIONID": SESSION_ID}),
    lambda: GuestLogin(GUEST_TOKEN),
]


def make(platform: Platform, flow: httpx.Auth, **kw: Any) -> AsyncClient:
    return AsyncClient(BASE, auth=flow, transport=httpx.MockTransport(platform), **kw)


@pytest.mark.parametrize("flow", FLOWS, ids=["client-credentials", "session-cookie", "guest-login"])
async def test_each_flow_lists_every_page(
    flow: Callable[[], httpx.Auth], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    platform = Platform()
    async with make(platform, flow()) as client:
        profiles = await client.list_profiles()
        assert_no_secrets(repr(client))
    assert [p.id for p in profiles] == ["P0", "P1", "P2", "P3", "P4"]
    assert all(isinstance(p, IntegrationProfile) for p in profiles)
    assert platform.log[-3:] == [
        f"GET {LISTING}",
        f"GET {LISTING}?page=1&size=2",
        f"GET {LISTING}?page=2&size=2",
    ]
    assert_no_secrets(caplog.text)


@pytest.mark.parametrize("flow", FLOWS, ids=["client-credentials", "session-cookie", "guest-login"])
async def test_each_flow_renews_a_token_refused_mid_paging(flow: Callable[[], httpx.Auth]) -> None:
    platform = Platform()
    async with make(platform, flow()) as client:
        pages = []
        async for listed in client.iter_profiles():
            pages.append([p.id for p in listed])
            if len(pages) == 1:
                platform.valid = "revoked"
    assert pages == [["P0", "P1"], ["P2", "P3"], ["P4"]]
    assert len([entry for entry in platform.log if entry.startswith("GET /api")]) == 4  # one 401


async def test_fetch_raw_and_fetch_estate() -> None:
    platform = Platform()
    async with make(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        raw = await client.fetch_raw()
        estate = await client.fetch_estate(progress=False)
    assert [item["id"] for item in raw] == ["P0", "P1", "P2", "P3", "P4"]
    assert isinstance(estate, Estate)
    assert len(estate.profiles) == 5
    assert estate.info.source_url == BASE + LISTING
    assert estate.info.fetched_at is not None and estate.info.fetched_at.tzinfo is not None


async def test_fetch_estate_says_it_indexes_after_the_last_page() -> None:
    from tests.progress_helpers import Recorder

    recorder = Recorder()
    async with make(Platform(), ClientCredentials("reporting", CLIENT_SECRET)) as client:
        await client.fetch_estate(progress=recorder)
    assert recorder.stages() == ["Fetching profiles", "Indexing the profiles fetched"]


async def test_fetch_estate_is_lenient() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=[{"id": "ok"}, {"id": "bad", "active": "maybe"}])

    async with async_bearer_client(handler) as client:
        estate = await client.fetch_estate()
        with pytest.raises(ParseError, match=r"\$\[1\]\.active"):
            await client.list_profiles()
    assert [p.id for p in estate.profiles] == ["ok"]
    assert len(estate.problems) == 1


async def test_a_transient_500_then_success(no_sleep: list[float]) -> None:
    platform = Platform()
    platform.fail_next = [500, 503]
    async with make(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        assert len(await client.fetch_raw()) == 5
    assert len(no_sleep) == 2


async def test_retry_after_is_honoured(no_sleep: list[float]) -> None:
    answers = [httpx.Response(429, headers={"Retry-After": "2"})]

    async def handler(request: httpx.Request) -> httpx.Response:
        return answers.pop(0) if answers else httpx.Response(200, json=[])

    async with async_bearer_client(handler) as client:
        assert await client.fetch_raw() == []
    assert no_sleep == [2.0]


async def test_errors_are_typed_and_final(no_sleep: list[float]) -> None:
    calls = 0

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(
            403,
            json={
                "errorInfo": {"errorCode": "CORESYSTEM_permission_403", "errorText": "Not yours."}
            },
        )

    async with async_bearer_client(handler) as client:
        with pytest.raises(
            PermissionDeniedError, match=r"^403 CORESYSTEM_permission_403: Not yours\."
        ):
            await client.fetch_raw()
    assert calls == 1 and no_sleep == []


async def test_server_errors_give_up_after_max_retries(no_sleep: list[float]) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, text="<html>oops</html>")

    async with async_bearer_client(handler, max_retries=3) as client:
        with pytest.raises(InternalServerError, match="<html>oops</html>"):
            await client.fetch_raw()
    assert len(no_sleep) == 3


async def test_connection_errors_are_wrapped(no_sleep: list[float]) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    async with async_bearer_client(handler) as client:
        with pytest.raises(
            ApiConnectionError, match=f"connection failed: refused \\(GET {BASE}{LISTING}\\)"
        ):
            await client.fetch_raw()
    assert len(no_sleep) == 2


async def test_wrong_secret_is_an_authentication_error_without_the_secret() -> None:
    platform = Platform()
    async with make(platform, ClientCredentials("reporting", "async-Wrong-Secret")) as client:
        with pytest.raises(AuthenticationError) as caught:
            await client.list_profiles()
    assert "async-Wrong-Secret" not in str(caught.value) + repr(caught.value)
    assert str(caught.value).startswith("client-credentials token request failed: 401")


async def test_a_server_that_pages_forever_is_stopped() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        n = int(request.url.params.get("page", 0))
        return httpx.Response(
            200, json={"content": [{"id": n}], "number": n, "size": 1, "last": False}
        )

    async with async_bearer_client(handler) as client:
        with pytest.raises(PagingError, match="more than 7 pages"):
            await client.fetch_raw(max_pages=7)


async def test_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"IPTOOLKIT_BASE_URL": BASE, "IPTOOLKIT_GUEST_TOKEN": GUEST_TOKEN}
    platform = Platform()
    async with AsyncClient.from_env(environ=env, transport=httpx.MockTransport(platform)) as client:
        assert isinstance(client.auth, GuestLogin)
        assert len(await client.fetch_raw()) == 5
        assert_no_secrets(repr(client))


async def test_closed_client_refuses_requests() -> None:
    client = async_bearer_client(Platform())
    await client.aclose()
    with pytest.raises(RuntimeError):
        await client.fetch_raw()
