"""Long lists on a page are cut at `MAX_ROWS`, with a link to the whole list as CSV.

A page listing a million profiles is a file of hundreds of megabytes that MkDocs never
finishes building and no reader scrolls. Each page shows the first `MAX_ROWS` rows of a
list and says how many more there are, linking to a CSV file in `data/` that holds them
all (written once per site, only when some page needed it, with formula-like values made
inert as in every CSV export).

A group's profiles and a channel type's channels are the lists never cut: each row is the
anchor every other page links to, so a group of more than `MAX_ROWS` profiles has its rows
on several pages (`sitemap.SiteMap.group_pages`), a type of more channels too
(`channel_type_pages`), which link to each other and to the CSV.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .sitemap import relative

if TYPE_CHECKING:
    import pandas

    from .context import Context, FullList

__all__ = ["MAX_ROWS", "FULL_LISTS", "capped", "pager", "write_full_lists"]

MAX_ROWS = 1000
"""Rows of one list on one page."""
FULL_LISTS: dict[FullList, str] = {
    "profiles": "data/profiles.csv",
    "channels": "data/channels.csv",
    "findings": "data/findings.csv",
}
"""What a cut list links to: every profile, channel or finding of the estate."""

T = TypeVar("T")


def capped(ctx: Context, page: str, items: Sequence[T], what: FullList) -> tuple[Sequence[T], str]:
    """The items a page shows, and the line to put under them when some were cut (else
    ""); `what` names the full list (`profiles`, `channels`, `findings`)."""
    if len(items) <= MAX_ROWS:
        return items, ""
    ctx.full_lists.add(what)
    href = relative(page, FULL_LISTS[what])
    rest = len(items) - MAX_ROWS
    line = (
        f"The first {MAX_ROWS:,} of {len(items):,} are shown; {rest:,} more are in "
        f"[{FULL_LISTS[what].rpartition('/')[2]}]({href}), which lists every {what[:-1]} "
        "of the estate."
    )
    return items[:MAX_ROWS], line


def write_full_lists(ctx: Context, docs: Path) -> None:
    """Write the CSV files the pages linked to."""
    from ..exporters.table_files import csv_safe_frame, write_csv, write_frame_csv

    for what in sorted(ctx.full_lists):
        path = docs / FULL_LISTS[what]
        path.parent.mkdir(parents=True, exist_ok=True)
        if what == "profiles":
            write_csv(ctx.estate, path)
        else:
            frame = _findings_frame(ctx) if what == "findings" else ctx.estate.to_frame(what)
            write_frame_csv(csv_safe_frame(_masked(frame)), path)


def _findings_frame(ctx: Context) -> pandas.DataFrame:
    from ..auditing import Findings

    return Findings(ctx.findings).to_frame()


def _masked(frame: pandas.DataFrame) -> pandas.DataFrame:
    from ..support.redact import redact_text

    frame = frame.copy()
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].map(lambda v: redact_text(v) if isinstance(v, str) else v)
    return frame


def pager(ctx: Context, pages: Sequence[str], number: int, total: int, what: FullList) -> str:
    """Which rows page `number` of `pages` holds (of `total`), links to the other pages and
    to the CSV of every one of `what` ("" for one page): a group's profiles and a channel
    type's channels are spread over pages alike, every row keeping its anchor."""
    if len(pages) == 1:
        return ""
    page = pages[number - 1]
    first = (number - 1) * ctx.site.rows + 1
    last = min(number * ctx.site.rows, total)
    links = " · ".join(
        f"**{n}**" if n == number else f"[{n}]({relative(page, other)})"
        for n, other in enumerate(pages, start=1)
    )
    ctx.full_lists.add(what)
    csv = FULL_LISTS[what]
    return (
        f"{what.capitalize()} {first:,} to {last:,} of {total:,}; pages {links}. Every "
        f"{what.removesuffix('s')} of the estate is in [{csv.rpartition('/')[2]}]"
        f"({relative(page, csv)})."
    )
