"""Secrets in lines of YAML, which `redact_text` (`redact.py`) masks too.

Read line by line, not by one expression: a Kubernetes or Compose `env` entry (`- name:
DB_PASSWORD` above or below its `value: x`) is a name/value pair masked by the rule of JSON's
(`PAIR_NAMES`, `PAIR_VALUES`), whose members are siblings only at one indentation of one list
item; a YAML block scalar's value is the lines below its key. Commands' credentials are
`redact_commands.py`'s.
"""

from __future__ import annotations

import re

from .secret_names import MASK, PAIR_NAMES, PAIR_VALUES, is_secret_name

__all__ = ["BLOCK_SCALAR", "PROSE", "block_scalar", "mask_yaml_pairs"]

BLOCK_SCALAR = re.compile(
    r"(?:[!&][^\s]*+[ \t]++){0,2}+"  # a tag (`!!binary`, `!vault`) or an anchor (`&pw`)
    r"[|>](?:[1-9][+\-]?|[+\-][1-9]?)?[ \t]*+(?:#[^\n]*+)?(?=\r?\n|\Z)"
)
"""A YAML block scalar's header (`|`, `>-`, `|2+`, a comment after it, a tag or an anchor
before it): its value is the lines below it, indented deeper than its key."""
PROSE = frozenset(
    "a an the no not none is was are be been has have had must should will can could "
    "missing expired invalid required empty unset set given provided needed null undefined "
    "see for from in of on to and or with without".split()
)
"""Words that follow a secret's name and a colon in a sentence, never as its value."""


def block_scalar(text: str, start: int, header: int, column: int) -> tuple[int, str] | None:
    """A YAML block scalar's lines masked: those below its header (`|`, `>-`, starting at
    `start`, ending at `header`), blank or indented deeper than its key's `column`, shown as
    one masked line indented as its first; None when no such line follows."""
    end = first = -1
    position = header  # at the `\n` ending a line, or the text's end
    while position < len(text):
        found = text.find("\n", position + 1)
        line_end = len(text) if found == -1 else found
        line = text[position + 1 : line_end]
        body = line.lstrip(" \t")
        if body.strip():
            if len(line) - len(body) <= column:
                break
            if first == -1:
                first = position + 1 + len(line) - len(body)
            end = line_end - 1 if line.endswith("\r") else line_end
        position = line_end
    if first == -1:
        return None
    return end, text[start:first] + MASK


_YAML_LINE = re.compile(r"([ \t]*+)(-[ \t]++)?+(?:([\w.\-]{1,60}+)[ \t]*+:(?=[ \t\r\n]|\Z))?")
"""A YAML line's indentation, a sequence's dash, and the key it holds, if any."""
_VALUE_LINE = re.compile(r"^[ \t]*+(?:-[ \t]++)?+[\w\-]*values?[ \t]*+:", re.MULTILINE | re.I)
"""A line whose key may hold a pair's value (`  value:`, every spelling of `PAIR_VALUES`):
text without one has no pair to mask, told in one search rather than a Python step per line
(a superset: `mask_yaml_pairs` asks `PAIR_VALUES` of each key; an alternation of its 262
spellings, tried at every line's start, took twice as long on 300 KB of short lines)."""


class _Mapping:
    """A YAML mapping read so far: its keys' column, whether a pair's name member among them
    names a secret, and the values met before it did (`- value: x` above `name: TOKEN`)."""

    __slots__ = ("column", "secret", "pending")

    def __init__(self, column: int) -> None:
        self.column = column
        self.secret = False
        self.pending: list[tuple[int, int, str]] = []


def mask_yaml_pairs(text: str) -> str:
    """`text` with the value of each YAML name/value pair naming a secret masked: a `value:`
    key (`PAIR_VALUES`) whose sibling in the same mapping (the same list item: its keys at
    one column) is a pair's name (`name:`, `key:`, `PAIR_NAMES`) holding a secret's name, as
    Kubernetes' and Compose's `env` write them. Each line read once (`valueFrom:` is no
    pair's value: its mapping below is not masked)."""
    if _VALUE_LINE.search(text) is None:
        return text
    spans: list[tuple[int, int, str]] = []  # (start, end, what stands for it)
    mappings: list[_Mapping] = []  # the mappings open at a line, the deepest last
    position = 0
    while position < len(text):
        found = text.find("\n", position)
        line_end = len(text) if found == -1 else found
        line = _YAML_LINE.match(text, position)
        assert line is not None  # every part of it is optional
        indent, dash, key = line.group(1, 2, 3)
        column = len(indent) + len(dash or "")
        position = line_end + 1
        if line.end(1) >= line_end or text[line.end(1)] in "#\r":
            continue  # a blank line or a comment: no mapping ends
        while mappings and (
            mappings[-1].column > column or (dash and mappings[-1].column == column)
        ):
            mappings.pop()  # a line less deep ends a mapping; a dash starts the next item
        if key is None:
            continue
        if not mappings or mappings[-1].column != column:
            mappings.append(_Mapping(column))
        mapping = mappings[-1]
        if key in PAIR_NAMES and is_secret_name(_scalar(text[line.end() : line_end])):
            mapping.secret = True
            spans += mapping.pending
            mapping.pending.clear()
        elif key in PAIR_VALUES and (value := _pair_value(text, line.end(), line_end, column)):
            (spans if mapping.secret else mapping.pending).append(value[:3])
            position = max(position, value[3])
    if not spans:
        return text
    pieces: list[str] = []
    done = 0
    for start, end, masked in sorted(spans):
        pieces += (text[done:start], masked)
        done = end
    return "".join(pieces) + text[done:]


def _scalar(value: str) -> str:
    """A plain or quoted YAML scalar as written on its key's line, without its comment."""
    value = value.partition(" #")[0].strip()
    return value[1:-1] if len(value) > 1 and value[0] in "'\"" and value[-1] == value[0] else value


def _pair_value(
    text: str, start: int, line_end: int, column: int
) -> tuple[int, int, str, int] | None:
    """The value after a pair's `value:` key (`start` after its colon): where it starts and
    ends, what stands for it, and where the next line to read starts (after a block scalar's
    lines); None when none stands on its line (a mapping below it, nothing, a mask)."""
    while start < line_end and text[start] in " \t":
        start += 1
    end = line_end - 1 if text[start:line_end].endswith("\r") else line_end
    while end > start and text[end - 1] in " \t":
        end -= 1
    value = text[start:end]
    if value.strip("'\"") in ("", MASK) or value.startswith("#"):
        return None
    if value[0] in "|>!&" and (header := BLOCK_SCALAR.match(text, start)):
        if (block := block_scalar(text, start, header.end(), column)) is None:
            return None
        return start, block[0], block[1], block[0]
    if value[0] in "'\"" and (close := value.find(value[0], 1)) > 0:
        return start, start + close + 1, f"{value[0]}{MASK}{value[0]}", line_end
    return start, end, MASK, line_end
