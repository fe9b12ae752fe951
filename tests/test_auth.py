"""The auth flows against MockTransport: token requests, caching, expiry, refresh on 401,
cookies, guest login, URL resolution, and secrets kept out of everything printed."""

from __future__ import annotations

import http.cookiejar
import logging
import pickle
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from iptoolkit.client import (
    ApiError,
    AuthenticationError,
    BearerToken,
    Client,
    ClientCredentials,
    GuestLogin,
    InternalServerError,
    PermissionDeniedError,
    Secret,
    SessionCookie,
    auth,
)

from .client_helpers import (
    BASE,
    CLIENT_SECRET,
    GUEST_TOKEN,
    ISSUED,
    LISTING,
    SESSION_ID,
    assert_no_secrets,
)

TOKEN_PATH = "/dw/register/oauth/token"
SESSION_PATH = "/auth/sessionBearerToken"
PROFILES = [{"class": "core:IntegrationProfile", "id": "P1"}]

pytestmark = pytest.mark.usefixtures("no_sleep")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The auth module's monotonic clock, set by the test: `clock[0] = ...`."""
    now = [1000.0]
    monkeypatch.setattr(auth, "_clock", lambda: now[0])
    return now


class Platform:
    """A fake platform: issues tokens from ISSUED in turn, accepts only the current one."""

    def __init__(self, *, token_body: Callable[[str], httpx.Response] | None = None) -> None:
        self.requests: list[httpx.Request] = []
        self.issued = iter(ISSUED)
        self.valid: set[str] = set()
        self.token_body = token_body or (
            lambda token: httpx.Response(200, json={"access_token": token})
        )
        self.sessions = {SESSION_ID}
        self.refuse_next_api_call = False

    def issue(self) -> httpx.Response:
        token = next(self.issued)
        self.valid = {token}
        return self.token_body(token)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path.removeprefix("/platform")
        if path == TOKEN_PATH and request.method == "POST":
            form = dict(httpx.QueryParams(request.content.decode()))
            if form.get("client_secret") != CLIENT_SECRET:
                return httpx.Response(
                    401, json=_envelope(401, "Unknown client, or wrong client secret.")
                )
            return self.issue()
        if path == "/" and "loginToken" in request.url.params:
            if request.url.params["loginToken"] != GUEST_TOKEN:
                return httpx.Response(
                    401, json=_envelope(401, "This guest login token is not valid.")
                )
            self.sessions.add("guest-session")
            return httpx.Response(
                303,
                headers=[
                    ("Location", "/"),
                    ("Set-Cookie", "JSESSIONID=guest-session; Path=/; HttpOnly"),
                    ("Set-Cookie", "lang=en; Path=/"),
                ],
            )
        if path == SESSION_PATH:
            cookie = request.headers.get("cookie", "")
            if not any(f"JSESSIONID={s}" in cookie for s in self.sessions):
                return httpx.Response(
                    401, json=_envelope(401, "No valid session: log in at / first.")
                )
            return self.issue()
        if path == LISTING:
            bearer = request.headers.get("authorization", "").removeprefix("Bearer ")
            if self.refuse_next_api_call or bearer not in self.valid:
                self.refuse_next_api_call = False
                return httpx.Response(401, json=_envelope(401, "The bearer token is not valid."))
            return httpx.Response(200, json=PROFILES)
        return httpx.Response(404, json={"errorInfo": {"errorCode": "CORESYSTEM_notFound_404"}})

    def paths(self) -> list[str]:
        return [f"{r.method} {r.url.path}" for r in self.requests]


def _envelope(status: int, text: str) -> dict[str, Any]:
    code = {401: "CORESYSTEM_AuthenticationManager_401"}.get(status, f"E_{status}")
    return {"errorInfo": {"errorCode": code, "errorText": text, "errorLevel": 2}}


def make_client(platform: Platform, flow: httpx.Auth, base: str = BASE, **kw: Any) -> Client:
    return Client(base, auth=flow, transport=httpx.MockTransport(platform), **kw)


# -- Secret ------------------------------------------------------------------------------


def test_secret_never_shows_itself() -> None:
    secret = Secret(CLIENT_SECRET)
    shown = [
        str(secret),
        repr(secret),
        f"{secret}",
        f"{secret!r}",
        "%s" % secret,  # noqa: UP031
        f"{secret:>12}",
    ]
    assert shown[:3] == ["**********", "Secret('**********')", "**********"]
    assert_no_secrets(*shown)
    assert secret.get_secret_value() == CLIENT_SECRET
    assert Secret(secret).get_secret_value() == CLIENT_SECRET
    assert secret == Secret(CLIENT_SECRET) and secret != Secret("other")
    assert secret != CLIENT_SECRET  # never equal to the plain string
    assert bool(secret) and not Secret("")
    with pytest.raises(TypeError):
        pickle.dumps(secret)
    with pytest.raises(TypeError):
        Secret(1234)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flow", "expected"),
    [
        (
            ClientCredentials("reporting", CLIENT_SECRET),
            "ClientCredentials(client_id='reporting', client_secret=Secret('**********'))",
        ),
        (GuestLogin(GUEST_TOKEN), "GuestLogin(login_token=Secret('**********'))"),
        (
            SessionCookie({"JSESSIONID": SESSION_ID}),
            "SessionCookie(cookies={'JSESSIONID': Secret('**********')})",
        ),
        (BearerToken(ISSUED[0]), "BearerToken(token=Secret('**********'))"),
    ],
)
def test_reprs_leave_secrets_out(flow: httpx.Auth, expected: str) -> None:
    assert repr(flow) == expected
    assert_no_secrets(repr(flow), str(flow), vars(flow))
    client = Client(BASE, auth=flow)
    assert_no_secrets(repr(client), str(client))
    client.close()


# -- client credentials ------------------------------------------------------------------------


def test_client_credentials_posts_a_form_and_caches_the_token(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    platform = Platform()
    with make_client(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        for _ in range(3):
            assert client.fetch_raw() == PROFILES
    token_request, *api_requests = platform.requests
    assert token_request.method == "POST"
    assert token_request.url == BASE + TOKEN_PATH
    assert token_request.url.query == b""  # nothing in the URL
    assert token_request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert dict(httpx.QueryParams(token_request.content.decode())) == {
        "grant_type": "client_credentials",
        "client_id": "reporting",
        "client_secret": CLIENT_SECRET,
    }
    assert token_request.headers["user-agent"].startswith("iptoolkit/")
    assert len(api_requests) == 3  # one token for all three calls
    assert {r.headers["authorization"] for r in api_requests} == {f"Bearer {ISSUED[0]}"}
    assert "token received" in caplog.text
    assert_no_secrets(caplog.text, *(r.getMessage() for r in caplog.records))


def test_a_401_fetches_one_new_token_and_resends_once() -> None:
    platform = Platform()
    with make_client(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        client.fetch_raw()
        platform.valid = set()  # the server forgets the token (restart, revocation)
        assert client.fetch_raw() == PROFILES
    assert platform.paths() == [
        f"POST {TOKEN_PATH}",
        f"GET {LISTING}",
        f"GET {LISTING}",  # 401
        f"POST {TOKEN_PATH}",
        f"GET {LISTING}",
    ]
    assert platform.requests[-1].headers["authorization"] == f"Bearer {ISSUED[1]}"


def test_a_second_401_is_final(caplog: pytest.LogCaptureFixture, no_sleep: list[float]) -> None:
    caplog.set_level(logging.DEBUG)
    platform = Platform()
    platform.valid = set()

    def refuse_everything(token: str) -> httpx.Response:
        platform.valid = set()  # tokens are issued but never accepted
        return httpx.Response(200, json={"access_token": token})

    platform.token_body = refuse_everything
    with make_client(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        with pytest.raises(AuthenticationError) as caught:
            client.fetch_raw()
    assert platform.paths() == [
        f"POST {TOKEN_PATH}",
        f"GET {LISTING}",
        f"POST {TOKEN_PATH}",
        f"GET {LISTING}",
    ]
    assert str(caught.value).startswith(
        "401 CORESYSTEM_AuthenticationManager_401: The bearer token"
    )
    assert no_sleep == []
    assert_no_secrets(str(caught.value), repr(caught.value), caplog.text)


def test_wrong_client_secret_is_an_authentication_error_naming_the_token_request() -> None:
    platform = Platform()
    flow = ClientCredentials("reporting", "wrong-Secret-000")
    with make_client(platform, flow) as client, pytest.raises(AuthenticationError) as caught:
        client.fetch_raw()
    assert str(caught.value) == (
        "client-credentials token request failed: 401 CORESYSTEM_AuthenticationManager_401: "
        f"Unknown client, or wrong client secret. (POST {BASE}{TOKEN_PATH})"
    )
    assert "wrong-Secret-000" not in str(caught.value) + repr(caught.value)
    assert platform.paths() == [f"POST {TOKEN_PATH}"]


def test_expires_in_is_honoured_with_a_margin(clock: list[float]) -> None:
    platform = Platform(
        token_body=lambda t: httpx.Response(200, json={"access_token": t, "expires_in": 300})
    )
    with make_client(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        client.fetch_raw()
        clock[0] += 269  # 300 s minus the 30 s margin, not yet reached
        client.fetch_raw()
        clock[0] += 2  # now within the margin: renew before the server refuses
        client.fetch_raw()
    assert platform.paths() == [
        f"POST {TOKEN_PATH}",
        f"GET {LISTING}",
        f"GET {LISTING}",
        f"POST {TOKEN_PATH}",
        f"GET {LISTING}",
    ]


def test_a_short_lived_token_is_refreshed_at_ten_percent(clock: list[float]) -> None:
    platform = Platform(
        token_body=lambda t: httpx.Response(200, json={"access_token": t, "expires_in": "60"})
    )
    with make_client(platform, ClientCredentials("reporting", CLIENT_SECRET)) as client:
        client.fetch_raw()
        clock[0] += 53.9
        client.fetch_raw()
        clock[0] += 0.2
        client.fetch_raw()
    assert platform.paths().count(f"POST {TOKEN_PATH}") == 2


@pytest.mark.parametrize(
    "body",
    [
        {"json": {"access_token": "TOKEN-X", "token_type": "bearer"}},
        {"json": {"accessToken": "TOKEN-X"}},
        {"json": {"token": "TOKEN-X"}},
        {"json": {"bearerToken": "TOKEN-X"}},
        {"json": "TOKEN-X"},
        {"text": "TOKEN-X\n"},
        {"text": "Bearer TOKEN-X"},
        {"content": b'"TOKEN-X"', "headers": {"Content-Type": "text/plain"}},
    ],
)
def test_token_response_shapes(body: dict[str, Any]) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(200, **body)
        assert request.headers["authorization"] == "Bearer TOKEN-X"
        return httpx.Response(200, json=PROFILES)

    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        assert client.fetch_raw() == PROFILES


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            {"json": {"tokn": "TOKEN-SECRET-Y", "expires": 5}},
            "no access_token, token or bearerToken field (keys: expires, tokn)",
        ),
        (
            {"text": "<html><body>Please log in TOKEN-SECRET-Y</body></html>"},
            "the body does not look like a token",
        ),
        ({"text": ""}, "the body does not look like a token"),
        ({"json": ["TOKEN-SECRET-Y"]}, "a JSON list is not a token"),
        ({"text": '{"access_token": "TOKEN-SECRET-Y"'}, "the response is not valid JSON"),
    ],
)
def test_unusable_token_responses_never_quote_the_body(body: dict[str, Any], why: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, **body)

    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        with pytest.raises(AuthenticationError) as caught:
            client.fetch_raw()
    assert why in str(caught.value)
    assert str(caught.value).startswith(
        "client-credentials token request failed: 200 but no usable token"
    )
    assert "TOKEN-SECRET-Y" not in str(caught.value)


def test_a_failing_token_endpoint_is_retried_like_the_get_it_serves(no_sleep: list[float]) -> None:
    answers = iter(
        [httpx.Response(503, text="busy"), httpx.Response(200, json={"access_token": "T"})]
    )

    def handler(request: httpx.Request) -> httpx.Response:
        return next(answers) if request.method == "POST" else httpx.Response(200, json=PROFILES)

    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        assert client.fetch_raw() == PROFILES
    assert len(no_sleep) == 1


def test_a_token_endpoint_that_keeps_failing_raises_its_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, text="<h1>oops</h1>")

    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        with pytest.raises(
            InternalServerError, match=r"^client-credentials token request failed: 500"
        ):
            client.fetch_raw()


def test_token_request_inherits_the_client_timeout() -> None:
    seen: list[Any] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions.get("timeout"))
        if request.method == "POST":
            return httpx.Response(200, json={"access_token": "T"})
        return httpx.Response(200, json=PROFILES)

    with Client(
        BASE,
        auth=ClientCredentials("c", CLIENT_SECRET),
        timeout=4.5,
        transport=httpx.MockTransport(handler),
    ) as client:
        client.fetch_raw()
    assert seen[0] == seen[1] == httpx.Timeout(4.5).as_dict()


# -- where token paths point ----------------------------------------------------------------


def test_paths_are_resolved_under_the_base_url_prefix() -> None:
    platform = Platform()
    with make_client(
        platform, ClientCredentials("reporting", CLIENT_SECRET), base=BASE + "/platform/"
    ) as client:
        assert client.fetch_raw() == PROFILES
    assert [str(r.url) for r in platform.requests] == [
        BASE + "/platform" + TOKEN_PATH,
        BASE + "/platform" + LISTING,
    ]


def test_an_absolute_token_url_is_used_as_given() -> None:
    platform = Platform()
    flow = ClientCredentials("reporting", CLIENT_SECRET, token_path="https://idp.test" + TOKEN_PATH)
    with make_client(platform, flow) as client:
        client.fetch_raw()
    assert str(platform.requests[0].url) == "https://idp.test" + TOKEN_PATH


def test_outside_our_client_paths_resolve_against_the_request_origin() -> None:
    platform = Platform()
    flow = ClientCredentials("reporting", CLIENT_SECRET)
    with httpx.Client(auth=flow, transport=httpx.MockTransport(platform)) as plain:
        assert plain.get(BASE + LISTING).json() == PROFILES
    assert str(platform.requests[0].url) == BASE + TOKEN_PATH


def test_one_flow_used_by_clients_of_two_base_urls_is_copied_not_shared() -> None:
    flow = ClientCredentials("reporting", CLIENT_SECRET)
    first = Client(BASE, auth=flow)
    again = Client(BASE, auth=flow)
    other = Client("https://other.test", auth=flow)
    assert first.auth is flow and again.auth is flow
    assert other.auth is not flow
    assert isinstance(other.auth, ClientCredentials)
    assert other.auth.client_secret == flow.client_secret
    for client in (first, again, other):
        client.close()


# -- session cookie --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cookies",
    [
        {"JSESSIONID": SESSION_ID},
        f"JSESSIONID={SESSION_ID}",
        f" theme=dark; JSESSIONID={SESSION_ID} ",
        httpx.Cookies({"JSESSIONID": SESSION_ID}),
    ],
)
def test_session_cookie_buys_a_bearer_token(cookies: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    platform = Platform()
    with make_client(platform, SessionCookie(cookies)) as client:
        assert client.fetch_raw() == PROFILES
        assert_no_secrets(repr(client))
    token_request, api_request = platform.requests
    assert (token_request.method, token_request.url.path) == ("GET", SESSION_PATH)
    assert f"JSESSIONID={SESSION_ID}" in token_request.headers["cookie"]
    assert api_request.headers["authorization"] == f"Bearer {ISSUED[0]}"
    assert "cookie" not in api_request.headers
    assert_no_secrets(caplog.text)


def test_session_cookie_from_a_cookiejar() -> None:
    jar = http.cookiejar.CookieJar()
    cookie = http.cookiejar.Cookie(
        0,
        "JSESSIONID",
        SESSION_ID,
        None,
        False,
        "platform.test",
        True,
        False,
        "/",
        True,
        False,
        None,
        False,
        None,
        None,
        {},
    )
    jar.set_cookie(cookie)
    platform = Platform()
    with make_client(platform, SessionCookie(jar)) as client:
        assert client.fetch_raw() == PROFILES


def test_session_cookie_renews_its_bearer_on_a_401() -> None:
    platform = Platform()
    with make_client(platform, SessionCookie({"JSESSIONID": SESSION_ID})) as client:
        client.fetch_raw()
        platform.refuse_next_api_call = True
        client.fetch_raw()
    assert platform.paths() == [
        f"GET {SESSION_PATH}",
        f"GET {LISTING}",
        f"GET {LISTING}",
        f"GET {SESSION_PATH}",
        f"GET {LISTING}",
    ]


def test_an_expired_session_is_an_authentication_error() -> None:
    platform = Platform()
    platform.sessions = set()
    with make_client(platform, SessionCookie({"JSESSIONID": SESSION_ID})) as client:
        with pytest.raises(AuthenticationError) as caught:
            client.fetch_raw()
    assert str(caught.value).startswith(
        "session bearer token request failed: "
        "401 CORESYSTEM_AuthenticationManager_401: No valid session"
    )
    assert_no_secrets(str(caught.value))


def test_a_redirect_to_a_login_page_is_an_authentication_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "/login"})

    with Client(
        BASE, auth=SessionCookie({"JSESSIONID": SESSION_ID}), transport=httpx.MockTransport(handler)
    ) as client:
        with pytest.raises(AuthenticationError, match="redirected to /login"):
            client.fetch_raw()


@pytest.mark.parametrize("bad", ["", "JSESSIONID", f"={SESSION_ID}", "; ;"])
def test_a_malformed_cookie_string_is_refused_without_echoing_it(bad: str) -> None:
    with pytest.raises(ValueError) as caught:
        SessionCookie(bad)
    assert_no_secrets(str(caught.value))


# -- guest login -----------------------------------------------------------------------------


def test_guest_login_opens_a_session_then_gets_a_token(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    platform = Platform()
    with make_client(platform, GuestLogin(GUEST_TOKEN), base=BASE + "/platform") as client:
        assert client.fetch_raw() == PROFILES
    login, token, api = platform.requests
    assert login.method == "GET"
    assert str(login.url) == f"{BASE}/platform/?loginToken={GUEST_TOKEN}"
    assert str(token.url) == f"{BASE}/platform{SESSION_PATH}"
    assert token.headers["cookie"] == "JSESSIONID=guest-session; lang=en"
    assert api.headers["authorization"] == f"Bearer {ISSUED[0]}"
    # httpx logs every request URL at INFO: the login token is masked there too
    assert f"{BASE}/platform/?loginToken=**********" in caplog.text
    assert_no_secrets(caplog.text, *(r.getMessage() for r in caplog.records))


def test_guest_login_is_redone_when_the_bearer_is_refused() -> None:
    platform = Platform()
    with make_client(platform, GuestLogin(GUEST_TOKEN)) as client:
        client.fetch_raw()
        platform.refuse_next_api_call = True
        client.fetch_raw()
    assert platform.paths() == [
        "GET /",
        f"GET {SESSION_PATH}",
        f"GET {LISTING}",
        f"GET {LISTING}",
        "GET /",
        f"GET {SESSION_PATH}",
        f"GET {LISTING}",
    ]


def test_a_refused_guest_token_names_the_masked_login_url(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = "guest-Wrong-Token-0000"
    platform = Platform()
    with (
        make_client(platform, GuestLogin(wrong)) as client,
        pytest.raises(AuthenticationError) as caught,
    ):
        client.fetch_raw()
    assert str(caught.value) == (
        "guest login failed: 401 CORESYSTEM_AuthenticationManager_401: This guest login token is "
        f"not valid. (GET {BASE}/?loginToken=**********)"
    )
    assert caught.value.request is not None
    assert caught.value.request.url == f"{BASE}/?loginToken=**********"
    assert wrong not in str(caught.value) + repr(caught.value) + caplog.text


def test_guest_login_without_a_cookie_still_asks_for_the_token() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/":
            return httpx.Response(200, text="<html>welcome</html>")
        if request.url.path == SESSION_PATH:
            assert "cookie" not in request.headers
            return httpx.Response(200, json={"bearerToken": "T"})
        return httpx.Response(200, json=PROFILES)

    with Client(
        BASE, auth=GuestLogin(GUEST_TOKEN), transport=httpx.MockTransport(handler)
    ) as client:
        assert client.fetch_raw() == PROFILES


# -- bearer token ------------------------------------------------------------------------------


def test_bearer_token_is_sent_and_a_401_is_final(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    platform = Platform()
    platform.valid = {ISSUED[2]}
    with make_client(platform, BearerToken(ISSUED[2])) as client:
        assert client.fetch_raw() == PROFILES
        platform.valid = set()
        with pytest.raises(AuthenticationError) as caught:
            client.fetch_raw()
    assert platform.paths() == [f"GET {LISTING}"] * 2  # no refresh, no retry
    assert_no_secrets(str(caught.value), repr(caught.value), caplog.text)


def test_a_403_after_a_good_token_is_permission_denied_and_not_refreshed() -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        if request.method == "POST":
            return httpx.Response(200, json={"access_token": "T"})
        return httpx.Response(
            403, json={"errorInfo": {"errorCode": "CORESYSTEM_permission_403", "errorText": "No."}}
        )

    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        with pytest.raises(PermissionDeniedError, match=r"^403 CORESYSTEM_permission_403: No\."):
            client.fetch_raw()
    assert calls == ["POST", "GET"]


def test_client_refuses_a_non_auth_object() -> None:
    with pytest.raises(TypeError, match="BearerToken"):
        Client(BASE, auth="a-plain-token")  # type: ignore[arg-type]


def test_every_auth_error_is_an_api_error() -> None:
    assert issubclass(AuthenticationError, ApiError)


def test_httpcore_header_trace_is_masked(caplog: pytest.LogCaptureFixture) -> None:
    """httpcore logs response headers at DEBUG; a Set-Cookie there carries a session id."""
    caplog.set_level(logging.DEBUG)
    Client(BASE, auth=BearerToken(ISSUED[0])).close()  # any client installs the filters
    logging.getLogger("httpcore.http11").debug(
        "receive_response_headers.complete return_value=(b'HTTP/1.1', 303, b'See Other', "
        f"[(b'set-cookie', b'JSESSIONID={SESSION_ID}; Path=/'), (b'location', b'/')])"
    )
    assert "(b'set-cookie', b'**********'), (b'location', b'/')" in caplog.text
    assert_no_secrets(caplog.text)


def test_the_flows_default_to_the_paths_the_reference_server_serves() -> None:
    """The client names each path once (`auth.py`); the server, which must not import the
    client, names them on its side: the two agree."""
    from iptoolkit.server import app

    assert auth.CLIENT_TOKEN_PATH == app.TOKEN_PATH
    assert auth.SESSION_TOKEN_PATH == app.SESSION_TOKEN_PATH
    assert ClientCredentials("c", "s").token_path == auth.CLIENT_TOKEN_PATH
    assert SessionCookie("a=b").token_path == GuestLogin("t").token_path == app.SESSION_TOKEN_PATH
