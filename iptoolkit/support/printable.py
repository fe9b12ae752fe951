"""Text that every output format can hold: no control characters, no noncharacters.

A name typed into the platform may carry a NUL, a DEL, a C1 control (U+0080-U+009F), a
lone surrogate or U+FFFE/U+FFFF. None of them shows anything to a reader, and each is
refused by some format we write (XML 1.0, YAML, Graphviz, spreadsheets) or passed raw
into another (Markdown). The writers drop them here, in one place, before they escape
what is left for their own format.
"""

from __future__ import annotations

import re

__all__ = ["printable", "shorten"]

_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
"""C0 controls but tab and line breaks, DEL, C1 controls, surrogates, noncharacters."""


def printable(text: object) -> str:
    """`text` as a string without characters no reader can see and some formats refuse
    (tabs and line breaks are kept: each writer decides what a line break becomes)."""
    return _UNPRINTABLE.sub("", str(text))


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, the cut marked by `…`."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
