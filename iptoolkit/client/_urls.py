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
    "join_url",
    "redact_url",
    "install_log_filters",
]


def redact_url(url: httpx.URL | str) -> str:
    """The URL with credential query values and any userinfo password masked.

    >>> redact_url("https://host/?loginToken=abc&lang=en")
    'https://host/?loginToken=**********&lang=en'
    """
    return _redact.redact_url(str(httpx.URL(url)))


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
