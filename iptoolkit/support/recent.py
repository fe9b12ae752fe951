"""A dict that forgets what its last few uses did not need: the made-once caches of a
reader of many snapshots (`archive/shared_reads.py`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from typing import TypeVar

__all__ = ["RecentlyUsed"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class RecentlyUsed(dict[K, V]):
    """A dict whose `used(keys)` says what one use (a snapshot read, a graph built) took
    from it; what none of the last `uses` took goes."""

    def __init__(self, uses: int) -> None:
        super().__init__()
        self._recent: deque[frozenset[K]] = deque(maxlen=uses)

    def used(self, keys: Iterable[K]) -> None:
        """Keep what this use and the ones before it (`uses` in all) took; drop the rest.
        `keys`: each in the dict (what a use took from it, or put there)."""
        self._recent.append(frozenset(keys))
        if len(self) <= len(self._recent[-1]):
            return  # nothing held beyond this use
        kept = frozenset().union(*self._recent)
        for key in [key for key in self if key not in kept]:
            del self[key]
