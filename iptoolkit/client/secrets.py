"""`Secret`: a credential that never shows itself in a repr, a log line or an error."""

from __future__ import annotations

import hmac
from typing import Any

from ..support.redact import MASK

__all__ = ["Secret"]


class Secret:
    """A credential that never shows itself: `str`, `repr` and formatting give asterisks.

    Not a `str` subclass on purpose: concatenation, `join` and `json.dumps` of a `str`
    subclass use its characters and would leak it. Ask with `get_secret_value()`.

    >>> Secret("hunter2")
    Secret('**********')
    """

    __slots__ = ("_value",)

    def __init__(self, value: str | Secret) -> None:
        if isinstance(value, Secret):
            value = value.get_secret_value()
        if not isinstance(value, str):
            raise TypeError(f"a secret must be a str, not {type(value).__name__}")
        self._value = value

    def get_secret_value(self) -> str:
        """The credential itself, for the one place that sends it."""
        return self._value

    def __str__(self) -> str:
        return MASK

    def __repr__(self) -> str:
        return f"Secret('{MASK}')"

    def __format__(self, format_spec: str) -> str:
        return format(MASK, format_spec)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Secret):
            return NotImplemented
        return hmac.compare_digest(self._value.encode(), other._value.encode())

    def __hash__(self) -> int:
        return hash((Secret, self._value))

    def __reduce__(self) -> Any:
        raise TypeError("a Secret cannot be pickled; keep credentials out of saved state")
