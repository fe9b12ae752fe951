"""The shared base model and the machinery for polymorphic (`class`-tagged) families.

Every model keeps unknown fields (`extra="allow"`), accepts both the JSON name and the
Python name, and validates strictly (a number is never silently a string). Dumping by alias
with `exclude_unset=True` gives back exactly what was parsed.

A polymorphic family is a discriminated union on `class`. The callable discriminator sends a
known `class` to its model and anything else (unknown or missing `class`) to the family's
generic fallback model, which keeps every field untyped: the API is a preview and changes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    Tag,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from ..support.long_lived import kept_out
from ..support.redact import names_a_secret, redact_member

__all__ = [
    "ApiModel",
    "FallbackModel",
    "I32",
    "I64",
    "CLASS_PREFIX",
    "class_name",
    "field_value",
    "json_field_names",
    "present_fields",
    "gc_paused",
    "polymorphic",
    "routed_errors",
    "type_name_of",
]

CLASS_PREFIX = "core:"
FALLBACK_TAG = "__fallback__"

I32 = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]
"""A 32-bit signed integer, as the spec's `i32`."""
I64 = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
"""A 64-bit signed integer, as the spec's `i64`: a Python int, never a float."""


class ApiModel(BaseModel):
    """Base of every resource model: lossless, strict, accepts JSON or Python names."""

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
        strict=True,
        alias_generator=to_camel,
        protected_namespaces=(),
        defer_build=True,
    )

    def __repr_args__(self) -> Any:
        """Show only what was sent (a profile has dozens of optional fields), masked as every
        surface masks (`redact_member`): a notebook echoing a profile shows its repr."""
        set_fields = self.model_fields_set
        sent = [(name, value) for name, value in super().__repr_args__() if name in set_fields]
        pair = names_a_secret(dict(sent))
        return [(name, redact_member(name, value, pair)) for name, value in sent]

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON object this model was parsed from: by alias, unset fields left out."""
        return self.model_dump(by_alias=True, exclude_unset=True)


class FallbackModel(ApiModel):
    """A member of a polymorphic family whose `class` is unknown or missing.

    Every field is kept as it came (untyped), readable as an attribute.
    """

    model_config = ConfigDict(strict=False)

    class_: Any = Field(None, alias="class")


def field_value(value: Any, name: str) -> Any:
    """A field of a model or a raw dict by its JSON name (`comChannelId`), or None.

    One naming for every caller: a declared field is found under its JSON name (or its
    Python name), a kept unknown field under the name the server sent, which is the JSON
    name. Cheaper than `getattr(model, name, None)`, whose misses go through pydantic's slow
    `__getattr__`; the index asks this hundreds of thousands of times.
    """
    if isinstance(value, dict):
        return value.get(name)
    fields = getattr(value, "__dict__", None)
    if fields is None:
        return None
    found = fields.get(name, _MISSING)
    if found is not _MISSING:
        return found
    cls = value.__class__
    names = _JSON_NAMES.get(cls)
    if names is None:
        names = json_field_names(cls)
    attribute = names.get(name)
    if attribute is not None:
        return fields.get(attribute)
    extra = getattr(value, "__pydantic_extra__", None)
    return extra.get(name) if extra else None


def json_field_names(cls: type) -> dict[str, str]:
    """JSON name -> Python attribute name of a model class's declared fields (cached)."""
    names = _JSON_NAMES.get(cls)
    if names is None:
        declared = getattr(cls, "__pydantic_fields__", None) or {}
        names = {info.alias: name for name, info in declared.items() if info.alias}
        _JSON_NAMES[cls] = names
    return names


def present_fields(value: Any, names: tuple[str, ...]) -> tuple[str, ...]:
    """Of the JSON `names`, those a model can hold (declared by its class, or kept as
    unknown fields), or those a raw dict has. Lets a hot loop skip sure misses."""
    if isinstance(value, dict):
        return tuple(filter(value.__contains__, names))
    cls = value.__class__
    declared = _PRESENT.get((cls, names))
    if declared is None:
        known = json_field_names(cls)
        declared = _PRESENT[(cls, names)] = tuple(name for name in names if name in known)
    extra = getattr(value, "__pydantic_extra__", None)
    if extra:
        declared += tuple(name for name in names if name in extra)
    return declared


_MISSING = object()
_JSON_NAMES: dict[type, dict[str, str]] = {}
_PRESENT: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects at once.

    Validating a large listing allocates millions of objects, none of them in cycles; with
    the collector on, it rescans them over and over and parsing runs several times slower.
    `gc.disable()` does not stop the allocation count, though: the first collection after
    re-enabling would scan every new object (a quarter of a parse). `gc.freeze()` then
    `gc.unfreeze()` moves them to the oldest generation unscanned instead; skipped when the
    program keeps objects frozen itself (a pre-fork server), which unfreezing would undo.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not kept_out() and gc.get_freeze_count() == 0:  # (a count walks them all)
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def class_name(cls: type[BaseModel]) -> str:
    """The `class` value of a model: `core:` + the spec's type name."""
    return CLASS_PREFIX + cls.__name__


def type_name_of(value: Any) -> str | None:
    """The type name (class without `core:`) of a model or raw dict, or None."""
    cls = value.get("class") if isinstance(value, dict) else getattr(value, "class_", None)
    if not isinstance(cls, str):
        return None
    return cls[len(CLASS_PREFIX) :] if cls.startswith(CLASS_PREFIX) else cls


def polymorphic(members: Sequence[type[BaseModel]], fallback: type[FallbackModel]) -> Any:
    """A discriminated union on `class` over `members`, routing the rest to `fallback`."""
    tags = {class_name(member): member for member in members}

    def discriminate(value: Any) -> str:
        if isinstance(value, dict):
            tag = value.get("class")
        else:
            tag = getattr(value, "class_", None)
        return tag if isinstance(tag, str) and tag in tags else FALLBACK_TAG

    variants = [Annotated[member, Tag(tag)] for tag, member in tags.items()]
    variants.append(Annotated[fallback, Tag(FALLBACK_TAG)])
    routed: Any = Annotated[Union[tuple(variants)], Discriminator(discriminate)]  # noqa: UP007
    return Annotated[routed, KnownClassFirst(tuple(members))]


KNOWN_BRANCH = "class:known"
"""The label of the tagged branch in an error location (`_json_path` skips it: it has `:`)."""
ROUTED_BRANCH = "class:routed"
"""The label of the routed (callable discriminator) branch in an error location."""


class KnownClassFirst:
    """For JSON input, try pydantic-core's tagged union on `class` before routing in Python.

    The callable discriminator needs a Python object, so `validate_json` would turn every
    polymorphic subtree into Python dicts just to read its `class`. A tagged union on the
    key `class` reads it in Rust, but knows only the members; so it is tried first
    (`left_to_right`), and the routed union runs only when it fails (an unknown or missing
    class, or a faulty object). What the tagged branch accepts the routed one accepts
    with the same result, so the outcome never changes; when both fail, the routed
    branch's errors are the ones to report (see `routed_errors`). Python input keeps the
    routed union alone: there the callable costs little and errors stay single.
    """

    def __init__(self, members: tuple[type[BaseModel], ...]) -> None:
        self.members = members

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        routed = handler(source)
        tagged = core_schema.tagged_union_schema(
            {class_name(member): handler.generate_schema(member) for member in self.members},
            discriminator="class",
        )
        known_first = core_schema.union_schema(
            [(tagged, KNOWN_BRANCH), (routed, ROUTED_BRANCH)], mode="left_to_right"
        )
        return core_schema.json_or_python_schema(
            json_schema=known_first, python_schema=routed, metadata={"routed": routed}
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return handler(schema["metadata"]["routed"])


def routed_errors(errors: list[Any]) -> list[Any]:
    """The errors of a validation as the routed unions alone report them.

    Drops what a failed tagged branch reported (the routed branch reports the same
    faults, or a clearer one for a value that is not an object) and the branch labels.
    """
    kept = []
    for error in errors:
        loc = error["loc"]
        if KNOWN_BRANCH in loc:
            continue
        if ROUTED_BRANCH in loc:
            error = {**error, "loc": tuple(step for step in loc if step != ROUTED_BRANCH)}
        kept.append(error)
    return kept
