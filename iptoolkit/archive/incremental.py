"""The diff of an add, worked out from the profiles that changed, not from two whole estates.

`ipt.diff` of the newest stored snapshot and the one being added gives the same changes as
`ipt.diff` of two smaller estates: every profile whose JSON differs (or that came or went),
and with them every profile that could change what the diff says of those:

- every profile holding a channel that a changed profile holds or names, or a channel of a
  partner whose copy a changed profile holds (the channels' and partners' first copies,
  their conflicts, and what names resolve to);
- every faulty profile (the notes count them), and one unchanged profile (so that the two
  estates share an id, as the whole ones do: else a note says "different platforms");
- when that diff finds a channel or partner changed or gone, it is worked out again with
  every profile using them too, which its reasons name.

Profiles unchanged and outside these give the same channels, partners and links on both
sides, which the diff never reports. Schema changes (`schema_compare`) are worked out
beside it: the differing profiles are walked, and the unchanged ones whose JSON text names
a candidate class or field are found by searching the new snapshot's texts. The old side
is built from the archive's JSON of just those profiles, so an add in a fresh process never
rebuilds the previous estate. When the listings are not keyed by unique ids (a profile
without one is keyed by its position), or no profile is unchanged, it answers None and the
whole diff runs instead. `tests/test_archive_incremental.py` holds the result equal to
`ipt.diff` of the whole snapshots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..change.diff import in_order, items_diff
from ..change.estate_diff import Change, EstateDiff
from ..change.schema_compare import change_conditions, compared_walks
from ..change.schema_walk import walk_records
from ..core.nodes import partner_of
from ..models import Listing, loads_json
from ..support.jsonio import dumps_json

if TYPE_CHECKING:
    import duckdb

    from ..core.estate import Estate
    from ..core.profile_texts import ProfileTexts
    from ..core.snapshot import SnapshotInfo
    from .rows import SnapshotRows

__all__ = ["PreviousRow", "incremental_diff"]

PreviousRow = tuple[int, str, str]
"""A profile of the previous snapshot, in listing order: version id, key, digest."""

_NONE = type("_NoRecord", (), {"problem": None})()
_NAME_USERS = frozenset({"channel", "partner"})
_IN_SNAPSHOT = "r.first_seq <= ? AND coalesce(r.last_seq, 2147483647) >= ?"


def incremental_diff(
    con: duckdb.DuckDBPyConnection,
    previous_seq: int,
    previous: Sequence[PreviousRow],
    previous_info: SnapshotInfo,
    estate: Estate,
    rows: SnapshotRows,
) -> EstateDiff | None:
    """`ipt.diff(previous snapshot, estate)`, its `old` and `new` the smaller estates (see
    the module docstring); None when this way does not apply."""
    old_keys = [key for _, key, _ in previous]
    if _positional(old_keys) or _positional(rows.keys):
        return None
    old_digest = {key: one for _, key, one in previous}
    new_digest = dict(zip(rows.keys, rows.digests, strict=True))
    unchanged = {key for key, one in new_digest.items() if old_digest.get(key) == one}
    if not unchanged:
        return None
    changed = (old_digest.keys() | new_digest.keys()) - unchanged
    old_uses = con.execute(
        "SELECT r.key, coalesce(u.channel_id, r.key || ':' || u.path), u.partner_key, "
        f"u.role <> 'reference' FROM runs r JOIN uses u USING (version_id) WHERE {_IN_SNAPSHOT}",
        [previous_seq, previous_seq],
    ).fetchall()
    uses = [*old_uses, *_uses_of(estate)]
    old_faulty = {key for key, _ in _faulty(con, previous_seq)}
    always = set(changed) | old_faulty
    always |= {record.key for record in estate.records if record.problem is not None}
    always.add(next(key for key in rows.keys if key in unchanged))
    by_key = {record.key: record for record in estate.records}

    def compared(chosen: set[str]) -> EstateDiff | None:
        old_raw = _old_profiles(con, previous, chosen - unchanged)
        faulty = {key for key in chosen if key in old_faulty or by_key.get(key, _NONE).problem}
        old = _estate_of(
            [
                (key, old_raw[key] if key in old_raw else by_key[key].raw)
                for key in old_keys
                if key in chosen
            ],
            previous_info,
            faulty,
        )
        new = _estate_of(
            [(record.key, record.raw) for record in estate.records if record.key in chosen],
            estate.info,
            faulty,
        )
        if not _same_problems(new, by_key):
            return None
        changes, notes = items_diff(old, new)
        changes += _schema_changes(old, new, by_key, rows.texts, rows.keys, unchanged)
        return EstateDiff(old, new, tuple(in_order(changes)), tuple(notes))

    holders = _users(changed, uses, everyone=False)
    firsts = _first_copies(changed, uses, [old_keys, rows.keys], by_key, holders)
    found = compared(always | firsts)
    if found is not None and any(c.kind in _NAME_USERS and c.op != "added" for c in found):
        # a channel or partner changed or went: its reasons name every profile using it
        found = compared(always | _users(changed, uses, everyone=True))
    return found


def _positional(keys: Sequence[str]) -> bool:
    """Whether some profile is keyed by its position (no id, or an id another has)."""
    return any("#" in key for key in keys)


def _uses_of(estate: Estate) -> list[tuple[str, str, str | None, bool]]:
    """(profile key, channel key, partner key, whether held) of every channel use of the
    estate, and (profile key, "", partner key, False) for each partner a profile uses."""
    found = []
    for record in estate.records:
        for use in record.uses:
            pkey = partner_of(use.held)[0] if use.held is not None else None
            held = use.held is not None
            found.append((record.key, str(use.key), None if pkey is None else str(pkey), held))
        found.extend((record.key, "", str(pkey), False) for pkey in record.partners)
    return found


def _users(
    changed: set[str], uses: Sequence[tuple[str, str, str | None, bool]], *, everyone: bool
) -> set[str]:
    """The profiles (keys) that can change what the diff says of the changed ones.

    The holders of every channel they use, and of every channel of a partner whose copy
    they hold: the channels' and partners' first copies and conflicts, and what names
    resolve to. `everyone`: every profile using those channels or partners too, whom the
    diff names when a channel or partner changes or goes.
    """
    channels = {channel for key, channel, _, _ in uses if key in changed and channel}
    partners = {partner for key, _, partner, held in uses if key in changed and held and partner}
    if not everyone:
        return {
            key
            for key, channel, partner, held in uses
            if held and (channel in channels or partner in partners)
        }
    partners |= {partner for key, _, partner, _ in uses if key in changed and partner}
    channels |= {channel for _, channel, partner, _ in uses if channel and partner in partners}
    return {
        key
        for key, channel, partner, _ in uses
        if (channel and channel in channels) or (partner and partner in partners)
    }


def _first_copies(
    changed: set[str],
    uses: Sequence[tuple[str, str, str | None, bool]],
    orders: Sequence[Sequence[str]],
    by_key: dict[str, Any],
    holders: set[str],
) -> set[str]:
    """Of the unchanged `holders`, in each listing order (the old one and the new), those
    whose copies of a channel or partner a changed profile holds or names are the first
    met: the first holder of each distinct set of copies of each. A later holder of copies
    already met changes nothing in either estate's registries (their first copy and
    conflicting variants, see `estate._Registry`), so the smaller estates leave it out;
    the changed profiles are in them whole."""
    channels = {channel for key, channel, _, _ in uses if key in changed and channel}
    partners = {partner for key, _, partner, held in uses if key in changed and held and partner}
    marks = {
        key: _copies(by_key[key], channels, partners)
        for key in holders
        if key not in changed and key in by_key
    }
    first: set[str] = set()
    for order in orders:
        met: set[tuple[Any, ...]] = set()
        for key in order:
            for mark in marks.get(key, ()):
                if mark not in met:
                    met.add(mark)
                    first.add(key)
    return first


def _copies(record: Any, channels: set[str], partners: set[str]) -> list[tuple[Any, ...]]:
    """Each of these channels and partners the profile holds, with its copies' JSON."""
    copies: dict[tuple[str, Any], list[bytes]] = {}
    for use in record.uses:
        if use.held is None:
            continue
        if str(use.key) in channels:
            copies.setdefault(("channel", use.key), []).append(dumps_json(use.held))
        pkey, partner = partner_of(use.held)
        if pkey is not None and str(pkey) in partners:
            copies.setdefault(("partner", pkey), []).append(dumps_json(partner))
    return [(item, tuple(texts)) for item, texts in copies.items()]


def _faulty(con: duckdb.DuckDBPyConnection, seq: int) -> list[tuple[str, bool]]:
    return con.execute(
        f"SELECT r.key, v.faulty FROM runs r JOIN versions v USING (version_id) "
        f"WHERE {_IN_SNAPSHOT} AND v.faulty",
        [seq, seq],
    ).fetchall()


def _old_profiles(
    con: duckdb.DuckDBPyConnection, previous: Sequence[PreviousRow], keys: set[str]
) -> dict[str, Any]:
    """key -> the previous snapshot's JSON of these profiles (read from the archive)."""
    wanted = {version: key for version, key, _ in previous if key in keys}
    if not wanted:
        return {}
    texts = con.execute(
        "SELECT version_id, json FROM versions WHERE version_id IN (SELECT unnest(?::INTEGER[]))",
        [list(wanted)],
    ).fetchall()
    return {wanted[version]: loads_json(text) for version, text in texts}


def _schema_changes(
    old: Estate,
    new: Estate,
    by_key: dict[str, Any],
    texts: ProfileTexts,
    keys: Sequence[str],
    unchanged: set[str],
) -> list[Change]:
    """What `schema_compare.schema_changes` finds of the whole snapshots: walks of the
    profiles that differ (in listing order: the first path met is reported), and of the
    unchanged profiles whose text names a candidate class or field (`_meeting`), found in
    the new snapshot's texts instead of being built into the smaller estates."""
    same = {
        record.key
        for record in old.records
        if record.key in unchanged
        or (record.key in by_key and record.raw == by_key[record.key].raw)
    }
    before = walk_records(record for record in old.records if record.key not in same)
    after = walk_records(record for record in new.records if record.key not in same)
    conditions = change_conditions(before, after)
    if not conditions:
        return compared_walks(before, after)
    equal = unchanged | same  # in the whole snapshots
    kept = _meeting(texts, keys, equal, conditions)
    witnesses = [by_key[key] for key in kept]
    witnesses.append(by_key[next(iter(same & unchanged))])  # profiles exist on both sides
    return compared_walks(before, after, walk_records(witnesses))


def _meeting(
    texts: ProfileTexts,
    keys: Sequence[str],
    wanted: set[str],
    conditions: Sequence[tuple[frozenset[bytes], ...]],
) -> set[str]:
    """The `wanted` keys whose JSON text meets a condition (as `schema_compare._meets_any`
    decides: one token of each non-empty set), found by one search of all the texts per
    token."""
    holding: dict[bytes, set[int]] = {}
    for token in {token for condition in conditions for tokens in condition for token in tokens}:
        holding[token] = {position for position, _ in texts.find_all(token)}
    met: set[int] = set()
    for condition in conditions:
        sets = [tokens for tokens in condition if tokens]
        if not sets:
            continue
        each = [set().union(*(holding[token] for token in tokens)) for tokens in sets]
        met |= set.intersection(*each)
    return {keys[position] for position in met if keys[position] in wanted}


def _estate_of(
    profiles: list[tuple[str, Any]], info: SnapshotInfo | None, faulty: set[str]
) -> Estate:
    """An estate of these profiles; only those found faulty before are validated again
    (the others were valid when stored or loaded)."""
    from ..core.estate import Estate

    suspects = frozenset(n for n, (key, _) in enumerate(profiles) if key in faulty)
    return Estate.from_raw(Listing([raw for _, raw in profiles], {}, suspects), info=info)


def _same_problems(small: Estate, by_key: dict[str, Any]) -> bool:
    """Whether the smaller new estate finds every profile faulty as the loaded one did (a
    key given twice in a file's text is a problem that its parsed JSON no longer shows)."""
    for record in small.records:
        problem, whole = record.problem, by_key[record.key].problem
        if problem is None or whole is None:
            if problem is not whole:
                return False
        elif [i.message for i in problem.issues] != [i.message for i in whole.issues]:
            return False
    return True
