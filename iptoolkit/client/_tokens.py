"""Reading what token endpoints answer, and carrying session cookies, without showing either.

The spec does not give the token endpoints' bodies: a JSON object with `access_token`
(or `token`, `bearerToken`), a JSON string, or plain text are all accepted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from http.cookiejar import CookieJar
from typing import Any

import httpx

from ..models import ParseError, loads_json
from ._urls import RequestInfo
from .errors import AuthenticationError
from .secrets import Secret

__all__ = [
    "TOKEN_KEYS",
    "read_token",
    "is_header_safe",
    "cookie_pairs",
    "cookie_header",
    "set_cookies",
]

TOKEN_KEYS = ("access_token", "accessToken", "token", "bearerToken", "bearer_token")
"""Fields of a JSON token response that may hold the token, in this order."""


def read_token(response: httpx.Response, what: str) -> tuple[Secret, float | None]:
    """The token of a token response: a JSON object, a JSON string or plain text.

    Errors never quote the body: it may hold the token.
    """
    text = response.text.strip()
    data: Any = text
    if text[:1] in ("{", '"', "["):
        try:
            data = loads_json(response.content)
        except ParseError:
            raise _no_token(response, what, "the response is not valid JSON") from None
    expires_in: float | None = None
    if isinstance(data, dict):
        token = next((data[k] for k in TOKEN_KEYS if isinstance(data.get(k), str)), None)
        if token is None:
            keys = ", ".join(sorted(map(str, data))) or "none"
            raise _no_token(
                response, what, f"no access_token, token or bearerToken field (keys: {keys})"
            )
        raw_expiry = data.get("expires_in", data.get("expiresIn"))
        if isinstance(raw_expiry, int | float | str) and not isinstance(raw_expiry, bool):
            try:
                expires_in = float(raw_expiry)
            except ValueError:
                expires_in = None
    elif isinstance(data, str):
        token = data
    else:
        raise _no_token(response, what, f"a JSON {type(data).__name__} is not a token")
    token = token.strip()
    if token[:7].lower() == "bearer ":
        token = token[7:].strip()
    if not token or token.startswith("<") or any(char.isspace() for char in token):
        raise _no_token(response, what, "the body does not look like a token")
    if not is_header_safe(token):
        raise _no_token(response, what, "the token is not printable ASCII, as a header needs")
    return Secret(token), expires_in


def is_header_safe(value: str) -> bool:
    """Whether `value` can go into an HTTP header as it is: printable ASCII only."""
    return value.isascii() and value.isprintable()


def _no_token(response: httpx.Response, what: str, why: str) -> AuthenticationError:
    request = RequestInfo.of(response.request)
    return AuthenticationError(
        f"{what} failed: {response.status_code} but no usable token: {why} ({request})",
        request=request,
        status_code=response.status_code,
    )


def cookie_pairs(
    cookies: Mapping[str, str] | str | CookieJar | httpx.Cookies,
) -> dict[str, Secret]:
    if isinstance(cookies, httpx.Cookies):
        cookies = cookies.jar
    if isinstance(cookies, CookieJar):
        return {cookie.name: Secret(cookie.value or "") for cookie in cookies}
    if isinstance(cookies, str):
        pairs: Iterable[tuple[str, str]] = (
            part.strip().partition("=")[::2] for part in cookies.split(";") if part.strip()
        )
        result = {}
        for name, value in pairs:
            if not name or not value:
                raise ValueError("a session cookie string must read name=value (value hidden)")
            result[name.strip()] = Secret(value.strip())
        return result
    return {str(name): Secret(value) for name, value in cookies.items()}


def cookie_header(cookies: Mapping[str, Secret]) -> str:
    return "; ".join(f"{name}={value.get_secret_value()}" for name, value in cookies.items())


def set_cookies(response: httpx.Response) -> dict[str, Secret]:
    """The cookies a response (or the redirects before it) set: name=value only."""
    found: dict[str, Secret] = {}
    for step in [*response.history, response]:
        for header in step.headers.get_list("set-cookie"):
            name, _, value = header.split(";", 1)[0].partition("=")
            if name.strip():
                if not is_header_safe(name.strip() + value.strip()):
                    request = RequestInfo.of(step.request)
                    raise AuthenticationError(
                        f"{request} set a cookie that is not printable ASCII (value hidden); "
                        "it cannot be sent back",
                        request=request,
                        status_code=step.status_code,
                    )
                found[name.strip()] = Secret(value.strip())
    return found
