"""Writing Markdown that reads the same on GitHub and in MkDocs: escaped text, links,
tables, anchors and a folded block. Every text shown passes `support.redact.redact_text`, so a
password or token inside a URL never reaches a page."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..support.markdown import escape
from ..support.redact import redact_text

__all__ = ["text", "identifier", "link", "table", "anchor_tag", "folded", "more"]


def text(value: Any) -> str:
    """A value as literal Markdown on one line: redacted, without control characters,
    Markdown's characters escaped."""
    if value is None or value == "":
        return "–"
    return escape(redact_text(" ".join(str(value).split())))


def identifier(value: Any) -> str:
    """An id as `text` writes it, in a span the site's style sheet keeps on one line
    (`P-000015` never wraps after its hyphen); GitHub drops the class and shows the text."""
    shown = text(value)
    return shown if shown == "–" else f'<span class="ipt-id">{shown}</span>'


def link(label: Any, href: str) -> str:
    """`[label](href)`; the href is written by the site map, never from the estate's text."""
    return f"[{text(label)}]({href})"


def anchor_tag(name: str) -> str:
    """An empty HTML anchor: both GitHub (which prefixes it and follows links to it) and
    MkDocs keep it, unlike heading ids, which each derives its own way."""
    return f'<a id="{name}"></a>'


def table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A pipe table; cells are Markdown already (escaped by `text`, or links)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def folded(summary: str, body: str) -> str:
    """A block folded under a summary line: `<details>` on GitHub, and in MkDocs with the
    `md_in_html` extension (which the generated mkdocs.yml turns on)."""
    return f'<details markdown="1">\n<summary>{text(summary)}</summary>\n\n{body}\n\n</details>'


def more(items: Sequence[str], shown: int, rest: str) -> str:
    """The first `shown` items joined, and how many more there are, said where."""
    head = ", ".join(items[:shown])
    if len(items) <= shown:
        return head
    return f"{head} and {len(items) - shown:,} more ({rest})"
