"""The exception tree, the status mapping, and errors built from responses of every shape."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable

import httpx
import pytest

import iptoolkit.client as client_pkg
from iptoolkit.client import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    ApiTransportError,
    AuthenticationError,
    BadRequestError,
    BearerToken,
    Client,
    InternalServerError,
    NotFoundError,
    PagingError,
    PermissionDeniedError,
    RateLimitError,
    errors,
)
from iptoolkit.client.errors import (
    error_class_for_status,
    error_from_response,
    error_from_transport,
)

from .client_helpers import BASE

TOKEN = "tok-errors-Zq81"

pytestmark = pytest.mark.usefixtures("no_sleep")


def envelope(status: int, code: str, text: str, level: int = 2) -> dict[str, object]:
    return {
        "errorInfo": {
            "errorCode": code,
            "errorText": text,
            "errorLevel": level,
            "httpResponseStatus": status,
        }
    }


def response(
    status: int, *, url: str = BASE + "/api/preview/profiles", **kwargs: object
) -> httpx.Response:
    return httpx.Response(status, request=httpx.Request("GET", url), **kwargs)  # type: ignore[arg-type]


def client_for(handler: Callable[[httpx.Request], httpx.Response]) -> Client:
    return Client(BASE, auth=BearerToken(TOKEN), transport=httpx.MockTransport(handler))


# -- the tree and the mapping ------------------------------------------------------------


def test_exported_names_are_pinned() -> None:
    assert set(client_pkg.__all__) == {
        "Client",
        "AsyncClient",
        "ClientCredentials",
        "SessionCookie",
        "GuestLogin",
        "BearerToken",
        "Secret",
        "check_endpoint",
        "ApiError",
        "BadRequestError",
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
        "RateLimitError",
        "InternalServerError",
        "PagingError",
        "ResponseParseError",
        "ResponseTooLargeError",
        "DeadlineExceededError",
        "ApiTransportError",
        "ApiConnectionError",
        "ApiTimeoutError",
        "error_class_for_status",
    }
    for name in client_pkg.__all__:
        assert getattr(client_pkg, name) is not None


def test_every_exception_is_drawn_in_the_module_docstring_and_derives_from_api_error() -> None:
    assert errors.__doc__ is not None
    classes = [getattr(errors, name) for name in errors.__all__ if name[0].isupper()]
    assert len(classes) == 14
    for cls in classes:
        assert issubclass(cls, ApiError)
        assert cls.__name__ in errors.__doc__
        assert not hasattr(builtins, cls.__name__), f"{cls.__name__} shadows a builtin"


def test_transport_errors_share_a_base_and_are_not_the_builtins() -> None:
    assert issubclass(ApiConnectionError, ApiTransportError)
    assert issubclass(ApiTimeoutError, ApiTransportError)
    assert not issubclass(ApiConnectionError, builtins.ConnectionError)
    assert not issubclass(ApiTimeoutError, builtins.TimeoutError)


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (429, RateLimitError),
        (500, InternalServerError),
        (502, InternalServerError),
        (503, InternalServerError),
        (599, InternalServerError),
        (302, ApiError),
        (409, ApiError),
        (418, ApiError),
    ],
)
def test_error_class_for_status(status: int, cls: type[ApiError]) -> None:
    assert error_class_for_status(status) is cls


# -- errors built from responses ----------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "CORESYSTEM_validation_400", BadRequestError),
        (401, "CORESYSTEM_AuthenticationManager_401", AuthenticationError),
        (403, "CORESYSTEM_permission_403", PermissionDeniedError),
        (404, "CORESYSTEM_notFound_404", NotFoundError),
        (500, "CORESYSTEM_internalServerError_500", InternalServerError),
    ],
)
def test_the_envelope_fills_every_attribute(status: int, code: str, cls: type[ApiError]) -> None:
    error = error_from_response(response(status, json=envelope(status, code, "Went wrong.", 3)))
    assert type(error) is cls
    assert str(error) == f"{status} {code}: Went wrong. (GET {BASE}/api/preview/profiles)"
    assert str(error).startswith(f"{status} {code}: Went wrong.")
    assert error.status_code == status
    assert error.error_code == code
    assert error.error_text == "Went wrong."
    assert error.error_level == 3
    assert error.http_response_status == status
    assert error.request is not None
    assert (error.request.method, error.request.url) == ("GET", BASE + "/api/preview/profiles")
    assert error.body_excerpt is None


@pytest.mark.parametrize(
    ("status", "body", "headers", "cls", "shown"),
    [
        (
            502,
            b"<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>",
            {"Content-Type": "text/html"},
            InternalServerError,
            "502 Bad Gateway: <html><head><title>502 Bad Gateway</title></head> <body>nginx",
        ),
        (503, b"", {}, InternalServerError, "503 Service Unavailable: (empty body)"),
        (
            403,
            b'{"errorInfo": {"errorCode": "CORESYS',
            {},
            PermissionDeniedError,
            '403 Forbidden: {"errorInfo"',
        ),
        (404, b"[1, 2, 3]", {}, NotFoundError, "404 Not Found: [1, 2, 3]"),
        (
            400,
            b'{"message": "bad page"}',
            {},
            BadRequestError,
            '400 Bad Request: {"message": "bad page"}',
        ),
        (401, b"   \n  ", {}, AuthenticationError, "401 Unauthorized: (blank body)"),
        (418, b"I'm a teapot", {}, ApiError, "418 I'm a teapot: I'm a teapot"),
        (500, b"\xff\xfe\x00garbage", {}, InternalServerError, "500 Internal Server Error: "),
    ],
)
def test_a_body_that_is_not_the_envelope_still_gives_the_class_and_an_excerpt(
    status: int, body: bytes, headers: dict[str, str], cls: type[ApiError], shown: str
) -> None:
    error = error_from_response(response(status, content=body, headers=headers))
    assert type(error) is cls
    assert str(error).startswith(shown)
    assert error.error_code is None
    assert error.body_excerpt is not None
    assert "\n" not in str(error)


def test_a_long_body_is_cut_to_a_short_excerpt() -> None:
    error = error_from_response(response(500, text="x" * 10_000))
    assert error.body_excerpt is not None
    assert len(error.body_excerpt) == errors.EXCERPT_CHARS
    assert error.body_excerpt.endswith("...")
    assert len(str(error)) < 400


def test_an_envelope_with_only_a_code_or_only_a_text() -> None:
    only_code = error_from_response(response(403, json={"errorInfo": {"errorCode": "X_403"}}))
    assert str(only_code).startswith("403 X_403 (GET")
    only_text = error_from_response(response(403, json={"errorInfo": {"errorText": "No."}}))
    assert str(only_text).startswith("403 Forbidden: No. (GET")


def test_a_bare_error_info_object_is_understood_too() -> None:
    body = envelope(404, "CORESYSTEM_notFound_404", "Nothing here.")["errorInfo"]
    error = error_from_response(response(404, json=body))
    assert error.error_code == "CORESYSTEM_notFound_404"


def test_an_envelope_with_odd_types_falls_back_to_an_excerpt() -> None:
    body = {"errorInfo": {"errorCode": ["not", "a", "string"]}}
    error = error_from_response(response(400, json=body))
    assert type(error) is BadRequestError
    assert error.error_code is None
    assert error.body_excerpt == json.dumps(body, separators=(",", ":"))


def test_one_odd_field_does_not_discard_the_rest_of_the_envelope() -> None:
    # Spring platforms write severities and statuses as enum names; the code still counts
    body = {
        "errorInfo": {
            "errorCode": "CORESYSTEM_permission_403",
            "errorText": "Not yours.",
            "errorLevel": "ERROR",
            "httpResponseStatus": "FORBIDDEN",
        }
    }
    error = error_from_response(response(403, json=body))
    assert type(error) is PermissionDeniedError
    assert str(error).startswith("403 CORESYSTEM_permission_403: Not yours. (GET")
    assert (error.error_code, error.error_text) == ("CORESYSTEM_permission_403", "Not yours.")
    assert error.error_level is None
    assert error.http_response_status == "FORBIDDEN"


def test_a_redirect_names_its_target_with_credentials_masked() -> None:
    error = error_from_response(
        response(302, headers={"Location": "https://sso.test/login?loginToken=abc123secret"})
    )
    assert type(error) is ApiError
    assert "redirected to https://sso.test/login?loginToken=**********" in str(error)
    assert "abc123secret" not in str(error)


def test_the_request_url_is_redacted_and_retry_after_is_kept() -> None:
    url = BASE + "/?loginToken=guest-secret-77&lang=en"
    error = error_from_response(
        response(
            429, url=url, json={"errorInfo": {"errorCode": "RATE"}}, headers={"Retry-After": "7"}
        )
    )
    assert type(error) is RateLimitError
    assert error.retry_after == "7"
    assert error.request is not None
    assert error.request.url == BASE + "/?loginToken=**********&lang=en"
    assert "guest-secret-77" not in str(error) + repr(error) + str(error.request)


def test_context_is_prepended() -> None:
    error = error_from_response(response(401, json={}), context="client-credentials token request")
    assert str(error).startswith("client-credentials token request failed: 401 Unauthorized: {}")


# -- transport failures ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exc", "cls", "word"),
    [
        (
            httpx.ConnectError("[Errno 111] Connection refused"),
            ApiConnectionError,
            "connection failed",
        ),
        (httpx.RemoteProtocolError("peer closed"), ApiConnectionError, "connection failed"),
        (httpx.ReadTimeout("timed out"), ApiTimeoutError, "timed out"),
        (httpx.ConnectTimeout(""), ApiTimeoutError, "timed out: ConnectTimeout"),
        (httpx.PoolTimeout("pool"), ApiTimeoutError, "timed out"),
    ],
)
def test_transport_failures_name_the_redacted_url(
    exc: httpx.TransportError, cls: type[ApiTransportError], word: str
) -> None:
    exc.request = httpx.Request("GET", BASE + "/?loginToken=very-secret-1")
    error = error_from_transport(exc)
    assert type(error) is cls
    assert str(error).startswith(word)
    assert f"(GET {BASE}/?loginToken=**********)" in str(error)
    assert "very-secret-1" not in str(error)
    assert error.status_code is None


def test_a_transport_failure_without_a_request() -> None:
    error = error_from_transport(httpx.ConnectError("refused"))
    assert str(error) == "connection failed: refused"
    assert error.request is None


# -- through the client: every status, and which ones are retried -----------------------------


@pytest.mark.parametrize(
    ("status", "code", "cls", "attempts"),
    [
        (400, "CORESYSTEM_validation_400", BadRequestError, 1),
        (401, "CORESYSTEM_AuthenticationManager_401", AuthenticationError, 1),
        (403, "CORESYSTEM_permission_403", PermissionDeniedError, 1),
        (404, "CORESYSTEM_notFound_404", NotFoundError, 1),
        (429, "RATE_LIMITED", RateLimitError, 3),
        (500, "CORESYSTEM_internalServerError_500", InternalServerError, 3),
        (503, "UNAVAILABLE", InternalServerError, 3),
        (408, "TIMEOUT", ApiError, 3),
        (409, "CONFLICT", ApiError, 1),
    ],
)
def test_each_status_through_the_client(
    status: int, code: str, cls: type[ApiError], attempts: int, no_sleep: list[float]
) -> None:
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(status, json=envelope(status, code, "Explained."))

    with client_for(handler) as client, pytest.raises(cls) as caught:
        client.list_profiles()
    assert type(caught.value) is cls
    assert str(caught.value).startswith(
        f"{status} {code}: Explained. (GET {BASE}/api/preview/profiles)"
    )
    assert len(calls) == attempts
    assert len(no_sleep) == attempts - 1
    assert TOKEN not in str(caught.value) + repr(caught.value)


def test_transport_errors_through_the_client_are_wrapped_with_their_cause() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    with client_for(handler) as client, pytest.raises(ApiConnectionError) as caught:
        client.fetch_raw()
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert f"GET {BASE}/api/preview/profiles" in str(caught.value)


def test_paging_error_is_an_api_error() -> None:
    assert issubclass(PagingError, ApiError)
    assert PagingError("x").status_code is None
