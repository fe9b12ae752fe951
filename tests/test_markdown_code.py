"""Literal text in a Markdown code span stays in it, whatever backticks it holds: names and
values reach changelogs, compare reports and the docs site through `code`."""

from __future__ import annotations

import pytest

from iptoolkit.support.markdown import code

markdown = pytest.importorskip("markdown")  # Python-Markdown, as MkDocs renders


@pytest.mark.parametrize(
    "text",
    ["plain", "a`b", "x``<img src=x onerror=alert(1)>``", "```<b>x</b>", "`edge`", "<i>"],
)
def test_a_code_span_holds_its_text_whole(text: str) -> None:
    html = markdown.markdown(code(text))
    assert "<img" not in html and "<b>" not in html and "<i>" not in html, html
    assert html.count("<code>") == 1 and html.endswith("</code></p>"), html
