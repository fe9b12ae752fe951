"""The data-model reference (`docs/data-model.md`), generated from the models themselves.

Every model of `iptoolkit.models`, every field (JSON name, Python name and type, required
or not, description), and every polymorphic family with the `class` value of each member,
so the reference cannot drift from the code: `tests/test_data_model_reference.py` compares
the committed file with a fresh rendering. The output depends on nothing but the models
(no dates, no addresses, no set order).

    python -m iptoolkit.models.reference docs/data-model.md     # or: make docs-reference
    python -m iptoolkit.models.reference                        # to standard output
"""

from __future__ import annotations

import inspect
import re
import sys
import types
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Union

from pydantic import BaseModel, Discriminator, Tag

from ..support.markdown import cell, write_reference
from .base import CLASS_PREFIX, I32, I64, ApiModel, FallbackModel

__all__ = [
    "Family",
    "families",
    "union_of",
    "documented_models",
    "render",
    "main",
]

REGENERATE = "make docs-reference (or: python -m iptoolkit.models.reference docs/data-model.md)"
"""How to bring the committed reference up to date; error messages quote it."""

MODULE_ORDER = (
    "profile",
    "agents",
    "channels",
    "responses",
    "integration",
    "mapping",
    "formats",
    "http",
    "errors",
)
"""Sections in reading order, from the profile down; a module not named here goes last."""


@dataclass(frozen=True)
class Family:
    """A polymorphic field type: a union discriminated on `class`, with its fallback."""

    name: str
    """The name `iptoolkit.models` exports it under (`InputAgentSettings`)."""
    members: tuple[tuple[str, type[BaseModel]], ...]
    """(`class` value, model) of each known member, in declaration order."""
    fallback: type[BaseModel]
    """The model of an unknown or missing `class`, keeping every field as sent."""


def _package() -> Any:
    from iptoolkit import models

    return models


def families() -> list[Family]:
    """Every polymorphic family `iptoolkit.models` exports, in its `__all__` order."""
    models = _package()
    found = []
    for name in models.__all__:
        union = union_of(getattr(models, name))
        if union is None:
            continue
        members, fallback = [], None
        for variant in typing.get_args(union):
            model, *meta = typing.get_args(variant)
            tag = next(item.tag for item in meta if isinstance(item, Tag))
            if tag.startswith(CLASS_PREFIX):
                members.append((tag, model))
            else:
                fallback = model
        if fallback is None:
            raise TypeError(f"iptoolkit.models.{name}: a family without a fallback model")
        found.append(Family(name, tuple(members), fallback))
    return found


def union_of(value: Any) -> Any:
    """The tagged `Union` inside a family's annotation (see `base.polymorphic`), or None."""
    if typing.get_origin(value) is not Annotated:
        return None
    if not any(isinstance(item, Discriminator) for item in value.__metadata__):
        return None
    union = typing.get_args(value)[0]
    return union if typing.get_origin(union) is Union else None


def documented_models() -> list[type[BaseModel]]:
    """Every resource model `iptoolkit.models` exports, in section then `__all__` order.

    `ApiModel` and `FallbackModel`, the bases every model shares, are described once in the
    introduction instead.
    """
    models = _package()
    found = [
        value
        for name in models.__all__
        if inspect.isclass(value := getattr(models, name))
        and issubclass(value, BaseModel)
        and value not in (ApiModel, FallbackModel)
    ]
    return sorted(found, key=lambda model: _section_rank(_module(model)))


def _module(model: type) -> str:
    return model.__module__.rsplit(".", 1)[-1]


def _section_rank(module: str) -> tuple[int, str]:
    known = module in MODULE_ORDER
    return (MODULE_ORDER.index(module) if known else len(MODULE_ORDER), "" if known else module)


# -- types as text -----------------------------------------------------------------------


class _Names:
    """What a type annotation is called in the reference: families and models by name."""

    def __init__(self, found: Sequence[Family], models: Sequence[type[BaseModel]]) -> None:
        self.families = {id(union_of(getattr(_package(), f.name))): f for f in found}
        self.models = set(models)

    def family_of(self, annotation: Any) -> Family | None:
        union = union_of(annotation)
        return self.families.get(id(union)) if union is not None else None

    def text(self, annotation: Any) -> str:
        """Markdown for an annotation: `str`, `I64`, `list[[Channel](#channel)] | None`."""
        if annotation is type(None):
            return "None"
        if annotation is I32 or annotation is I64:
            return "I32" if annotation is I32 else "I64"
        family = self.family_of(annotation)
        if family is not None:
            return _link(family.name)
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            return self.text(typing.get_args(annotation)[0])
        if origin in (Union, types.UnionType):
            args = typing.get_args(annotation)
            shown = [self.text(arg) for arg in args if arg is not type(None)]
            if type(None) in args:
                shown.append("None")
            return " \\| ".join(shown)
        if origin is not None:
            inner = ", ".join(self.text(arg) for arg in typing.get_args(annotation))
            return f"{getattr(origin, '__name__', str(origin))}[{inner}]"
        if annotation is Any:
            return "Any"
        if inspect.isclass(annotation):
            if annotation in self.models:
                return _link(annotation.__name__)
            return annotation.__name__
        raise TypeError(f"no reference text for the annotation {annotation!r}")

    def references(self, annotation: Any) -> Iterator[str]:
        """The families and models an annotation names, by name."""
        family = self.family_of(annotation)
        if family is not None:
            yield family.name
            return
        if inspect.isclass(annotation) and annotation in self.models:
            yield annotation.__name__
        for arg in typing.get_args(annotation):
            if not isinstance(arg, str | int | float) and arg is not None:
                yield from self.references(arg)


def _link(name: str) -> str:
    return f"[{name}](#{_anchor(name)})"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, spaces as hyphens, other punctuation gone."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _doc(model: type) -> str:
    """A model's own docstring (not one inherited from pydantic or a base), or ''."""
    doc = model.__dict__.get("__doc__")
    return inspect.cleandoc(doc) if doc else ""


# -- the document ------------------------------------------------------------------------

_INTRODUCTION = f"""\
# Data model reference

<!-- Generated from iptoolkit.models by iptoolkit/models/reference.py; do not edit by hand.
     Regenerate: {REGENERATE}.
     tests/test_data_model_reference.py fails when this file is stale. -->

Every resource of the integration platform's API (preview) as `iptoolkit.models` reads it:
each model, each of its fields, and each polymorphic family with the `class` of its
members. How the models fit into the rest of the toolkit: [architecture.md](architecture.md).

What holds for every model (`ApiModel`, in `iptoolkit/models/base.py`):

- **Every field is optional**: absent means `None`, and absent fields stay absent when the
  model is dumped again (`to_json_dict()`, by alias, unset fields left out).
- **Two names**: the JSON name (camelCase, the alias) and the Python name (snake_case); input
  may use either, a dump writes the JSON name. `class` is `class_` in Python, `from` is `from_`.
- **Strict types**: a number is never silently a string, nor a string a number. `I32` and
  `I64` are Python ints checked against the 32- and 64-bit signed ranges of the spec's
  `i32` and `i64`; an int above 2**53 survives exactly.
- **Unknown fields are kept**, under the name the server sent, and dumped back: a parse and
  dump round trip loses no key and no value. The order of keys is the model's: its fields
  in the order of the table, then the unknown ones in the order sent.
- **Polymorphic fields** are unions discriminated on `class`, whose value is `{CLASS_PREFIX}`
  followed by the type name. A `class` this toolkit does not know, or none, gives the
  family's fallback model (a `FallbackModel`: every field kept as sent, untyped), never an
  error: the API is a preview and changes.
"""


def render() -> str:
    """The whole reference as Markdown text."""
    found = families()
    models = documented_models()
    names = _Names(found, models)
    headings = [family.name for family in found] + [model.__name__ for model in models]
    clashes = sorted({_anchor(h) for h in headings if headings.count(h) > 1})
    if clashes:
        raise ValueError(f"two sections would share the anchors {clashes}")
    used_in = _used_in(models, names)
    membership = {
        model: [
            (family, tag) for family in found for tag, member in family.members if member is model
        ]
        for model in models
    }

    out = [_INTRODUCTION]
    out.append("## Contents\n")
    out.append(
        "- [Polymorphic families](#polymorphic-families): "
        + ", ".join(_link(family.name) for family in found)
    )
    for module, group in _sections(models):
        title = _section_title(module)
        out.append(
            f"- [{title}](#{_anchor(title)}): "
            + ", ".join(_link(model.__name__) for model in group)
        )
    out.append("")

    out.append("## Polymorphic families\n")
    for family in found:
        out.append(f"### {family.name}\n")
        out.append(f"Discriminated on `class`. {_where(used_in.get(family.name, []))}\n")
        out.append("| `class` | model |")
        out.append("|---|---|")
        for tag, model in family.members:
            out.append(f"| `{tag}` | {_link(model.__name__)} |")
        out.append(f"| any other, or none | {_link(family.fallback.__name__)} |")
        out.append("")

    for module, group in _sections(models):
        out.append(f"## {_section_title(module)}\n")
        doc = inspect.getdoc(sys.modules[group[0].__module__]) or ""
        if doc:
            out.append(doc + "\n")
        for model in group:
            out.extend(_model_section(model, names, membership[model], used_in))
    return "\n".join(out).rstrip("\n") + "\n"


def _sections(models: Sequence[type[BaseModel]]) -> list[tuple[str, list[type[BaseModel]]]]:
    grouped: dict[str, list[type[BaseModel]]] = {}
    for model in models:
        grouped.setdefault(_module(model), []).append(model)
    return list(grouped.items())


def _section_title(module: str) -> str:
    return f"models/{module}.py"


def _used_in(models: Sequence[type[BaseModel]], names: _Names) -> dict[str, list[str]]:
    """Family or model name -> the fields (`Model.jsonName`) whose type names it."""
    used: dict[str, list[str]] = {}
    for model in models:
        for attribute, info in model.model_fields.items():
            where = f"{model.__name__}.{info.alias or attribute}"
            for name in dict.fromkeys(names.references(info.annotation)):
                used.setdefault(name, []).append(where)
    return used


def _where(fields: Sequence[str]) -> str:
    """`Used in [Model](#model).`field`, ...` for `Model.field` names, or ''."""
    shown = []
    for field in fields:
        model, name = field.split(".", 1)
        shown.append(f"{_link(model)}.`{name}`")
    return f"Used in {', '.join(shown)}." if shown else ""


def _model_section(
    model: type[BaseModel],
    names: _Names,
    membership: Sequence[tuple[Family, str]],
    used_in: dict[str, list[str]],
) -> list[str]:
    lines = [f"### {model.__name__}\n"]
    doc = _doc(model)
    if doc:
        lines.append(doc + "\n")
    parent = model.__mro__[1]
    facts = [f"`iptoolkit.models.{model.__name__}`, based on `{parent.__name__}`."]
    for family, tag in membership:
        facts.append(f"`class` `{tag}` in {_link(family.name)}.")
    for family in names.families.values():
        if family.fallback is model:
            facts.append(f"The fallback of {_link(family.name)}.")
    where = _where(used_in.get(model.__name__, []))
    if where:
        facts.append(where)
    lines.append(" ".join(facts) + "\n")

    fields = model.model_fields
    described = any(info.description for info in fields.values())
    header = "| JSON name | Python name | type | required |" + (
        " description |" if described else ""
    )
    lines.append(header)
    lines.append("|---|---|---|---|" + ("---|" if described else ""))
    for attribute, info in fields.items():
        row = (
            f"| `{info.alias or attribute}` | `{attribute}` | {names.text(info.annotation)} | "
            f"{'required' if info.is_required() else 'optional'} |"
        )
        if described:
            row += f" {cell(info.description or '')} |"
        lines.append(row)
    lines.append("")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Write the reference to the path given, or to standard output."""
    return write_reference("iptoolkit.models.reference", render, argv)


if __name__ == "__main__":
    raise SystemExit(main())
