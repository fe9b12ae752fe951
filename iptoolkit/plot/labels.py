"""Node labels that never overlap: shortened to the room they have, thinned where crowded.

Labels sit beside their node (left of the profiles, right of everything else), so in the
layered layout two labels can only collide within one column, one above the other. Each
column keeps the labels that matter most (highlighted first, then the best connected) and
drops a label that would come closer than a line's height to one already kept.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..support.printable import count_kept, shorten
from .backend import matplotlib_module

if TYPE_CHECKING:
    from matplotlib.ft2font import FT2Font

__all__ = ["LabelSpec", "fit", "place_labels", "text_width", "CHAR_WIDTH"]

CHAR_WIDTH = 0.58
"""Average character width in ems of the default sans-serif font (DejaVu Sans)."""


@dataclass(frozen=True)
class LabelSpec:
    """One candidate label: its node, text, where it sits and how much room it has."""

    node: Hashable
    text: str
    column: int
    row: float
    side: str  # "left" or "right" of the node
    room_pts: float  # horizontal room for the text, in points
    priority: Any  # lower first


def text_width(text: str, font_pts: float) -> float:
    """The width of one line of text in points, in matplotlib's default font.

    Sums the glyphs' advances (no kerning): within a few percent of the rendered width,
    and fast enough for thousands of labels.
    """
    return sum(_advance(char) for char in text) * font_pts


@lru_cache(maxsize=4096)
def _advance(char: str) -> float:
    """A character's advance at a size of one point."""
    font = _font()
    if font is None or not char.isprintable() or not font.get_char_index(ord(char)):
        return CHAR_WIDTH  # no glyph: asking for one would warn "Glyph missing" per name
    try:
        glyph = font.load_char(ord(char))
    except (RuntimeError, ValueError):
        return CHAR_WIDTH
    return glyph.linearHoriAdvance / 65536 / 100


@lru_cache(maxsize=1)
def _font() -> FT2Font | None:
    font_manager = matplotlib_module("font_manager")
    ft2font = matplotlib_module("ft2font")
    try:
        path = font_manager.findfont(font_manager.FontProperties(), fallback_to_default=True)
        font: FT2Font = ft2font.FT2Font(path)
        font.set_size(100, 72)
    except (OSError, RuntimeError, ValueError):
        return None
    return font


def fit(text: str, room_pts: float, measure: Callable[[str], float]) -> str:
    """The longest `shorten`ed form of `text` whose width (by `measure`) fits the room; a
    count at its end is never cut, the name before it is (`count_kept`)."""
    text = " ".join(str(text).split())
    if measure(text) <= room_pts:
        return text
    kept = count_kept(text, room_pts, measure)
    if kept is None:
        return _longest(text, room_pts, measure)
    name, count = kept
    return _longest(name, room_pts, lambda shown: measure(shown + count)) + count


def _longest(text: str, room_pts: float, measure: Callable[[str], float]) -> str:
    """The longest `shorten`ed form of `text` (at least four characters) that fits."""
    if measure(text) <= room_pts:
        return text
    low, high = 1, len(text) - 1  # a binary search over the number of characters kept
    while low < high:
        middle = (low + high + 1) // 2
        if measure(shorten(text, middle)) <= room_pts:
            low = middle
        else:
            high = middle - 1
    return shorten(text, max(low, 4))


def place_labels(
    specs: Iterable[LabelSpec],
    *,
    row_pts: float,
    font_pts: float,
    measure: Callable[[str], float] | None = None,
) -> list[tuple[LabelSpec, str]]:
    """The labels to draw, each with its shortened text, in a stable order.

    `row_pts` is the height of one layout row in points; labels closer than 1.15 lines
    within a column are not both drawn. `measure` gives a text's width in points (default:
    an estimate from an average character width).
    """
    min_rows = font_pts * 1.15 / max(row_pts, 1e-9)
    if measure is None:

        def measure(text: str) -> float:
            return len(text) * font_pts * CHAR_WIDTH

    kept: dict[int, list[float]] = {}
    chosen: list[tuple[LabelSpec, str]] = []
    for spec in sorted(specs, key=lambda s: (s.priority, s.column, s.row, str(s.node))):
        rows = kept.setdefault(spec.column, [])
        at = bisect_left(rows, spec.row)
        if at < len(rows) and rows[at] - spec.row < min_rows:
            continue
        if at > 0 and spec.row - rows[at - 1] < min_rows:
            continue
        text = fit(spec.text, spec.room_pts, measure)
        insort(rows, spec.row)
        chosen.append((spec, text))
    chosen.sort(key=lambda item: (item[0].column, item[0].row, str(item[0].node)))
    return chosen
