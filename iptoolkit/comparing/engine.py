"""`compare(a, b)`: what differs between two installations, items matched by natural keys.

Partners are paired first, then channels, then profiles (`matching.py`), so that each
reference can be translated through the match before the items holding it are compared
(`normal.py`). A pair whose translated JSON is equal is the same; another is walked field
by field with the diff's walk (`change.walk`), each field judged by the diff's severity
table (`change.severity`) as the same change from A to B would be, values masked as the
diff masks them. Ignore rules and substitutions (`rules.py`) silence the fields they cover;
known differences hide whole items until they expire.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..change.estate_diff import SEVERITIES
from ..change.pairing import Users
from ..change.severity import field_severity, rule
from ..change.walk import ABSENT, FieldChange, Walk, json_path, shown, with_presence
from ..core.estate import as_estate
from ..models import gc_paused
from ..support.arguments import text_pairs, texts
from ..support.names import composed, plural
from ..support.redact import is_secret_name
from .comparison import Comparison
from .difference import KINDS, STATUSES, Difference, FieldDiff, ItemKind, Match, key_text
from .keyed_items import Item, first_copies, items_of
from .matching import Paired, pair_items
from .normal import Ref, Translator
from .rules import Rules, today

if TYPE_CHECKING:
    from ..auditing.config import Suppression
    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = ["compare", "Manual", "CANDIDATES_FOR"]

CANDIDATES_FOR = 1000
"""Unmatched items per kind and side given their closest candidates: each costs a search
of the other side's unmatched keys, and two unrelated estates (or a wrong key) would make
ten thousand of them."""

Manual = Mapping[str, Sequence[tuple[tuple[str, ...], tuple[str, ...]]]]
"""Manual matches by kind: (A's key, B's key) pairs, as the mapping file holds them."""


def compare(
    a: Estate | str | os.PathLike[str],
    b: Estate | str | os.PathLike[str],
    *,
    rules: Rules | None = None,
    manual: Manual | None = None,
    names: tuple[str, str] = ("A", "B"),
    on: dt.date | None = None,
    ignore: Sequence[str] = (),
    substitute: Sequence[tuple[str, str]] | tuple[str, str] = (),
) -> Comparison:
    """What differs between installation `a` and installation `b` (estates or snapshot
    paths), matched by natural keys (see `Rules`); `manual` pairs from a mapping file;
    `names` say what the two are called in reports; known differences expire against `on`
    (today, UTC); `ignore` (path globs; a str is one) and `substitute` ((old, new) pairs,
    or one pair) add to the rules'. A wrong shape is an error naming the argument.

    >>> result = ipt.compare("test.json", "prod.json",     # doctest: +SKIP
    ...                      substitute=[("test.example.com", "example.com")])
    >>> print(result.summary())                            # doctest: +SKIP
    2 profiles only in test, 1 changed; 1 channel changed
    """
    if len(set(names)) != 2 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"compare: names must be two different names, not {names!r}")
    left, right = as_estate(a, "compare: a"), as_estate(b, "compare: b")
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(
            f"compare: rules must be an iptoolkit.comparing.Rules, not {type(rules).__name__}"
        )
    manual = _checked_manual(manual)
    rules = (rules or Rules()).with_options(
        ignore=texts(ignore, "compare: ignore", "path globs (a str, or a list of str)"),
        substitute=text_pairs(substitute, "compare: substitute"),
    )
    with gc_paused():
        run = _Run(left, right, rules, manual, names)
        run.all()
    shown_now, known, notes = _known(run.differences, rules, on or today(), names)
    ordered = sorted(shown_now, key=_order)
    return Comparison(
        left,
        right,
        tuple(ordered),
        tuple(run.matches),
        tuple(known),
        tuple([*run.notes, *notes]),
        names,
        run.ignored,
    )


def _checked_manual(manual: Any) -> Manual:
    """`compare`'s `manual` as `read_mapping` gives it (kind -> (A's key, B's key) pairs),
    or a `TypeError`/`ValueError` naming it: a wrong shape would fail deep in the
    matching, or pair nothing, unsaid."""
    if manual is None:
        return {}
    if not isinstance(manual, Mapping):
        raise TypeError(
            "compare: manual takes {kind: [(A's key, B's key), ...]} (comparing.mapping's "
            f"read_mapping reads a mapping file), not {type(manual).__name__}: {manual!r}"[:300]
        )
    for kind, pairs in manual.items():
        if kind not in KINDS:
            raise ValueError(f"compare: manual: unknown kind {kind!r}; known: {', '.join(KINDS)}")
        if isinstance(pairs, str | bytes) or not isinstance(pairs, Iterable):
            raise TypeError(
                f"compare: manual[{kind!r}] takes key pairs, not {type(pairs).__name__}"
            )
        for pair in pairs:
            if not (
                isinstance(pair, tuple)
                and len(pair) == 2
                and all(isinstance(key, tuple) for key in pair)
            ):
                raise ValueError(
                    f"compare: manual[{kind!r}] takes (A's key, B's key) pairs of tuples, "
                    f"not {pair!r}"[:300]
                )
    return manual


class _Run:
    """One comparison; `all` fills `differences`, `matches` and `notes`."""

    def __init__(
        self, a: Estate, b: Estate, rules: Rules, manual: Manual, names: tuple[str, str]
    ) -> None:
        self.a, self.b, self.rules, self.manual, self.names = a, b, rules, manual, names
        self.differences: list[Difference] = []
        self.matches: list[Match] = []
        self.notes: list[str] = []
        self.ignored = 0
        self.refs: dict[str, tuple[dict[str, Ref], dict[str, Ref]]] = {}
        self.b_users: dict[str, Users] = {}
        self.asked: dict[tuple[str, str], int] = {}
        """Unmatched items given candidates so far, per kind and side."""

    def all(self) -> None:
        for name, estate in zip(self.names, (self.a, self.b), strict=True):
            if estate.problems:
                self.notes.append(_faulty_note(name, estate))
        paired = {kind: self._pair(kind) for kind in ("partner", "channel", "profile")}
        ignored = frozenset(self.rules.ignore_names)
        translators = [
            Translator(
                self.refs["channel"][side],
                self.refs["partner"][side],
                first_copies(estate),
                ignored,
                estate.varied_channels,
            )
            for side, estate in enumerate((self.a, self.b))
        ]
        for kind in KINDS:
            self._pairs(kind, paired[kind], *translators)

    # -- pairing --------------------------------------------------------------------------

    def _pair(self, kind: ItemKind) -> Paired:
        a_items = items_of(self.a, kind, self.rules)
        b_items = items_of(self.b, kind, self.rules)
        paired = pair_items(a_items, b_items, self.manual.get(kind, ()), kind)
        self.notes.extend(paired.notes)
        self.matches.extend(
            [Match(kind, how, a.key, b.key, a.node, b.node) for a, b, how in paired.pairs]
        )
        for item in paired.only_a:
            self._unmatched(item, paired, "a")
        for item in paired.only_b:
            self._unmatched(item, paired, "b")
        for key, a_found, b_found in paired.ambiguous:
            self._ambiguous(kind, key, a_found, b_found)
        if kind != "profile":  # what a profile names: its profiles are named by nothing
            self.refs[kind] = self._refs(kind, paired)
        return paired

    def _refs(self, kind: ItemKind, paired: Paired) -> tuple[dict[str, Ref], dict[str, Ref]]:
        """The `Ref` of each channel or partner node of A and of B (`normal.Translator`)."""
        a_refs: dict[str, Ref] = {}
        b_refs: dict[str, Ref] = {}
        for a_item, b_item, _ in paired.pairs:
            a_refs[a_item.node] = b_refs[b_item.node] = Ref(f"{kind} {key_text(b_item.key)}")
        for item in paired.only_a:
            a_refs[item.node] = Ref(f"{kind} (only in {self.names[0]}) {key_text(item.key)}")
        for item in paired.only_b:
            b_refs[item.node] = Ref(f"{kind} {key_text(item.key)}")
        for key, a_found, b_found in paired.ambiguous:
            ref = Ref(f"{kind} (ambiguous) {key_text(key)}")
            a_refs.update((item.node, ref) for item in a_found)
            b_refs.update((item.node, ref) for item in b_found)
        return a_refs, b_refs

    def _unmatched(self, item: Item, paired: Paired, side: str) -> None:
        here, there = (self.names[0], self.names[1]) if side == "a" else self.names[::-1]
        if side == "a":
            severity = rule("profile-stops" if item.kind == "profile" and item.active
                            else "inactive" if item.kind == "profile" else "migrated")  # fmt: skip
        else:
            severity = rule("added")
        state = ("active " if item.active else "inactive ") if item.kind == "profile" else ""
        asked = self.asked[(item.kind, side)] = self.asked.get((item.kind, side), 0) + 1
        candidates = paired.candidates(item, side) if asked <= CANDIDATES_FOR else ()
        if asked == CANDIDATES_FOR + 1:
            self.notes.append(
                f"more than {CANDIDATES_FOR:,} {item.kind}s only in {here}: the closest "
                "candidates are named for the first ones only (are the keys right?)"
            )
        reason = f"{state}{item.kind} only in {here}, not in {there}"
        if candidates:
            reason += f"; closest in {there}: " + ", ".join(repr(key_text(c)) for c in candidates)
        self.differences.append(
            Difference(
                item.kind,
                "only-in-a" if side == "a" else "only-in-b",
                item.key,
                item.name,
                item.node if side == "a" else None,
                item.node if side == "b" else None,
                severity,
                reason,
                candidates=candidates,
            )
        )

    def _ambiguous(
        self, kind: ItemKind, key: tuple[str, ...], a_found: list[Item], b_found: list[Item]
    ) -> None:
        a_name, b_name = self.names
        reason = (
            f"the key names {len(a_found)} {kind}s in {a_name} and {len(b_found)} in "
            f"{b_name}: not paired (a mapping file can pair them)"
        )
        first = (a_found or b_found)[0]
        self.differences.append(
            Difference(
                kind,
                "ambiguous",
                key,
                first.name,
                a_found[0].node if a_found else None,
                b_found[0].node if b_found else None,
                rule("setting"),
                reason,
                nodes=tuple(item.node for item in (*a_found, *b_found)),
            )
        )

    # -- comparing pairs ------------------------------------------------------------------

    def _pairs(self, kind: ItemKind, paired: Paired, a_tr: Translator, b_tr: Translator) -> None:
        rights = _in_b_order(paired.pairs, b_tr) if kind == "profile" else []
        for n, (a_item, b_item, how) in enumerate(paired.pairs):
            if kind == "profile":
                assert a_item.record is not None
                left, right = a_tr.profile(a_item.record), rights[n]
                rights[n] = None  # let it go once compared
            elif kind == "channel":
                left, right = a_tr.channel(a_item.raw), b_tr.channel(b_item.raw)
            else:
                left, right = a_tr.partner(a_item.raw), b_tr.partner(b_item.raw)
            if type(left) is type(right) and left == right:
                continue  # most pairs: no walk to make
            changes = Walk(is_secret_name).compare_differing(left, right).changes
            if not changes:
                continue
            if how == "manual":  # a rename the mapping file states: its key is no difference
                renamed = set(self.rules.keys[kind])
                changes = [c for c in changes if c.path not in renamed]
            fields = self._fields(kind, b_item, changes)
            if fields:
                self.differences.append(_difference(kind, a_item, b_item, how, fields))

    def _fields(
        self, kind: ItemKind, b_item: Item, changes: Iterable[FieldChange]
    ) -> list[FieldDiff]:
        found = []
        rules = self.rules
        for change in changes:
            if rules.ignores(kind, change.path, change.name) or (
                change.old is not ABSENT
                and change.new is not ABSENT
                and rules.same_after_substitution(change.old, change.new)
            ):
                self.ignored += 1
                continue
            if _same_text(change.old, change.new):
                continue  # one text in two Unicode forms: the same name (`composed`)
            wired = isinstance(change.old, Ref) or isinstance(change.new, Ref)
            if wired:
                severity = rule("rewired")
                # an arrow: a channel's key holds ` / ` itself
                reason = f"wired differently: {_said(change.old)} -> {_said(change.new)}"
            else:
                severity, reason = field_severity(change, kind, lambda: self._users(kind, b_item))
                if change.secret and severity != "cosmetic":
                    reason = f"a secret changed ({change.name}; values masked)"
            found.append(
                FieldDiff(
                    json_path(change.path),
                    shown(change.old, change.secret),
                    shown(change.new, change.secret),
                    severity,
                    with_presence(reason, change) or "cosmetic",
                    wired,
                    change.secret,
                )
            )
        return found

    def _users(self, kind: ItemKind, item: Item) -> str:
        """The active profiles in B using a channel or partner, or the profile itself."""
        if kind == "profile":
            return str(item.record.key) if item.record is not None and item.active else ""
        users = self.b_users.get(kind)
        if users is None:
            users = self.b_users[kind] = Users(self.b.records, kind)
        keys = [str(r.key) for r in users.of(item.node) if r.active]
        return ", ".join(keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


def _in_b_order(pairs: Sequence[tuple[Item, Item, Any]], b_tr: Translator) -> list[Any]:
    """The translated JSON of each pair's profile of B, translated in B's listing order,
    not the pairs' (A's): the same work, but reading B's profiles where they lie one after
    the other in memory (a test installation's listing is another order: at 100k
    profiles, 0.4 s less; issue 45)."""
    rights: list[Any] = [None] * len(pairs)
    records = [b_item.record for _, b_item, _ in pairs]
    for n in sorted(range(len(pairs)), key=lambda n: _position(records[n])):
        record = records[n]
        assert record is not None
        rights[n] = b_tr.profile(record)
    return rights


def _position(record: ProfileRecord | None) -> int:
    return record.index if record is not None else -1


def _difference(
    kind: ItemKind, a_item: Item, b_item: Item, how: Any, fields: list[FieldDiff]
) -> Difference:
    worst = min(fields, key=lambda f: SEVERITIES.index(f.severity))
    if any(f.path == "$.active" for f in fields):
        status: Any = "active-differs"
    elif any(f.wired for f in fields):
        status = "wired-differently"
    else:
        status = "changed"
    reasons = list(dict.fromkeys(f.reason for f in fields if f.severity == worst.severity))
    return Difference(
        kind,
        status,
        a_item.key,
        a_item.name,
        a_item.node,
        b_item.node,
        worst.severity,
        "; ".join(reasons[:3]) + (f"; and {len(reasons) - 3} more" if len(reasons) > 3 else ""),
        tuple(fields),
        how,
    )


def _faulty_note(name: str, estate: Estate) -> str:
    """What a reader must know of an installation's faulty profiles (as the diff says it
    of a snapshot): compared as received, the channels they hold read nowhere else."""
    ids = [
        f"#{problem.index}" if problem.profile_id is None else str(problem.profile_id)
        for problem in estate.problems[:5]
    ]
    more = len(estate.problems) - len(ids)
    named = ", ".join(ids) + (f" and {more:,} more" if more > 0 else "")
    holding = "it holds" if len(estate.problems) == 1 else "they hold"
    return (
        f"{name} has {plural(len(estate.problems), 'faulty profile')} ({named}), compared "
        f"as received: the channels and partners {holding} are not matched"
    )


def _same_text(a: Any, b: Any) -> bool:
    return type(a) is str and type(b) is str and composed(a) == composed(b)


def _said(value: Any) -> str:
    if value is ABSENT:
        return "(none)"
    return str(value) if isinstance(value, Ref) else "(content)"


def _known(
    differences: list[Difference], rules: Rules, on: dt.date, names: tuple[str, str]
) -> tuple[list[Difference], list[tuple[Difference, Suppression]], list[str]]:
    """Split off the differences a known-difference rule hides; an expired rule's
    difference stays, marked, and a note says so; a rule that matched nothing is a note."""
    kept: list[Difference] = []
    known: list[tuple[Difference, Suppression]] = []
    used: set[int] = set()
    for difference in differences:
        found = rules.known_for(difference)
        if found is None:
            kept.append(difference)
            continue
        used.add(id(found))
        if found.expired(on):
            said = f"known difference expired on {found.expires}: {found.reason}"
            kept.append(_with_expired(difference, said))
        else:
            known.append((difference, found))
    notes = [
        f"known difference {one.item!r} ({one.code}) expired on {one.expires}: "
        f"{one.reason}; it shows again"
        for one in rules.known
        if id(one) in used and one.expired(on)
    ]
    notes += [
        f"known difference {one.item!r} ({one.code}) matches nothing between "
        f"{names[0]} and {names[1]}: remove it?"
        for one in rules.known
        if id(one) not in used
    ]
    return kept, known, notes


def _with_expired(difference: Difference, said: str) -> Difference:
    return replace(difference, expired=said)


def _order(d: Difference) -> tuple[int, int, int, str]:
    return (
        SEVERITIES.index(d.severity),
        KINDS.index(d.kind),
        STATUSES.index(d.status),
        d.key_text,
    )
