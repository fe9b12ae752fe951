"""Where each profile starts in a snapshot file (line and column), so that SARIF can point
GitHub at the line of a finding's profile.

The JSON text is scanned once with one regular expression that skips strings whole and
stops at brackets and commas; the profiles are the items of the listing: the top-level
array, or the array under `profiles` (the snapshot format). A command that kept the
offsets reading the file found (`Estate.texts`, any listing `ipt.load` proved) needs no
scan: `positions_at` turns them into lines and columns.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Sequence
from pathlib import Path

from ..models.jsontext import without_bom

__all__ = ["profile_positions", "positions_at"]

_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},]')
"""A JSON string whole (the unrolled form: one scan, no alternation per character), a
bracket or a comma (an item of the listing need not be an object: a faulty one keeps its
place)."""
_SPACE = re.compile(rb"[ \t\r\n]*")


def _after_space(data: bytes, at: int) -> int:
    """The first offset from `at` on that holds no JSON white space."""
    found = _SPACE.match(data, at)
    return found.end() if found else at


def _one_a_line(lines: list[bytes]) -> bool:
    """Whether the file is laid out as `write_snapshot` writes it: the header line ending
    in `"profiles":[`, one profile a line, then `]}` (checked, not assumed)."""
    return (
        len(lines) >= 3
        and lines[0].endswith(b'"profiles":[')
        and lines[-2] == b"]}"
        and lines[-1] == b""
        and all(line[:1] == b"{" and line[-1:] in (b",", b"}") for line in lines[1:-2])
    )


def profile_positions(path: Path) -> list[tuple[int, int]]:
    """(line, column), both from 1, of every profile of the listing in the file, in
    order; empty when the file holds no listing this can find."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = without_bom(data)  # as reading does: a BOM takes no column, UTF-16 is decoded
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    lines = data.split(b"\n")
    if _one_a_line(lines):
        return [(n + 2, 1) for n in range(len(lines) - 3)]
    depth = 0
    listing_depth: int | None = None
    starts: list[int] = []
    last_key: bytes | None = None
    for match in _TOKEN.finditer(data):
        token = match.group()
        if token[:1] == b'"':
            last_key = token
            continue
        if token == b",":
            if depth == listing_depth:  # the next item starts after it, whatever it is
                starts.append(_after_space(data, match.end()))
        elif token in (b"[", b"{"):
            if (
                listing_depth is None
                and token == b"["
                and (depth == 0 or (depth == 1 and last_key == b'"profiles"'))
            ):
                listing_depth = depth + 1
                first = _after_space(data, match.end())
                if data[first : first + 1] != b"]":
                    starts.append(first)
            depth += 1
        else:
            depth -= 1
            if listing_depth is not None and depth < listing_depth:
                break
        last_key = None
    return positions_at(data, starts)


def positions_at(data: bytes, starts: Sequence[int]) -> list[tuple[int, int]]:
    """(line, column), both from 1, of each offset in `starts` (increasing) of the text:
    the profiles' own offsets, when reading the file found them (`Estate.texts`)."""
    positions = []
    line, column, at = 1, 1, 0
    for start in starts:
        newlines = data.count(b"\n", at, start)
        if newlines:
            line += newlines
            at = data.rfind(b"\n", at, start) + 1
            column = 1
        column += len(data[at:start].decode("utf-8", "replace"))  # each byte decoded once
        at = start
        positions.append((line, column))
    return positions
