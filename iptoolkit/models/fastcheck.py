"""Validating a profile's parsed JSON without a model: msgspec Structs made from the models.

Loading an estate needs only a verdict per profile (the index is built from the raw JSON,
and a model is built when someone asks for one), but pydantic builds some thirty objects a
profile to give it, then throws them away: most of a load's time. Here every model becomes a
`msgspec.Struct` (generated from the model's fields, so the models stay the one source of
truth), and a profile as JSON parsed it (dicts, lists, strings, numbers: nothing else) is
converted into them in C (`msgspec.convert`, which reuses the strings and numbers already
made instead of decoding the text again), with the models' rules:

- every field optional and nullable; `str` and `bool` exact; integers JSON integers (never
  a float, a boolean or a string) within the `I32`/`I64` range; `list[...]` arrays; `Any`
  anything; unknown fields ignored (a model keeps them);
- a polymorphic field (a `class`-tagged family) is converted with the family's tagged
  union in the same pass; when some `class` is unknown, every family is taken as anything
  and converted on its own: a `class` the family does not know (or none, or not a
  string) routes to the family's fallback model, which takes any JSON object, as
  `base.polymorphic` routes it;
- a field given under its Python name (`input_agent_settings`) always fails here: pydantic
  accepts both names (and keeps the Python one as an unknown field when both are given),
  a rule left to it.

The verdict is `None` (valid: pydantic accepts it too) or the JSON path of the first fault
msgspec met. Any fault sends the profile to pydantic, which decides and words the message
(`parsing.check_profiles`); `tests/test_fastcheck.py` compares the two on generated valid
and faulty profiles. msgspec was chosen by measurement (issue 25, 10k demo profiles, CPU
seconds): pydantic 1.3, a Python walk over the parsed dicts 0.45, msgspec decoding each
profile's text 0.13; converting the parsed profile instead of decoding its text again
halves that (2k demo profiles, cachegrind: 234 -> 118 M instructions).

Only for JSON as parsed: a Python caller's objects (tuples, datetimes, models) may pass
here where pydantic's strict mode refuses them, so `Estate.from_raw` of Python objects
validates with pydantic.
"""

from __future__ import annotations

import functools
import sys
import types
import typing
from collections.abc import Iterator
from typing import Annotated, Any, Union

import msgspec
from pydantic import BaseModel, Tag

from .base import FALLBACK_TAG, KnownClassFirst, class_name
from .profile import IntegrationProfile

__all__ = ["profile_fault", "FastFault"]

_NEVER = Annotated[str, msgspec.Meta(pattern="(?!)")]
"""A type no value converts to: a field given under its Python name is pydantic's to judge."""


class FastFault(typing.NamedTuple):
    """Where msgspec first found a profile's text at fault, and its own words for it."""

    path: str
    reason: str


class _Family:
    """A polymorphic family: its members' tagged union (converted on its own in the second
    pass), and the shape of each member's Struct."""

    def __init__(self, members: list[str]) -> None:
        self.members = members
        self.union: Any = None
        """The members' union, by name (resolved once every Struct exists)."""
        self.type: Any = None
        """The members' union of Struct classes, once every Struct exists."""
        self.shapes: dict[type, _Shape] = {}


class _Shape:
    """Where a converted Struct holds what needs more checking: families taken as anything,
    and Structs (or lists of them) that hold some."""

    def __init__(self) -> None:
        self.polymorphic: list[tuple[str, str, _Family, bool]] = []
        """(attribute, JSON name, family, is a list)"""
        self.nested: list[tuple[str, str, _Shape, bool]] = []
        """(attribute, JSON name, shape of the nested Struct, is a list)"""
        self.empty = False
        """Nothing to check after the conversion: no family taken as anything, at any
        depth."""


class _Builder:
    """Turns pydantic models into msgspec Structs, once, in a module of their own (so that
    a recursive model, such as `DataStructureItem`, can name itself)."""

    def __init__(self, inline: bool) -> None:
        self.inline = inline
        """Families converted in the same pass, as tagged unions (else taken as anything)."""
        self.module = types.ModuleType(f"{__name__}._{'inline' if inline else 'raw'}")
        sys.modules[self.module.__name__] = self.module
        self.structs: dict[tuple[type[BaseModel], str | None], str] = {}
        self.shapes: dict[str, _Shape] = {}
        self.families: dict[tuple[type[BaseModel], ...], _Family] = {}

    def struct(self, model: type[BaseModel], tag: str | None = None) -> str:
        """The name of the Struct for `model` (tagged with `tag` as a family member)."""
        key = (model, tag)
        name = self.structs.get(key)
        if name is not None:
            return name
        name = f"{model.__name__}_{len(self.structs)}"
        self.structs[key] = name
        shape = self.shapes[name] = _Shape()
        fields: list[tuple[str, Any, Any]] = []
        python_named: list[tuple[str, Any, Any]] = []
        rename: dict[str, str] = {}
        for index, (python_name, info) in enumerate(model.model_fields.items()):
            alias = info.alias or python_name
            if tag is not None and alias == "class":
                continue  # the tag: msgspec routes on it
            attribute = f"f{index}"
            kind = self.field_type(info.annotation, list(info.metadata), shape, attribute, alias)
            fields.append((attribute, kind, None))
            rename[attribute] = alias
            if alias != python_name:
                python_named.append((f"p{index}", msgspec.UnsetType | _NEVER, msgspec.UNSET))
                rename[f"p{index}"] = python_name
        fields += python_named
        options: dict[str, Any] = {"tag_field": "class", "tag": tag} if tag else {}
        options["gc"] = False  # holds no cycles; untracked Structs are quicker to make
        struct = msgspec.defstruct(
            name, fields, rename=rename, module=self.module.__name__, **options
        )
        setattr(self.module, name, struct)
        return name

    def field_type(
        self, annotation: Any, metadata: list[Any], shape: _Shape, attribute: str, alias: str
    ) -> Any:
        """The msgspec type of a field; notes in `shape` what the walk checks after."""
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin in (Union, types.UnionType):
            options = [arg for arg in args if arg is not type(None)]
            if len(options) != 1:
                raise TypeError(f"{alias}: no fast check for {annotation!r}")
            inner = self.field_type(options[0], metadata, shape, attribute, alias)
            return inner if inner is Any else typing.Optional[inner]  # noqa: UP045 (a ForwardRef has no |)
        family = self.family(annotation)
        if family is not None:
            if self.inline:
                return family.union
            shape.polymorphic.append((attribute, alias, family, False))
            return Any
        if origin is list:  # types.GenericAlias(list, t) is list[t] for a t made at run time
            item = args[0]
            family = self.family(item)
            if family is not None:
                if self.inline:
                    return types.GenericAlias(list, family.union)
                shape.polymorphic.append((attribute, alias, family, True))
                return list[Any]
            if _is_model(item):
                name = self.struct(item)
                shape.nested.append((attribute, alias, self.shapes[name], True))
                return types.GenericAlias(list, typing.ForwardRef(name))
            return types.GenericAlias(list, self.value_type(item, []))
        if _is_model(annotation):
            name = self.struct(annotation)
            shape.nested.append((attribute, alias, self.shapes[name], False))
            return typing.ForwardRef(name)
        return self.value_type(annotation, metadata)

    def value_type(self, annotation: Any, metadata: list[Any]) -> Any:
        """The msgspec type of a plain value: str, bool, a bounded int, or anything."""
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is Annotated:
            inner, *more = args
            return self.value_type(inner, [*metadata, *more])
        if annotation is Any:
            return Any
        if annotation is str or annotation is bool:
            return annotation
        if annotation is int:
            flat = [item for meta in metadata for item in getattr(meta, "metadata", [meta])]
            # pydantic's `Field(ge=..., le=...)` as annotated-types' Ge and Le
            low = next((item.ge for item in flat if hasattr(item, "ge")), None)
            high = next((item.le for item in flat if hasattr(item, "le")), None)
            return Annotated[int, msgspec.Meta(ge=low, le=high)]
        raise TypeError(f"no fast check for {annotation!r}")

    def family(self, annotation: Any) -> _Family | None:
        """The family of a polymorphic annotation (`base.polymorphic`), else None."""
        if typing.get_origin(annotation) is not Annotated:
            return None
        union, *metadata = typing.get_args(annotation)
        if not any(isinstance(item, KnownClassFirst) for item in metadata):
            return None
        members = tuple(
            member
            for variant in typing.get_args(union)
            for member, *tags in [typing.get_args(variant)]
            if not any(isinstance(t, Tag) and t.tag == FALLBACK_TAG for t in tags)
        )
        family = self.families.get(members)
        if family is None:
            family = self.families[members] = _Family([])
            family.members.extend(self.struct(member, class_name(member)) for member in members)
            family.union = Union[tuple(typing.ForwardRef(n) for n in family.members)]  # noqa: UP007
        return family

    def finish(self) -> None:
        """Resolve the families' unions, once every Struct exists (names resolve in the
        module), and drop from the walk the nested Structs that hold no family at any
        depth."""
        holding = {id(shape) for shape in self.shapes.values() if shape.polymorphic}
        grew = True
        while grew:
            grew = False
            for shape in self.shapes.values():
                if id(shape) not in holding and any(id(n[2]) in holding for n in shape.nested):
                    holding.add(id(shape))
                    grew = True
        for shape in self.shapes.values():
            shape.nested = [n for n in shape.nested if id(n[2]) in holding]
            shape.empty = id(shape) not in holding
        for family in self.families.values():
            structs = [getattr(self.module, name) for name in family.members]
            family.type = Union[tuple(structs)]  # noqa: UP007
            family.shapes = {
                struct: self.shapes[name]
                for struct, name in zip(structs, family.members, strict=True)
            }


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _compile(inline: bool) -> tuple[type[msgspec.Struct], _Shape]:
    builder = _Builder(inline)
    name = builder.struct(IntegrationProfile)
    builder.finish()
    return getattr(builder.module, name), builder.shapes[name]


_INLINE, _ = _compile(inline=True)


@functools.cache
def _families_one_by_one() -> tuple[type[msgspec.Struct], _Shape]:
    """The second pass's Struct, made when a `class` unknown somewhere first needs it."""
    return _compile(inline=False)


def profile_fault(profile: Any) -> FastFault | None:
    """None when the profile is valid, else where msgspec first found a fault.

    `profile` must be JSON as parsed (see the module's docstring): this checks the models'
    rules, not the JSON.
    """
    try:
        msgspec.convert(profile, _INLINE)
    except msgspec.ValidationError as exc:
        if not _routes_to_fallback(str(exc)):
            return _fault(exc, "$")
    else:
        return None
    try:  # a `class` unknown somewhere: the families one by one, each may route
        struct, shape = _families_one_by_one()
        converted = msgspec.convert(profile, struct)
    except msgspec.ValidationError as exc:
        return _fault(exc, "$")
    return None if shape.empty else _walk(converted, shape, "$")


def _walk(converted: Any, shape: _Shape, path: str) -> FastFault | None:
    """Check what the conversion took as anything (polymorphic fields) in a Struct."""
    for attribute, alias, family, many in shape.polymorphic:
        for item, where in _placed(getattr(converted, attribute), many, f"{path}.{alias}"):
            if (fault := _member(item, family, where)) is not None:
                return fault
    for attribute, alias, inner, many in shape.nested:
        for item, where in _placed(getattr(converted, attribute), many, f"{path}.{alias}"):
            if (fault := _walk(item, inner, where)) is not None:
                return fault
    return None


def _placed(value: Any, many: bool, path: str) -> Iterator[tuple[Any, str]]:
    """A field's value with its JSON path, or each item of a list field with its own;
    nothing for a null."""
    if value is None:
        return
    if many:
        for index, item in enumerate(value):
            yield item, f"{path}[{index}]"
    else:
        yield value, path


def _member(value: Any, family: _Family, path: str) -> FastFault | None:
    """Check one object of a family: its member by `class`, or the fallback (any object)."""
    if value is None:
        return None
    try:
        converted = msgspec.convert(value, family.type)
    except msgspec.ValidationError as exc:
        reason = str(exc)
        if reason.endswith(" - at `$.class`") or reason == _NO_CLASS:
            return None  # routed to the fallback model, which takes any JSON object
        return _fault(exc, path)
    shape = family.shapes[type(converted)]
    return None if shape.empty else _walk(converted, shape, path)


_NO_CLASS = "Object missing required field `class`"


def _routes_to_fallback(reason: str) -> bool:
    """Whether a fault of the one-pass conversion may be a `class` no family member has (or a
    missing one), which the fallback model takes: then the families are checked one by one.
    A `class` field of a plain model at fault says the same: the second pass tells."""
    return reason.endswith(".class`") or reason.startswith(_NO_CLASS)


def _fault(exc: msgspec.ValidationError, root: str) -> FastFault:
    reason = str(exc)
    _, marker, where = reason.rpartition(" - at `")
    if not marker:
        return FastFault(root, reason)
    return FastFault(root + where[1:-1], reason)
