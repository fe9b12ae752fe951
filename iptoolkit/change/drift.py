"""Schema drift: what a snapshot holds that the spec does not describe, and how that changes.

`schema_report(estate)` walks every profile's raw JSON (faulty ones too: their JSON is kept,
and a value that made them faulty is reported like any other) against the table of declared
fields (`schema.py`), without building a model: unknown classes, unknown fields, values of
another JSON type or beyond an `i32`/`i64` range, and declared fields always null or never
sent. `schema_changes(old, new)` (`schema_compare.py`) compares what two snapshots hold: a
class or field that appears or disappears is a `notable` change of kind `schema`. This
module writes the report from the walk (`schema_walk.py`).

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
from typing import Any

from ..core.estate import Estate, as_estate
from .drift_report import Drift, SchemaReport
from .schema_compare import schema_changes
from .schema_walk import EXAMPLES, Seen, Walk
from .schema_walk import walked as walk_of

__all__ = ["schema_report", "schema_changes", "as_estate", "EXAMPLES"]
"""`schema_changes` (`schema_compare.py`), `as_estate` (`core/estate.py`) and `EXAMPLES`
(`schema_walk.py`) are named here too: the import paths users had."""


def schema_report(estate: Estate | str | os.PathLike[str]) -> SchemaReport:
    """What the snapshot holds that the spec does not describe (see the module docstring).

    Takes an estate, or a snapshot's path. Walked once per estate and cached on it.
    """
    walked = walk_of(as_estate(estate, "schema_report: estate"))
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


def _drift(
    kind: Any,
    name: str,
    key: str | None,
    seen: Seen,
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


def _always_null(walked: Walk) -> list[Drift]:
    present = walked.fields()
    return [
        _drift("always_null", name, key, seen)
        for (name, key), seen in walked.nulls.items()
        if present[(name, key)][0] == seen.count
    ]


def _never_present(walked: Walk) -> list[Drift]:
    present = walked.fields()
    found = []
    for name, (table, count, path) in walked.types().items():
        for key in table.fields:
            if (name, key) not in present:
                seen = Seen(f"{path}.{key}", count=count)
                found.append(_drift("never_present", name, key, seen))
    return found
