"""`ipt.history`: a folder of snapshots as an estate's history, in the order they were fetched.

>>> h = ipt.history("snapshots/")           # or a list of snapshot paths  # doctest: +SKIP
>>> h.timeline                               # one row per snapshot: counts  # doctest: +SKIP
>>> h.diffs[-1].summary()                    # what the last fetch changed  # doctest: +SKIP
>>> h.plot_history()                         # counts over time, breaking changes marked

Order: by the fetch time each snapshot's header records (`SnapshotInfo.fetched_at`; a time
without a zone is read as UTC); a file without one (a bare listing) is placed by its
modification time, and `notes` says so. Ties go by file name.

Memory: a history holds numbers and changes, never estates. `history()` loads one snapshot
at a time to count it; `diffs` walks consecutive pairs holding at most two estates (the
older one is let go before the next is loaded) and keeps only each pair's changes. Asking
for one diff (`h.diffs[3]`) loads its two snapshots again and hands them out with the
changes computed once; nothing keeps them after the caller lets go.

A view, not part of `change/`: it counts the findings (`audit`) and draws with `plot`,
which `change/` never imports; it reads `change/` for the diffs.
"""

from __future__ import annotations

import html
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from .change.estate_diff import SEVERITIES, Change, EstateDiff
from .models import ParseError
from .support.names import plural

if TYPE_CHECKING:
    import pandas
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .core.estate import Estate

__all__ = [
    "history",
    "History",
    "HistoryDiffs",
    "Snapshot",
    "SNAPSHOT_PATTERNS",
    "load_for_history",
    "snapshot_of",
    "timeline_counts",
]

SNAPSHOT_PATTERNS = ("*.json", "*.json.gz")
"""What `history(folder)` reads from a folder (not its subfolders)."""
COUNTS = ("profiles", "active_profiles", "channels", "partners", "problems", "findings")
"""The timeline's counts, after which come the profiles per input agent type."""


@dataclass(frozen=True)
class Snapshot:
    """One snapshot of a history: its file, when it was fetched, and how that is known."""

    path: Path
    fetched_at: datetime
    time_from: str  # "header" or "file mtime"


def history(folder_or_paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> History:
    """The snapshots in a folder (`*.json`, `*.json.gz`), or the given files, in time order.

    Raises `FileNotFoundError` when there is no snapshot (or a path does not exist) and
    `ParseError` naming the file when one cannot be read. An `ipt.Archive` gives its own
    history (`Archive.history`); its `.duckdb` file is refused, saying so.
    """
    if hasattr(folder_or_paths, "history"):
        own: History = folder_or_paths.history()  # an ipt.Archive's
        return own
    if isinstance(folder_or_paths, str | os.PathLike) and str(folder_or_paths).endswith(
        ".duckdb"
    ):  # read as a snapshot, an archive's file was "not UTF-8 text"
        raise ValueError(
            f"history: {str(folder_or_paths)!r} is an archive: "
            "ipt.Archive(path).history() gives its history"
        )
    paths = _paths(folder_or_paths)
    rows: list[tuple[Snapshot, dict[str, Any]]] = []
    for path in paths:
        estate = load_for_history(path)
        rows.append((snapshot_of(path, estate), timeline_counts(estate)))
        del estate  # one estate at a time
    rows.sort(key=lambda row: (row[0].fetched_at, row[0].path.name))
    notes = tuple(
        f"{snapshot.path.name} records no fetch time: placed by the file's modification time "
        f"({snapshot.fetched_at:%Y-%m-%d %H:%M} UTC)"
        for snapshot, _ in rows
        if snapshot.time_from != "header"
    )
    return History(tuple(s for s, _ in rows), [counts for _, counts in rows], notes)


class History:
    """Snapshots in time order, their counts (`timeline`) and what changed between them.

    - `snapshots`: a tuple of `Snapshot` (path, fetched_at, time_from);
    - `timeline`: a pandas DataFrame, one row per snapshot: `snapshot` (file name),
      `fetched_at`, `time_from`, the counts in `COUNTS`, then profiles per input agent type
      (canonical names, 0 where a snapshot has none);
    - `diffs`: the `EstateDiff` of each consecutive pair (`diffs[i]`: snapshot i to i+1),
      computed on first use, once (see the module docstring for memory);
    - `notes`: what a reader must know about the order (a time taken from a file).
    """

    def __init__(
        self, snapshots: tuple[Snapshot, ...], counts: list[dict[str, Any]], notes: tuple[str, ...]
    ) -> None:
        self.snapshots = snapshots
        self._counts = counts
        self.notes = notes
        self.diffs: PairDiffs = HistoryDiffs(tuple(snapshot.path for snapshot in snapshots))

    def __len__(self) -> int:
        return len(self.snapshots)

    @property
    def timeline(self) -> pandas.DataFrame:
        import pandas as pd

        types: dict[str, None] = {}
        for counts in self._counts:
            types.update(dict.fromkeys(counts["agent_types"]))
        rows = [
            {
                "snapshot": snapshot.path.name,
                "fetched_at": pd.Timestamp(snapshot.fetched_at),
                "time_from": snapshot.time_from,
                **{name: counts[name] for name in COUNTS},
                **{name: counts["agent_types"].get(name, 0) for name in types},
            }
            for snapshot, counts in zip(self.snapshots, self._counts, strict=True)
        ]
        columns = ["snapshot", "fetched_at", "time_from", *COUNTS, *types]
        return pd.DataFrame(rows, columns=columns)

    def severities(self) -> pandas.DataFrame:
        """Changes per severity from each snapshot to the next (computes the diffs): one
        row per pair, `old` and `new` naming the two snapshots."""
        import pandas as pd

        rows = [
            {
                "old": self.snapshots[i].path.name,
                "new": self.snapshots[i + 1].path.name,
                "fetched_at": pd.Timestamp(self.snapshots[i + 1].fetched_at),
                **{severity: counts[severity] for severity in SEVERITIES},
            }
            for i, counts in enumerate(self.diffs.severities())
        ]
        return pd.DataFrame(rows, columns=["old", "new", "fetched_at", *SEVERITIES])

    def plot_history(self, *, ax: Axes | None = None, title: str | None = None) -> Figure:
        """Counts over time, a red marker where a fetch brought breaking changes."""
        from .plot.history import plot_history

        breaking = [counts["breaking"] for counts in self.diffs.severities()]
        return plot_history(self.timeline, breaking, ax=ax, title=title)

    def __repr__(self) -> str:
        if not self.snapshots:
            return "<History of no snapshot>"
        first, last = self.snapshots[0].fetched_at, self.snapshots[-1].fetched_at
        return (
            f"<History {plural(len(self), 'snapshot')} from {first:%Y-%m-%d %H:%M} "
            f"to {last:%Y-%m-%d %H:%M}>"
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(snapshot.path.name)}</td>"
            f"<td>{snapshot.fetched_at:%Y-%m-%d %H:%M}"
            f"{'' if snapshot.time_from == 'header' else ' (file time)'}</td>"
            + "".join(f"<td style='text-align:right'>{counts[name]:,}</td>" for name in COUNTS)
            + "</tr>"
            for snapshot, counts in zip(self.snapshots, self._counts, strict=True)
        )
        heads = "".join(f"<th>{name.replace('_', ' ')}</th>" for name in COUNTS)
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes)
        return (
            "<div class='iptoolkit-history'>"
            f"<b>History</b> of {plural(len(self), 'snapshot')}"
            f"<table><thead><tr><th>snapshot</th><th>fetched</th>{heads}</tr></thead>"
            f"<tbody>{rows}</tbody></table>" + (f"<ul>{notes}</ul>" if notes else "") + "</div>"
        )


class PairDiffs(Sequence[EstateDiff]):
    """The diffs of consecutive snapshots, each made on demand by `_pair(position)`; the
    subclasses say where the snapshots and their changes come from."""

    def __len__(self) -> int:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> EstateDiff: ...
    @overload
    def __getitem__(self, index: slice) -> list[EstateDiff]: ...
    def __getitem__(self, index: int | slice) -> EstateDiff | list[EstateDiff]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self._pair(range(len(self))[index])  # IndexError, negative indexes

    def __iter__(self) -> Iterator[EstateDiff]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        """What it is, without computing a diff (each is made on first use)."""
        pairs = plural(len(self), "diff")
        return f"<{type(self).__name__}: {pairs} of consecutive snapshots; diffs[i] is i to i+1>"

    def _pair(self, position: int) -> EstateDiff:
        """The diff of snapshots `position` and `position + 1`."""
        raise NotImplementedError

    def changes(self, index: int) -> tuple[Change, ...]:
        """The changes of one pair."""
        raise NotImplementedError

    def severities(self) -> list[Counter[str]]:
        """Changes per severity of each pair."""
        return [Counter(change.severity for change in self.changes(i)) for i in range(len(self))]


class HistoryDiffs(PairDiffs):
    """The diffs of consecutive snapshots, computed on first use and kept as changes only."""

    def __init__(self, paths: tuple[Path, ...]) -> None:
        self._paths = paths
        self._found: list[tuple[tuple[Change, ...], tuple[str, ...]] | None] = [None] * max(
            len(paths) - 1, 0
        )

    def __len__(self) -> int:
        return len(self._found)

    def _pair(self, position: int) -> EstateDiff:
        old, new = (
            load_for_history(self._paths[position]),
            load_for_history(self._paths[position + 1]),
        )
        found = self._found[position]
        if found is None:
            diff = _diff(old, new)
            self._found[position] = (diff.changes, diff.notes)
            return diff
        return EstateDiff(old, new, *found)

    def changes(self, index: int) -> tuple[Change, ...]:
        """The changes of one pair without loading its snapshots again (what is missing
        computed in one walk)."""
        self._compute()
        found = self._found[index]
        assert found is not None  # _compute filled every pair
        return found[0]

    def _compute(self) -> None:
        """Walk the pairs still missing, holding at most two estates at any time."""
        previous: tuple[int, Estate] | None = None
        for position, found in enumerate(self._found):
            if found is not None:
                continue
            if previous is None or previous[0] != position:
                previous = (position, load_for_history(self._paths[position]))
            new = load_for_history(self._paths[position + 1])
            diff = _diff(previous[1], new)
            self._found[position] = (diff.changes, diff.notes)
            del diff
            previous = (position + 1, new)  # the older estate is let go here


def _diff(old: Estate, new: Estate) -> EstateDiff:
    from .change.diff import diff

    return diff(old, new)


def _paths(
    folder_or_paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
) -> list[Path]:
    if isinstance(folder_or_paths, str | os.PathLike):
        where = Path(folder_or_paths)
        if where.is_dir():
            found = sorted({p for pattern in SNAPSHOT_PATTERNS for p in where.glob(pattern)})
            if not found:
                patterns = ", ".join(SNAPSHOT_PATTERNS)
                raise FileNotFoundError(f"history: no snapshot ({patterns}) in {where}")
            return found
        paths = [where]
    else:
        paths = [Path(path) for path in _given_paths(folder_or_paths)]
    if not paths:
        raise FileNotFoundError("history: no snapshot given (an empty list of paths)")
    seen: dict[Path, Path] = {}
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"history: no snapshot file {path}")
        same = seen.setdefault(path.resolve(), path)
        if same is not path:  # its diff with itself would read "no changes"
            raise ValueError(f"history: {path} is given twice (as {same} too)")
    return paths


def _given_paths(given: Any) -> list[str | os.PathLike[str]]:
    """The files `history` was given, or a `TypeError` naming what it was given instead:
    None, a number, estates (a history is of saved snapshots, read one at a time)."""
    takes = "history: folder_or_paths must be a folder, snapshot files or an ipt.Archive"
    if _is_estate(given):
        raise TypeError(f"{takes}, not an Estate (estate.save(path) writes one)")
    if isinstance(given, bytes) or not isinstance(given, Iterable):
        raise TypeError(f"{takes}, not {type(given).__name__}: {given!r}"[:200])
    paths = list(given)
    for path in paths:
        if not isinstance(path, str | os.PathLike):
            hint = " (estate.save(path) writes one)" if _is_estate(path) else ""
            raise TypeError(f"{takes}, not a list holding {type(path).__name__}{hint}")
    return paths


def _is_estate(value: Any) -> bool:
    from .core.estate import Estate

    return isinstance(value, Estate)


def load_for_history(path: Path) -> Estate:
    """A snapshot of a history, its parse error saying so (`history: cannot read ...`)."""
    from .core.estate import load

    try:
        return load(path)
    except ParseError as exc:
        raise ParseError(f"history: cannot read a snapshot: {exc}", issues=exc.issues) from None


def snapshot_of(path: Path, estate: Estate) -> Snapshot:
    """The history's entry of a snapshot: when it was fetched, by its header, else its
    file's time."""
    fetched = estate.info.fetched_at
    if fetched is None:
        mtime = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
        return Snapshot(path, mtime, "file mtime")
    if fetched.tzinfo is None:
        fetched = fetched.replace(tzinfo=UTC)
    return Snapshot(path, fetched.astimezone(UTC), "header")


def timeline_counts(estate: Estate, texts: Sequence[bytes] | None = None) -> dict[str, Any]:
    """The timeline's counts of one estate; `texts`: each profile's compact JSON, when the
    caller has it (the archive), for the audit."""
    from .auditing import audit

    summary = estate.summary()
    return {
        **{name: summary[name] for name in COUNTS if name != "findings"},
        "findings": len(audit(estate, texts=texts)),
        "agent_types": dict(summary["agent_types"]),
    }
