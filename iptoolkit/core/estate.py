"""The estate: one snapshot's profiles, indexed once, with the channels and partners they use.

Loading is lenient: a profile that fails strict validation is kept raw in `problems` and
written back unchanged by `save`, so nothing is ever dropped silently. `strict=True` raises.
"""

from __future__ import annotations

import dataclasses
import html
import os
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from .._version import __version__
from ..models import (
    IntegrationProfile,
    Listing,
    ParseError,
    ProfileProblem,
    check_profiles,
    gc_paused,
    listing_of,
    profile_models,
    raise_first,
    read_listing,
    type_name_of,
    unwrap_profiles,
)
from ..support.names import NO_TYPE, type_label, unresolved_note
from ..support.progress import Progress, progress_scope
from ..support.redact import redact_url
from ._load_pass import LoadPass
from ._registries import Conflict, Registries
from .nodes import partner_of
from .records import (
    ChannelKey,
    ChannelModel,
    PartnerKey,
    PartnerModel,
    ProfileRecord,
    records_and_registries,
)
from .references import channel_model
from .snapshot import SnapshotInfo, SnapshotJSON, read_snapshot_json, write_snapshot

if TYPE_CHECKING:
    import pandas

    from .profile_texts import ProfileTexts
    from .selection import Filter

T = TypeVar("T")

__all__ = ["Estate", "Conflict", "load", "as_estate", "require_estate"]

FrameKind = Literal["profiles", "channels", "partners", "responses"]


class Estate:
    """Profiles of one snapshot as immutable records, with the channels and partners they
    use and what went wrong while loading (see `iptoolkit.core.records` for the rules).

    An estate never changes once built: what views derive from it (the filters' index, the
    counts) is computed once and cached on it.

    >>> estate = Estate.from_raw([{"class": "core:IntegrationProfile", "id": "P1"}])
    >>> len(estate.profiles), len(estate.problems)
    (1, 0)
    """

    records: tuple[ProfileRecord, ...]
    """One record per profile of the listing, faulty ones included, in order."""
    problems: tuple[ProfileProblem, ...]
    """The faulty profiles, numbered by their position in this estate's listing."""
    channels: Mapping[ChannelKey, ChannelModel]
    """Every channel a profile holds, by key (first content seen)."""
    partners: Mapping[PartnerKey, PartnerModel]
    """Every partner of a channel a profile uses, by key (first content seen)."""
    conflicts: tuple[Conflict, ...]
    info: SnapshotInfo
    texts: ProfileTexts | None
    """Each record's JSON text as its file holds it, when `load(keep_texts=True)` proved
    the file exactly as orjson writes it (else None): whoever needs every profile's JSON
    (the URL audit rules, the diff) reads it there instead of writing it again. It holds
    the file's text, so only the commands that audit or diff keep it (a notebook's estate
    does not)."""
    _derived: dict[str, Any]
    """What views derived from the records, by name (see `derived`)."""

    def __init__(
        self,
        raw_profiles: Sequence[Any],
        problems: Sequence[ProfileProblem] = (),
        info: SnapshotInfo | None = None,
    ) -> None:
        """Index raw profiles, of which `problems` names the faulty ones.

        Use `from_raw`, `load` or a client's `fetch_estate` rather than calling this.
        """
        with gc_paused():
            records, registries = records_and_registries(raw_profiles, problems)
        self._index(records, registries, problems, info)

    @classmethod
    def _of_records(
        cls,
        records: Sequence[ProfileRecord],
        registries: Registries,
        problems: Sequence[ProfileProblem],
        info: SnapshotInfo,
        texts: ProfileTexts | None = None,
    ) -> Estate:
        """An estate of records built already (`load`'s one pass)."""
        estate = cls.__new__(cls)
        estate._index(records, registries, problems, info, texts)
        return estate

    def _index(
        self,
        records: Sequence[ProfileRecord],
        registries: Registries,
        problems: Sequence[ProfileProblem],
        info: SnapshotInfo | None,
        texts: ProfileTexts | None = None,
    ) -> None:
        with gc_paused():
            channels, partners = _registry_models(registries)
        conflicts = registries.conflicts()
        self._assemble(records, problems, info, channels, partners, conflicts, texts)

    def _assemble(
        self,
        records: Sequence[ProfileRecord],
        problems: Sequence[ProfileProblem],
        info: SnapshotInfo | None,
        channels: dict[ChannelKey, Any],
        partners: dict[PartnerKey, Any],
        conflicts: Sequence[Conflict],
        texts: ProfileTexts | None = None,
    ) -> None:
        if texts is not None and len(texts) != len(records):
            raise ValueError(f"{len(texts)} profile texts for {len(records)} records")
        fields = {
            "records": tuple(records),
            "problems": tuple(problems),
            "info": info or SnapshotInfo(toolkit_version=__version__),
            "channels": MappingProxyType(channels),
            "partners": MappingProxyType(partners),
            "conflicts": tuple(conflicts),
            "texts": texts,
            "_derived": {},
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an Estate is immutable: cannot set {name!r}; use subset()")

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_raw(
        cls,
        data: bytes | str | list[Any] | dict[str, Any] | Listing,
        *,
        strict: bool = False,
        source_url: str | None = None,
        fetched_at: datetime | None = None,
        info: SnapshotInfo | None = None,
    ) -> Estate:
        """Build from a listing in any form `parse_profiles` accepts.

        A key given twice inside a profile's JSON makes that profile a problem (its path
        named); anywhere else it raises `ParseError`.
        """
        suspects = None
        if isinstance(data, Listing):
            items, issues, suspects = data
        elif isinstance(data, bytes | str):
            items, issues, suspects = read_listing(data)
        else:
            items, issues = unwrap_profiles(data), {}
        raw = [
            item.to_json_dict() if isinstance(item, IntegrationProfile) else item for item in items
        ]
        info = _stamped(info or SnapshotInfo(source_url=source_url, fetched_at=fetched_at))
        problems = check_profiles(raw, issues=issues, suspects=suspects)
        if strict:
            raise_first(problems)
        return cls(raw, problems, info)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write a snapshot (`.json` or `.json.gz`): every profile as received, metadata too."""
        return write_snapshot(path, self.raw_profiles, self.info)

    # -- what is derived from the records, cached -----------------------------------------

    def derived(self, name: str, build: Callable[[Estate], T]) -> T:
        """`build(self)`, computed once per estate and name: views cache their indexes here."""
        cache = self._derived
        if name not in cache:
            cache[name] = build(self)
        return cast(T, cache[name])  # what `build` made for this name

    @property
    def raw_profiles(self) -> tuple[Any, ...]:
        """Every profile exactly as received, faulty ones included, in order: the estate's
        own JSON, shared, not copied (read it; change a `copy.deepcopy` and `from_raw` it)."""
        return self.derived("raw_profiles", lambda e: tuple(r.raw for r in e.records))

    @property
    def profiles(self) -> tuple[IntegrationProfile, ...]:
        """The models of the profiles that parsed, in order (built on first use, in one
        pass, and kept: the index itself needs no model)."""
        return self.derived("profiles", _models)

    @property
    def valid_records(self) -> tuple[ProfileRecord, ...]:
        """The records of the profiles that parsed (those with a model)."""
        return self.derived("valid", lambda e: tuple(r for r in e.records if r.ok))

    @property
    def raw_index(self) -> tuple[int, ...]:
        """For each entry of `profiles`, its position in `raw_profiles`."""
        return self.derived(
            "raw_index", lambda e: tuple(i for i, r in enumerate(e.records) if r.ok)
        )

    @property
    def conflicted(self) -> frozenset[tuple[str, ChannelKey | PartnerKey]]:
        """(kind, key) of every channel and partner whose copies differ (see `conflicts`)."""
        return self.derived("conflicted", lambda e: frozenset((c.kind, c.key) for c in e.conflicts))

    @property
    def varied_channels(self) -> frozenset[ChannelKey]:
        """The keys of the channels some copy of which differs from the first: every other
        channel's copies are equal, and a reader need not compare them again (`compare`
        spent 0.3 s of 100k profiles on it). Exact for records registered whole (a load
        compares each copy with the first); a part (`take`) keeps its parent's, which
        holds its own (its conflicts name a channel only when two variants were first
        seen in it)."""
        return self.derived(
            "varied_channels",
            lambda e: frozenset(c.key for c in e.conflicts if c.kind == "channel"),
        )

    @property
    def unresolved(self) -> Mapping[ChannelKey, tuple[str, ...]]:
        """Channel ids that profiles name but no profile holds -> the profile nodes naming
        them. They are not channels: no content is known of them."""
        return self.derived("unresolved", _unresolved)

    # -- views ----------------------------------------------------------------------------

    def subset(self, selection: Filter) -> Estate:
        """A new estate with the profiles the filter selects, whole and unchanged. A faulty
        profile the filter cannot judge (its channels were not read, say) is left out with
        a warning naming it, as the command line notes it: nothing goes missing unsaid in
        a notebook (`query.filters.unjudged`; the toolkit's own views say it themselves
        and call `query.filters.subset`). So is a value that matches no profile, with what
        was perhaps meant (`UnmatchedFilterWarning`: a misspelt partner). Anything but a
        `Filter` is a `TypeError` (a dict: `ipt.Filter(**fields)` makes one)."""
        from ..query.filters import (
            UnjudgedProfilesWarning,
            UnmatchedFilterWarning,
            subset,
            unjudged,
            unjudged_note,
            unmatched,
            unmatched_note,
        )
        from .selection import Filter

        if not isinstance(selection, Filter):
            hint = " (ipt.Filter(**fields) makes one)" if isinstance(selection, dict) else ""
            given = type(selection).__name__
            raise TypeError(f"Estate.subset: selection must be an ipt.Filter{hint}, not {given}")
        left = unjudged(self, selection)
        if left:
            warnings.warn(unjudged_note(self, left), UnjudgedProfilesWarning, stacklevel=2)
        missing = unmatched(self, selection) if self.records else []
        if missing:
            warnings.warn(unmatched_note(self, missing), UnmatchedFilterWarning, stacklevel=2)
        return subset(self, selection)

    def take(self, positions: Sequence[int], *, info: SnapshotInfo | None = None) -> Estate:
        """A new estate of the records at `positions`, sharing them (nothing re-walked).

        Its channels are those the chosen profiles hold or name (content as in this
        estate), its partners theirs, its conflicts this estate's between chosen profiles.
        """
        positions = list(positions)  # read twice: records, then texts
        records = [self.records[i] for i in positions]
        with gc_paused():
            channels, partners, conflicts = _restricted(self, records)
        new_position = {record.index: n for n, record in enumerate(records)}
        problems = [
            _renumbered(record.problem, new_position[record.index])
            for record in records
            if record.problem is not None
        ]
        texts = self.texts
        if texts is not None:
            try:
                texts = texts.take(positions)
            except ValueError:  # not in the file's order: the texts are let go
                texts = None
        estate = Estate.__new__(type(self))
        estate._assemble(records, problems, info or self.info, channels, partners, conflicts, texts)
        estate._derived["varied_channels"] = self.varied_channels  # see `varied_channels`
        return estate

    def to_frame(self, kind: FrameKind = "profiles") -> pandas.DataFrame:
        """One row per profile, channel, partner or response unit."""
        from ..query.tables import to_frame

        return to_frame(self, kind)

    def summary(self) -> dict[str, Any]:
        """Counts an analyst wants first, JSON-ready; types by their canonical names; the
        source URL masked (`redact_url`: a password, a `loginToken`), since every reader
        shows it (`iptoolkit summary`, the estate's repr)."""
        return dict(self.derived("summary", _summary))

    def __len__(self) -> int:
        return len(self.records)

    def __repr__(self) -> str:
        s = self.summary()
        source = f", source={s['source_url']!r}" if s["source_url"] else ""
        return (
            f"<Estate {s['profiles']} profiles ({s['problems']} problems), "
            f"{s['channels']} channels, {s['partners']} partners{source}>"
        )

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = "".join(
            f"<tr><td>{html.escape(type_label(name) if name != NO_TYPE else name)}</td>"
            f"<td style='text-align:right'>{count}</td></tr>"
            for name, count in s["agent_types"].items()
        )
        source = html.escape(s["source_url"] or "local")
        unresolved = s["unresolved_channels"]
        return (
            "<div class='iptoolkit-estate'>"
            f"<b>Estate</b> from {source}: <b>{s['profiles']}</b> profiles "
            f"({s['active_profiles']} active, {s['problems']} problems), "
            f"<b>{s['channels']}</b> channels"
            + unresolved_note(unresolved)
            + f", <b>{s['partners']}</b> partners, {s['conflicts']} conflicts"
            "<table><thead><tr><th>input agent type</th><th>profiles</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>"
        )


def _summary(estate: Estate) -> dict[str, Any]:
    agents = Counter(record.agent_type or NO_TYPE for record in estate.records)
    channel_types = Counter(type_name_of(c) or NO_TYPE for c in estate.channels.values())
    info = estate.info
    return {
        "profiles": len(estate.records),
        "valid_profiles": len(estate.valid_records),
        "active_profiles": sum(1 for record in estate.records if record.active),
        "problems": len(estate.problems),
        "channels": len(estate.channels),
        "unresolved_channels": len(estate.unresolved),
        "partners": len(estate.partners),
        "conflicts": len(estate.conflicts),
        "agent_types": dict(agents.most_common()),
        "channel_types": dict(channel_types.most_common()),
        "source_url": redact_url(info.source_url) if info.source_url else info.source_url,
        "fetched_at": info.fetched_at.isoformat() if info.fetched_at else None,
    }


def _models(estate: Estate) -> tuple[IntegrationProfile, ...]:
    records = estate.valid_records
    missing = [record for record in records if record.built.model is None]
    built = iter(profile_models([record.raw for record in missing]))  # one model each
    models: list[IntegrationProfile] = []
    for record in records:
        model = record.built.model
        if model is None:
            model = record.built.model = next(built)
        models.append(model)
    return tuple(models)


def _unresolved(estate: Estate) -> Mapping[ChannelKey, tuple[str, ...]]:
    """Read-only, as `channels` and `partners`: kept once made, and an estate never changes."""
    named: dict[ChannelKey, dict[str, None]] = {}
    for record in estate.records:
        for use in record.uses:
            if use.role == "reference" and use.key not in estate.channels:
                named.setdefault(use.key, {})[record.node] = None
    return MappingProxyType({key: tuple(nodes) for key, nodes in named.items()})


def _registry_models(
    registries: Registries,
) -> tuple[dict[ChannelKey, Any], dict[PartnerKey, Any]]:
    """The models of the first copy of each channel and partner (a partner inside a channel
    of an unknown type stays JSON, as it does in that channel's model)."""
    channel_models = {key: channel_model(raw) for key, raw in registries.channels.items()}
    first_model = {id(registries.channels[key]): model for key, model in channel_models.items()}
    partner_models = {}
    for key in registries.partners:
        holder = registries.partner_holders[key]
        model = first_model.get(id(holder))
        partner_models[key] = partner_of(model if model is not None else channel_model(holder))[1]
    return channel_models, partner_models


def _restricted(
    parent: Estate, records: Sequence[ProfileRecord]
) -> tuple[dict[ChannelKey, Any], dict[PartnerKey, Any], list[Conflict]]:
    """The registries of a subset, read from its parent's (no model is compared again)."""
    channels: dict[ChannelKey, Any] = {}
    named: list[ChannelKey] = []
    partners: dict[PartnerKey, Any] = {}
    conflicted = parent.conflicted
    for record in records:
        for use in record.uses:
            if use.held is None:
                named.append(use.key)
            elif use.key not in channels:
                # the first copy in the subset: the parent's, unless copies differ
                if ("channel", use.key) not in conflicted:
                    channels[use.key] = parent.channels[use.key]
                    continue
                channels[use.key] = model = channel_model(use.held)
                pkey, partner = partner_of(model)
                if ("partner", pkey) in conflicted and pkey not in partners:
                    partners[pkey] = partner
        for pkey in record.partners:
            if pkey not in partners:
                partners[pkey] = parent.partners.get(pkey)
    for key in named:
        if key not in channels and key in parent.channels:
            channels[key] = parent.channels[key]
    partners = {key: value for key, value in partners.items() if value is not None}
    chosen = {record.node for record in records}
    conflicts = []
    for conflict in parent.conflicts:
        kept = [
            (variant, node)
            for variant, node in zip(conflict.variants, conflict.profiles, strict=True)
            if node in chosen
        ]
        if len(kept) > 1:
            variants, nodes = zip(*kept, strict=True)
            conflicts.append(Conflict(conflict.kind, conflict.key, variants, nodes))
    return channels, partners, conflicts


def _renumbered(problem: ProfileProblem, index: int) -> ProfileProblem:
    """A problem of the parent's listing, numbered (and its JSON paths) for a subset's."""
    return problem.renumbered(index)


def _stamped(info: SnapshotInfo) -> SnapshotInfo:
    """The info with this toolkit's version when it names none (a new value: the caller's
    info is left as it was)."""
    if info.toolkit_version:
        return info
    return dataclasses.replace(info, toolkit_version=__version__)


def load(
    path: str | os.PathLike[str],
    *,
    strict: bool = False,
    max_size: int | str | None = None,
    keep_texts: bool = False,
    progress: Progress | bool | None = None,
) -> Estate:
    """Load a snapshot file (`.json` or `.json.gz`), a bare array or any wrapped listing.

    `max_size` caps the JSON read (bytes, or `"4GiB"`); None: `IPTOOLKIT_MAX_LOAD_SIZE`,
    else 1 GiB. Past it, `ParseError` says how large the file is and how to raise the cap;
    no file there is a `ParseError` that is a `FileNotFoundError` too (`snapshot.py`).
    `keep_texts`: keep each profile's text as the estate's `texts` (see there).
    `progress`: None shows a bar in Jupyter or a terminal once the load has run 2 s
    (`support/progress.py`); True always; False never; or a `Progress` to report to.

    A file written as orjson writes it (snapshots, and listings bare or under a key of the
    top object) is proven, checked and indexed in one pass over its profiles
    (`_load_pass`); any other is read step by step, to the same estate.
    """
    with progress_scope(progress) as shown:
        shown.stage(f"Reading {Path(path).name}")
        read = LoadPass(shown)
        document = read_snapshot_json(path, max_size=max_size, texts=keep_texts, visit=read)
        return _estate_of(document, read, path, strict=strict)


def _estate_of(document: SnapshotJSON, read: LoadPass, path: Any, *, strict: bool) -> Estate:
    """The estate of a file read: from the records its one pass built, or step by step."""
    try:
        if read.proven and read.items is document.items:
            problems = check_profiles(document.items, suspects=frozenset(read.suspects))
            if strict:
                raise_first(problems)
            records = read.records.finish(problems)
            registries = read.records.registries
            info = _stamped(document.info)
            return Estate._of_records(records, registries, problems, info, document.texts)
        listing = listing_of(document.items, document.at, document.duplicates)
        return Estate.from_raw(listing, strict=strict, info=document.info)
    except ParseError as exc:
        raise ParseError(f"{path}: {exc}", issues=exc.issues) from None


def as_estate(value: Estate | str | os.PathLike[str], what: str = "estate") -> Estate:
    """An estate as it is, or the snapshot at a path loaded: the one rule for every function
    that takes either (`diff`, `schema_report`, `write_docs`, the server, the app).

    Anything else is a `TypeError` naming `what` (`"diff: old"`), so a caller learns which
    argument was wrong.
    """
    if isinstance(value, Estate):
        return value
    if isinstance(value, str | os.PathLike):
        return load(value)
    raise not_estate_or_path(value, what)


def require_estate(value: Any, what: str) -> Estate:
    """`value` if it is an Estate; else a `TypeError` naming `what` (the function) and what
    was given, for the functions that take an estate only (`build_graph`, `audit`): not an
    `AttributeError` from deep inside. A path is pointed to `ipt.load`."""
    if isinstance(value, Estate):
        return value
    hint = " (ipt.load(path) reads a snapshot)" if isinstance(value, str | os.PathLike) else ""
    raise TypeError(f"{what}: estate must be an Estate{hint}, not {type(value).__name__}")


def not_estate_or_path(value: Any, what: str) -> TypeError:
    """The error `as_estate` raises for anything but an estate or a path, naming `what`
    (also for a caller that reads the path itself, as the archive does)."""
    return TypeError(f"{what} must be an Estate or a snapshot path, not {type(value).__name__}")
