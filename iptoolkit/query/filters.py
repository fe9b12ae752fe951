"""Applying a `Filter` (`core/selection.py` says what each field means): `subset`, and the
matching the Explorer's facets and the MCP tools read.

Selecting reads the estate's records: each field's look-up table (lower-cased tokens ->
positions) is built from them the first time a filter uses that field, and cached on the
estate, so a first filter costs a few milliseconds and later ones less.

A faulty profile is matched by what its record could read of it (raw group, tags, agent
type, the `active` rule, its own text), as a valid one is; what it cannot answer (the
channel fields, for its channels are not read; a field whose value has the wrong type)
leaves it out, and `unjudged` says which profiles that was and for which fields, so that
every front end reports them rather than drop them in silence.

>>> Filter(partners=["Acme"], active=True).describe()
'partner Acme; active'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.indexed import Indexed
from ..core.nodes import endpoint, partner_of, type_of
from ..core.selection import Filter
from ..models import field_value, gc_paused
from ..support.names import (
    did_you_mean,
    names_started,
    normalise_type,
    plural,
    strip_kind,
    type_aliases,
    type_label,
)

if TYPE_CHECKING:
    from ..core.records import ChannelKey

__all__ = [
    "Filter",
    "Matches",
    "CHANNEL_FIELDS",
    "select",
    "field_matches",
    "use_owners",
    "subset",
    "unmatched",
    "unjudged",
    "unjudged_note",
    "UnjudgedProfilesWarning",
    "UnmatchedFilterWarning",
    "unmatched_note",
    "known_values",
    "started_names",
    "completed",
]

CHANNEL_FIELDS = ("channel_types", "partners", "channels")
"""The fields a channel is matched by: set together, one channel must match them all."""

E = TypeVar("E", bound=Indexed)
T = TypeVar("T")
"""An estate (any `Indexed`): a subset is of the same type."""
_WILDCARD = re.compile(r"[*?\[]")
Table = dict[str, set[int]]
"""A lower-cased token -> the positions (in `estate.records`) of the profiles that have it."""


@dataclass(frozen=True)
class Matches:
    """What each field of a filter allows on its own: profile positions for the fields of
    the profile (`fields`), channel uses for the channel fields (`uses`: ids of the uses,
    in the order of `records[i].uses` over the records; `owners[use]` is its profile).

    `select` keeps the profiles every profile field allows that have one use every channel
    field allows; facets count the same way, leaving one field out. The sets may be the
    look-up tables' own: read them, never change them."""

    fields: dict[str, set[int]]
    uses: dict[str, set[int]]
    owners: list[int]

    def __bool__(self) -> bool:
        return bool(self.fields or self.uses)

    def profile_fields(self, leave_out: str | None = None) -> set[int] | None:
        """Positions every profile field (but `leave_out`) allows; None: no such field."""
        return _intersection(found for name, found in self.fields.items() if name != leave_out)

    def channel_uses(self, leave_out: str | None = None) -> set[int] | None:
        """Uses every channel field (but `leave_out`) allows; None: no such field."""
        return _intersection(found for name, found in self.uses.items() if name != leave_out)

    def profiles(self, leave_out: str | None = None) -> set[int] | None:
        """Positions of the profiles every field (but `leave_out`) allows; None when no
        field constrains them."""
        sets = [found for name, found in self.fields.items() if name != leave_out]
        uses = self.channel_uses(leave_out)
        if uses is not None:
            sets.append(self.owners_of(uses))
        return _intersection(sets)

    def owners_of(self, uses: Iterable[int]) -> set[int]:
        """The positions of the profiles these uses belong to."""
        owners = self.owners
        return {owners[use] for use in uses}

    def left_out(self, estate: Indexed) -> list[tuple[int, tuple[str, ...]]]:
        """(position, fields) of each faulty profile of `estate` that no field refuses but
        some field cannot judge: left out of the selection for want of an answer, not for
        a no. (A faulty profile has no channel uses, so a channel field allows it only by
        not judging it.) Asked here, not of every match: the facets match value by value."""
        if not estate.problems:
            return []
        order = list(Filter.model_fields)
        names = sorted([*self.fields, *self.uses], key=order.index)  # as the filter says them
        unjudged = {name: _unjudged(estate, name, self.fields.get(name)) for name in names}
        maybe = set().union(*unjudged.values())
        found = []
        for position in sorted(maybe):
            unknown = tuple(n for n in names if position in unjudged[n])
            if all(n in unknown or position in self.fields.get(n, ()) for n in names):
                found.append((position, unknown))
        return found


def _intersection(sets: Iterable[set[int]]) -> set[int] | None:
    """The members every set holds; None when there is no set (no constraint)."""
    found: set[int] | None = None
    for members in sorted(sets, key=len):  # smallest first: each step shrinks the rest
        found = set(members) if found is None else found & members
    return found


def select(estate: Indexed, selection: Filter) -> list[int]:
    """The positions in `estate.records` (and `raw_profiles`) of the profiles the filter
    selects, in order. A faulty profile is selected when what could be read of it matches
    (the module's docstring); `unjudged` names those a field could not judge."""
    if selection.is_empty():
        return list(range(len(estate.records)))
    chosen = field_matches(estate, selection).profiles()
    if chosen is None:
        return list(range(len(estate.records)))
    return sorted(chosen)


def field_matches(estate: Indexed, selection: Filter) -> Matches:
    """What each field the filter sets allows on its own (see `Matches`)."""
    fields: dict[str, set[int]] = {}
    uses: dict[str, set[int]] = {}
    for name, found in _matches(estate, selection):
        (uses if name in CHANNEL_FIELDS else fields)[name] = found
    return Matches(fields, uses, use_owners(estate) if uses else [])


class UnjudgedProfilesWarning(UserWarning):
    """`Estate.subset` left out faulty profiles its filter could not judge (`unjudged`):
    a notebook shows it; `warnings.simplefilter("ignore", UnjudgedProfilesWarning)`
    silences it where that is known."""


class UnmatchedFilterWarning(UserWarning):
    """`Estate.subset` was given a filter value that matches no profile (`unmatched`): a
    misspelt partner would otherwise give an empty estate, or a smaller one, with no hint
    in a notebook. A warning, not an error: an empty selection can be what was meant
    (`warnings.simplefilter("ignore", UnmatchedFilterWarning)` says so)."""


def unmatched_note(estate: Indexed, missing: list[tuple[str, Any, str]]) -> str:
    """`unmatched`'s answer in one line: `partners='Mosel Retial' (did you mean 'Mosel
    Retail'?) matches none of the 300 profiles`."""
    said = "; ".join(f"{field}={value!r}{hint}" for field, value, hint in missing)
    verb = "matches" if len(missing) == 1 else "match"
    return f"{said} {verb} none of the {len(estate.records):,} profiles"


def unjudged(estate: Indexed, selection: Filter) -> list[tuple[int, tuple[str, ...]]]:
    """(position, fields) of each faulty profile the filter leaves out only because those
    of its fields could not judge it: partners, channels or channel types (a faulty
    profile's channels are not read), a group, tags or agent whose value has the wrong
    type, text found nowhere it could be read. What the command line, the MCP tools and
    the Explorer tell, so that no faulty profile goes missing unsaid."""
    if selection.is_empty() or not estate.problems:
        return []
    return field_matches(estate, selection).left_out(estate)


def unjudged_note(
    estate: Indexed,
    left: list[tuple[int, tuple[str, ...]]],
    said: Callable[[str], str] = str,
    *,
    listed: int = 5,
) -> str:
    """`unjudged`'s answer in one line: `3 faulty profiles could not be matched against
    partners and are left out: P4, P5, P6` (`said` names a field: the command line says
    `--partner`), the first `listed` profiles by key, the rest counted."""
    fields = dict.fromkeys(name for _, names in left for name in names)
    keys = [estate.records[position].key for position, _ in left]
    shown = ", ".join(keys[:listed]) + (
        f" and {len(keys) - listed:,} more" if len(keys) > listed else ""
    )
    verb = "is" if len(keys) == 1 else "are"
    against = " and ".join(said(name) for name in fields)
    return (
        f"{plural(len(keys), 'faulty profile')} could not be matched against {against} "
        f"and {verb} left out: {shown}"
    )


def _unjudged(estate: Indexed, name: str, allowed: set[int] | None) -> set[int]:
    """The faulty profiles field `name` cannot judge (`allowed`: what it selects)."""
    records = estate.records
    faulty = [(problem.index, records[problem.index]) for problem in estate.problems]
    if not faulty or name == "active":  # the one rule answers for every profile
        return set()
    if name in CHANNEL_FIELDS:
        return {position for position, _ in faulty}
    if name == "text":  # found in what could be read: yes; else perhaps in its channels
        return {position for position, _ in faulty if position not in (allowed or ())}
    key = {"groups": "group", "tags": "tags", "agent_types": "inputAgentSettings"}[name]
    expected = dict if name == "agent_types" else str
    found = set()
    for position, record in faulty:
        value = record.raw.get(key) if isinstance(record.raw, dict) else ...
        unread = value is ... or (value is not None and not isinstance(value, expected))
        if unread or (name == "agent_types" and value is not None and not record.agent_type):
            found.add(position)
    return found


def use_owners(estate: Indexed) -> list[int]:
    """Use id -> the position of its profile (see `Matches`), made once per estate."""
    return _table(estate, "use_owners", _use_owners)


def subset(estate: E, selection: Filter) -> E:
    """A new estate with the selected profiles, whole and unchanged (nothing re-parsed,
    nothing re-walked: it shares the parent's records).

    Its channels and partners are those the selected profiles use, with the content this
    estate knows. The snapshot header records the filters applied (`info.extra["filters"]`)
    unless the filter is empty.
    """
    chosen = select(estate, selection)
    extra = dict(estate.info.extra)
    if not selection.is_empty():
        extra["filters"] = [
            *extra.get("filters", []),
            selection.model_dump(exclude_defaults=True),
        ]
    return estate.take(chosen, info=dataclasses.replace(estate.info, extra=extra))


# -- look-up tables, one per field, built from the records on first use ----------------------


def _table(estate: Indexed, name: str, build: Callable[[Indexed], T]) -> T:
    def built(e: Indexed) -> T:
        with gc_paused():
            return build(e)

    return estate.derived(f"filters.{name}", built)


def _agent_types(estate: Indexed) -> Table:
    table: Table = {}
    for position, record in enumerate(estate.records):
        for alias in type_aliases(record.agent_type):
            table.setdefault(alias, set()).add(position)
    return table


def _groups(estate: Indexed) -> Table:
    table: Table = {}
    for position, record in enumerate(estate.records):
        if record.group:
            table.setdefault(record.group.strip("/").lower(), set()).add(position)
    return table


def _tags(estate: Indexed) -> Table:
    table: Table = {}
    for position, record in enumerate(estate.records):
        for tag in record.tags:
            table.setdefault(tag.lower(), set()).add(position)
    return table


def _active(estate: Indexed) -> set[int]:
    """Every profile `is_active` calls active (its record's flag), faulty ones too: the
    count `summary` gives."""
    return {position for position, record in enumerate(estate.records) if record.active}


@dataclass(frozen=True, slots=True)
class _ChannelFacts:
    """What filters match of one channel: type aliases, names, partner tokens, text."""

    types: tuple[str, ...]
    channels: tuple[str, ...]
    partners: tuple[str, ...]
    text: str
    """Lower-cased: names, hosts, URLs, topics of the channel and its partner's name."""


def _channel_facts(estate: Indexed) -> dict[ChannelKey, _ChannelFacts]:
    """Facts of every channel in the registry (conflicting copies: `_use_facts`)."""
    return {key: _facts_of(channel) for key, channel in estate.channels.items()}


def _facts_of(channel: Any) -> _ChannelFacts:
    name = field_value(channel, "name")
    words = [name, *_endpoint_words(channel)]
    partners: list[str | None] = []
    pkey, partner = partner_of(channel)
    if pkey is not None:
        partner_name = field_value(partner, "name")
        partners = [_token(pkey), _token(field_value(partner, "id")), _token(partner_name)]
        words.append(partner_name)
    return _ChannelFacts(
        type_aliases(type_of(channel)),
        tuple(token for token in [_token(name)] if token),
        tuple(token for token in dict.fromkeys(partners) if token),
        "\n".join(str(word) for word in words if word).lower(),
    )


def _use_facts(estate: Indexed) -> list[list[_ChannelFacts]]:
    """For each record, the facts of the channels it uses: its own copy of what it holds
    (conflicting copies differ), the registry's for what it names."""
    registry = _table(estate, "channel_facts", _channel_facts)
    conflicted = estate.conflicted
    result: list[list[_ChannelFacts]] = []
    for record in estate.records:
        facts = []
        for use in record.uses:
            if use.held is not None and ("channel", use.key) in conflicted:
                facts.append(_facts_of(use.held))
            elif use.key in registry:
                facts.append(registry[use.key])
        result.append(facts)
    return result


def _use_owners(estate: Indexed) -> list[int]:
    """Use id -> the position of its profile: the uses of every record, in order."""
    owners: list[int] = []
    for position, record in enumerate(estate.records):
        owners.extend([position] * len(record.uses))
    return owners


def _channel_table(field: str) -> Callable[[Indexed], Table]:
    """token -> the uses (ids, see `Matches`) of channels with that token in `field`: each
    use is one channel of one profile, so fields set together meet on one channel."""

    def build(estate: Indexed) -> Table:
        table: Table = {}
        registry = _table(estate, "channel_facts", _channel_facts)
        conflicted = estate.conflicted
        use_id = 0
        for record in estate.records:
            for use in record.uses:
                if record.ok:
                    tokens: set[str] = set()
                    if field == "channels" and (token := _token(use.key)):
                        tokens.add(token)
                    if use.held is not None and ("channel", use.key) in conflicted:
                        fact: _ChannelFacts | None = _facts_of(use.held)
                    else:
                        fact = registry.get(use.key)
                    if fact is not None:
                        tokens.update(getattr(fact, field))
                    for token in tokens:
                        table.setdefault(token, set()).add(use_id)
                use_id += 1
        return table

    return build


def _texts(estate: Indexed) -> list[str]:
    """Per record, the lower-cased text of the profile itself that a `text` filter searches;
    the text of its channels and partners is searched once per channel (`_text_matches`)."""
    texts = []
    for record in estate.records:
        words: list[Any] = [record.id, record.name, record.description, record.group]
        words.extend(record.tags)
        if not record.ok:  # what could be read of it: no agent, units nor channels
            texts.append("\n".join(str(word) for word in words if word).lower())
            continue
        where = record.agent_endpoint
        words += [where.host, where.url, where.topic]
        words.append(record.agent_name)
        for where in record.response_endpoints:
            words += [where.host, where.url, where.topic]
        words.extend(record.response_targets)
        texts.append("\n".join(str(word) for word in words if word).lower())
    return texts


def _distinct_facts(estate: Indexed) -> dict[int, _ChannelFacts]:
    uses = _table(estate, "use_facts", _use_facts)
    return {id(fact): fact for facts in uses for fact in facts}


def _text_matches(estate: Indexed, words: list[str]) -> set[int]:
    """Positions of the profiles in whose own text, or in the text of whose channels and
    partners, every word occurs."""
    texts = _table(estate, "texts", _texts)
    uses = _table(estate, "use_facts", _use_facts)
    facts = _table(estate, "distinct_facts", _distinct_facts)
    found = {position for position, text in enumerate(texts) if text}
    for word in words:
        in_channels = {ident for ident, fact in facts.items() if word in fact.text}
        found = {
            position
            for position in found
            if word in texts[position] or any(id(fact) in in_channels for fact in uses[position])
        }
        if not found:
            break
    return found


def _endpoint_words(model: Any) -> list[str | None]:
    where = endpoint(model)
    return [where.host, where.url, where.topic]


def _token(value: Any) -> str | None:
    if value is None or isinstance(value, bool | dict | list):
        return None
    return str(value).strip().lower() or None


_CHANNEL_TYPES = _channel_table("types")
_CHANNELS = _channel_table("channels")
_PARTNERS = _channel_table("partners")


def _matches(estate: Indexed, selection: Filter) -> Iterable[tuple[str, set[int]]]:
    """For each field the filter sets, its name and the positions it allows."""
    if selection.agent_types:
        table = _table(estate, "agent_types", _agent_types)
        yield "agent_types", _lookup(table, (normalise_type(v) for v in selection.agent_types))
    if selection.channel_types:
        table = _table(estate, "channel_types", _CHANNEL_TYPES)
        yield "channel_types", _lookup(table, (normalise_type(v) for v in selection.channel_types))
    if selection.partners:
        table = _table(estate, "partners", _PARTNERS)
        tokens = (_named(estate, table, "partners", v) for v in selection.partners)
        yield "partners", _lookup(table, tokens)
    if selection.channels:
        table = _table(estate, "channels", _CHANNELS)
        tokens = (_named(estate, table, "channels", v) for v in selection.channels)
        yield "channels", _lookup(table, tokens)
    if selection.groups:
        yield "groups", _patterns(_table(estate, "groups", _groups), selection.groups, subtree=True)
    if selection.tags:
        yield "tags", _patterns(_table(estate, "tags", _tags), selection.tags, subtree=False)
    if selection.active is not None:
        active = _table(estate, "active", _active)
        everyone = set(range(len(estate.records)))
        yield "active", active if selection.active else everyone - active
    if selection.text:
        yield "text", _text_matches(estate, selection.text.lower().split())


def _named(estate: Indexed, table: Table, field: str, value: Any) -> str | None:
    """The token a partner or channel value looks up: itself (an id, a node id, a name),
    or when the table has no such token, the name it is the first words of, if it is of
    one name only (`Mosel Retail` for `Mosel Retail GmbH & Co. KG`)."""
    token = _token(strip_kind(value, field[:-1]))
    if token is None or token in table:
        return token
    started = started_names(estate, field, token)
    return _token(started[0]) if len(started) == 1 else None


def completed(estate: Indexed, selection: Filter) -> list[tuple[str, Any, str]]:
    """(field, value, name) of each partner or channel value that selects by the start of
    a name (`_named`): what to tell whoever typed it, since they did not type that name."""
    found = []
    for field, table in (("partners", _PARTNERS), ("channels", _CHANNELS)):
        for value in getattr(selection, field):
            token = _token(strip_kind(value, field[:-1]))
            if token is not None and token not in _table(estate, field, table):
                started = started_names(estate, field, token)
                if len(started) == 1:
                    found.append((field, value, started[0]))
    return found


def started_names(estate: Indexed, field: str, value: Any) -> list[str]:
    """The names of the estate's partners or channels (`field`) that `value` is the first
    words of (`names.starts_name`): one is what a filter value selects when no partner or
    channel has it as its id or name; several are what it could be."""
    names = _table(estate, f"{field}_names", _registry_names(field))
    return names_started(strip_kind(value, field[:-1]), names)


def _registry_names(field: str) -> Callable[[Indexed], list[str]]:
    def build(estate: Indexed) -> list[str]:
        registry = estate.partners if field == "partners" else estate.channels
        names = (field_value(model, "name") for model in registry.values())
        return sorted({name for name in names if isinstance(name, str) and name.strip()})

    return build


def _lookup(table: dict[str, set[int]], tokens: Iterable[str | None]) -> set[int]:
    found: set[int] = set()
    for token in tokens:
        if token:
            found |= table.get(token, set())
    return found


def _patterns(table: dict[str, set[int]], patterns: list[str], *, subtree: bool) -> set[int]:
    found: set[int] = set()
    for raw in patterns:
        pattern = raw.strip().strip("/").lower() if subtree else raw.strip().lower()
        if not pattern:
            continue
        if _WILDCARD.search(pattern):
            for value, positions in table.items():
                if fnmatchcase(value, pattern):
                    found |= positions
        elif not subtree:
            found |= table.get(pattern, set())
        else:
            prefix = pattern + "/"
            for value, positions in table.items():
                if value == pattern or value.startswith(prefix):
                    found |= positions
    return found


# -- what matched nothing, and what was meant ----------------------------------------------

LIST_FIELDS = ("partners", "channels", "agent_types", "channel_types", "groups", "tags")
_LISTED = 5
"""The names a value that starts several is said to possibly be; the rest are counted."""


def unmatched(estate: Indexed, selection: Filter) -> list[tuple[str, Any, str]]:
    """(field, value, hint) of each value that on its own selects no profile of the estate:
    what a filter that selects nothing got wrong, with what was perhaps meant (`hint`:
    ` (did you mean 'Acme'?)`, ` (could be 'Mosel Retail' or 'Mosel Tools')` for the start
    of several names, or nothing). Empty when every value matches some profiles (then
    only their combination selects none)."""
    missing: list[tuple[str, Any]] = []
    for field in LIST_FIELDS:
        for value in getattr(selection, field):
            if not select(estate, Filter(**{field: [value]})):
                missing.append((field, value))
    if selection.active is not None and not select(estate, Filter(active=selection.active)):
        missing.append(("active", selection.active))
    if selection.text and not select(estate, Filter(text=selection.text)):
        missing.append(("text", selection.text))
    return [(field, value, _hint(estate, field, value)) for field, value in missing]


def _hint(estate: Indexed, field: str, value: Any) -> str:
    """What a value that selects nothing perhaps meant: the names it is the start of,
    when it is of several (` (could be 'Mosel Retail GmbH' or 'Mosel Retail AG')`), else
    the close ones."""
    if field not in LIST_FIELDS:
        return ""
    if field in ("partners", "channels"):
        started = started_names(estate, field, value)
        if len(started) > 1:
            said = [repr(name) for name in started[:_LISTED]]
            if len(started) > _LISTED:
                said.append(f"{len(started) - _LISTED:,} more")
            return f" (could be {' or '.join(said)})"
    return did_you_mean(value, known_values(estate, field))


def known_values(estate: Indexed, field: str) -> list[str]:
    """The values a filter field could take in this estate, as people spell them: partner
    and channel names and ids, groups (and their parents), type names and labels, tags."""
    records = estate.records  # a faulty profile's readable group, type, tags: filters match them
    values: list[Any] = []
    if field in ("partners", "channels"):
        registry = estate.partners if field == "partners" else estate.channels
        for key, model in registry.items():
            values += [field_value(model, "name"), key]
    elif field == "agent_types":
        for name in {record.agent_type for record in records}:
            values += [name, type_label(name)]
    elif field == "channel_types":
        for name in {type_of(channel) for channel in estate.channels.values()}:
            values += [name, type_label(name)]
    elif field == "groups":
        for group in {record.group.strip("/") for record in records if record.group}:
            parts = group.split("/")
            values += ["/".join(parts[: n + 1]) for n in range(len(parts))]
    elif field == "tags":
        values = [tag for record in records for tag in record.tags]
    return [str(value) for value in dict.fromkeys(values) if value]
