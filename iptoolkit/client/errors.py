"""The exceptions the client raises, one tree, so one `except ApiError` catches them all.

```
ApiError                       any failure talking to the API; `status_code` None if no response
 ├── BadRequestError           400  CORESYSTEM_validation_400
 ├── AuthenticationError       401  CORESYSTEM_AuthenticationManager_401
 ├── PermissionDeniedError     403  CORESYSTEM_permission_403
 ├── NotFoundError             404  CORESYSTEM_notFound_404
 ├── RateLimitError            429
 ├── InternalServerError       500 and every other 5xx
 ├── PagingError               the listing's paging went wrong (loops, foreign links, limit)
 ├── ResponseParseError        a body that cannot be read: bad JSON, bad gzip (also a ParseError)
 ├── ResponseTooLargeError     a body that decodes to more than the client's size cap
 └── ApiTransportError         no HTTP response at all
      ├── ApiConnectionError   could not connect, connection dropped, protocol error
      └── ApiTimeoutError      connect, read, write or pool timeout
           └── DeadlineExceededError  a request (or the fetch) ran past its total deadline
```

Status errors are built from the spec's error envelope (`{"errorInfo": {...}}`) and read
like `403 CORESYSTEM_permission_403: <errorText> (GET <url>)`. A body that is not the
envelope (an HTML page from a proxy, an empty or truncated body) still gives the class
that matches the status, with a short excerpt of the body instead. `request` holds the
method and the URL with credentials masked; no exception keeps headers or tokens.

A server's words are quoted safely: control characters (terminal escapes) are shown as
`\\x1b`, and a long `errorText` is cut in the message (`MESSAGE_TEXT_CHARS`) while the
exception keeps it whole in `error_text`. A server may echo what it was sent (a token
endpoint its form, a proxy's 500 page the request's headers): every message, `error_text`
and `body_excerpt` passes `redact_text` (`client_secret=...`, `Authorization: Bearer ...`),
and the client masks its own secret and tokens in them, as sent or percent-encoded
(`ApiError.mask`), before an error leaves it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar
from urllib.parse import quote, quote_plus

import httpx

from ..models import ErrorEnvelope, ErrorInfo, ParseError, loads_json
from ..support.printable import escape_unprintable
from ..support.redact import MASK, redact_text
from ._urls import RequestInfo, redact_url

__all__ = [
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
    "ApiTransportError",
    "ApiConnectionError",
    "ApiTimeoutError",
    "DeadlineExceededError",
    "error_class_for_status",
]
"""What `iptoolkit.client` exports from here (`error_from_response` and
`error_from_transport` are the client's own)."""

EXCERPT_CHARS = 200
"""How much of a body that is not the error envelope an error message quotes."""
MESSAGE_TEXT_CHARS = 1_000
"""How much of the server's `errorText` a message quotes (the attribute keeps it all)."""
MESSAGE_CHARS = 4_000
"""The longest message an `ApiError` carries; anything longer is cut."""
SHORTEST_MASKED = 4
"""Values shorter than this are not masked by `ApiError.mask`: a one-letter secret would
mask every such letter of the message (and a secret that short protects nothing)."""


def _quoted(text: str, max_chars: int = MESSAGE_CHARS) -> str:
    """`text` for a message: credentials masked (`redact_text`), cut to `max_chars` with a
    note saying how much was left out, control and bidi characters escaped
    (`escape_unprintable`: `\\x1b`)."""
    text = redact_text(text)
    if len(text) > max_chars:
        text = f"{text[:max_chars]}... ({len(text) - max_chars:,} more characters)"
    return escape_unprintable(text)


def _spellings(value: str) -> set[str]:
    """`value` as a server may echo it: as sent, percent-encoded (a form, a query)."""
    return {value, quote(value, safe=""), quote_plus(value, safe=""), quote(value)}


class ApiError(Exception):
    """A request to the API failed; the attributes say how, the message says it in words."""

    final: ClassVar[bool] = False
    """True for a refusal that asking again does not change (400, 401, 403, 404: a wrong
    secret, a missing permission, a wrong path). The client never retries one (a 401 on an
    API request renews the token once first), and code that retries whole fetches should
    not either (`iptoolkit watch` reports it at once): a login tried again also spends the
    platform's login limit."""

    def __init__(
        self,
        message: str,
        *,
        request: RequestInfo | None = None,
        status_code: int | None = None,
        error_code: str | None = None,
        error_text: str | None = None,
        error_level: int | float | None = None,
        http_response_status: Any = None,
        body_excerpt: str | None = None,
        retry_after: str | None = None,
    ) -> None:
        message = _quoted(message)
        super().__init__(message)
        self.message = message
        self.request = request
        self.status_code = status_code
        self.error_code = error_code
        self.error_text = redact_text(error_text) if error_text else error_text
        self.error_level = error_level
        self.http_response_status = http_response_status
        self.body_excerpt = redact_text(body_excerpt) if body_excerpt else body_excerpt
        self.retry_after = retry_after
        """The response's Retry-After header, as sent (429 and 503 carry it)."""

    def mask(self, values: Iterable[str]) -> None:
        """Mask `values` (the session's own secret, tokens and cookies) wherever this error
        quotes them, as sent or percent-encoded: a server echoing a request can quote a
        credential in a form no name-based rule recognises."""
        spellings = sorted(
            {spelling for value in values if len(value) >= SHORTEST_MASKED
             for spelling in _spellings(value)},
            key=len,
            reverse=True,
        )  # fmt: skip
        if not spellings:
            return

        def masked(text: str) -> str:
            for spelling in spellings:
                text = text.replace(spelling, MASK)
            return text

        self.message = masked(self.message)
        self.args = (self.message, *self.args[1:])
        if self.error_text:
            self.error_text = masked(self.error_text)
        if self.body_excerpt:
            self.body_excerpt = masked(self.body_excerpt)


class BadRequestError(ApiError):
    """400: the request was malformed or failed validation."""

    final = True


class AuthenticationError(ApiError):
    """401: credentials are missing, invalid or expired (after one refresh, if possible)."""

    final = True


class PermissionDeniedError(ApiError):
    """403: authenticated, but not allowed to do this."""

    final = True


class NotFoundError(ApiError):
    """404: wrong path (check `profiles_path` and the base URL's prefix) or no such thing."""

    final = True


class RateLimitError(ApiError):
    """429: too many requests; retried with back-off before this is raised."""


class InternalServerError(ApiError):
    """500 or another 5xx: the server (or a proxy in front of it) failed."""


class PagingError(ApiError):
    """The listing's paging cannot be followed safely: it repeats, leaves the host, or is
    longer than the page limit. Raised instead of returning a listing that may be partial."""


class ResponseParseError(ApiError, ParseError):
    """A response whose body cannot be read (malformed JSON, a broken gzip stream, an
    unknown content encoding); also a `ParseError`, so older `except` clauses still hold."""


class ResponseTooLargeError(ApiError):
    """A response whose decoded body exceeds the client's `max_response_bytes`; the
    reading stopped there (a compressed body is counted as it expands)."""


class ApiTransportError(ApiError):
    """No HTTP response was received; see the subclasses and `__cause__`."""


class ApiConnectionError(ApiTransportError):
    """Could not connect, or the connection failed mid-request."""


class ApiTimeoutError(ApiTransportError):
    """The server did not answer within the client's timeout."""


class DeadlineExceededError(ApiTimeoutError):
    """A request, or the whole fetch, ran past its total deadline (`deadline`,
    `fetch_deadline`), however steadily the server kept sending; not retried."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    429: RateLimitError,
}


def error_class_for_status(status_code: int) -> type[ApiError]:
    """The exception class for an HTTP status; `ApiError` for a status without its own."""
    if status_code >= 500:
        return InternalServerError
    return _BY_STATUS.get(status_code, ApiError)


def error_from_response(response: httpx.Response, *, context: str | None = None) -> ApiError:
    """The exception for an unsuccessful response (its body must have been read).

    `context` is prepended to the message, e.g. "client-credentials token request".
    """
    status = response.status_code
    info = _error_info(response.content)
    request = RequestInfo.of(response.request)
    excerpt = None
    if info is not None and (info.error_code or info.error_text):
        code = info.error_code or response.reason_phrase
        text = info.error_text and _quoted(info.error_text, MESSAGE_TEXT_CHARS)
        summary = f"{code}: {text}" if text else code
    else:
        excerpt = _excerpt(response)
        summary = f"{response.reason_phrase or 'HTTP error'}: {excerpt}"
    message = f"{status} {summary} ({request})"
    if context:
        message = f"{context} failed: {message}"
    return error_class_for_status(status)(
        message,
        request=request,
        status_code=status,
        error_code=info.error_code if info else None,
        error_text=info.error_text if info else None,
        error_level=info.error_level if info else None,
        http_response_status=info.http_response_status if info else None,
        body_excerpt=excerpt,
        retry_after=response.headers.get("Retry-After"),
    )


def error_from_transport(exc: httpx.TransportError) -> ApiTransportError:
    """Our exception for an httpx transport failure, naming the (redacted) URL."""
    try:
        request: RequestInfo | None = RequestInfo.of(exc.request)
    except RuntimeError:  # httpx raises when the exception carries no request
        request = None
    where = f" ({request})" if request else ""
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return ApiTimeoutError(f"timed out: {reason}{where}", request=request)
    return ApiConnectionError(f"connection failed: {reason}{where}", request=request)


def _error_info(content: bytes) -> ErrorInfo | None:
    """The envelope's `errorInfo`, or a bare errorInfo object; None for anything else."""
    try:
        data = loads_json(content)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("errorInfo"), dict):
        fields = data["errorInfo"]
    elif "errorCode" in data or "errorText" in data:
        fields = data
    else:
        return None
    try:
        return ErrorEnvelope.model_validate({"errorInfo": fields}).error_info
    except ValueError:  # pydantic's ValidationError: an envelope with odd types
        return _lenient_error_info(fields)


def _lenient_error_info(fields: dict[str, Any]) -> ErrorInfo:
    """Keep the fields that have the spec's types; one odd field (a Spring enum name such
    as `"errorLevel": "ERROR"`) must not cost the error code and text."""
    code, text, level = (fields.get(key) for key in ("errorCode", "errorText", "errorLevel"))
    numeric = isinstance(level, int | float) and not isinstance(level, bool)
    return ErrorInfo.model_construct(
        error_code=code if isinstance(code, str) else None,
        error_text=text if isinstance(text, str) else None,
        error_level=level if numeric else None,
        http_response_status=fields.get("httpResponseStatus"),
    )


def _excerpt(response: httpx.Response) -> str:
    """A short, single-line excerpt of a body that is not the envelope."""
    if response.has_redirect_location:
        return f"redirected to {redact_url(response.headers['Location'])}"
    if not response.content:
        return "(empty body)"
    text = response.content.decode(response.encoding or "utf-8", errors="replace")
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > EXCERPT_CHARS:
        text = text[: EXCERPT_CHARS - 3] + "..."
    return text or "(blank body)"
