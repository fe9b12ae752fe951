"""The estates an MCP server answers from: snapshots loaded once, and a live one refreshed.

Everything a tool needs beyond the estate itself (its graph, the index of ids and names, the
findings, the filters' tables) is worked out when a snapshot is loaded, not on the first
question, so each answer costs index look-ups. The newest snapshot (by the header's fetch
time; one without a time is older than any with one, and of equal times the one named
last wins) is *current*: tools answer from it unless asked for another by name.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.selection import Filter
from ..query.resolve import ID_KINDS, ItemIndex
from ..support.names import did_you_mean

if TYPE_CHECKING:
    from ..archive import Archive
    from ..auditing import Findings
    from ..change import EstateDiff
    from ..change.drift_report import SchemaReport
    from ..comparing import Comparison, Rules
    from ..core.estate import Estate
    from ..query.graph import EstateGraph

__all__ = ["ARCHIVED_KEPT", "Loaded", "Store", "LIVE", "snapshot_name"]

ARCHIVED_KEPT = 3
"""With `--archive`: how many snapshots named by a question (`archive@12`, a date) stay
loaded beside the newest two (loaded at start, always kept); past it, the least recently
asked is dropped and loaded again when named. Each holds a whole estate with its graph,
index and findings (about 190 MB for 10,000 profiles), so keeping every one named grew the
server by that much per snapshot."""

LIVE = "live"
"""The name of the estate fetched from the platform with `--from-env`."""
_WARM_FILTER = Filter(
    agent_types="-",
    channel_types="-",
    partners="-",
    channels="-",
    groups="-",
    tags="-",
    active=True,
    text="-",
)
"""A filter that sets every field, so that selecting once builds every look-up table."""


def snapshot_name(path: Path) -> str:
    """`estate-2026-11.json.gz` -> `estate-2026-11`: how tools name a snapshot."""
    name = path.name
    for suffix in (".gz", ".json"):
        name = name.removesuffix(suffix)
    return name or path.name


@dataclass(eq=False)
class Loaded:
    """One estate with what the tools derive from it, named as the tools' `snapshot`."""

    name: str
    estate: Estate
    path: Path | None = None
    stored_at: datetime | None = None
    """The archive's time of a stored snapshot (`--archive`), for one whose header names
    none: the archive stamps it when added, and `history` and `summary` say the same."""

    @property
    def fetched_at(self) -> datetime | None:
        return self.estate.info.fetched_at or self.stored_at

    @cached_property
    def graph(self) -> EstateGraph:
        from ..query.graph import build_graph

        return build_graph(self.estate)

    @cached_property
    def items(self) -> ItemIndex:
        return ItemIndex(self.graph).prepare(named=ID_KINDS)

    peers: Callable[[], list[Loaded]] = field(default=list, repr=False)
    """The snapshots loaded beside it, as the store holds them now (`Store` sets it): an id
    unknown here but known there is said to be there, not answered with close matches."""

    @property
    def others(self) -> list[Loaded]:
        return [other for other in self.peers() if other is not self]

    def resolve(self, ref: str | int) -> str:
        """The node `ref` names; assistants may name profiles by their names too."""
        return str(self.items.resolve(ref, named=ID_KINDS, elsewhere=self._elsewhere))

    def _elsewhere(self, ref: Hashable) -> str:
        """Where else `ref` names an item: "in snapshot 'monday' as channel:17 (Acme)"."""
        found, names = [], []
        for other in self.others:
            nodes = other.items.matches(ref, named=ID_KINDS)
            if nodes:
                said = " or ".join(other.items.label(node) for node in nodes)
                found.append(f"in snapshot {other.name!r} as {said}")
                names.append(other.name)
        if not found:
            return ""
        return (
            f"not in snapshot {self.name!r} but {'; '.join(found)}: removed or renamed since "
            f"(or added after); pass snapshot={names[0]!r} to ask that one, or ask diff"
        )

    @cached_property
    def findings(self) -> Findings:
        from ..auditing import findings

        return findings(self.estate)

    @cached_property
    def drift(self) -> SchemaReport:
        from ..change.drift import schema_report

        return schema_report(self.estate)

    def prepare(self) -> Loaded:
        """Work out now what the tools would otherwise derive on the first question."""
        from ..query.filters import select

        self.estate.summary()
        select(self.estate, _WARM_FILTER)
        _ = self.items, self.findings, self.drift
        return self


@dataclass
class Store:
    """The loaded estates by name; `fetch` (with `--from-env`) makes the live one. Diffs
    between two of them are kept once worked out (a lock makes one fetch or diff at a time:
    the SDK runs tools on worker threads)."""

    loaded: list[Loaded]
    fetch: Callable[[], Estate] | None = None
    archive: Archive | None = None
    """With `--archive`: any stored snapshot is served by id or date, loaded when named."""
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    rules: Rules | None = None
    """How `compare` matches and what it silences: the project's `[compare]` configuration,
    as `iptoolkit compare` reads it (None: the defaults)."""
    _diffs: dict[tuple[int, int], tuple[Loaded, Loaded, EstateDiff]] = field(
        default_factory=dict, repr=False
    )
    _comparisons: dict[tuple[int, int], tuple[Loaded, Loaded, Comparison]] = field(
        default_factory=dict, repr=False
    )
    _named: list[Loaded] = field(default_factory=list, repr=False)
    """The archive's snapshots loaded because a question named them, least recently asked
    first (at most `ARCHIVED_KEPT`)."""

    def __post_init__(self) -> None:
        self._introduce()

    def _introduce(self) -> None:
        """Tell each loaded estate where the others are (`Loaded.others`)."""
        for item in self.loaded:
            item.peers = self._peers

    def _peers(self) -> list[Loaded]:
        return list(self.loaded)

    @classmethod
    def from_paths(
        cls,
        paths: Sequence[Path],
        *,
        fetch: Callable[[], Estate] | None = None,
        archive: Archive | None = None,
        rules: Rules | None = None,
    ) -> Store:
        """Load each snapshot once (and fetch the live estate when `fetch` is given); with
        an `archive`, its newest snapshot and the one before it too (the others when
        named)."""
        from ..core.estate import load

        names: set[str] = set()
        loaded: list[Loaded] = []
        for path in paths:
            name = snapshot_name(path)
            if name in names:  # two files of one name in different folders
                name = f"{name}-{len(loaded) + 1}"
            names.add(name)
            loaded.append(Loaded(name, load(path), path).prepare())
        store = cls(loaded, fetch, archive, rules=rules)
        if archive is not None:
            for at in archive.snapshots.snapshot_id.iloc[-2:]:
                store.loaded.append(store.archived(int(at)))
            store._introduce()
        if fetch is not None:
            store.refresh()
        if not store.loaded:
            raise ValueError("nothing to serve: name a snapshot file, or fetch with --from-env")
        store.prepare_diff()
        return store

    def prepare_diff(self) -> None:
        """Work out the diff the `diff` tool answers first: the current estate against the
        one before it (a diff takes up to a second; the others are worked out when asked)."""
        previous = self.before(self.current)
        if previous is not None:
            self.diff(previous, self.current)

    @property
    def names(self) -> list[str]:
        return [item.name for item in self.loaded]

    @property
    def ordered(self) -> list[Loaded]:
        """Oldest first, by fetch time; of equal times (or none), in the order named."""
        oldest = datetime.min.replace(tzinfo=UTC)
        ranked = sorted(
            (_aware(item.fetched_at) or oldest, n) for n, item in enumerate(self.loaded)
        )
        return [self.loaded[n] for _, n in ranked]

    @property
    def current(self) -> Loaded:
        """The newest estate: the latest fetch time; of equal times, the last named."""
        return self.ordered[-1]

    def before(self, item: Loaded) -> Loaded | None:
        """The snapshot just older than `item` (None for the oldest)."""
        ordered = self.ordered
        position = ordered.index(item)
        return ordered[position - 1] if position else None

    def diff(self, old: Loaded, new: Loaded) -> EstateDiff:
        """`ipt.diff` of two loaded estates, worked out once per pair."""
        from ..change.diff import diff

        key = (id(old), id(new))  # the entry holds both: their ids stay theirs
        with self._lock:
            if key not in self._diffs:
                self._diffs[key] = (old, new, diff(old.estate, new.estate))
            return self._diffs[key][2]

    def comparison(self, a: Loaded, b: Loaded) -> Comparison:
        """`ipt.compare` of two loaded installations by the store's rules, worked out once
        per pair (a page of the answer is a slice of it)."""
        from ..comparing import Rules
        from ..comparing.mapping import compare_configured

        key = (id(a), id(b))  # the entry holds both: their ids stay theirs
        with self._lock:
            if key not in self._comparisons:
                found = compare_configured(
                    a.estate, b.estate, self.rules or Rules(), (a.name, b.name)
                )
                self._comparisons[key] = (a, b, found)
            return self._comparisons[key][2]

    def get(self, name: str | None = None) -> Loaded:
        """The estate named `name` (the current one when None); unknown names suggest."""
        if name is None or not name.strip():
            return self.current
        wanted = name.strip()
        for item in self.loaded:
            if wanted in (item.name, str(item.path or ""), getattr(item.path, "name", None)):
                return self._used(item)
        if self.archive is not None:
            return self._from_archive(wanted)
        hint = did_you_mean(wanted, self.names) or f" (the snapshots: {', '.join(self.names)})"
        raise ValueError(f"no snapshot named {wanted!r}{hint}")

    def archived(self, snapshot_id: int) -> Loaded:
        """The archive's snapshot `snapshot_id`, named `archive@<id>`, prepared."""
        assert self.archive is not None
        name = f"archive@{snapshot_id}"
        for item in self.loaded:
            if item.name == name:
                return item
        estate = self.archive.estate(snapshot_id)
        stored_at = None
        if estate.info.fetched_at is None:
            rows = self.archive.snapshots
            times = rows.fetched_at[rows.snapshot_id == snapshot_id]
            stored_at = times.iloc[0].to_pydatetime() if len(times) else None
        return Loaded(name, estate, stored_at=stored_at).prepare()

    def _from_archive(self, wanted: str) -> Loaded:
        """A stored snapshot by `archive@<id>`, id, or date (the one fetched at or before)."""
        assert self.archive is not None
        try:
            snapshot_id = self.archive.snapshot_id(wanted.removeprefix("archive@"))
        except LookupError as exc:
            raise ValueError(f"no snapshot named {wanted!r}: {exc}") from None
        with self._lock:
            found = self.archived(snapshot_id)
            if found not in self.loaded:
                self.loaded.append(found)
                self._named.append(found)
                self._introduce()
                if len(self._named) > ARCHIVED_KEPT:
                    self._drop(self._named[0])
        return self._used(found)

    def _used(self, item: Loaded) -> Loaded:
        """`item`, marked as just asked for (an archive's snapshot named by a question)."""
        with self._lock:
            if item in self._named:
                self._named.remove(item)
                self._named.append(item)
        return item

    def _drop(self, item: Loaded) -> None:
        """Forget a loaded snapshot and the diffs worked out with it (under the lock)."""
        if item in self._named:
            self._named.remove(item)
        self.loaded = [other for other in self.loaded if other is not item]
        self._introduce()
        self._forget_diffs()

    def _forget_diffs(self) -> None:
        """Drop the diffs of snapshots no longer loaded (they hold both estates)."""
        self._diffs = {
            key: found
            for key, found in self._diffs.items()
            if all(item in self.loaded for item in found[:2])
        }

    def refresh(self) -> Loaded:
        """Fetch the live estate again and make it current; only with `--from-env`."""
        if self.fetch is None:
            raise ValueError(
                "refresh needs a platform to fetch from: start the server with --from-env"
            )
        with self._lock:  # one fetch at a time; readers keep the estate they hold
            estate = self.fetch()
            fresh = Loaded(LIVE, estate).prepare()
            self.loaded = [item for item in self.loaded if item.name != LIVE] + [fresh]
            self._introduce()
            self._forget_diffs()
        return fresh


def _aware(moment: datetime | None) -> datetime | None:
    """Naive times (a header without a zone) read as UTC, so that any two compare."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)
