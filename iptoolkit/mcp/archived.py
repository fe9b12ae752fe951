"""The `history` tool's answer: an item's log and the timeline, read from an archive.

As `answers`, with no MCP in sight: `Archive.log` and `Archive.timeline`, snapshots named
as the other tools take them (`archive@<id>`), the timeline a page at a time, newest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .answer_models import HistoryAnswer, LogEvent, TimelineRow
from .cursors import page

if TYPE_CHECKING:
    from .store import Store

__all__ = ["history"]


def history(store: Store, item: str | None, limit: int, cursor: str | None) -> HistoryAnswer:
    archive = store.archive
    if archive is None:
        raise ValueError("history needs an archive: start the server with --archive FILE")
    log: list[LogEvent] = []
    node = None
    if item is not None and item.strip():
        frame = archive.log(item)
        node = frame.attrs["item"]
        log = [
            LogEvent(
                snapshot=f"archive@{row['snapshot']}",
                fetched_at=row["fetched_at"].isoformat(),
                event=row["event"],
                severity=row["severity"] or None,
                paths=list(row["paths"]),
                reasons=list(row["reasons"]),
            )
            for row in frame.to_dict("records")
        ]
    timeline = archive.timeline()
    rows = [
        TimelineRow(
            snapshot=f"archive@{row['snapshot']}",
            fetched_at=row["fetched_at"].isoformat(),
            profiles=row["profiles"],
            active_profiles=row["active_profiles"],
            channels=row["channels"],
            partners=row["partners"],
            problems=row["problems"],
            findings=row["findings"],
        )
        for row in timeline.iloc[::-1].to_dict("records")
    ]
    shown, next_cursor = page(rows, limit, cursor)
    return HistoryAnswer(
        item=node, log=log, total=len(rows), timeline=shown, next_cursor=next_cursor
    )
