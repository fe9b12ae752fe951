"""Counted nouns: one helper (`names.plural`) for every view, and no copy of it elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iptoolkit.support.names import plural

PACKAGE = Path(__file__).resolve().parent.parent / "iptoolkit"
COPY = re.compile(r"""==\s*1\s+else\s+['"]s['"]|!=\s*1\s+else\s+['"]['"]""")
"""The tell-tale of a hand-made plural: `'' if n == 1 else 's'`, `'s' if n != 1 else ''`."""


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [(0, "channel", "0 channels"), (1, "channel", "1 channel"), (2, "active profile",
     "2 active profiles"), (10_000, "partner", "10,000 partners"), (2, "error", "2 errors"),
     (517, "warning", "517 warnings"), (673, "info", "673 info"), (1, "info", "1 info")],
)  # fmt: skip
def test_plural(count: int, noun: str, said: str) -> None:
    assert plural(count, noun) == said


def test_no_module_makes_its_own_plural() -> None:
    """`models/` is left out: its parser error wording is owned with the parser."""
    copies = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "names.py" and "models" not in path.relative_to(PACKAGE).parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COPY.search(line)
    ]
    assert copies == []
