"""Which values are secrets, and how they are masked wherever text might show them.

Shared by the client (its error messages and the httpx/httpcore log filters) and the
reference server (its access log), which must not import each other.
"""

from __future__ import annotations

import re

__all__ = ["MASK", "SECRET_PARAMS", "redact_query"]

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
        "secret",
        "api_key",
        "apikey",
        "sessionid",
        "jsessionid",
    }
)
"""Query parameter names (lower case) whose values are credentials."""

_QUERY_VALUE = re.compile(r"([?&;])([^=&;#\s\"]+)=([^&;#\s\"]*)")


def redact_query(text: str) -> str:
    """Mask credential values of query parameters anywhere in `text` (a URL, a log line).

    >>> redact_query('"GET /?loginToken=abc&lang=en HTTP/1.1"')
    '"GET /?loginToken=**********&lang=en HTTP/1.1"'
    """

    def mask(match: re.Match[str]) -> str:
        separator, key, _ = match.groups()
        return f"{separator}{key}={MASK}" if key.lower() in SECRET_PARAMS else match.group(0)

    return _QUERY_VALUE.sub(mask, text)
