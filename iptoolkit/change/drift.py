"""Schema drift: what a snapshot holds that the spec does not describe, and how that changes.

`schema_report(estate)` walks every profile's raw JSON (faulty ones too: their JSON is kept,
and a value that made them faulty is reported like any other) against the table of declared
fields (`schema.py`), without building a model: unknown classes, unknown fields, values of
another JSON type or beyond an `i32`/`i64` range, and declared fields always null or never
sent. `schema_changes(old, new)` compares what two snapshots hold: a class or field that
appears or disappears is a `notable` change of kind `schema`.

>>> report = ipt.schema_report(estate)
>>> print(report.summary())
Schema drift in 300 profiles: 1 unknown field, 2 fields never present

The models are the spec here (`docs/data-model.md` is generated from them): `created` and
`lastModified` are `i32` in the spec's text, but real platforms send epoch milliseconds, so
the models read them as `I64` on purpose and such values there are not drift; epoch
milliseconds in a field the models keep `I32` (`timeout`) are. A profile built in Python
with Python names (`input_agent_settings`) is read as the models read it, not as drift.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

import orjson

from ..models import gc_paused
from ..names import plural
from ..redact import MASK, is_secret_name, redact_fields
from .drift_report import Drift, SchemaReport
from .model import Change
from .schema import JSON_TYPES, Expect, FamilyTable, TypeTable, json_type, type_table

if TYPE_CHECKING:
    from ..estate import Estate
    from ..records import ProfileRecord

__all__ = ["schema_report", "schema_changes", "as_estate", "EXAMPLES"]

EXAMPLES = 3
"""How many example profiles a row names."""
_EXAMPLE_CHARS = 60
_NO_CLASS = "(none)"
"""The class of a family member sent without one (it is routed to the fallback too)."""


def schema_report(estate: Estate | str | os.PathLike[str]) -> SchemaReport:
    """What the snapshot holds that the spec does not describe (see the module docstring).

    Takes an estate, or a snapshot's path. Walked once per estate and cached on it.
    """
    walked = _walked(as_estate(estate, "schema_report: estate"))
    items = [
        *(
            _drift("unknown_class", family, None, seen, found=cls)
            for (family, cls), seen in walked.classes.items()
            if cls not in walked.known_classes[family]
        ),
        *(
            _drift("unknown_field", name, key, seen)
            for (name, key, _), seen in walked.unknown_fields.items()
        ),
        *(
            _drift("type_mismatch", name, key, seen, expected=expected, found=found)
            for (name, key, _, expected, found), seen in walked.mismatches.items()
        ),
        *_always_null(walked),
        *_never_present(walked),
    ]
    return SchemaReport(tuple(items), profiles=walked.profiles, faulty=walked.faulty)


def schema_changes(
    old: Estate | str | os.PathLike[str],
    new: Estate | str | os.PathLike[str],
    *,
    same: Sequence[tuple[ProfileRecord, ProfileRecord]] | None = None,
) -> list[Change]:
    """Classes and fields that appear or disappear from `old` to `new`, as `Change` records.

    Keys: `schema:InputAgentSettings[core:FtpsAgentSettings]` for a class of a family,
    `schema:SFTPAgentSettings.retryPolicy` for a field of a type (declared or not). A field
    counts only when its type is in both snapshots: the fields of a class that appears are
    that class's news, not news of their own.

    `same` (what `diff` knows): pairs of profiles whose JSON is equal in both snapshots.
    They hold the same classes and fields on both sides, so only the profiles that differ
    are walked, and of the equal ones just those whose JSON text names a class, field or
    type that might appear or disappear (see `_walks_of_differences`).
    """
    before, after = as_estate(old, "schema_changes: old"), as_estate(new, "schema_changes: new")
    if same is None:
        return _compared(_walked(before), _walked(after))
    return _compared(*_walks_of_differences(before, after, same))


def _compared(before: _Walk, after: _Walk, both: _Walk | None = None) -> list[Change]:
    """The classes and fields one walk holds and the other lacks; `both` holds what the two
    snapshots hold alike (the equal profiles walked once), held by neither alone."""
    both = both if both is not None else _Walk()
    both_classes, both_fields, both_types = both.classes, both.fields(), both.types()
    changes = []
    for op, have, lack, where in (
        ("removed", before, after, "old"),
        ("added", after, before, "new"),
    ):
        for (family, cls), seen in have.classes.items():
            if (family, cls) not in lack.classes and (family, cls) not in both_classes:
                changes.append(
                    Change(
                        kind="schema",
                        key=f"schema:{family}[{cls}]",
                        op=op,
                        severity="notable",
                        path=seen.path,
                        reason=f"class {cls} of {family} {_verb(op)}: "
                        f"held by {plural(seen.profiles, 'profile')} of the {where} snapshot",
                    )
                )
        lacking = lack.fields().keys() | both_fields.keys()
        lacking_types = lack.types().keys() | both_types.keys()
        for (name, key), (count, path) in have.fields().items():
            if name in lacking_types and (name, key) not in lacking:
                changes.append(
                    Change(
                        kind="schema",
                        key=f"schema:{name}.{key}",
                        op=op,
                        severity="notable",
                        path=path,
                        reason=f"field {key} of {name} {_verb(op)}: "
                        f"sent in {plural(count, 'object')} of the {where} snapshot",
                    )
                )
    return sorted(changes, key=lambda change: (change.key, change.op))


def _walks_of_differences(
    old: Estate, new: Estate, same: Sequence[tuple[ProfileRecord, ProfileRecord]]
) -> tuple[_Walk, _Walk, _Walk | None]:
    """Walks that compare like whole-snapshot walks: of the profiles that differ on each
    side, and of the equal profiles that matter, walked once for both.

    What both sides hold alike cannot appear or disappear. A candidate that one side's
    differing profiles hold and the other's do not (a class; a field; the type a field
    needs on both sides) is decided by the equal profiles, and an equal profile holding it
    names it in its JSON text: a class by its `class` value, a field by its name next to a
    name of its type (`_conditions`). So only the equal profiles whose text meets a
    candidate's condition are walked too.
    """
    same_old = {pair[0].index for pair in same}
    same_new = {pair[1].index for pair in same}
    differ_old = [record for record in old.records if record.index not in same_old]
    differ_new = [record for record in new.records if record.index not in same_new]
    before, after = _walk_records(differ_old), _walk_records(differ_new)
    conditions = _conditions(before, after)
    if not conditions or not same:
        return before, after, None
    kept = [pair[1] for pair in same if _meets_any(pair[1].raw, conditions)]
    if any(condition == (_ANY_PROFILE,) for condition in conditions):
        kept.append(same[0][1])  # one equal profile shows that profiles exist on both sides
    return before, after, _walk_records(kept)


_Condition = tuple[frozenset[bytes], ...]
"""JSON texts a profile must contain: one of each set."""
_ANY_PROFILE: frozenset[bytes] = frozenset()
"""Stands for the profile's own type, which every profile holds."""


def _conditions(before: _Walk, after: _Walk) -> list[_Condition]:
    """What an equal profile's text must contain to hold a candidate of a change."""
    conditions = {
        (frozenset({_quoted(cls)}),) for _, cls in before.classes.keys() ^ after.classes.keys()
    }
    held_before, held_after = before.fields(), after.fields()
    types_before, types_after = before.types(), after.types()
    for name, key in held_before.keys() ^ held_after.keys():
        lacking_types = types_after if (name, key) in held_before else types_before
        of_type = type_tokens().get(name, _ANY_PROFILE)
        if name not in lacking_types:  # does the other side hold the type at all?
            conditions.add((of_type,))
            continue
        named = frozenset({_quoted(key), *(_quoted(sent) for sent in _sent_names(name, key))})
        conditions.add((named, of_type) if of_type else (named,))
    return list(conditions)


def _meets_any(raw: Any, conditions: list[_Condition]) -> bool:
    text = orjson.dumps(raw, default=str, option=orjson.OPT_NON_STR_KEYS)
    return any(
        all(any(token in text for token in tokens) for tokens in condition if tokens)
        and any(condition)
        for condition in conditions
    )


def _sent_names(name: str, key: str) -> tuple[str, ...]:
    """The other names a field may be sent under (a Python name for a JSON one)."""
    table = type_tables().get(name)
    if table is None:
        return ()
    return tuple(python for python, json_name in table.python_names.items() if json_name == key)


def _quoted(text: str) -> bytes:
    return orjson.dumps(text)


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


def _verb(op: str) -> str:
    return "appears" if op == "added" else "disappears"


def as_estate(value: Any, what: str) -> Estate:
    """An estate, or the snapshot at a path loaded; TypeError naming `what` for anything else."""
    from ..estate import Estate, load

    if isinstance(value, Estate):
        return value
    if isinstance(value, str | os.PathLike):
        return load(value)
    raise TypeError(f"{what} must be an Estate or a snapshot path, not {type(value).__name__}")


def _walked(estate: Estate) -> _Walk:
    return estate.derived("schema_walk", _walk)


def _walk(estate: Estate) -> _Walk:
    return _walk_records(estate.records)


def _walk_records(records: Iterable[ProfileRecord]) -> _Walk:
    walk = _Walk()
    with gc_paused():
        for record in records:
            walk.profile(record)
    return walk


@dataclass(slots=True)
class _Seen:
    """Where one kind of drift was met: how often, in how many and which profiles."""

    path: str
    count: int = 0
    profiles: int = 0
    faulty: int = 0
    examples: list[str] = field(default_factory=list)
    example: str | None = None
    last: int = -1
    """The position of the last profile counted, so that each counts once."""


def _drift(
    kind: Any,
    name: str,
    key: str | None,
    seen: _Seen,
    *,
    expected: str | None = None,
    found: str | None = None,
) -> Drift:
    return Drift(
        kind=kind,
        type=name,
        field=key,
        path=seen.path,
        count=seen.count,
        profiles=seen.profiles,
        faulty=seen.faulty,
        examples=tuple(seen.examples),
        expected=expected,
        found=found,
        example=seen.example,
    )


def _always_null(walked: _Walk) -> list[Drift]:
    present = walked.fields()
    return [
        _drift("always_null", name, key, seen)
        for (name, key), seen in walked.nulls.items()
        if present[(name, key)][0] == seen.count
    ]


def _never_present(walked: _Walk) -> list[Drift]:
    present = walked.fields()
    found = []
    for name, (table, count, path) in walked.types().items():
        for key in table.fields:
            if (name, key) not in present:
                seen = _Seen(f"{path}.{key}", count=count)
                found.append(_drift("never_present", name, key, seen))
    return found


_Shape = list[Any]
"""[the type's table, how many objects, the first path]: a list, so counting is in place."""


class _Walk:
    """One pass over the raw profiles, tallying what the report and the changes need."""

    def __init__(self) -> None:
        self.profiles = 0
        self.faulty = 0
        self.shapes: dict[tuple[str, tuple[str, ...]], _Shape] = {}
        """(type, an object's keys) -> how many such objects: presence per field, cheaply."""
        self.classes: dict[tuple[str, str], _Seen] = {}
        self.known_classes: dict[str, set[str]] = {}
        self.unknown_fields: dict[tuple[str, str, str], _Seen] = {}
        self.mismatches: dict[tuple[str, str, str, str, str], _Seen] = {}
        self.nulls: dict[tuple[str, str], _Seen] = {}
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

    def note(self, table: dict[Any, _Seen], where: tuple[Any, ...], path: str = "") -> _Seen:
        """Count one sighting under `where` (whose last item is the path, unless given)."""
        seen = table.get(where)
        if seen is None:
            seen = table[where] = _Seen(path or where[2])
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
