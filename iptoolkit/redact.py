"""Which values are secrets, and how they are masked wherever text might show them.

Shared by the client (its error messages and the httpx/httpcore log filters), the
reference server (its access log) and the exporters (URLs inside exported values), which
must not import each other. One list of secret parameter names serves them all.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

__all__ = ["MASK", "SECRET_PARAMS", "redact_query", "redact_url", "redact_text"]

MASK = "**********"

SECRET_PARAMS = frozenset(
    {
        "logintoken",
        "token",
        "access_token",
        "accesstoken",
        "bearertoken",
        "client_secret",
        "password",
        "passwd",
        "pwd",
        "secret",
        "api_key",
        "apikey",
        "sig",
        "signature",
        "sessionid",
        "jsessionid",
    }
)
"""Query parameter names (lower case, after percent-decoding) whose values are credentials."""

_QUERY_VALUE = re.compile(r"([?&;])([^=&;#\s\"]+)=([^&#\s\"]*)")
_NEXT_PAIR = re.compile(r"[;?]")
_USERINFO = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://)([^/?#\s\"'<>]*)@")
_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")


def redact_query(text: str) -> str:
    """Mask credential values of query parameters anywhere in `text` (a URL, a log line).

    Pairs start after `?`, `&` or `;`; a credential's value is masked up to the next `&`
    (or `#`, white space, a quote), so a `;` inside it does not let the rest show.

    >>> redact_query('"GET /?loginToken=abc&lang=en HTTP/1.1"')
    '"GET /?loginToken=**********&lang=en HTTP/1.1"'
    """

    def mask(match: re.Match[str]) -> str:
        separator, key, value = match.groups()
        if unquote_plus(key).lower() in SECRET_PARAMS:
            return f"{separator}{key}={MASK}"
        cut = _NEXT_PAIR.search(value)  # `a=1;token=x`, `p;a=1?token=x`: look on
        if cut is None:
            return match.group(0)
        rest = _QUERY_VALUE.sub(mask, value[cut.start() :])
        return f"{separator}{key}={value[: cut.start()]}{rest}"

    return _QUERY_VALUE.sub(mask, text)


def redact_url(url: str) -> str:
    """The URL (absolute or relative) with a password in its authority and credential query
    values masked; everything else is kept as written.

    >>> redact_url("https://user:pw@host/p?token=abc&page=2")
    'https://user:**********@host/p?token=**********&page=2'
    """

    def mask(match: re.Match[str]) -> str:
        scheme, userinfo = match.groups()
        user, colon, _ = userinfo.partition(":")
        return f"{scheme}{user}:{MASK}@" if colon else match.group(0)

    return redact_query(_USERINFO.sub(mask, url, count=1))


def redact_text(text: str) -> str:
    """Every URL inside `text` (`scheme://...`) passed through `redact_url`."""
    if "://" not in text:
        return text
    return _URL.sub(lambda match: redact_url(match.group(0)), text)
