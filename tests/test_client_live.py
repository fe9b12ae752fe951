"""The client against the reference server over a real loopback socket, all three flows."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
import pytest

from iptoolkit.client import (
    AsyncClient,
    AuthenticationError,
    BearerToken,
    Client,
    ClientCredentials,
    GuestLogin,
    PermissionDeniedError,
    SessionCookie,
)
from iptoolkit.server import RunningServer, running

GROUPS = ["Finance", "Finance/AP", "Finance/AR", "Sales", "Sales/EMEA", "Ops", "Ops/EU"]
RAW = [
    {
        "class": "core:IntegrationProfile",
        "id": f"LIVE-{index:02d}",
        "name": f"Profile {index}",
        "group": GROUPS[index % len(GROUPS)],
        "active": index % 3 != 0,
        "x_unknown": {"kept": index},
    }
    for index in range(11)
]
FINANCE = [p["id"] for p in RAW if str(p["group"]).startswith("Finance")]


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running(RAW) as srv:
        yield srv


def secrets_of(srv: RunningServer) -> list[str]:
    assert srv.credentials is not None
    creds = srv.credentials
    return [creds.client_secret, creds.guest_token, creds.password, creds.denied_client_secret]


def assert_no_secrets(srv: RunningServer, *texts: object, extra: tuple[str, ...] = ()) -> None:
    blob = "\n".join(str(text) for text in texts)
    for secret in [*secrets_of(srv), *extra]:
        assert secret not in blob


def client_log(caplog: pytest.LogCaptureFixture) -> str:
    """What this process logged on the client side.

    The server runs in this process too; its uvicorn records are the server's business
    (uvicorn logs access lines whenever `uvicorn.access` has handlers, as under pytest).
    """
    return "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records)


def ui_session_cookie(srv: RunningServer) -> httpx.Cookies:
    """Log in as the UI user, as a browser would, and keep the session cookie."""
    response = httpx.post(
        srv.base_url + "/",
        data={"username": srv.username, "password": srv.password},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert "JSESSIONID" in response.cookies
    return response.cookies


def ids(profiles: Iterable[Any]) -> list[str | None]:
    return [p["id"] if isinstance(p, dict) else p.id for p in profiles]


def test_client_credentials_end_to_end(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    flow = ClientCredentials(server.client_id or "", server.client_secret or "")
    with Client(server.base_url, auth=flow) as client:
        assert client.fetch_raw() == RAW
        estate = client.fetch_estate(progress=False)
        assert_no_secrets(server, repr(client))
    assert ids(estate.profiles) == ids(RAW)
    assert not estate.problems
    assert estate.info.source_url == server.profiles_url
    assert_no_secrets(server, client_log(caplog))


def test_session_cookie_end_to_end(server: RunningServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    cookies = ui_session_cookie(server)
    session_id = cookies["JSESSIONID"]
    caplog.clear()  # the login above is the test's, not the client's
    for given in (cookies, f"JSESSIONID={session_id}", {"JSESSIONID": session_id}):
        with Client(server.base_url, auth=SessionCookie(given)) as client:
            assert ids(client.list_profiles()) == ids(RAW)
            assert_no_secrets(server, repr(client), extra=(session_id,))
    assert_no_secrets(server, client_log(caplog), extra=(session_id,))


def test_guest_login_end_to_end_sees_only_its_groups(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with Client(server.base_url, auth=GuestLogin(server.guest_token or "")) as client:
        assert ids(client.list_profiles()) == FINANCE
        assert_no_secrets(server, repr(client))
    log = client_log(caplog)
    assert "loginToken=**********" in log  # httpx's own request log, masked
    assert "(b'set-cookie', b'**********')" in log  # httpcore's header trace, masked
    assert_no_secrets(server, log)


@pytest.mark.parametrize("size", [1, 2, 4, 11, 50])
def test_spring_paging_end_to_end(server: RunningServer, size: int) -> None:
    flow = ClientCredentials(server.client_id or "", server.client_secret or "")
    path = f"/api/preview/profiles?size={size}"
    with Client(server.base_url, auth=flow, profiles_path=path) as client:
        pages = list(client.iter_profiles())
    assert [len(page) for page in pages][:-1] == [size] * (len(pages) - 1)
    assert len(pages) == max(1, -(-len(RAW) // size))
    assert [p.id for page in pages for p in page] == ids(RAW)


@pytest.mark.parametrize("flow_name", ["client", "session", "guest"])
def test_a_token_expiring_in_the_middle_of_paging_is_renewed(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch, flow_name: str
) -> None:
    flows: dict[str, httpx.Auth] = {
        "client": ClientCredentials(server.client_id or "", server.client_secret or ""),
        "session": SessionCookie(ui_session_cookie(server)),
        "guest": GuestLogin(server.guest_token or ""),
    }
    tokens = server.app.state.server.tokens
    seen: list[str | None] = []
    path = "/api/preview/profiles?size=2"
    with Client(server.base_url, auth=flows[flow_name], profiles_path=path) as client:
        for index, page in enumerate(client.iter_profiles()):
            seen += [p.id for p in page]
            if index == 1:  # the server's clock jumps two hours: every token it issued expires
                monkeypatch.setattr(tokens, "_clock", lambda: time.monotonic() + 7200)
    expected = FINANCE if flow_name == "guest" else ids(RAW)
    assert seen == expected


def test_errors_end_to_end(server: RunningServer) -> None:
    assert server.credentials is not None
    denied = ClientCredentials(
        server.credentials.denied_client_id, server.credentials.denied_client_secret
    )
    with Client(server.base_url, auth=denied) as client, pytest.raises(PermissionDeniedError) as no:
        client.list_profiles()
    assert str(no.value).startswith("403 CORESYSTEM_permission_403: ")
    assert no.value.error_code == "CORESYSTEM_permission_403"

    wrong = ClientCredentials(server.client_id or "", "not-the-secret")
    with Client(server.base_url, auth=wrong) as client, pytest.raises(AuthenticationError) as bad:
        client.list_profiles()
    assert str(bad.value).startswith(
        "client-credentials token request failed: 401 CORESYSTEM_AuthenticationManager_401: "
    )
    assert "not-the-secret" not in str(bad.value)

    with Client(server.base_url, auth=GuestLogin("NOT-A-GUEST-TOKEN")) as client:
        with pytest.raises(AuthenticationError) as guest:
            client.list_profiles()
    assert "NOT-A-GUEST-TOKEN" not in str(guest.value)
    assert "loginToken=**********" in str(guest.value)

    with Client(server.base_url, auth=BearerToken("forged")) as client:
        with pytest.raises(AuthenticationError, match="^401 CORESYSTEM_AuthenticationManager_401"):
            client.list_profiles()

    flow = ClientCredentials(server.client_id or "", server.client_secret or "")
    with Client(server.base_url, auth=flow, profiles_path="/api/preview/nothing") as client:
        with pytest.raises(Exception, match="^404 CORESYSTEM_notFound_404") as missing:
            client.list_profiles()
    assert missing.value.status_code == 404  # type: ignore[attr-defined]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("flow_name", ["client", "session", "guest"])
async def test_async_client_end_to_end(server: RunningServer, flow_name: str) -> None:
    flows: dict[str, httpx.Auth] = {
        "client": ClientCredentials(server.client_id or "", server.client_secret or ""),
        "session": SessionCookie(ui_session_cookie(server)),
        "guest": GuestLogin(server.guest_token or ""),
    }
    path = "/api/preview/profiles?size=3"
    async with AsyncClient(server.base_url, auth=flows[flow_name], profiles_path=path) as client:
        estate = await client.fetch_estate(progress=False)
    assert ids(estate.profiles) == (FINANCE if flow_name == "guest" else ids(RAW))
