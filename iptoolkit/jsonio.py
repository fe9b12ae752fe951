"""JSON bytes written exactly: the one serialiser for snapshots and the server's catalogue.

orjson is fast but refuses integers beyond 64 bits, which profiles may hold (ids are
not bounded by the spec); those documents go through the standard library, which keeps
every digit. `loads_json` (the reading side) lives in `models.jsontext`.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["dumps_json"]


def dumps_json(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes; integers beyond 64 bits fall back to the stdlib.

    >>> dumps_json({"id": 2**70, "name": "Ä"})
    b'{"id":1180591620717411303424,"name":"\\xc3\\x84"}'
    """
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson refuses integers it cannot hold exactly
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
