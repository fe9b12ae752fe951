"""Which snapshot is older: a diff of OLD against NEW reads backwards when OLD is newer.

Scripts that compare "last week" with "today" pass the files in that order; when both
snapshots carry their fetch time and OLD was fetched after NEW, every addition reads as a
removal. The diff says so in a note (and the command line on stderr), never silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["order_notes"]


def order_notes(old: Estate, new: Estate) -> list[str]:
    """A note when OLD was fetched after NEW: the changes then read backwards."""
    before, after = old.info.fetched_at, new.info.fetched_at
    if before is None or after is None or before <= after:
        return []
    return [
        f"the old snapshot was fetched after the new one ({before.isoformat()} > "
        f"{after.isoformat()}): the changes read backwards; swap OLD and NEW"
    ]
