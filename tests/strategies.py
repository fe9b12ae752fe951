"""Hypothesis strategies that generate valid raw profiles straight from the models.

The generator reads each model's field annotations, so a field added to a model is
covered without touching this file. It also mixes in unknown fields, unknown classes and
explicit nulls, which a lossless round trip must keep too.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from annotated_types import Ge, Le
from hypothesis import strategies as st
from pydantic import BaseModel, Tag

from iptoolkit.models import FallbackModel, IntegrationProfile, class_name

JSON_SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8)
JSON_VALUES = st.recursive(
    JSON_SCALARS | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
MAX_FIELDS = 8
UNKNOWN_KEYS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8).map(
    lambda name: "x_" + name
)


def model_strategy(model: type[BaseModel], depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    """Raw JSON objects valid for `model`: any subset of its fields, plus unknown ones."""
    if issubclass(model, FallbackModel):
        return st.fixed_dictionaries(
            {"class": st.just("core:NotYetKnown" + str(depth))},
            optional={"anything": JSON_VALUES, "id": JSON_VALUES},
        )
    fields: dict[str, Any] = {
        info.alias or name: info.annotation
        for name, info in model.model_fields.items()
        if (info.alias or name) != "class"
    }
    required = {"class": st.just(class_name(model))} if _has_class(model) else {}

    def with_fields(chosen: list[str]) -> st.SearchStrategy[dict[str, Any]]:
        values = {
            alias: st.none() | _annotation_strategy(fields[alias], depth + 1) for alias in chosen
        }
        return st.fixed_dictionaries({**required, **values})

    # A few fields per object keep examples small; across examples every field is drawn.
    most = max(0, MAX_FIELDS - depth)
    base = (
        st.lists(st.sampled_from(sorted(fields)), max_size=most, unique=True).flatmap(with_fields)
        if fields
        else st.fixed_dictionaries(required)
    )
    extras = st.dictionaries(UNKNOWN_KEYS, JSON_VALUES, max_size=2)
    return st.tuples(base, extras).map(lambda pair: {**pair[0], **pair[1]})


def profiles() -> st.SearchStrategy[list[dict[str, Any]]]:
    """Lists of valid raw profiles."""
    return st.lists(model_strategy(IntegrationProfile), max_size=4)


def _has_class(model: type[BaseModel]) -> bool:
    return "class_" in model.model_fields


def _annotation_strategy(annotation: Any, depth: int) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is typing.Any:
        return JSON_VALUES
    if origin is typing.Annotated:
        inner, *metadata = args
        if any(isinstance(item, Tag) for item in metadata):
            return _annotation_strategy(inner, depth)
        low = next((m.ge for m in _flatten(metadata) if isinstance(m, Ge)), None)
        high = next((m.le for m in _flatten(metadata) if isinstance(m, Le)), None)
        if inner is int:
            assert isinstance(low, int | None) and isinstance(high, int | None), (low, high)
            return st.integers(low, high)
        return _annotation_strategy(inner, depth)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in args if arg is not type(None)]
        return st.one_of([_annotation_strategy(arg, depth) for arg in options])
    if origin is list:
        if depth > 3:
            return st.just([])
        return st.lists(_annotation_strategy(args[0], depth), max_size=2)
    if annotation is str:
        return st.text(max_size=10)
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(-(2**63), 2**63 - 1)
    if annotation is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if depth > 4:
            return st.just({})
        return st.deferred(lambda: model_strategy(annotation, depth))
    raise TypeError(f"no strategy for {annotation!r}")


def _flatten(metadata: list[Any]) -> list[Any]:
    flat: list[Any] = []
    for item in metadata:
        flat.extend(getattr(item, "metadata", [item]))
    return flat


WRONG_VALUES = st.sampled_from(
    ["text", "", 1.5, 0, 7, -(2**40), 2**63, 2**70, True, False, None, [], [1], {}, {"a": 1}]
)


@st.composite
def mutated_profiles(draw: st.DrawFn) -> dict[str, Any]:
    """A valid raw profile with one value (anywhere, at any depth) replaced by another of
    some other JSON type or range: often a fault, sometimes not (an untyped field, an
    unknown one, a `class` that now routes to a fallback)."""
    profile = draw(model_strategy(IntegrationProfile))
    places = list(_places(profile))
    if not places:
        return profile
    holder, key = draw(st.sampled_from(places))
    holder[key] = draw(WRONG_VALUES)
    return profile


def _places(value: Any) -> Any:
    """(container, key or index) of every value inside `value`, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield value, key
            yield from _places(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield value, index
            yield from _places(item)
