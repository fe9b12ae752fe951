"""Order keys that let a profile unchanged from one snapshot to the next stay one row.

The archive does not store each snapshot's listing: it stores *runs*, "version V stands at
order key K from snapshot a to snapshot b". A snapshot's listing is its runs sorted by
order key. When a snapshot follows another, each profile whose JSON (and key) the previous
one held keeps its order key if that keeps the listing in order (the longest increasing
subsequence of the old keys, in the new order), so its run grows by one snapshot; the others
get new keys between their neighbours'. A profile removed or added in the middle moves no
other profile. When no key fits between two neighbours any more (after about forty
insertions at one place), the whole listing is numbered afresh: new runs, once.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict, deque
from collections.abc import Hashable, Sequence

__all__ = ["SPACING", "order_keys"]

SPACING = 1 << 40
"""The distance between neighbouring keys when a listing is numbered afresh."""


def order_keys(
    previous: Sequence[tuple[Hashable, int]], current: Sequence[Hashable]
) -> tuple[list[int], list[bool]]:
    """Order keys for `current` (each entry's identity: version and key) after `previous`
    ((identity, order key) pairs, in order), and which of them continue a previous entry.
    """
    waiting: dict[Hashable, deque[int]] = defaultdict(deque)
    for identity, key in previous:
        waiting[identity].append(key)
    candidates = [
        waiting[identity].popleft() if waiting.get(identity) else None for identity in current
    ]
    kept = _increasing(candidates)
    keys = _fill(candidates, kept)
    if keys is None:
        return [n * SPACING for n in range(len(current))], [False] * len(current)
    return keys, kept


def _increasing(candidates: Sequence[int | None]) -> list[bool]:
    """Which candidates form a longest strictly increasing subsequence (None: none)."""
    tails: list[int] = []  # the smallest tail key of an increasing run of each length
    tail_at: list[int] = []  # its position
    parent: list[int] = [-1] * len(candidates)
    for position, key in enumerate(candidates):
        if key is None:
            continue
        length = bisect_left(tails, key)
        if length == len(tails):
            tails.append(key)
            tail_at.append(position)
        else:
            tails[length] = key
            tail_at[length] = position
        parent[position] = tail_at[length - 1] if length else -1
    kept = [False] * len(candidates)
    position = tail_at[-1] if tail_at else -1
    while position >= 0:
        kept[position] = True
        position = parent[position]
    return kept


def _fill(candidates: Sequence[int | None], kept: Sequence[bool]) -> list[int] | None:
    """Keys for all: the kept candidates, and evenly spread keys between them for the
    rest; None when some gap is too narrow."""
    keys: list[int] = [0] * len(candidates)
    gap: list[int] = []
    low: int | None = None
    for position, key in enumerate([*candidates, None]):
        last = position == len(candidates)
        if not last and not kept[position]:
            gap.append(position)
            continue
        high = key if not last else None
        if gap:
            start = (
                low
                if low is not None
                else (high if high is not None else 0) - SPACING * (len(gap) + 1)
            )
            end = high if high is not None else start + SPACING * (len(gap) + 1)
            step = (end - start) // (len(gap) + 1)
            if step < 1:
                return None
            for n, at in enumerate(gap, start=1):
                keys[at] = start + n * step
            gap = []
        if key is not None:  # a kept candidate (the end has none)
            keys[position] = key
            low = key
    return keys
