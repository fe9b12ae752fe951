"""Every failure as the spec's error envelope, FastAPI's own errors included.

`{"errorInfo": {"errorCode", "errorText", "errorLevel", "httpResponseStatus"}}` for every
status: our 400/401/403, FastAPI's request validation errors (422 there, 400 here), Starlette's
404 and 405, 408 for a body that came too late, 413 for one too long, 429 for too many failed
logins, and any unexpected exception (500, with nothing internal in the text).
`errorLevel` is 2 for a request the caller can fix and 3 for a server failure; the spec
gives the field no meaning beyond "a number", so clients should not rely on these values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = [
    "ERROR_CODES",
    "ApiProblem",
    "error_code",
    "error_body",
    "error_response",
    "install_error_handlers",
]

ERROR_CODES: dict[int, str] = {
    400: "CORESYSTEM_validation_400",
    401: "CORESYSTEM_AuthenticationManager_401",
    403: "CORESYSTEM_permission_403",
    404: "CORESYSTEM_notFound_404",
    405: "CORESYSTEM_methodNotAllowed_405",
    408: "CORESYSTEM_requestTimeout_408",
    413: "CORESYSTEM_payloadTooLarge_413",
    429: "CORESYSTEM_tooManyRequests_429",
    500: "CORESYSTEM_internalServerError_500",
}
"""The spec's codes (400, 401, 403, 404, 500), plus 405, 408, 413 and 429 in the same
pattern."""

_DEFAULT_TEXT: dict[int, str] = {
    400: "The request is malformed or failed validation.",
    401: "Authentication is required, or the credentials are not valid.",
    403: "You are not permitted to perform this operation.",
    404: "The requested resource does not exist.",
    405: "This method is not allowed for this resource.",
    408: "The request did not arrive in time.",
    413: "The request body is too large.",
    429: "Too many failed attempts: wait as long as Retry-After says, then try again.",
    500: "An unexpected error occurred on the server.",
}
_REQUEST_LEVEL = 2
_SERVER_LEVEL = 3


class ApiProblem(Exception):
    """Raised by an endpoint to answer with the error envelope."""

    def __init__(self, status: int, text: str, *, headers: Mapping[str, str] | None = None):
        super().__init__(text)
        self.status = status
        self.text = text
        self.headers = dict(headers or {})


def error_code(status: int) -> str:
    """The envelope's `errorCode` for an HTTP status."""
    return ERROR_CODES.get(status, f"CORESYSTEM_http_{status}")


def error_body(status: int, text: str | None = None) -> dict[str, Any]:
    """The envelope as a dict."""
    return {
        "errorInfo": {
            "errorCode": error_code(status),
            "errorText": text or _DEFAULT_TEXT.get(status, "The request failed."),
            "errorLevel": _SERVER_LEVEL if status >= 500 else _REQUEST_LEVEL,
            "httpResponseStatus": status,
        }
    }


def error_response(
    status: int, text: str | None = None, *, headers: Mapping[str, str] | None = None
) -> Response:
    """An error response with the envelope as its JSON body."""
    return Response(
        orjson.dumps(error_body(status, text)),
        status_code=status,
        media_type="application/json",
        headers=dict(headers or {}),
    )


def _validation_text(exc: RequestValidationError) -> str:
    """Name each faulty field and what was wrong, never echoing the value sent."""
    messages = []
    for error in exc.errors()[:5]:
        where, *rest = error.get("loc", ()) or ("request",)
        name = ".".join(str(step) for step in rest)
        place = {"query": "query parameter", "body": "form field", "cookie": "cookie"}.get(
            str(where), str(where)
        )
        label = f"{place} '{name}'" if name else "request body"
        messages.append(f"{label}: {error.get('msg', 'invalid')}")
    return "The request failed validation: " + "; ".join(messages) + "."


async def _on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiProblem)
    return error_response(exc.status, exc.text, headers=exc.headers)


async def _on_http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    text = exc.detail if exc.status_code not in _DEFAULT_TEXT else None
    headers = exc.headers
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request))}
    return error_response(exc.status_code, text, headers=headers)


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at the request's path, sorted: Starlette's 405 names
    only the first route's (`Allow: GET` on `/`, though a POST there logs in)."""
    from starlette.routing import Match

    routes = request.app.router.routes  # an included router answers for its routes
    return [
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes
        )
    ]


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return error_response(400, _validation_text(exc))


async def _on_unexpected(request: Request, exc: Exception) -> Response:
    # Starlette re-raises after this answer, so uvicorn logs the traceback server-side.
    return error_response(500)


def install_error_handlers(app: FastAPI) -> None:
    """Make every failure of `app` answer with the error envelope."""
    app.add_exception_handler(ApiProblem, _on_problem)
    app.add_exception_handler(StarletteHTTPException, _on_http_exception)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(Exception, _on_unexpected)
