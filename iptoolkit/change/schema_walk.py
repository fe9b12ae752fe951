"""The schema walk: one pass over the raw profiles, tallying what the drift report and the
schema changes read (classes met, fields sent, unknown fields, mismatched values, nulls).

No model is built: each object is looked up in the table of what its type declares
(`schema.py`), a dict look-up per field. `walked(estate)` walks an estate once and caches
the walk on it (`schema_walk`), so a report and a diff share it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..models import gc_paused
from ..support.redact import MASK, is_secret_name, redact_fields
from .spec_table import JSON_TYPES, Expect, FamilyTable, TypeTable, json_type, type_table

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = ["EXAMPLES", "Seen", "Walk", "walked", "walk_records"]

EXAMPLES = 3
"""How many example profiles a row names."""
_EXAMPLE_CHARS = 60
_NO_CLASS = "(none)"
"""The class of a family member sent without one (it is routed to the fallback too)."""


def walked(estate: Estate) -> Walk:
    """The estate's walk, made once and cached on it."""
    return estate.derived("schema_walk", _walk)


def _walk(estate: Estate) -> Walk:
    return walk_records(estate.records)


def walk_records(records: Iterable[ProfileRecord]) -> Walk:
    walk = Walk()
    with gc_paused():
        for record in records:
            walk.profile(record)
    return walk


@dataclass(slots=True)
class Seen:
    """Where one kind of drift was met: how often, in how many and which profiles."""

    path: str
    count: int = 0
    profiles: int = 0
    faulty: int = 0
    examples: list[str] = field(default_factory=list)
    example: str | None = None
    last: int = -1
    """The position of the last profile counted, so that each counts once."""


_Shape = list[Any]
"""[the type's table, how many objects, the first path]: a list, so counting is in place."""


class Walk:
    """One pass over the raw profiles, tallying what the report and the changes need."""

    def __init__(self) -> None:
        self.profiles = 0
        self.faulty = 0
        self.shapes: dict[tuple[str, tuple[str, ...]], _Shape] = {}
        """(type, an object's keys) -> how many such objects: presence per field, cheaply."""
        self.classes: dict[tuple[str, str], Seen] = {}
        self.known_classes: dict[str, set[str]] = {}
        self.unknown_fields: dict[tuple[str, str, str], Seen] = {}
        self.mismatches: dict[tuple[str, str, str, str, str], Seen] = {}
        self.nulls: dict[tuple[str, str], Seen] = {}
        self._fields: dict[tuple[str, str], tuple[int, str]] | None = None
        self.index = -1
        self.key = ""
        self.is_faulty = False

    def profile(self, record: ProfileRecord) -> None:
        self.profiles += 1
        self.index, self.key = record.index, record.key
        self.is_faulty = record.problem is not None
        self.faulty += self.is_faulty
        raw = record.raw
        if isinstance(raw, dict):
            self.object(raw, type_table(), "$")
        else:
            self.mismatch("IntegrationProfile", "(profile)", "$", "object", raw)

    def fields(self) -> dict[tuple[str, str], tuple[int, str]]:
        """(type, field) -> (how many objects send it, null or not; the first path)."""
        if self._fields is None:
            found: dict[tuple[str, str], tuple[int, str]] = {}
            for (name, keys), (table, count, path) in self.shapes.items():
                for sent in keys:
                    key = table.python_names.get(sent, sent)
                    before = found.get((name, key))
                    found[(name, key)] = (
                        (before[0] + count, before[1]) if before else (count, f"{path}.{key}")
                    )
            self._fields = found
        return self._fields

    def types(self) -> dict[str, tuple[TypeTable, int, str]]:
        """Type name -> (its table, how many objects of it, the first path it was met at)."""
        found: dict[str, tuple[TypeTable, int, str]] = {}
        for (name, _), (table, count, path) in self.shapes.items():
            before = found.get(name)
            found[name] = (table, before[1] + count, before[2]) if before else (table, count, path)
        return found

    def object(self, obj: dict[str, Any], table: TypeTable, path: str) -> None:
        name = table.name
        shape = (name, tuple(obj))
        seen = self.shapes.get(shape)
        if seen is None:
            self.shapes[shape] = [table, 1, path]
        else:
            seen[1] += 1
        declared = table.fields
        json_types = JSON_TYPES
        for key, value in obj.items():
            want = declared.get(key)
            if want is None and key in table.python_names:
                key = table.python_names[key]
                want = declared[key]
            if want is None:
                self.note(self.unknown_fields, (name, key, f"{path}.{key}"))
            elif value is None:
                self.note(self.nulls, (name, key), f"{path}.{key}")
            elif not want.simple or json_types.get(type(value)) not in want.accepts:
                self.value(value, want, name, key, path, "")

    def value(self, value: Any, want: Expect, name: str, key: str, parent: str, at: str) -> None:
        """Check one non-null value (a field's, or an item's when `at` is `[*]`)."""
        found = JSON_TYPES.get(type(value))
        if found not in want.accepts:
            self.mismatch(name, key, f"{parent}.{key}{at}", want.label, value)
            return
        if want.bounds is not None and not want.bounds[0] <= value <= want.bounds[1]:
            label = f"integer beyond {want.bits}"
            self.mismatch(name, key, f"{parent}.{key}{at}", want.label, value, label)
            return
        if not want.nested:
            return
        path = f"{parent}.{key}{at}"
        if want.model is not None:
            self.object(value, type_table(want.model), path)
        elif want.family is not None:
            self.member(value, want.family, path)
        elif want.item is not None:
            self.items(value, want.item, name, key, parent, f"{at}[*]")

    def items(
        self, values: list[Any], item: Expect, name: str, key: str, parent: str, at: str
    ) -> None:
        """Check the items of an array; objects of a model (the usual case) go straight in."""
        table = type_table(item.model) if item.model is not None else None
        path = f"{parent}.{key}{at}"
        for entry in values:
            if table is not None and type(entry) is dict:
                self.object(entry, table, path)
            elif not item.simple or JSON_TYPES.get(type(entry)) not in item.accepts:
                self.value(entry, item, name, key, parent, at)

    def member(self, obj: dict[str, Any], family: FamilyTable, path: str) -> None:
        """A member of a polymorphic family: routed by `class`, as the models route it."""
        cls = obj.get("class")
        label = cls if isinstance(cls, str) else _NO_CLASS if cls is None else repr(cls)
        if family.name not in self.known_classes:
            self.known_classes[family.name] = set(family.members)
        self.note(self.classes, (family.name, label), path)
        model = family.members.get(cls) if isinstance(cls, str) else None
        if model is not None:
            self.object(obj, type_table(model), path)

    def mismatch(
        self, name: str, key: str, path: str, expected: str, value: Any, found: str | None = None
    ) -> None:
        seen = self.note(self.mismatches, (name, key, path, expected, found or json_type(value)))
        if seen.example is None:
            seen.example = _example(key, value)

    def note(self, table: dict[Any, Seen], where: tuple[Any, ...], path: str = "") -> Seen:
        """Count one sighting under `where` (whose last item is the path, unless given)."""
        seen = table.get(where)
        if seen is None:
            seen = table[where] = Seen(path or where[2])
        seen.count += 1
        if seen.last != self.index:
            seen.last = self.index
            seen.profiles += 1
            seen.faulty += self.is_faulty
            if len(seen.examples) < EXAMPLES:
                seen.examples.append(self.key)
        return seen


def _example(key: str, value: Any) -> str:
    """A value as short JSON-like text, masked when its field's name says it is secret."""
    import json

    if is_secret_name(key) and value not in (None, ""):
        return MASK
    text = json.dumps(redact_fields(value), ensure_ascii=False, default=repr)
    return text if len(text) <= _EXAMPLE_CHARS else text[: _EXAMPLE_CHARS - 1] + "…"
