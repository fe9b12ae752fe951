"""The labels' font as a table: each character's advance in DejaVu Sans at sigma's 12 px.

Labels are cut to the room their column has in the font's own metrics (`topology_fit`).
Reading them from the font meant loading matplotlib and its copy of DejaVu Sans in every
process that lays out a view: 0.5 s of an HTML file's export, which draws nothing with
matplotlib. The package ships the advances instead (`GLYPHS_FILE`, made from that font
by `font_table`: `python -m iptoolkit.viewmodel.label_glyphs` writes it anew), and a test
checks it against the font matplotlib has.
"""

from __future__ import annotations

import functools
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

__all__ = ["FONT_PX", "GLYPHS_FILE", "UNIT", "advance_px", "font_table", "write_table"]

GLYPHS_FILE = "dejavu_sans_12px.json"
"""The table, beside this module: `{"font", "px", "unit", "runs"}`, each run `[first
code point, how many, advance]` of consecutive characters that advance alike."""
UNIT = 65536
"""An advance in the table is in 1/65536 px: FreeType's 16.16 fixed point, exactly."""
_FONT_FAMILY = "DejaVu Sans"
FONT_PX = 12
"""The size the table is for: sigma's labels (`topology_fit.LABEL_FONT_PX`)."""


def advance_px(character: str) -> float | None:
    """How far `character` advances a 12 px label, in pixels; None when the font lacks it."""
    return _advances().get(ord(character))


@functools.cache
def _advances() -> dict[int, float]:
    """Code point -> advance in pixels, every character the font has."""
    table = orjson.loads(resources.files(__package__).joinpath(GLYPHS_FILE).read_bytes())
    return {
        first + offset: advance / UNIT
        for first, count, advance in table["runs"]
        for offset in range(count)
    }


def font_table() -> dict[str, Any]:
    """The table as matplotlib's copy of the font gives it (unhinted advances, as sigma's
    canvas draws text), for writing the file and for the test that checks it."""
    from ..plot.backend import matplotlib_module

    font_manager = matplotlib_module("font_manager")
    ft2font = matplotlib_module("ft2font")
    path = font_manager.findfont(font_manager.FontProperties(family=_FONT_FAMILY))
    font = ft2font.FT2Font(path)
    font.set_size(FONT_PX, 72)
    flags = getattr(ft2font, "LoadFlags", None)  # matplotlib 3.10; a constant before
    unhinted = flags.NO_HINTING if flags is not None else ft2font.LOAD_NO_HINTING
    runs: list[list[int]] = []
    for code in sorted(font.get_charmap()):
        if not font.get_char_index(code):
            continue
        advance = int(font.load_char(code, flags=unhinted).linearHoriAdvance)
        last = runs[-1] if runs else None
        if last is not None and last[0] + last[1] == code and last[2] == advance:
            last[1] += 1
        else:
            runs.append([code, 1, advance])
    return {"font": _FONT_FAMILY, "px": FONT_PX, "unit": UNIT, "runs": runs}


def write_table(folder: Path) -> Path:
    """Write `font_table()` as `GLYPHS_FILE` into `folder` (this package's, by default)."""
    path = folder / GLYPHS_FILE
    path.write_bytes(orjson.dumps(font_table()) + b"\n")
    return path


if __name__ == "__main__":  # pragma: no cover - run by hand when matplotlib's font changes
    print(write_table(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent))
