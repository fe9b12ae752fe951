"""Text fit to show, two ways, and text cut to a length.

- `drop_unprintable`, for the files we write: a name typed into the platform may carry a
  NUL, a DEL, a C1 control (U+0080-U+009F), a lone surrogate or U+FFFE/U+FFFF. None of
  them shows anything to a reader, and each is refused by some format we write (XML 1.0,
  YAML, Graphviz, spreadsheets) or passed raw into another (Markdown). The writers drop
  them here, in one place, before they escape what is left for their own format.
- `escape_unprintable`, for lines a person reads (the client's errors quoting a server;
  every id, name and reason in the audit's and the diff's text, CSV and JUnit reports):
  control and bidi characters are not dropped but shown as escapes (`\\x1b`, `\\r`), so
  a terminal escape, a carriage return or a reversed text cannot act, no id breaks a line
  or a row, and the reader sees that it was there.
- `shorten`: one line cut to a number of characters, the cut marked by `…` (labels, menus,
  the docs site's navigation); `shorten_pair`: two values that differ cut to the same
  window around where they first differ (a comparison's two sides), so that two values
  that differ never show as the same cut string.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

__all__ = [
    "LABEL_COUNT",
    "LABEL_NAME_SHARE",
    "count_kept",
    "drop_unprintable",
    "escape_unprintable",
    "shorten",
    "shorten_pair",
]

_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
"""C0 controls but tab and line breaks, DEL, C1 controls, surrogates, noncharacters."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
"""Every C0 control (tab and line breaks too), DEL, C1 controls, zero-width and bidi marks."""


def drop_unprintable(text: object) -> str:
    """`text` as a string without characters no reader can see and some formats refuse
    (tabs and line breaks are kept: each writer decides what a line break becomes)."""
    return _UNPRINTABLE.sub("", str(text))


def escape_unprintable(text: str) -> str:
    """`text` safe to print on a terminal: control and bidi characters (line breaks too)
    written as escapes (`\\x1b`, `\\n`, `\\u202e`), everything else as it is."""
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode(), text)


LABEL_COUNT = re.compile(r" \((\d{1,3}(?:,\d{3})*)([^()]*)\)$")
"""A label's count at its end (`HTTP agents (724)`, `Finance (2,367, 243 inactive)`): never
cut, for a cut count reads as another number (`(7…` for 724). Every view that cuts labels
keeps it: the interactive ones (`viewmodel.topology_fit`) and the drawn ones (`plot`)."""


LABEL_NAME_SHARE = 0.45
"""The least share of a label's room its name keeps before its count is shortened to its
first number (`(90)` for `(90, 8 inactive)`)."""


def count_kept(text: str, room: float, measure: Callable[[str], float]) -> tuple[str, str] | None:
    """`text` split for a cut to `room` (widths by `measure`): the name to cut and the count
    to keep whole after it, the count's first number alone where the whole count would
    leave the name less than `LABEL_NAME_SHARE` of the room; None without a count."""
    count = LABEL_COUNT.search(text)
    if count is None or count.start() == 0:
        return None
    whole = count.group()
    if count.group(2) and room - measure(whole) < room * LABEL_NAME_SHARE:
        whole = f" ({count.group(1)})"
    return text[: count.start()], whole


def shorten(text: object, limit: int) -> str:
    """`text` on one line (runs of white space as one space) cut to at most `limit`
    characters, the cut marked by `…` and no separator left dangling before it."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    if limit <= 1:
        return "…"[:limit]
    return text[: limit - 1].rstrip(" -_/,.:·") + "…"


def shorten_pair(a: str, b: str, limit: int) -> tuple[str, str]:
    """`a` and `b` cut to at most `limit` characters each, both from the same place: the
    start when their first difference shows there, else a third of `limit` before it
    (marked `…`), so that a difference in the middle or at the end stays in view."""
    if len(a) <= limit and len(b) <= limit:
        return a, b
    same = len(os.path.commonprefix([a, b]))
    start = 0 if same < limit - 1 else same - limit // 3
    return _window(a, start, limit), _window(b, start, limit)


def _window(text: str, start: int, limit: int) -> str:
    """`text` from `start`, at most `limit` characters, each cut end marked by `…`."""
    head = "…" if start > 0 else ""
    rest = text[start:]
    room = limit - len(head)
    if len(rest) > room:
        rest = rest[: room - 1] + "…"
    return head + rest
