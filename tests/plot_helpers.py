"""What the plotting tests read back from a drawn matplotlib collection, typed as a drawn
collection gives it: matplotlib's stubs type the getters as what the setters take (a colour
or a sequence of them, any array-like), where a drawn collection gives arrays and lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import Collection, PathCollection
from matplotlib.colors import to_hex, to_rgba_array

HALO = "#ffd34d"
"""The fill of the halo drawn behind a highlighted node."""


def offsets(collection: Collection) -> np.ndarray:
    """Where its markers are: one (x, y) row each."""
    return np.asarray(collection.get_offsets())


def face_colours(collection: Collection) -> list[str]:
    """Its fill colours as `#rrggbb`: one for every marker, or one that all of them share."""
    return [to_hex(rgba) for rgba in to_rgba_array(collection.get_facecolor())]


def edge_colours(collection: Collection) -> list[str]:
    """Its outline (or line) colours as `#rrggbb`, as `face_colours`."""
    return [to_hex(rgba) for rgba in to_rgba_array(collection.get_edgecolor())]


def haloed(ax: Axes) -> int:
    """How many markers of the topology diagram `ax` wear a highlight halo."""
    return sum(
        len(offsets(c))
        for c in ax.collections
        if isinstance(c, PathCollection) and face_colours(c)[0] == HALO
    )


def dash_patterns(collection: Collection) -> list[Sequence[float] | None]:
    """The dash pattern of each of its lines, None for a solid line (a drawn collection
    keeps an `(offset, dashes)` pair per line, which the stubs do not say)."""
    styles: Any = collection.get_linestyle()
    return [dashes for _offset, dashes in styles]
