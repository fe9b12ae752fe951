"""Schema changes: the classes and fields that appear or disappear from one snapshot to the
next, as `notable` `Change` records of kind `schema`.

Two walks (`schema_walk.py`) are compared. With what `diff` knows (the pairs of profiles
whose JSON is equal), only the profiles that differ are walked, and of the equal ones just
those whose JSON text names a candidate class, field or type (`schema.type_tokens`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import orjson

from ..core.estate import as_estate
from ..support.names import plural
from .estate_diff import Change, ChangeOp
from .schema_walk import Walk, walk_records, walked
from .spec_table import type_tables, type_tokens

if TYPE_CHECKING:
    import os

    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = ["schema_changes", "compared_walks", "change_conditions"]


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
        return compared_walks(walked(before), walked(after))
    return compared_walks(*_walks_of_differences(before, after, same))


def compared_walks(before: Walk, after: Walk, both: Walk | None = None) -> list[Change]:
    """The classes and fields one walk holds and the other lacks; `both` holds what the two
    snapshots hold alike (the equal profiles walked once), held by neither alone."""
    both = both if both is not None else Walk()
    both_classes, both_fields, both_types = both.classes, both.fields(), both.types()
    changes = []
    sides: tuple[tuple[ChangeOp, Walk, Walk, str], ...] = (
        ("removed", before, after, "old"),
        ("added", after, before, "new"),
    )
    for op, have, lack, where in sides:
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
) -> tuple[Walk, Walk, Walk | None]:
    """Walks that compare like whole-snapshot walks: of the profiles that differ on each
    side, and of the equal profiles that matter, walked once for both.

    What both sides hold alike cannot appear or disappear. A candidate that one side's
    differing profiles hold and the other's do not (a class; a field; the type a field
    needs on both sides) is decided by the equal profiles, and an equal profile holding it
    names it in its JSON text: a class by its `class` value, a field by its name next to a
    name of its type (`change_conditions`). So only the equal profiles whose text meets a
    candidate's condition are walked too.
    """
    same_old = {pair[0].index for pair in same}
    same_new = {pair[1].index for pair in same}
    differ_old = [record for record in old.records if record.index not in same_old]
    differ_new = [record for record in new.records if record.index not in same_new]
    before, after = walk_records(differ_old), walk_records(differ_new)
    conditions = change_conditions(before, after)
    if not conditions or not same:
        return before, after, None
    text_of = _texts(new)
    kept = [pair[1] for pair in same if _meets_any(text_of(pair[1]), conditions)]
    if any(condition == (_ANY_PROFILE,) for condition in conditions):
        kept.append(same[0][1])  # one equal profile shows that profiles exist on both sides
    return before, after, walk_records(kept)


_Condition = tuple[frozenset[bytes], ...]
"""JSON texts a profile must contain: one of each set."""
_ANY_PROFILE: frozenset[bytes] = frozenset()
"""Stands for the profile's own type, which every profile holds."""


def change_conditions(before: Walk, after: Walk) -> list[_Condition]:
    """What an equal profile's text must contain to hold a candidate of a change."""
    conditions: set[_Condition] = {
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


Span = tuple[bytes, int, int]
"""A profile's JSON text: a text and where in it the profile's starts and ends."""


def _texts(estate: Estate) -> Callable[[ProfileRecord], Span]:
    """A record's JSON text: the file's own when the load kept it (proven to be what orjson
    writes of the record; searched in place, not copied), else written now."""
    texts = estate.texts
    if texts is None:
        return _written
    whole, starts, ends = texts.text, texts.starts, texts.ends
    position = {record.node: n for n, record in enumerate(estate.records)}

    def span(record: ProfileRecord) -> Span:
        n = position[record.node]
        return whole, starts[n], ends[n]

    return span


def _written(record: ProfileRecord) -> Span:
    text = orjson.dumps(record.raw, default=str, option=orjson.OPT_NON_STR_KEYS)
    return text, 0, len(text)


def _meets_any(span: Span, conditions: list[_Condition]) -> bool:
    """Whether the text holds, for some condition, a token of each of its sets (a
    condition of no tokens, `(_ANY_PROFILE,)`, is met by none). Loops, not generators:
    every equal profile is asked."""
    text, start, end = span
    for condition in conditions:
        named = False
        for tokens in condition:
            if not tokens:
                continue
            named = True
            for token in tokens:
                if text.find(token, start, end) != -1:
                    break
            else:
                break  # no token of this set: the condition fails
        else:
            if named:
                return True
    return False


def _sent_names(name: str, key: str) -> tuple[str, ...]:
    """The other names a field may be sent under (a Python name for a JSON one)."""
    table = type_tables().get(name)
    if table is None:
        return ()
    return tuple(python for python, json_name in table.python_names.items() if json_name == key)


def _quoted(text: str) -> bytes:
    return orjson.dumps(text)


def _verb(op: str) -> str:
    return "appears" if op == "added" else "disappears"
