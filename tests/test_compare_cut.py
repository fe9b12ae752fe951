"""Long values in compare's text and Markdown are cut around where they differ: two values
that differ only in the middle, or only at the end, never show as the same cut string."""

from __future__ import annotations

import re

import pytest

import iptoolkit as ipt

WORDS = "".join(f"word{n} " for n in range(40))
MIDDLE = (WORDS + "alpha " + WORDS, WORDS + "omega " + WORDS)
END = (WORDS + WORDS + "end-1", WORDS + WORDS + "end-2")


@pytest.fixture(scope="module")
def result() -> ipt.Comparison:
    prod = ipt.demo_estate(40)
    a = [dict(r.raw) for r in prod.records]
    b = [dict(r.raw) for r in prod.records]
    for index, (old, new) in enumerate((MIDDLE, END)):
        a[index]["description"], b[index]["description"] = old, new
    return ipt.compare(ipt.Estate.from_raw(a), ipt.Estate.from_raw(b))


def test_text_shows_where_long_values_differ(result: ipt.Comparison) -> None:
    pairs = re.findall(r"\$\.description: (.*) -> (.*)", result.to_text())
    assert len(pairs) == 2, result.to_text()
    for old, new in pairs:
        assert old != new and len(old) <= 60 and len(new) <= 60
    shown = " ".join(side for pair in pairs for side in pair)
    assert all(word in shown for word in ("alpha", "omega", "end-1", "end-2"))


def test_markdown_shows_where_long_values_differ(result: ipt.Comparison) -> None:
    pairs = re.findall(r"`\$\.description`: `([^`]*)` → `([^`]*)`", result.to_markdown())
    assert len(pairs) == 2
    assert all(old != new for old, new in pairs)
    shown = " ".join(side for pair in pairs for side in pair)
    assert all(word in shown for word in ("alpha", "omega", "end-1", "end-2"))


@pytest.mark.parametrize("pair", [MIDDLE, END, ("x" * 30 + "a", "x" * 30 + "ab")])
def test_shorten_pair_keeps_the_difference_in_view(pair: tuple[str, str]) -> None:
    from iptoolkit.support.printable import shorten_pair

    old, new = shorten_pair(*pair, 20)
    assert old != new and len(old) <= 20 and len(new) <= 20
    assert shorten_pair("short", "other", 20) == ("short", "other")
    assert shorten_pair("a" + "x" * 40, "b" + "x" * 40, 20)[0] == "a" + "x" * 18 + "…"
