"""Node and edge attributes as graph file formats accept them: scalars, one type per name.

networkx's GraphML and GEXF writers reject None, lists and dicts, and a GraphML or GEXF
attribute has one declared type. So, deliberately:

- `model`, `record` and `json` (Python objects) are dropped: the snapshot export carries the JSON;
- None and NaN are left out (the attribute is absent on that node);
- lists and tuples of scalars become one string joined with `, `; other objects are dropped;
- an attribute holding different types on different nodes (ids are strings on profiles and
  integers on channels) is written as a string everywhere;
- `id` is renamed `platform_id`: GEXF takes a node's `id` attribute as its node id;
- URLs lose credentials (a password in the authority, token-like query values): see
  `iptoolkit.support.redact.redact_text`, re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

from ..support.redact import redact_text

__all__ = [
    "Scalar",
    "scalar",
    "scalar_attributes",
    "attribute_types",
    "redact_text",
    "coerce",
    "DROPPED",
    "RENAMED",
]

Scalar = str | int | float | bool
DROPPED = frozenset({"model", "record", "json"})
RENAMED = {"id": "platform_id"}


def scalar(value: Any) -> Scalar | None:
    """The value as a scalar a graph file can hold, or None to leave it out."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**63 else str(value)
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list | tuple):
        items = [scalar(item) for item in value]
        if all(isinstance(item, str | int | float) for item in items):  # bools are ints
            return ", ".join(str(item) for item in items)
        return None
    if hasattr(value, "isoformat"):  # dates and times
        return str(value.isoformat())
    return None


def scalar_attributes(data: dict[str, Any]) -> dict[str, Scalar]:
    """A node's or edge's attributes, scalars only, `id` renamed (see the module docstring)."""
    result: dict[str, Scalar] = {}
    for key, value in data.items():
        if key in DROPPED:
            continue
        converted = scalar(value)
        if converted is not None:
            result[RENAMED.get(key, key)] = converted
    return result


def attribute_types(items: Iterable[tuple[Hashable, dict[str, Scalar]]]) -> dict[str, type]:
    """One type per attribute name over all items: bool, int, float or else str.

    Ints and floats mixed give float; anything else mixed gives str.
    """
    seen: dict[str, set[type]] = {}
    for _, data in items:
        for key, value in data.items():
            seen.setdefault(key, set()).add(type(value))
    types: dict[str, type] = {}
    for key, kinds in seen.items():
        if kinds == {bool}:
            types[key] = bool
        elif kinds == {int}:
            types[key] = int
        elif kinds <= {int, float}:
            types[key] = float
        else:
            types[key] = str
    return types


def coerce(value: Scalar, kind: type) -> Scalar:
    """A scalar converted to its attribute's declared type."""
    if kind is str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)
    if kind is float:
        return float(value)
    return value
