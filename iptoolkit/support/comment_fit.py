"""Markdown reports that fit where they go: a pull-request comment (GitHub refuses a body
of more than 65,536 characters, and a report of a large estate is several times that).

A report is a frame (its summary and counts, always kept) around entries (a difference, a
change, a finding), each with a rank (0 is the worst). `fit` keeps the whole report when
it fits; else the worst entries first, in the report's own order, as many as fit, and the
report says what it left out by count and where the rest is (`left_out`). The reports
(compare, diff, audit) render; this module only chooses, so each keeps its own layout.

A leaf module: it imports nothing of ours but `support.markdown` and `support.names`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

from .markdown import code
from .names import plural

__all__ = ["GITHUB_LIMIT", "COMMENT_LIMIT", "fit", "counted_by", "left_out"]

GITHUB_LIMIT = 65_536
"""The most characters GitHub takes in the body of an issue or pull-request comment."""
COMMENT_LIMIT = GITHUB_LIMIT - 1_000
"""What a report for a comment may take: GitHub's limit less a thousand characters for
what a workflow writes around it (a title, a sticky comment's marker)."""

Render = Callable[[Collection[int] | None], str]
"""A report's renderer: `None` renders every entry; a collection of entry indices renders
those entries only, with the report's note of what it left out."""


def fit(render: Render, sizes: Sequence[int], ranks: Sequence[int], limit: int | None) -> str:
    """The whole report (`render(None)`) when it fits in `limit` characters (or there is
    no limit); else `render(kept)` with the worst entries (by rank, then order; `sizes` are
    their characters) that fit, stopping at the first that does not, so no better entry is
    shown while a worse one is left out."""
    whole = render(None)
    if limit is None or len(whole) <= limit:
        return whole
    budget = limit - len(render(()))
    order = sorted(range(len(sizes)), key=lambda index: (ranks[index], index))
    kept: list[int] = []
    for index in order:
        cost = sizes[index] + 1  # its line break
        if cost > budget:
            break
        kept.append(index)
        budget -= cost
    text = render(kept)
    while len(text) > limit and kept:  # frames of sections opened by the entries kept
        excess = len(text) - limit
        while excess > 0 and kept:
            excess -= sizes[kept.pop()] + 1
        text = render(kept)
    return text


def counted_by(noun: str, counts: Iterable[tuple[str, int]]) -> str:
    """`640 profile differences (2 breaking, 638 notable)`: a total and its parts, the
    parts with a count only."""
    parts = [(name, n) for name, n in counts if n]
    total = sum(n for _, n in parts)
    said = ", ".join(f"{n:,} {name}" for name, n in parts)
    return plural(total, noun) + (f" ({said})" if said else "")


def left_out(what: Sequence[str], details: str | None) -> str:
    """The line a cut report says first: what it left out (`counted_by` parts) and where
    the whole report is: the details file the command wrote, else how to get one."""
    where = (
        f"The whole report: {code(details)}."
        if details
        else "The whole report: the same command with `--details-file FILE` (Markdown) "
        "or `--format json`."
    )
    return (
        f"> **Left out to fit a GitHub comment** (at most {GITHUB_LIMIT:,} characters): "
        f"{'; '.join(what)}. {where}"
    )
