"""URLs: joining paths onto a base URL with a prefix, and keeping credentials out of them.

`redact_url` masks credentials that travel in URLs (the guest flow's `loginToken`,
passwords in the authority); `RequestInfo` is what errors keep of a request: the method and
the redacted URL, never headers. Filters on the httpx and httpcore loggers mask what
those libraries would log of credentials.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import httpx

from ..support import redact as _redact
from ..support.redact import MASK, SECRET_HEADERS

__all__ = [
    "MASK",
    "RequestInfo",
    "base_url_of",
    "join_url",
    "listing_url",
    "origin",
    "redact_url",
    "install_log_filters",
]


def redact_url(url: httpx.URL | str) -> str:
    """The URL with credential query values and any userinfo password masked.

    >>> redact_url("https://host/?loginToken=abc&lang=en")
    'https://host/?loginToken=**********&lang=en'
    """
    return _redact.redact_url(str(httpx.URL(url)))


_NOT_IN_A_HOST = re.compile(r"[%\s\[\]<>\"\\^`{|}]")


def base_url_of(base_url: str | httpx.URL) -> httpx.URL:
    """`base_url` checked: an http(s) URL with a host that is a name or an address and a
    port that exists; a ValueError that shows it (its password masked) otherwise."""
    shown = _redact.redact_url(str(base_url))
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL as exc:
        raise ValueError(f"base_url {shown!r} is not a valid URL: {exc}") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise ValueError(f"base_url must be an http(s) URL, not {redact_url(url)!r}")
    if _NOT_IN_A_HOST.search(url.host) and ":" not in url.host:  # ":": an IPv6 address
        raise ValueError(f"base_url {shown!r} has no valid host name ({url.host!r})")
    if url.port is not None and not 0 < url.port <= 65535:  # httpx takes any number
        raise ValueError(f"base_url {shown!r}: the port is not a number from 1 to 65535")
    return url


def listing_url(base: httpx.URL, path: str) -> httpx.URL:
    """The profile listing's URL: `path` under `base` (`join_url`); a full URL only on the
    base URL's own origin, since the listing request carries the bearer token."""
    try:
        url = join_url(base, path)
        named = httpx.URL(path)  # `//host:port/path` names a host without a scheme
    except httpx.InvalidURL as exc:
        raise ValueError(f"profiles_path {path!r} is not a valid path: {exc}") from None
    elsewhere = named.host and (named.host, named.port) != (base.host, base.port)
    if origin(url) != origin(base) or elsewhere:
        raise ValueError(
            f"profiles_path {_redact.redact_url(path)!r} is not on the base URL's origin "
            f"({redact_url(base.copy_with(raw_path=b'/'))}): the listing request would take "
            "the bearer token there; give a path under the base URL"
        )
    return url


def origin(url: httpx.URL) -> tuple[str, str, int | None]:
    """Scheme, host and port: where a request may carry the credentials it was given."""
    return url.scheme, url.host, url.port


def join_url(base: httpx.URL, path: str) -> httpx.URL:
    """`path` under `base`, keeping the base's path prefix; an absolute URL is kept as is.

    >>> join_url(httpx.URL("https://host/platform"), "/dw/register/oauth/token")
    URL('https://host/platform/dw/register/oauth/token')
    """
    target = httpx.URL(path)
    if target.is_absolute_url:
        return target
    prefix = base.raw_path.split(b"?", 1)[0].rstrip(b"/")
    return base.copy_with(raw_path=prefix + b"/" + target.raw_path.lstrip(b"/"), fragment=None)


@dataclass(frozen=True)
class RequestInfo:
    """What an error remembers of a request: method and redacted URL, nothing else."""

    method: str
    url: str

    @classmethod
    def of(cls, request: httpx.Request) -> RequestInfo:
        return cls(request.method, redact_url(request.url))

    def __str__(self) -> str:
        return f"{self.method} {self.url}"


class _RedactHttpxUrls(logging.Filter):
    """httpx logs every request URL at INFO; mask credentials in those URLs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(
            isinstance(arg, httpx.URL) for arg in record.args
        ):
            record.args = tuple(
                redact_url(arg) if isinstance(arg, httpx.URL) else arg for arg in record.args
            )
        return True


_HEADER_NAMES = "|".join(re.escape(name) for name in sorted(SECRET_HEADERS))
_SECRET_HEADER = re.compile(
    rf"""(\(b['"](?:{_HEADER_NAMES})['"], )"""  # the header's name
    r"""(b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*")""",  # its value, a bytes repr
    re.IGNORECASE,
)


class _RedactHttpcoreHeaders(logging.Filter):
    """httpcore's DEBUG trace prints response headers: mask cookies and authorization."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _SECRET_HEADER.search(record.msg):
            record.msg = _SECRET_HEADER.sub(rf"\1b'{MASK}'", record.msg)
        return True


_FILTERS: dict[str, type[logging.Filter]] = {
    "httpx": _RedactHttpxUrls,
    "httpcore.http11": _RedactHttpcoreHeaders,
    "httpcore.http2": _RedactHttpcoreHeaders,
}


def install_log_filters() -> None:
    """Mask credentials in what httpx and httpcore log (idempotent).

    httpx logs each request URL at INFO (the guest login URL carries `loginToken`);
    httpcore's DEBUG trace shows response headers (`Set-Cookie` carries session ids).
    """
    for name, kind in _FILTERS.items():
        logger = logging.getLogger(name)
        if not any(isinstance(existing, kind) for existing in logger.filters):
            logger.addFilter(kind())
