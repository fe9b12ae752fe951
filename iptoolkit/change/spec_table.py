"""What the spec declares, as a table: for each type, its fields and the JSON each expects.

The models are the spec in code (`docs/data-model.md` is generated from them), so the table
is read from them the way `models/reference.py` reads them for that page: the same
polymorphic families (`families()`, `union_of`), the same fields by JSON name. Each field's
annotation becomes an `Expect`: the JSON types it accepts, the integer range of an `I32` or
`I64`, and what to look inside (a model, a family, the items of an array). The drift report
walks raw JSON against this table instead of building models: a dict look-up per field.
`type_tables()` holds every type a profile can hold, `type_tokens()` the JSON texts that
announce each type in a profile's text (what the schema changes look for in equal profiles).

>>> table = type_table(IntegrationProfile)
>>> table.fields["created"].label
'integer (i64)'
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal, Union

import orjson
from pydantic import BaseModel

from ..models import I32, I64, IntegrationProfile
from ..models.reference import families, union_of

__all__ = [
    "Expect",
    "TypeTable",
    "FamilyTable",
    "JSON_TYPES",
    "json_type",
    "type_table",
    "type_tables",
    "type_tokens",
]

JSON_TYPES: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    list: "array",
    dict: "object",
    type(None): "null",
}
"""The JSON type of a parsed value, by its Python type (exact: `bool` is not `int` here)."""

_I32_RANGE = (-(2**31), 2**31 - 1)
_I64_RANGE = (-(2**63), 2**63 - 1)


def json_type(value: Any) -> str:
    """The JSON type of a parsed value: `string`, `integer`, ..., or its Python type name."""
    return JSON_TYPES.get(type(value)) or type(value).__name__


@dataclass(frozen=True, slots=True)
class Expect:
    """What the spec expects of one field's value (null is always allowed: all optional)."""

    label: str
    """Readable: `string`, `integer (i32)`, `array of object (Channel)`."""
    accepts: frozenset[str | None]
    """The JSON types that pass."""
    bounds: tuple[int, int] | None = None
    """The integer range, for `I32` and `I64`."""
    bits: str = ""
    """`i32` or `i64`, named in a mismatch of range."""
    model: type[BaseModel] | None = None
    family: FamilyTable | None = None
    item: Expect | None = None
    """For an array: what each item must be."""
    nested: bool = field(init=False)
    """Whether a value of this field is walked into (an object or array)."""
    simple: bool = field(init=False)
    """Whether its JSON type alone says a value is right (no range, nothing inside)."""

    def __post_init__(self) -> None:
        nested = self.model is not None or self.family is not None or self.item is not None
        object.__setattr__(self, "nested", nested)
        object.__setattr__(self, "simple", not nested and self.bounds is None)


@dataclass(frozen=True)
class FamilyTable:
    """A polymorphic family: its known `class` values, each routed to its model."""

    name: str
    members: dict[str, type[BaseModel]] = field(hash=False, compare=False)


@dataclass(frozen=True)
class TypeTable:
    """The declared fields of one model, by JSON name."""

    name: str
    fields: dict[str, Expect] = field(hash=False, compare=False)
    python_names: dict[str, str] = field(hash=False, compare=False)
    """Python name -> JSON name, where they differ: the models accept either, so a profile
    built in Python (`input_agent_settings`) is not drift."""


_ANY = Expect("any", frozenset({*JSON_TYPES.values(), None}))
"""`Any` accepts every value, even one no JSON parser makes (its JSON type is None)."""


@cache
def _families() -> dict[int, FamilyTable]:
    from .. import models

    return {
        id(union_of(getattr(models, family.name))): FamilyTable(family.name, dict(family.members))
        for family in families()
    }


@cache
def type_table(model: type[BaseModel] = IntegrationProfile) -> TypeTable:
    """The table of one model (the profile by default), built once per model."""
    declared = model.model_fields.items()
    fields = {info.alias or name: expect(info.annotation) for name, info in declared}
    python_names = {name: info.alias for name, info in declared if info.alias not in (None, name)}
    return TypeTable(model.__name__, fields, python_names)


def expect(annotation: Any) -> Expect:
    """What a field's annotation expects of its JSON value."""
    if annotation is Any:
        return _ANY
    if annotation is I32 or annotation is I64:
        bits = "i32" if annotation is I32 else "i64"
        bounds = _I32_RANGE if annotation is I32 else _I64_RANGE
        return Expect(f"integer ({bits})", frozenset({"integer"}), bounds, bits)
    union = union_of(annotation)
    if union is not None:
        family = _families()[id(union)]
        return Expect(f"object ({family.name})", frozenset({"object"}), family=family)
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return expect(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(options) == 1:
            return expect(options[0])
        found = [expect(arg) for arg in options]
        accepts = frozenset().union(*(option.accepts for option in found))
        return Expect(" or ".join(option.label for option in found), accepts)
    if origin is list:
        item = expect(typing.get_args(annotation)[0])
        return Expect(f"array of {item.label}", frozenset({"array"}), item=item)
    if origin is dict:
        return Expect("object", frozenset({"object"}))
    if origin is Literal:
        kinds = frozenset(json_type(value) for value in typing.get_args(annotation))
        return Expect(" or ".join(sorted(kinds)), kinds)
    if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
        return Expect(f"object ({annotation.__name__})", frozenset({"object"}), model=annotation)
    if annotation in JSON_TYPES:
        kind = JSON_TYPES[annotation]
        # a JSON integer is a number too: `float` fields accept 3 as pydantic does
        accepts = frozenset({kind, "integer"}) if kind == "number" else frozenset({kind})
        return Expect(kind, accepts)
    raise TypeError(f"no JSON expectation for the annotation {annotation!r}")


@cache
def type_tables() -> dict[str, TypeTable]:
    """Every type the profile can hold, by name."""
    found: dict[str, TypeTable] = {}
    pending = [type_table()]
    while pending:
        table = pending.pop()
        if table.name in found:
            continue
        found[table.name] = table
        for want in table.fields.values():
            pending.extend(type_table(model) for model, _ in _members_in(want))
    return found


@cache
def type_tokens() -> dict[str, frozenset[bytes]]:
    """Type name -> JSON texts one of which every profile holding that type contains: the
    classes routed to it, or the field names leading to it (JSON and Python names). The
    profile's own type has none: every profile holds it."""
    tokens: dict[str, set[bytes]] = {}
    for table in type_tables().values():
        python_of = {json_name: python for python, json_name in table.python_names.items()}
        for key, want in table.fields.items():
            names = {_quoted(key), *((_quoted(python_of[key]),) if key in python_of else ())}
            for model, cls in _members_in(want):
                # a family member is routed by its class: its text names the class
                found = tokens.setdefault(model.__name__, set())
                found.update({_quoted(cls)} if cls is not None else names)
    tokens.pop(type_table().name, None)  # the profile itself: every profile holds it
    return {name: frozenset(found) for name, found in tokens.items()}


def _members_in(want: Expect) -> list[tuple[Any, str | None]]:
    """The models a field's value may hold: (model, the class routing to it, if any)."""
    if want.model is not None:
        return [(want.model, None)]
    if want.family is not None:
        return [(model, cls) for cls, model in want.family.members.items()]
    if want.item is not None:
        return _members_in(want.item)
    return []


def _quoted(text: str) -> bytes:
    return orjson.dumps(text)
