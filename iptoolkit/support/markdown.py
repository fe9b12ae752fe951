"""The one Markdown escaper: every page, changelog and report we write in Markdown uses it.

Two jobs, told apart by what the text is:
- `escape(text)`: *literal* text (a name, a value, a path from the estate, which is hostile
  input) as one Markdown line that shows exactly those characters and nothing of Markdown's:
  markup characters backslash-escaped, an `&` that starts a character reference (`&copy;`,
  `&#169;`, `&lt;b&gt;`) written `&amp;`, `<` as `&lt;` and `~` (GitHub's strikethrough) as
  `&#126;`: entities, because Python-Markdown (MkDocs) shows a backslash before `&`, `<` or
  `~` as typed;
- `code(text)`: literal text as an inline code span, whatever backticks it holds;
- `chat(text)`: literal text for a chat message's Markdown (Slack, Microsoft Teams,
  Mattermost webhooks), which read more than Markdown: Slack takes `<!channel>`, `<@U1>`
  and `<url|label>` as commands and wants `& < >` written as entities; Mattermost pings
  on `@channel`;
- `cell(markdown)`: text that *is* Markdown already (our own docstrings) made fit for one
  table cell: one line, pipes escaped.

Text from the estate may hold control characters and noncharacters (a NUL, U+FFFF): both
`escape` and `code` drop them (`drop_unprintable`), which no reader sees and some tools refuse.

And `write_reference(module, render, argv)`: the command line of a generated Markdown
reference (`python -m MODULE [OUTPUT.md]`), shared by the rules and data model references.

A leaf module: it imports nothing of ours but `support.printable` (a leaf too), so any layer may
use it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from .printable import drop_unprintable

__all__ = ["escape", "code", "chat", "cell", "MARKUP", "write_reference"]

MARKUP = "\\`*_[]<>|#"
"""The characters Markdown (CommonMark, GitHub, MkDocs) may read as markup inside a line."""

_ESCAPED = str.maketrans({**{char: "\\" + char for char in MARKUP}, "<": "&lt;"})
_REFERENCE = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
"""An `&` that starts a character reference (`&copy;`, `&#169;`, `&#xA9;`), which a
renderer would show as the character it names."""


def escape(text: str) -> str:
    """Literal text as one Markdown line: whitespace runs (newlines too) become one space,
    every markup character is backslash-escaped, an `&` starting a character reference is
    `&amp;`, `<` is `&lt;` and `~` is `&#126;`, so `**x**`, `<img ...>`, `&copy;` or
    `~~x~~` shows as typed; control characters are dropped."""
    line = " ".join(drop_unprintable(text).split())
    line = _REFERENCE.sub("&amp;", line).translate(_ESCAPED)
    return line.replace("~", "&#126;")  # after the `#` was escaped: this one is ours


_CHAT = str.maketrans(
    {
        **{char: "\\" + char for char in MARKUP if char not in "<>"},
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
    }
)
_MENTION = re.compile(r"@(?=\w)")


def chat(text: str) -> str:
    """Literal text as one line of a chat message: control characters dropped, white space
    (line breaks too) as one space, `& < >` as entities (Slack's escaping, which Teams and
    Markdown readers show as the characters), every other markup character backslash-
    escaped as `escape` does, and `@name` broken by a zero-width space, so that no name
    mentions, links, pings or starts a line of its own."""
    line = " ".join(drop_unprintable(text).split()).translate(_CHAT)
    return _MENTION.sub("@\u200b", line)


def code(text: str) -> str:
    """Literal text as a code span, one line, control characters dropped: fenced by one
    backtick more than its longest run of them (CommonMark's rule, so that no run inside
    closes the span: `` x``<img> `` would let the rest out as HTML), padded by a space
    when it holds a backtick."""
    text = " ".join(drop_unprintable(text).split())
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}" if longest else f"`{text}`"


_BACKTICKS = re.compile(r"`+")


def cell(markdown: str) -> str:
    """Markdown (our own, not the estate's) fit for one table cell: one line, pipes escaped."""
    return " ".join(markdown.split()).replace("|", "\\|")


def write_reference(module: str, render: Callable[[], str], argv: Sequence[str] | None) -> int:
    """`python -m MODULE [OUTPUT.md]`: write what `render` makes to the path given, or to
    standard output; 2 with a usage line for anything else. The exit status to return."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(f"usage: python -m {module} [OUTPUT.md]", file=sys.stderr)
        return 2
    text = render()
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
