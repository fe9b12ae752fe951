"""An archive as a timeline for the map (issue 43): its snapshots, each one's estate and
its changes since the snapshot before, and an item's history.

What the Explorer's timeline (`widgets/timeline.py`) and the app read, without a widget.
The changes are the ones the archive stored when it added each snapshot (`ipt.diff` of
the pair, `archive/history.py`), so a step costs no diff. The snapshots are read with
their versions shared (`archive/shared_reads.py`): a read after another parses only the
profiles the days between changed, and the estates share the rest, so a timeline keeps
many read (`KEPT_PROFILES`: all 20 of 10,000 profiles, two of 100,000). A moment's map of
change (`marked_map`) is the union of its two snapshots made from the newer one's graph
and the profiles that differ (`topology/shared_union.py`): no graph is kept but the
Explorer's own (`hold`), and the maps of the moment shown and its neighbours
(`KEPT_MAPS`). Once a moment is shown, its neighbours are read and their maps made in a
thread while the reader looks, then every other snapshot kept, nearest first
(`prefetch`): a step only draws, and a jump makes its map and draws (at 10,000 profiles a
shared read takes about 0.16 s, a map 0.3 s, the drawing 0.3 s;
`benchmarks/bench_timeline.py`). A jump to what is not read yet reads it then, and says
so (`read_now`). An item's history is the archive's item log (`Archive.log`, `iptoolkit
archive log`): the same rows, as a section of its details.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from ..support.printable import escape_unprintable
from ..support.redact import redact_text
from .item_html import Section

if TYPE_CHECKING:
    import pandas

    from ..archive.lookup import At
    from ..archive.shared_reads import SharedReads
    from ..archive.store import Archive
    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from ..query.graph import EstateGraph
    from .change_marks import MarkedMap

__all__ = [
    "AHEAD_PROFILES",
    "KEPT_ESTATES",
    "KEPT_MAPS",
    "KEPT_PROFILES",
    "Moment",
    "ArchiveTimeline",
    "history_section",
]

KEPT_ESTATES = 4
"""Snapshots a timeline needs read to step without waiting: the one shown, the one
before it, and one more each way."""

KEPT_MAPS = 3
"""Moments whose map of change a timeline keeps made: the one shown and one each way."""

KEPT_PROFILES = 200_000
"""Profiles a timeline keeps read, over all the snapshots it keeps (at least the two a
moment compares). Read with their versions shared, the first snapshot takes about 4 MB
a thousand profiles and each other about 0.8 MB (20 daily snapshots of 10,000: 165 MB),
so at 10,000 profiles it keeps 20 (and reads them ahead, up to `AHEAD_PROFILES`), and a
jump among them makes its map and draws; at 100,000, two."""

AHEAD_PROFILES = 12_500
"""The largest snapshot a timeline reads ahead for, making the next steps' maps: each
map's union graph takes about 4.5 MB a thousand profiles. Above, it keeps one map and
reads nothing ahead (a step reads what it shows, as a jump does)."""


@dataclass(frozen=True)
class Moment:
    """One snapshot of the archive: its id and when it was fetched (UTC)."""

    snapshot_id: int
    fetched_at: datetime

    @property
    def label(self) -> str:
        """As the timeline names it: `2026-11-23 06:00`."""
        return f"{self.fetched_at:%Y-%m-%d %H:%M}"

    @property
    def day(self) -> str:
        """Its date: `at=` names the day's last snapshot with it (`2026-11-23`)."""
        return f"{self.fetched_at:%Y-%m-%d}"

    @property
    def at(self) -> str:
        """Its fetch time in ISO form, as `at=` and a page address name it exactly."""
        return self.fetched_at.isoformat().replace("+00:00", "Z")


class ArchiveTimeline:
    """The snapshots of an archive, oldest first (`moments`), each one's estate and its
    changes since the snapshot before (see the module docstring)."""

    def __init__(self, archive: Archive | str | os.PathLike[str]) -> None:
        from ..archive.shared_reads import SharedReads
        from ..archive.store import Archive

        self.archive = archive if isinstance(archive, Archive) else Archive(archive)
        with self.archive._connection() as con:  # `Stored`: what the archive's readers use
            rows = con.execute(
                "SELECT snapshot_id, fetched_at, profiles FROM snapshots ORDER BY seq"
            ).fetchall()
        self.moments = tuple(Moment(int(sid), fetched.astimezone(UTC)) for sid, fetched, _ in rows)
        if not self.moments:
            raise ValueError(f"{self.archive.path}: the archive holds no snapshot yet")
        largest = max(int(profiles) for _, _, profiles in rows)
        self.kept = max(2, min(len(self.moments), KEPT_PROFILES // max(largest, 1)))
        """How many snapshots it keeps read (`KEPT_PROFILES`)."""
        self.reads_ahead = largest <= AHEAD_PROFILES and self.kept >= min(
            KEPT_ESTATES, len(self.moments)
        )
        """Whether `prefetch` reads ahead and maps the next steps (`AHEAD_PROFILES`)."""
        self._kept_maps = KEPT_MAPS if self.reads_ahead else 1
        self._read: OrderedDict[int, Future[Estate]] = OrderedDict()
        """Snapshot id -> its estate, read (or being read) by `_reader`."""
        self._held: dict[int, Callable[[], EstateGraph]] = {}
        """Snapshot id -> the graph of an estate held (`hold`), built on first call."""
        self._position = {moment.snapshot_id: i for i, moment in enumerate(self.moments)}
        self._centre = len(self.moments) - 1
        """The position of the moment shown (or going to be): what is kept is near it."""
        self._maps: OrderedDict[int, Future[MarkedMap]] = OrderedDict()
        """Position -> its map of change since the snapshot before (`marked_map`)."""
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="ipt-timeline")
        self._reads: SharedReads = SharedReads(self.archive)
        """Reads the snapshots, their versions shared (in the reading thread alone)."""

    def __len__(self) -> int:
        return len(self.moments)

    def __repr__(self) -> str:
        return f"<ArchiveTimeline {self.archive.path}: {len(self)} snapshots>"

    def index_of(self, at: At = None) -> int:
        """The position of the snapshot `at` names (`Archive.estate`'s `at`: an id, a
        date or date-time; None: the newest)."""
        wanted = self.archive.snapshot_id(at)
        return next(i for i, moment in enumerate(self.moments) if moment.snapshot_id == wanted)

    def estate(self, index: int) -> Estate:
        """The estate of the snapshot at `index`, as it was fetched."""
        return self._snapshot(index)

    def graph(self, index: int) -> EstateGraph:
        """The graph (`build_graph`) of the snapshot at `index`: an estate held (`hold`)
        has its own, not to change; another's is built each time (a map builds its union
        from the newer snapshot's estate, `_union_of`, and needs no graph kept)."""
        from ..query.graph import build_graph

        held = self._held.get(self.moments[index].snapshot_id)
        return held() if held is not None else build_graph(self.estate(index))

    def _union_of(self, index: int) -> EstateGraph | Literal[True]:
        """What a map whose newer snapshot is at `index` makes its union from
        (`diff_graph`'s `shared`): the graph of an estate held, else one built for it."""
        held = self._held.get(self.moments[index].snapshot_id)
        return held() if held is not None else True

    def hold(
        self, estate: Estate, graph: Callable[[], EstateGraph], snapshot_id: int | None = None
    ) -> bool:
        """Take `estate` as the read of its snapshot (`snapshot_id`, else the archive's
        snapshot that is it: `Archive.snapshot_of`), its graph `graph()` made when first
        asked for: the Explorer reads the newest snapshot, and an app's kernel has it from
        its zygote, graph and all; held here, it is neither read nor built a second time,
        and the snapshots read after share its profiles (`SharedReads.hold`). False: not
        the archive's."""
        if snapshot_id is None:
            snapshot_id = self.archive.snapshot_of(estate)
            if snapshot_id is None:
                return False
        held_id, held = snapshot_id, _once(graph)
        self._held[held_id] = held
        read: Future[Estate] = Future()
        read.set_result(estate)
        self._keep(self._read, held_id, read, self.kept, self._position.get)
        self._reader.submit(self._reads.hold, held_id, estate)  # first: what follows shares
        return True

    def unread(self, index: int, since: int | None = None) -> list[int]:
        """The positions of the snapshots a moment (`changes(index, since)`) needs that
        are neither read nor begun (a read still queued counts as unread): what showing
        it waits for."""
        return [near for near in self._pair(index, since) if not self._begun(near)]

    def _begun(self, index: int) -> bool:
        read = self._read.get(self.moments[index].snapshot_id)
        return read is not None and (read.running() or read.done())

    @staticmethod
    def _pair(index: int, since: int | None) -> list[int]:
        """The positions a moment compares (older first); the first snapshot alone."""
        return [index] if index == 0 else [index - 1 if since is None else since, index]

    def read_now(
        self, index: int, since: int | None = None, said: Callable[[int], None] | None = None
    ) -> None:
        """Read what a moment needs (`unread`), telling `said(position)` before each
        read. A jump (or a step quicker than the reading ahead) first drops the reads and
        maps still queued (`_drop_queued`): they were for where the reader was, and the
        one reading thread would do them first; what it needs is read once the reader's
        task at hand is done (`prefetch` queues the rest again)."""
        self._centre = index
        unread = self.unread(index, since)
        if unread:
            self._drop_queued()
        for near in unread:
            if said is not None:
                said(near)
            self.estate(near)

    def marked_map(
        self, index: int, since: int | None = None, changes: EstateDiff | None = None
    ) -> MarkedMap | None:
        """The map of change of a moment (`change_marks.diff_map` of `changes(index,
        since)`, or of `changes` when made already, over the two snapshots' graphs); the
        one since the snapshot before is kept (and made ahead by `prefetch`). None for
        the first snapshot."""
        from .change_marks import diff_map

        if since is not None and since != index - 1:
            changes = changes if changes is not None else self.changes(index, since)
            if changes is None:
                return None
            return diff_map(changes, shared=self._union_of(index))
        if index == 0:
            return None
        making = self._maps.pop(index, None)
        if making is not None and (making.cancelled() or making.exception() is not None):
            making = None  # made ahead from a read that failed (a writer held the file)
        if making is None:
            making = Future()
            making.set_result(diff_map(self._stored(index), shared=self._union_of(index)))
        self._keep(self._maps, index, making, self._kept_maps, int)
        return making.result()

    def prefetch(self, index: int) -> None:
        """Read and map in the background what a step from `index` needs besides what it
        holds (see the module): a step back shows `index - 1` with its changes since
        `index - 2`, a step forth `index + 1` with its changes since `index`; then every
        other snapshot it keeps (`kept`), nearest first, so that a jump only draws."""
        self._centre = index
        if not self.reads_ahead:
            return
        self._drop_queued()  # queued for the moment before: the next steps' go first
        for near in (index - 2, index + 1):
            if 0 <= near < len(self):
                self._reading(near)
        for near in (index - 1, index + 1):
            if 1 <= near < len(self) and near not in self._maps:
                older, newer = self._reading(near - 1), self._reading(near)  # queued first
                making = self._reader.submit(self._map_of, near, older, newer)
                self._keep(self._maps, near, making, self._kept_maps, int)
        nearest = sorted(range(len(self)), key=lambda near: abs(near - index))[: self.kept]
        for near in nearest:
            if self.moments[near].snapshot_id not in self._read:
                self._reading(near)

    def _drop_queued(self) -> None:
        """Cancel the reads and maps queued and not begun (the one reading thread takes
        them in order), so that what is asked next goes first."""
        for kept in (self._read, self._maps):
            for key in [key for key, queued in kept.items() if queued.cancel()]:
                del kept[key]

    def _map_of(self, index: int, older: Future[Estate], newer: Future[Estate]) -> MarkedMap:
        """A moment's map, in the reading thread, from reads queued before it (done, or
        cancelled with it)."""
        from .change_marks import diff_map

        changes = self._stored(index, older.result(), newer.result())
        return diff_map(changes, shared=self._union_of(index))

    def close(self) -> None:
        """Stop reading ahead (what is kept stays)."""
        self._reader.shutdown(wait=False, cancel_futures=True)

    def _snapshot(self, index: int) -> Estate:
        """The snapshot's read: kept or made now; one that failed ahead (a writer held
        the file) is read once more, and a second failure is told."""
        for attempt in (1, 2):
            reading = self._reading(index)
            try:
                return reading.result()
            except Exception:
                self._read.pop(self.moments[index].snapshot_id, None)
                if attempt == 2:
                    raise
        raise AssertionError("not reached")

    def _reading(self, index: int) -> Future[Estate]:
        """The read of the snapshot at `index`: kept, else started (`_keep`: what lies
        farthest from the moment shown goes, and the maps that held it)."""
        snapshot_id = self.moments[index].snapshot_id
        reading = self._read.pop(snapshot_id, None)
        if reading is None:
            reading = self._reader.submit(self._load, snapshot_id)
        self._keep(self._read, snapshot_id, reading, self.kept, self._position.get)
        for index_mapped in list(self._maps):  # a map holds its two snapshots: not past them
            pair = (self.moments[index_mapped - 1], self.moments[index_mapped])
            if any(moment.snapshot_id not in self._read for moment in pair):
                self._maps.pop(index_mapped).cancel()
        return reading

    def _keep(
        self,
        kept: OrderedDict[int, Any],
        key: int,
        value: Any,
        most: int,
        position: Callable[[int], int | None],
    ) -> None:
        """Keep `value` under `key`; past `most`, what lies farthest from the moment
        shown goes (not to be made, when not begun), the oldest kept of those as far, never
        `key` itself (`position`: a key's place in `moments`)."""
        kept[key] = value
        while len(kept) > most:
            far = max(
                (other for other in kept if other != key),
                key=lambda other: abs((position(other) or 0) - self._centre),
            )
            kept.pop(far).cancel()

    def _load(self, snapshot_id: int) -> Estate:
        return self._reads.estate(snapshot_id)

    def changes(self, index: int, since: int | None = None) -> EstateDiff | None:
        """What changed from the snapshot at `since` (default: the one before) to the one
        at `index`: from the snapshot before, the changes stored when it was added; from
        an earlier one, `ipt.diff` of the two. None for the first snapshot (nothing before
        it); a `since` not before `index` is refused (`ValueError`)."""
        if since is None or since == index - 1:
            return self._stored(index) if index > 0 else None
        if not 0 <= since < index:
            raise ValueError(
                f"since: a snapshot before {self.moments[index].label}, "
                f"not {self.moments[since].label if 0 <= since < len(self) else since}"
            )
        from ..change.diff import diff

        return diff(self.estate(since), self.estate(index))

    def _stored(
        self, index: int, old: Estate | None = None, new: Estate | None = None
    ) -> EstateDiff:
        """The changes stored for the snapshot at `index`, between its estate and the one
        before (`old`, `new`: read already; the reading thread always gives both)."""
        from ..archive.history import stored_diff

        old = old if old is not None else self.estate(index - 1)
        new = new if new is not None else self.estate(index)
        return stored_diff(self.archive, self.moments[index].snapshot_id, old, new)

    def history(self, node: str) -> Section | None:
        """An item's history (`history_section` of its `Archive.log`); None when the
        archive never held it (an item the map's union alone names, say)."""
        try:
            log = self.archive.log(node)
        except ValueError:  # unknown (`UnknownItemError`) or ambiguous: not an item it held
            return None
        return history_section(log)


def _once(make: Callable[[], EstateGraph]) -> Callable[[], EstateGraph]:
    """`make()` made on the first call, from whichever thread, and kept."""
    lock = threading.Lock()
    made: list[EstateGraph] = []

    def once() -> EstateGraph:
        with lock:
            if not made:
                made.append(make())
            return made[0]

    return once


def history_section(log: pandas.DataFrame) -> Section:
    """An item log (`Archive.log`'s frame) as a section of its details: one row per
    snapshot in which it appeared, changed or went, with its date, the JSON paths and the
    worst severity (masked, as every value shown)."""
    rows: dict[str, str] = {}
    for row in log.to_dict("records"):
        when = f"{row['fetched_at']:%Y-%m-%d %H:%M} (snapshot {row['snapshot']})"
        said = str(row["event"])
        if row["paths"]:
            said += ": " + ", ".join(str(path) for path in row["paths"])
        if row["severity"]:
            said += f" ({row['severity']})"
        rows[when] = escape_unprintable(redact_text(said))
    return Section("History", fields=rows or {"": "no change stored"})
