"""The reference server over a real loopback socket: every rule of issue 4, with httpx."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
import orjson
import pytest

import iptoolkit.server as server_pkg
from iptoolkit.core.estate import Estate
from iptoolkit.server import RunningServer, running
from iptoolkit.server.app import PROFILES_PATH, SESSION_COOKIE, SESSION_TOKEN_PATH, TOKEN_PATH

from .server_data import PROFILES, SECRETS, ids, make_principals, request_token

ALL_IDS = ids(PROFILES)
FIN_IDS = ["P1", "P2", "P7", "P8"]  # Finance, Finance/*: not FinanceX, not ungrouped


@pytest.fixture(scope="module")
def srv() -> Iterator[RunningServer]:
    with running(PROFILES, make_principals()) as server:
        yield server


@pytest.fixture
def http(srv: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=srv.base_url, timeout=10) as client:
        yield client


def token_for(http: httpx.Client, client_id: str, secret: str | None = None) -> str:
    response = request_token(http, client_id, secret)
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    assert isinstance(token, str), token
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_envelope(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"errorInfo"}
    info = body["errorInfo"]
    assert isinstance(info, dict), info
    assert set(info) == {"errorCode", "errorText", "errorLevel", "httpResponseStatus"}
    assert info["errorCode"] == code
    assert info["httpResponseStatus"] == status
    assert isinstance(info["errorLevel"], int)
    assert isinstance(info["errorText"], str) and info["errorText"]
    return info


def expected_body(profiles: Iterable[Any]) -> bytes:
    parts = []
    for profile in profiles:
        try:
            parts.append(orjson.dumps(profile))
        except TypeError:  # beyond 64 bits
            parts.append(json.dumps(profile, separators=(",", ":"), ensure_ascii=False).encode())
    return b"[" + b",".join(parts) + b"]"


# -- the token endpoint ---------------------------------------------------------------------


def test_token_good(http: httpx.Client) -> None:
    response = request_token(http, "analytics")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"access_token", "token_type", "expires_in"}
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert len(body["access_token"]) >= 40
    assert response.headers["cache-control"] == "no-store"
    assert token_for(http, "analytics") != body["access_token"]  # random, one per request


def test_token_with_hashed_secret(http: httpx.Client) -> None:
    assert token_for(http, "hashed")


def test_token_wrong_grant_type(http: httpx.Client) -> None:
    response = http.post(
        TOKEN_PATH,
        data={"grant_type": "password", "client_id": "analytics", "client_secret": "x"},
    )
    info = assert_envelope(response, 400, "CORESYSTEM_validation_400")
    assert "grant_type" in info["errorText"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"data": {"grant_type": "client_credentials", "client_id": "analytics"}},
        {"data": {"grant_type": "client_credentials", "client_id": "x", "client_secret": ""}},
        {"json": {"grant_type": "client_credentials", "client_id": "analytics"}},
        {"content": b"\xff\xfe not a form", "headers": {"content-type": "text/plain"}},
        {},
    ],
    ids=["missing-secret", "empty-secret", "json-body", "garbage", "empty"],
)
def test_token_malformed(http: httpx.Client, kwargs: dict[str, Any]) -> None:
    assert_envelope(http.post(TOKEN_PATH, **kwargs), 400, "CORESYSTEM_validation_400")


def test_token_validation_error_does_not_echo_input(http: httpx.Client) -> None:
    response = http.post(TOKEN_PATH, data={"client_secret": SECRETS["analytics"]})
    assert_envelope(response, 400, "CORESYSTEM_validation_400")
    assert SECRETS["analytics"] not in response.text


@pytest.mark.parametrize(
    ("client_id", "secret"),
    [("nobody", "whatever"), ("analytics", "wrong"), ("hashed", "wrong"), ("Analytics", "x")],
)
def test_token_bad_credentials(http: httpx.Client, client_id: str, secret: str) -> None:
    response = request_token(http, client_id, secret)
    assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")


# -- web UI: login page, user login, guest login, session bearer token ------------------------


def test_login_page(http: httpx.Client) -> None:
    response = http.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert '<form method="post" action="/">' in page
    assert 'name="username"' in page and 'name="password"' in page and 'type="password"' in page
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["referrer-policy"] == "same-origin"
    assert "set-cookie" not in response.headers


def test_user_login_session_and_bearer(http: httpx.Client) -> None:
    response = http.post("/", data={"username": "lena", "password": SECRETS["lena"]})
    assert response.status_code == 303
    assert response.headers["location"] == "/"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "lena" in http.get("/").text  # signed in

    first = http.get(SESSION_TOKEN_PATH)
    assert first.status_code == 200
    assert set(first.json()) == {"access_token", "token_type", "expires_in"}
    assert http.get(SESSION_TOKEN_PATH).json()["access_token"] == first.json()["access_token"]
    listing = http.get(PROFILES_PATH, headers=bearer(first.json()["access_token"]))
    assert listing.status_code == 200


def test_user_sees_union_of_roles(http: httpx.Client) -> None:
    http.post("/", data={"username": "lena", "password": SECRETS["lena"]})
    token = http.get(SESSION_TOKEN_PATH).json()["access_token"]
    assert ids(http.get(PROFILES_PATH, headers=bearer(token)).json()) == [
        "P1",
        "P2",
        "P4",
        "P7",
        "P8",
    ]


@pytest.mark.parametrize(
    "form",
    [{"username": "lena", "password": "wrong"}, {"username": "nobody", "password": "x"}],
)
def test_user_login_failure(http: httpx.Client, form: dict[str, str]) -> None:
    response = http.post("/", data=form)
    assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")
    assert "set-cookie" not in response.headers
    assert_envelope(http.get(SESSION_TOKEN_PATH), 401, "CORESYSTEM_AuthenticationManager_401")


def test_user_login_failure_in_a_browser_shows_the_page(http: httpx.Client) -> None:
    response = http.post(
        "/",
        data={"username": "lena", "password": "wrong"},
        headers={"Accept": "text/html,application/xhtml+xml"},
    )
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("text/html")
    assert "Wrong user name or password" in response.text
    assert "set-cookie" not in response.headers


def test_user_login_malformed(http: httpx.Client) -> None:
    assert_envelope(http.post("/", data={"username": "lena"}), 400, "CORESYSTEM_validation_400")


def test_guest_session(http: httpx.Client) -> None:
    response = http.get("/", params={"loginToken": SECRETS["guest"]})
    assert response.status_code == 303
    assert "HttpOnly" in response.headers["set-cookie"]
    token = http.get(SESSION_TOKEN_PATH).json()["access_token"]
    assert ids(http.get(PROFILES_PATH, headers=bearer(token)).json()) == FIN_IDS


def test_guest_session_with_hashed_token(http: httpx.Client) -> None:
    assert http.get("/", params={"loginToken": SECRETS["hashed-guest"]}).status_code == 303
    token = http.get(SESSION_TOKEN_PATH).json()["access_token"]
    assert ids(http.get(PROFILES_PATH, headers=bearer(token)).json()) == ["P4"]
    assert "visitor" in http.get("/").text


@pytest.mark.parametrize("login_token", ["not-a-guest", "", SECRETS["guest"].lower()])
def test_guest_unknown_token(http: httpx.Client, login_token: str) -> None:
    response = http.get("/", params={"loginToken": login_token})
    assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")
    assert "set-cookie" not in response.headers
    assert_envelope(http.get(SESSION_TOKEN_PATH), 401, "CORESYSTEM_AuthenticationManager_401")


def test_session_bearer_without_session(http: httpx.Client) -> None:
    assert_envelope(http.get(SESSION_TOKEN_PATH), 401, "CORESYSTEM_AuthenticationManager_401")
    http.cookies.set(SESSION_COOKIE, "forged-session-id")
    assert_envelope(http.get(SESSION_TOKEN_PATH), 401, "CORESYSTEM_AuthenticationManager_401")


# -- the listing ---------------------------------------------------------------------------


def test_listing_missing_bearer(http: httpx.Client) -> None:
    response = http.get(PROFILES_PATH)
    assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")
    assert response.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "authorization",
    ["Bearer forged-token", "Bearer", "Basic YW5hbHl0aWNzOng=", "forged-token", "Bearer a b"],
)
def test_listing_forged_bearer(http: httpx.Client, authorization: str) -> None:
    response = http.get(PROFILES_PATH, headers={"Authorization": authorization})
    assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")


def test_listing_session_cookie_is_not_a_bearer(http: httpx.Client) -> None:
    http.post("/", data={"username": "lena", "password": SECRETS["lena"]})
    assert_envelope(http.get(PROFILES_PATH), 401, "CORESYSTEM_AuthenticationManager_401")


def test_listing_expired_bearer() -> None:
    with running(PROFILES, make_principals(), token_ttl=0.3) as server:
        with httpx.Client(base_url=server.base_url) as http:
            response = request_token(http, "analytics")
            assert response.json()["expires_in"] == 1  # rounded up
            token = response.json()["access_token"]
            assert http.get(PROFILES_PATH, headers=bearer(token)).status_code == 200
            time.sleep(0.4)
            response = http.get(PROFILES_PATH, headers=bearer(token))
            info = assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")
            assert "expired" in info["errorText"]


def test_listing_without_permission(http: httpx.Client) -> None:
    response = http.get(PROFILES_PATH, headers=bearer(token_for(http, "auditor")))
    info = assert_envelope(response, 403, "CORESYSTEM_permission_403")
    assert "profiles:view" in info["errorText"]


@pytest.mark.parametrize(
    ("client_id", "expected"),
    [
        ("analytics", ALL_IDS),  # `*`: everything, ungrouped profiles included
        ("hashed", ["P1", "P2", "P3", "P7", "P8"]),  # `Finance*`: FinanceX too
    ],
)
def test_listing_group_filtering(http: httpx.Client, client_id: str, expected: list[str]) -> None:
    listing = http.get(PROFILES_PATH, headers=bearer(token_for(http, client_id)))
    assert listing.status_code == 200
    assert ids(listing.json()) == expected


def test_listing_is_byte_for_byte(http: httpx.Client) -> None:
    response = http.get(PROFILES_PATH, headers=bearer(token_for(http, "analytics")))
    assert response.headers["content-type"] == "application/json"
    assert response.content == expected_body(PROFILES)
    assert json.loads(response.content) == PROFILES  # faulty P7 and the 70-bit int included
    for profile in PROFILES[:6]:
        assert orjson.dumps(profile) in response.content


def test_listing_of_an_estate_serves_raw_profiles() -> None:
    estate = Estate.from_raw(PROFILES)
    assert estate.problems  # P7 is faulty: served anyway
    with running(estate, make_principals()) as server:
        with httpx.Client(base_url=server.base_url) as http:
            response = http.get(PROFILES_PATH, headers=bearer(token_for(http, "analytics")))
    assert response.content == expected_body(estate.raw_profiles)


# -- paging --------------------------------------------------------------------------------


def page(http: httpx.Client, token: str, **params: Any) -> httpx.Response:
    return http.get(PROFILES_PATH, params=params, headers=bearer(token))


def test_paging(http: httpx.Client) -> None:
    token = token_for(http, "analytics")
    first = page(http, token, page=0, size=3)
    assert first.status_code == 200
    body = first.json()
    assert ids(body["content"]) == ALL_IDS[:3]
    assert {k: v for k, v in body.items() if k != "content"} == {
        "number": 0,
        "size": 3,
        "numberOfElements": 3,
        "totalElements": 8,
        "totalPages": 3,
        "first": True,
        "last": False,
        "empty": False,
    }
    assert first.content.startswith(b'{"content":[' + orjson.dumps(PROFILES[0]) + b",")
    last = page(http, token, page=2, size=3).json()
    assert ids(last["content"]) == ALL_IDS[6:]
    assert last["last"] and not last["first"] and last["numberOfElements"] == 2
    beyond = page(http, token, page=9, size=3).json()
    assert beyond["content"] == [] and beyond["empty"] and beyond["last"]
    gathered = [p for n in range(3) for p in page(http, token, page=n, size=3).json()["content"]]
    assert gathered == PROFILES


def test_paging_defaults(http: httpx.Client) -> None:
    token = token_for(http, "analytics")
    only_page = page(http, token, page=0).json()
    assert only_page["size"] == 20 and only_page["content"] == PROFILES
    only_size = page(http, token, size=1000).json()
    assert only_size["number"] == 0 and only_size["totalPages"] == 1 and only_size["last"]


def test_paging_respects_groups(http: httpx.Client) -> None:
    http.get("/", params={"loginToken": SECRETS["guest"]})
    token = http.get(SESSION_TOKEN_PATH).json()["access_token"]
    body = page(http, token, page=1, size=3).json()
    assert ids(body["content"]) == FIN_IDS[3:] and body["totalElements"] == 4


@pytest.mark.parametrize(
    "params",
    [
        {"page": -1},
        {"size": 0},
        {"size": 1001},
        {"page": "abc"},
        {"size": "1.5"},
        {"page": 2**31},
        {"page": "4017646616189377445888"},
        {"page": "", "size": 3},
    ],
)
def test_paging_bad_values(http: httpx.Client, params: dict[str, Any]) -> None:
    response = page(http, token_for(http, "analytics"), **params)
    info = assert_envelope(response, 400, "CORESYSTEM_validation_400")
    assert "query parameter" in info["errorText"]


def test_authentication_comes_before_validation(http: httpx.Client) -> None:
    response = http.get(PROFILES_PATH, params={"size": 0})
    assert_envelope(response, 401, "CORESYSTEM_AuthenticationManager_401")


# -- other paths, methods, failures -------------------------------------------------------


@pytest.mark.parametrize("path", ["/nope", "/api/preview/profiles/P1", "/api/preview", "/docs/x"])
def test_unknown_path(http: httpx.Client, path: str) -> None:
    assert_envelope(http.get(path), 404, "CORESYSTEM_notFound_404")


@pytest.mark.parametrize("path", [PROFILES_PATH + "/", SESSION_TOKEN_PATH + "/", TOKEN_PATH + "/"])
def test_a_trailing_slash_is_another_path_not_a_redirect(srv: RunningServer, path: str) -> None:
    with httpx.Client(base_url=srv.base_url, follow_redirects=False, timeout=10) as http:
        assert_envelope(http.get(path), 404, "CORESYSTEM_notFound_404")


def test_wrong_method(http: httpx.Client) -> None:
    response = http.delete(PROFILES_PATH)
    assert_envelope(response, 405, "CORESYSTEM_methodNotAllowed_405")
    assert response.headers["allow"] == "GET, HEAD"
    assert_envelope(http.get(TOKEN_PATH), 405, "CORESYSTEM_methodNotAllowed_405")


def test_a_405_allows_every_method_served_at_its_path(http: httpx.Client) -> None:
    """`/` serves GET and HEAD (the login page) and POST (the login form): a PUT there is
    told all three, not the first route's GET alone (Schemathesis found it)."""
    response = http.put("/")
    assert_envelope(response, 405, "CORESYSTEM_methodNotAllowed_405")
    assert response.headers["allow"] == "GET, HEAD, POST"
    assert http.get(TOKEN_PATH).headers["allow"] == "POST"


def test_unexpected_error_is_500_with_nothing_internal(
    srv: RunningServer, http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(patterns: Any) -> Any:
        raise RuntimeError("internal detail: /srv/secret/path.py line 42")

    token = token_for(http, "analytics")
    monkeypatch.setattr(srv.app.state.server.catalogue, "view", explode)
    response = http.get(PROFILES_PATH, headers=bearer(token))
    info = assert_envelope(response, 500, "CORESYSTEM_internalServerError_500")
    assert "internal detail" not in response.text and "RuntimeError" not in response.text
    assert info["errorLevel"] == 3


# -- the OpenAPI document -------------------------------------------------------------------


def test_openapi_documents_everything(http: httpx.Client) -> None:
    document = http.get("/openapi.json").json()
    paths = document["paths"]
    assert {(path, method) for path, ops in paths.items() for method in ops} == {
        (TOKEN_PATH, "post"),
        ("/", "get"),
        ("/", "post"),
        (SESSION_TOKEN_PATH, "get"),
        (PROFILES_PATH, "get"),
    }
    envelope = {"$ref": "#/components/schemas/ErrorEnvelope"}
    for path, ops in paths.items():
        for method, operation in ops.items():
            responses = operation["responses"]
            assert "422" not in responses, (path, method)
            errors = [status for status in responses if status >= "400"]
            assert "500" in errors, (path, method)
            for status in errors:
                schema = responses[status]["content"]["application/json"]["schema"]
                assert schema == envelope, (path, method, status)
    listing = paths[PROFILES_PATH]["get"]
    assert set(listing["responses"]) == {"200", "400", "401", "403", "404", "500"}
    assert {p["name"] for p in listing["parameters"]} == {"page", "size"}
    assert listing["security"] == [{"bearerToken": []}]
    schemas = document["components"]["schemas"]
    assert {"ErrorEnvelope", "ErrorInfo", "IntegrationProfile", "ProfilePage"} <= set(schemas)
    assert "HTTPValidationError" not in schemas
    assert schemas["ErrorInfo"]["required"] == [
        "errorCode",
        "errorText",
        "errorLevel",
        "httpResponseStatus",
    ]
    assert "oneOf" not in json.dumps(schemas["IntegrationProfile"])
    assert document["components"]["securitySchemes"]["bearerToken"]["scheme"] == "bearer"


# -- secrets stay secret --------------------------------------------------------------------


def test_secrets_never_logged_or_printed(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = list(SECRETS.values())
    with running(PROFILES, make_principals()) as server:
        with httpx.Client(base_url=server.base_url) as http:
            seen.append(token_for(http, "analytics"))
            http.post(TOKEN_PATH, data={"grant_type": "x", "client_secret": SECRETS["auditor"]})
            http.post("/", data={"username": "lena", "password": SECRETS["lena"]})
            seen.append(http.cookies[SESSION_COOKIE])
            seen.append(http.get(SESSION_TOKEN_PATH).json()["access_token"])
            http.post("/", data={"username": "lena", "password": "wrong-" + SECRETS["lena"]})
            http.cookies.clear()
            http.get("/", params={"loginToken": SECRETS["guest"]})
            seen.append(http.cookies[SESSION_COOKIE])
            http.get("/", params={"loginToken": "x" + SECRETS["guest"]})
            http.get(PROFILES_PATH, headers=bearer(seen[-2]))
            http.get(PROFILES_PATH, headers=bearer("forged-" + SECRETS["analytics"]))
    # the test's own httpx client logs its request URLs; the server must log nothing secret
    server_log = "\n".join(
        record.getMessage() + str(record.exc_info or "")
        for record in caplog.records
        if not record.name.startswith(("httpx", "httpcore"))
    )
    out, err = capsys.readouterr()
    for secret in seen:
        assert secret not in server_log
        assert secret not in out and secret not in err


def test_running_server_and_credentials_hide_secrets() -> None:
    with running(PROFILES) as server:
        assert server.credentials is not None
        for text in (repr(server), repr(server.credentials), str(server.credentials)):
            for secret in (server.client_secret, server.password, server.guest_token):
                assert secret and secret not in text
        assert server.client_id is not None and server.client_id in repr(server)
    with running(PROFILES, make_principals()) as server:
        assert server.credentials is None and server.client_id is None


# -- the demo estate and demo principals ----------------------------------------------------


def test_default_server_with_demo_estate_and_principals() -> None:
    from iptoolkit.demo import demo_estate

    expected = demo_estate()
    with running() as server:
        creds = server.credentials
        assert creds is not None
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            token = token_for(http, creds.client_id, creds.client_secret)
            everything = http.get(PROFILES_PATH, headers=bearer(token))
            assert everything.content == expected_body(expected.raw_profiles)
            denied = token_for(http, creds.denied_client_id, creds.denied_client_secret)
            denied_response = http.get(PROFILES_PATH, headers=bearer(denied))
            assert_envelope(denied_response, 403, "CORESYSTEM_permission_403")
            http.get("/", params={"loginToken": creds.guest_token})
            guest = http.get(SESSION_TOKEN_PATH).json()["access_token"]
            guest_groups = {
                p.get("group") for p in http.get(PROFILES_PATH, headers=bearer(guest)).json()
            }
            assert guest_groups and all(
                g == "Finance" or g.startswith("Finance/") for g in guest_groups
            )
            http.cookies.clear()
            http.post("/", data={"username": creds.username, "password": creds.password})
            user = http.get(SESSION_TOKEN_PATH).json()["access_token"]
            assert http.get(PROFILES_PATH, headers=bearer(user)).content == everything.content


def test_running_stops_the_server() -> None:
    with running(PROFILES, make_principals()) as server:
        base_url = server.base_url
        assert httpx.get(base_url + "/").status_code == 200
    with pytest.raises(httpx.TransportError):
        httpx.get(base_url + "/", timeout=2)


# -- package hygiene ------------------------------------------------------------------------


def test_public_names() -> None:
    assert server_pkg.__all__ == [
        "running",
        "serve",
        "create_app",
        "RunningServer",
        "ServerLimits",
        "Principals",
        "demo_principals",
        "hash_secret",
        "verify_secret",
    ]


def test_server_never_imports_the_client() -> None:
    code = (
        "import sys, iptoolkit.server, iptoolkit.cli.serve, iptoolkit.server.__main__; "
        "print([m for m in sys.modules if m.startswith('iptoolkit.client')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
