"""The app's estate held in memory once, for every kernel forked from the process holding it.

At 100,000 profiles an estate and what the Explorer builds over it (its facets, table,
graph and grouped views: `ExplorerModel`) take about 1.75 GB and 15 s; a kernel of its own
per tab costs all of it again. The app's zygote (`app.zygote`) loads and builds it once,
`hold`, then forks each kernel: a kernel's `page.show` finds it here (`held`) instead of
reading the snapshot again, and shares its pages with the zygote until it writes to them.

An estate is held for one snapshot as it was on disk (its path, size and modification
time): a snapshot rewritten since is read again, as it would have been without the zygote.
So is the older snapshot of `explore --since` (`Held.since_for`), which the zygote reads
once to refuse a bad one before the app starts, and every kernel then shares.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..viewmodel.explorer_model import ExplorerModel

__all__ = ["Held", "hold", "held", "snapshot_key"]


@dataclass(frozen=True)
class Held:
    """An estate loaded, with the Explorer's model built over it, in the process `pid`."""

    key: tuple[str, int, int] | None
    """`snapshot_key` of the snapshot read (None: the demo estate)."""
    estate: Estate
    model: ExplorerModel
    pid: int
    """The process that loaded it (a forked kernel's differs from its own: shared)."""
    since: tuple[tuple[str, int, int], Estate] | None = None
    """The older snapshot the map shows changes since (`explore --since`): its
    `snapshot_key` and estate."""

    def since_for(self, path: str | os.PathLike[str] | None) -> Estate | None:
        """The older estate held for `path` as it is now, or None (the caller reads it)."""
        if path is None or self.since is None:
            return None
        try:
            key = snapshot_key(path)
        except OSError:  # gone since: the caller reads it and says why
            return None
        return self.since[1] if key == self.since[0] else None


_held: Held | None = None


def snapshot_key(path: str | os.PathLike[str] | None) -> tuple[str, int, int] | None:
    """What names one snapshot as it is now: its resolved path, size and modification time
    (None for the demo estate, which has no file)."""
    if path is None:
        return None
    resolved = Path(path).resolve()
    stat = resolved.stat()
    return str(resolved), stat.st_size, stat.st_mtime_ns


def hold(
    estate: Estate,
    key: tuple[str, int, int] | None,
    since: tuple[tuple[str, int, int], Estate] | None = None,
) -> Held:
    """Build what the Explorer reads of the whole `estate` (its snapshot's `snapshot_key`
    taken before it was read: a file rewritten meanwhile is not taken for it), once: held
    in this process for `held` to hand out, with the older estate `since` (key, estate)."""
    global _held
    from ..core.selection import Filter
    from ..support.forked import apart
    from ..viewmodel.explorer_model import ExplorerModel

    model = ExplorerModel(estate)
    # each of these is built on first use; built here, every kernel shares it. The table
    # is built in a fork meanwhile (`apart`: 1.5-1.9 s of 10 at 100,000 profiles)
    with apart(model.table_parts) as table:
        model.select(Filter())
        model.profile_nodes  # noqa: B018
        model.grouped_views  # noqa: B018
        model.keep_table_parts(table.result())
    _held = Held(key, estate, model, os.getpid(), since)
    return _held


def held(path: str | os.PathLike[str] | None) -> Held | None:
    """The estate held for the snapshot at `path` as it is now (see the module), or None."""
    if _held is None:
        return None
    try:
        key = snapshot_key(path)
    except OSError:  # gone since: the caller reads it and says why
        return None
    return _held if key == _held.key else None
