"""JSON bytes written exactly: the one serialiser for snapshots and the server's catalogue.

orjson is fast but refuses integers beyond 64 bits, which profiles may hold (ids are
not bounded by the spec); those documents go through the standard library, which keeps
every digit. `loads_json` (the reading side) lives in `models.jsontext`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

__all__ = ["dumps_json", "indented_json", "report_json"]


def dumps_json(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes; integers beyond 64 bits fall back to the stdlib.

    >>> dumps_json({"id": 2**70, "name": "Ä"})
    b'{"id":1180591620717411303424,"name":"\\xc3\\x84"}'
    """
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson refuses integers it cannot hold exactly
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def indented_json(value: Any, *, default: Callable[[Any], Any] | None = None) -> str:
    """JSON indented by two spaces, as `json.dumps(indent=2, ensure_ascii=False)` writes
    it (floats aside: `1e-7`, not `1e-07`, and NaN as null), in C: reports of thousands
    of findings, where the stdlib's indenting encoder is pure Python. What orjson refuses
    (an integer beyond 64 bits, a lone surrogate) falls back to the stdlib.

    >>> print(indented_json({"a": [1]}))
    {
      "a": [
        1
      ]
    }
    """
    try:
        return orjson.dumps(value, default=default, option=orjson.OPT_INDENT_2).decode()
    except TypeError:
        return json.dumps(value, indent=2, ensure_ascii=False, default=default)


def report_json(value: Any, indent: int | None, default: Callable[[Any], Any] | None = None) -> str:
    """A report's JSON: `indented_json` at the reports' two spaces (32 MB for two 2k
    installations with no id in common took 6 s in the stdlib's pure-Python indenter), the
    stdlib's layout for any other `indent`."""
    if indent == 2:
        return indented_json(value, default=default)
    return json.dumps(value, indent=indent, ensure_ascii=False, default=default)
