"""The labels' font table (`viewmodel/label_glyphs.py`) is the font's: every advance the
package ships is the one matplotlib's DejaVu Sans gives at 12 px, and labels are measured
without loading matplotlib."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from iptoolkit.viewmodel import label_glyphs
from iptoolkit.viewmodel.topology_fit import MISSING_GLYPH_PX, label_px


@pytest.fixture(scope="module")
def font() -> dict[str, Any]:
    """The table as matplotlib's font gives it now."""
    return label_glyphs.font_table()


def test_the_shipped_table_is_the_fonts_own(font: dict[str, Any]) -> None:
    shipped = orjson.loads(
        (Path(label_glyphs.__file__).parent / label_glyphs.GLYPHS_FILE).read_bytes()
    )
    assert shipped == font
    assert len(shipped["runs"]) > 1000  # the whole font, not a sample


def test_labels_are_measured_by_the_table(font: dict[str, Any]) -> None:
    advances = {
        first + offset: advance / font["unit"]
        for first, count, advance in font["runs"]
        for offset in range(count)
    }
    text = "Oberland Retail · P-000047 Ünïcødé ⬢ 漢"
    expected = sum(advances.get(ord(c), MISSING_GLYPH_PX) for c in text)
    assert label_px(text) == expected
    assert label_glyphs.advance_px("漢") is None  # not in the font: drawn from another
    assert label_px("漢") == MISSING_GLYPH_PX
    assert label_px("⬢") == advances[ord("⬢")] != MISSING_GLYPH_PX


def test_measuring_labels_loads_no_matplotlib() -> None:
    script = (
        "import sys; from iptoolkit.viewmodel.topology_fit import label_px; "
        "label_px('AS2 agent'); print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
