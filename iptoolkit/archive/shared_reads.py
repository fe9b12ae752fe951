"""Snapshots read with what they share: each stored version parsed once, each record made
once, for a reader that reads many snapshots of one archive (the map's timeline).

Day to day most profiles keep their version, so a snapshot read after another needs only
the JSON of the versions it has and the other had not: `SharedReads.estate` asks the
archive for the snapshot's listing (each profile's version id, in order), fetches and
parses the versions it does not hold yet, and builds the estate from records made before
where a profile's JSON and key are the same (`records.RecordBuilder`'s `reused`). The
estate is the one `Archive.estate` gives, profile for profile (a test holds them equal);
its profiles' JSON objects are shared with the other snapshots read, so it holds a
fraction of a fresh read's memory (20 daily snapshots of 10,000 profiles: 165 MB). At
10,000 profiles a read after one a few days apart takes 0.16 s, a fresh one 0.53 s.
An estate read elsewhere (the Explorer's newest) is taken in with `hold`, so that the
snapshots read after share its profiles too.

What the last `KEPT_READS` reads used is kept; the rest goes. Not thread-safe: one
reader (the timeline's reading thread) at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.nodes import partner_of
from ..models import ParseError, check_profiles, gc_paused, loads_json
from ..support.recent import RecentlyUsed
from .lookup import NoSnapshotError
from .retrieval import IN_SNAPSHOT, checked_count

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord
    from .store import Archive

__all__ = ["KEPT_READS", "SharedReads"]

KEPT_READS = 4
"""Reads whose versions and records are kept for the next: a timeline reads its snapshots
nearest first, so the next read is near one of the last four."""


class SharedReads:
    """Estates of one archive's snapshots, their versions parsed once (see the module)."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self._versions: RecentlyUsed[int, Any] = RecentlyUsed(KEPT_READS)
        """Version id -> its profile's JSON, parsed."""
        self._records: RecentlyUsed[tuple[int, str], tuple[ProfileRecord, list[Any]]]
        self._records = RecentlyUsed(KEPT_READS)
        """Records made, for `RecordBuilder(reused=...)`."""

    def hold(self, snapshot_id: int, estate: Estate) -> Estate:
        """Take `estate`, read elsewhere, as the snapshot's (the Explorer's newest): the
        snapshots read after share its profiles' JSON and records. An estate whose
        profiles are not as many as the snapshot's is taken as it is, sharing nothing."""
        with self.archive._connection() as con:
            listed = self._listing(con, snapshot_id)[1]
        records = estate.records
        if len(listed) != len(records):
            return estate
        stored = []
        for (version, _), record in zip(listed, records, strict=True):
            self._versions[version] = record.raw
            if record.ok and all(use.held is not None for use in record.uses):
                # as `RecordBuilder` keeps them; not one naming a channel by id: its uses
                # were resolved against the listing it came from (`RecordBuilder.finish`)
                partners = [partner_of(use.held) for use in record.uses]
                stored.append((id(record.raw), record.key))
                self._records[stored[-1]] = (record, partners)
        self._versions.used(version for version, _ in listed)
        self._records.used(stored)
        return estate

    def _listing(
        self, con: Any, snapshot_id: int
    ) -> tuple[tuple[Any, int, int], list[tuple[int, bool]]]:
        """A snapshot's header, place and count of profiles, and its profiles' version
        ids (and whether each was faulty), in listing order."""
        found = con.execute(
            "SELECT header, seq, profiles FROM snapshots WHERE snapshot_id = ?", [snapshot_id]
        ).fetchone()
        if found is None:
            raise NoSnapshotError(f"{self.archive.path}: no snapshot {snapshot_id}")
        listed: list[tuple[int, bool]] = con.execute(
            "SELECT r.version_id, v.faulty FROM runs r JOIN versions v USING (version_id) "
            f"WHERE {IN_SNAPSHOT} ORDER BY r.order_key",
            [found[1], found[1]],
        ).fetchall()
        return found, listed

    def estate(self, snapshot_id: int) -> Estate:
        """The estate of a stored snapshot, as `Archive.estate(snapshot_id)` gives it."""
        from ..core.estate import Estate
        from ..core.records import RecordBuilder
        from ..core.snapshot import info_of

        path = self.archive.path
        with self.archive._connection() as con:
            (header, _, stored), listed = self._listing(con, snapshot_id)
            self._fetch(con, [version for version, _ in listed], snapshot_id)
        checked_count(path, snapshot_id, stored, len(listed))
        items = [self._versions[version] for version, _ in listed]
        suspects = frozenset(n for n, (_, faulty) in enumerate(listed) if faulty)
        try:
            problems = check_profiles(items, issues={}, suspects=suspects)
        except ParseError as exc:
            raise ParseError(f"{path}: snapshot {snapshot_id}: {exc}", issues=exc.issues) from None
        problem_at = {problem.index: problem for problem in problems}
        with gc_paused():
            builder = RecordBuilder(reused=self._records)
            for index, raw in enumerate(items):
                builder.add(raw, problem_at.get(index))
            records = builder.finish(problems)
        self._versions.used(version for version, _ in listed)
        self._records.used((id(record.raw), record.key) for record in records if record.ok)
        info = info_of(loads_json(header))
        return Estate._of_records(records, builder.registries, problems, info)

    def _fetch(self, con: Any, versions: list[int], snapshot_id: int) -> None:
        """Read and parse the versions not held yet."""
        wanted = [version for version in dict.fromkeys(versions) if version not in self._versions]
        if not wanted:
            return
        rows = con.execute(
            "SELECT version_id, json FROM versions WHERE version_id IN (SELECT unnest(?))",
            [wanted],
        ).fetchall()
        try:
            with gc_paused():
                self._versions.update((version, loads_json(text)) for version, text in rows)
        except ValueError as exc:  # only a damaged file: the archive wrote this JSON
            raise ParseError(
                f"{self.archive.path}: snapshot {snapshot_id}: damaged JSON ({exc})"
            ) from None
