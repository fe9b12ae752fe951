"""The archive: every snapshot of an estate in one DuckDB file, item histories, a watch.

`ipt.Archive(path)` (see `store.py`) keeps the snapshots; `iptoolkit archive ...` and
`iptoolkit watch` are its commands (`cli/archive.py`). It needs the `archive` extra
(`pip install -e '.[archive]'`); without it, `ipt.Archive` raises an error that says so.
"""

from __future__ import annotations

from ..support.extras import require

require("archive")

from .store import (  # noqa: E402 - after the check naming the extra
    Archive,
    ArchiveDamagedError,
    ArchiveLockedError,
    ArchiveQueryError,
    NoSnapshotError,
)

__all__ = [
    "Archive",
    "ArchiveDamagedError",
    "ArchiveLockedError",
    "ArchiveQueryError",
    "NoSnapshotError",
]
