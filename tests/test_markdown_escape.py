"""`escape` keeps literal text literal in the renderers our Markdown meets: markdown-it-py
(CommonMark, with GitHub's strikethrough and tables) for GitHub's comments, job summaries
and changelogs, and Python-Markdown with the docs site's extensions, as MkDocs renders.
Each text is rendered and the text shown compared with the input: no character reference
decoded (`&copy;`, `&lt;b&gt;`), no strikethrough (`~~x~~`), no markup (issue 44, item 14).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from iptoolkit.support.markdown import escape

markdown = pytest.importorskip("markdown")  # Python-Markdown, as MkDocs renders
markdown_it = pytest.importorskip("markdown_it")

LITERAL = [
    "&copy; 2024 Acme",
    "&lt;b&gt;bold&lt;/b&gt;",
    "~~x~~",
    "&#169; &#xA9; &#X1F600; &#0;",
    "&frac12; &amp; &AMP; &nbsp;",
    "&&copy;; &copy &;",
    "~/orders/~tmp a~b ~~",
    "Mosel Retail GmbH & Co. KG",
    "AT&T; tom & jerry;",
    "\\~~x\\~~ \\&copy;",
]
"""Texts a renderer would change: character references, strikethrough, and their neighbours."""
MARKUP = [
    "*bold* _em_ [link](javascript:alert(1)) `code` | pipe # hash \\ back",
    "<img src=x onerror=alert(1)> &lt;img&gt;",
    "~~**strong**~~ &copy;",
]
"""Markup, `<` and `|` among it: Python-Markdown showed `\\<` with its backslash (`<` is
not one of its escapes), so `<` is written `&lt;`."""


class _Text(HTMLParser):
    """The text an HTML page shows (character references decoded), and its elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def shown(html: str) -> tuple[str, set[str]]:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "".join(parser.text).strip(), set(parser.tags)


def github(text: str) -> str:
    return str(markdown_it.MarkdownIt("commonmark").enable(["strikethrough", "table"]).render(text))


def mkdocs(text: str) -> str:
    return str(markdown.markdown(text, extensions=["tables", "md_in_html", "toc"]))


@pytest.mark.parametrize("text", LITERAL + MARKUP)
def test_github_shows_the_text_as_typed(text: str) -> None:
    assert shown(github(escape(text))) == (text, {"p"})


@pytest.mark.parametrize("text", LITERAL + MARKUP)
def test_mkdocs_shows_the_text_as_typed(text: str) -> None:
    assert shown(mkdocs(escape(text))) == (text, {"p"})


def test_escaped_text_stays_readable() -> None:
    """Only an `&` starting a reference becomes an entity; other text is left as it is."""
    assert escape("Mosel Retail GmbH & Co. KG") == "Mosel Retail GmbH & Co. KG"
    assert escape("&copy; ~~x~~") == "&amp;copy; &#126;&#126;x&#126;&#126;"
    assert escape("a\n&lt;b&gt;\x00") == "a &amp;lt;b&amp;gt;"
    assert escape("Fin|ance/<b>AP<") == "Fin\\|ance/&lt;b\\>AP&lt;"
