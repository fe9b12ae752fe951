"""Keeping answers small: every list comes a page at a time, every long text cut with a note.

An assistant reads each answer into a context window it pays for, so a tool never answers
with 10,000 rows: it gives `limit` items (20 unless asked) and a `next_cursor` to pass
back for the next page, and a long text ends where `max_chars` says, with a note naming
the `offset` that reads on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "TEXT_LIMIT", "page", "cut"]

T = TypeVar("T")

DEFAULT_LIMIT = 20
MAX_LIMIT = 200
TEXT_LIMIT = 6000
"""Characters of a long text (a profile's JSON) given at once."""


def page(items: Sequence[T], limit: int, cursor: str | None) -> tuple[list[T], str | None]:
    """One page of `items` from `cursor` (None: the first) and the cursor of the next
    (None after the last). A cursor is the position it starts at, as text."""
    start = _offset(cursor, len(items))
    end = start + limit
    return list(items[start:end]), (str(end) if end < len(items) else None)


def _offset(cursor: str | None, total: int) -> int:
    if cursor is None or cursor == "":
        return 0
    try:
        start = int(cursor)
    except ValueError:
        start = -1
    if not 0 <= start <= total:
        raise ValueError(
            f"cursor {cursor!r} is not one this list gave (it has {total:,} items): pass "
            "the next_cursor of the previous answer, or no cursor for the first page"
        )
    return start


def cut(text: str, max_chars: int, offset: int = 0, *, again: str) -> tuple[str, str | None]:
    """`text[offset:offset + max_chars]`, and a note saying how to read on when more is left
    (`again` names the call to repeat, e.g. "get_item with id='P1'")."""
    if offset < 0 or (offset > len(text) and text):
        raise ValueError(f"offset {offset} is outside the text ({len(text):,} characters)")
    end = offset + max_chars
    if end >= len(text):
        return text[offset:], None
    return text[offset:end], (
        f"cut at {end:,} of {len(text):,} characters: call {again} and offset={end} for the rest"
    )
