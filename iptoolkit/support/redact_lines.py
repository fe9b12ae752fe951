"""Secrets in YAML's lines and mappings, which `redact_text` (`redact.py`) masks too.

Read line by line, not by one expression: a Kubernetes or Compose `env` entry (`- name:
DB_PASSWORD` above or below its `value: x`, or `value:` with the scalar on the lines below) is
a name/value pair masked by the rule of JSON's (`PAIR_NAMES`, `PAIR_VALUES`), whose members are
siblings only at one indentation of one list item; a YAML block scalar's value is the lines
below its key. A flat mapping written as text (YAML's flow `{name: DB_PASSWORD, value: x}`, a
JSON object, which is one too) is read member by member. Commands' credentials are
`redact_commands.py`'s.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .secret_names import MASK, PAIR_NAMES, PAIR_VALUES, is_secret_name, not_a_credential

__all__ = ["BLOCK_SCALAR", "PROSE", "block_scalar", "mask_mapping_pairs", "mask_yaml_pairs"]

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


class _Value(NamedTuple):
    """A pair's value as written: where it starts and ends, what stands for it, where the
    next line to read starts (after a block's lines), and its scalar (`not_a_credential`)."""

    start: int
    end: int
    masked: str
    next: int
    scalar: str


class _Mapping:
    """A YAML mapping read so far: its keys' column, the secret's name a pair's name member
    among them holds, and the values met before it (`- value: x` above `name: TOKEN`)."""

    __slots__ = ("column", "name", "pending")

    def __init__(self, column: int) -> None:
        self.column = column
        self.name: str | None = None
        self.pending: list[_Value] = []


def mask_yaml_pairs(text: str) -> str:
    """`text` with the value of each YAML name/value pair naming a secret masked: a `value:`
    key (`PAIR_VALUES`) whose sibling in the same mapping (the same list item: its keys at
    one column) is a pair's name (`name:`, `key:`, `PAIR_NAMES`) holding a secret's name, as
    Kubernetes' and Compose's `env` write them; on its line, as a block below it, or as a
    scalar on the lines below (`value:` / `    hunter2`); not a flag or a quantity's number
    (`- name: max_tokens` / `value: 1024`, `not_a_credential`). Each line read once
    (`valueFrom:` is no pair's value: its mapping below is not masked)."""
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
        if key in PAIR_NAMES and is_secret_name(name := _scalar(text[line.end() : line_end])):
            mapping.name = name
            spans += _secret_values(name, mapping.pending)
            mapping.pending.clear()
        elif key in PAIR_VALUES and (value := _pair_value(text, line.end(), line_end, column)):
            if mapping.name is None:
                mapping.pending.append(value)
            else:
                spans += _secret_values(mapping.name, [value])
            position = max(position, value.next)
    if not spans:
        return text
    pieces: list[str] = []
    done = 0
    for start, end, masked in sorted(spans):
        pieces += (text[done:start], masked)
        done = end
    return "".join(pieces) + text[done:]


def _secret_values(name: str, values: list[_Value]) -> list[tuple[int, int, str]]:
    """The spans to mask of the values of a pair naming the secret `name`: not a flag, nor a
    quantity's number (`not_a_credential`)."""
    return [value[:3] for value in values if not not_a_credential(name, value.scalar)]


def _scalar(value: str) -> str:
    """A plain or quoted YAML scalar as written on its key's line, without its comment."""
    return _unquoted(value.partition(" #")[0].strip())


def _pair_value(text: str, start: int, line_end: int, column: int) -> _Value | None:
    """The value after a pair's `value:` key (`start` after its colon), on its line, as a
    block scalar, or below it (`_value_below`); None when there is none (a mapping below it,
    nothing, a mask)."""
    while start < line_end and text[start] in " \t":
        start += 1
    end = line_end - 1 if text[start:line_end].endswith("\r") else line_end
    while end > start and text[end - 1] in " \t":
        end -= 1
    value = text[start:end]
    if value == "" or value.startswith("#"):
        return _value_below(text, start, line_end, column)
    if value.strip("'\"") in ("", MASK):
        return None
    if value[0] in "|>!&" and (header := BLOCK_SCALAR.match(text, start)):
        if (block := block_scalar(text, start, header.end(), column)) is None:
            return None
        return _Value(start, block[0], block[1], block[0], "")
    if value[0] in "'\"" and (close := _closing_quote(value)) > 0:
        masked = f"{value[0]}{MASK}{value[0]}"
        return _Value(start, start + close + 1, masked, line_end, value[1:close])
    return _Value(start, end, MASK, line_end, _scalar(value))


def _closing_quote(value: str) -> int:
    """Where the quoted scalar starting `value` closes (-1: unclosed on its line): YAML writes
    a single quote inside one doubled (`'it''s'`), a double quote escaped (`"a\\"b"`)."""
    quote, at = value[0], 1
    while (at := value.find(quote, at)) > 0:
        if quote == "'" and value[at + 1 : at + 2] == "'":
            at += 2
        elif quote == '"' and (at - len(value[:at].rstrip("\\"))) % 2:
            at += 1
        else:
            return at
    return -1


_BLANK_LINES = re.compile(r"(?:[ \t]*+\r?\n)*+")


def _value_below(text: str, start: int, line_end: int, column: int) -> _Value | None:
    """A scalar on the lines below a `value:` key with none on its line (`start`, after its
    blanks): the first line below that is not blank and those after it, indented deeper than
    the key's `column`; None when that line is a mapping's key, a list's item or a comment
    (a mapping or a list below), or not deeper (nothing: the next key)."""
    blanks = _BLANK_LINES.match(text, line_end + 1) if line_end < len(text) else None
    if blanks is None or blanks.end() >= len(text):
        return None  # nothing below
    below = blanks.end()  # the first line that is not blank
    line = _YAML_LINE.match(text, below)
    assert line is not None  # every part of it is optional
    indent, dash, key = line.group(1, 2, 3)
    first = text[line.end(1) : line.end(1) + 1]
    if len(indent) <= column or dash or key is not None or first in ("", "#", "\r"):
        return None  # (`\r`, or nothing: blanks ending the text)
    if (block := block_scalar(text, start, line_end, column)) is None:
        return None
    written = text[start + len(block[1]) - len(MASK) : block[0]]
    return _Value(start, block[0], block[1], block[0], _scalar(written))


_FLAT_MAPPING = re.compile(r"\{[^{}]*+\}")
"""A mapping written as text holding no other (a JSON object, YAML's flow mapping), on one
line or many: each character is read by the one that starts at the brace before it."""
_MEMBER = re.compile(
    r"""[{,][ \t\r\n]*+(?P<key>"[^"\\\n]{1,60}+"|'[^'\\\n]{1,60}+'|[\w.\-]{1,60}+)"""
    r"""[ \t]*+:[ \t\r\n]*+"""
    r"""(?P<value>"(?:[^"\\\n]|\\.)*+"|'(?:[^'\n]|'')*+'|[^\s,{}\[\]"'#][^,{}\n]*+)?"""
)
"""A member of a flat mapping: its key, quoted or not, a colon, and its value: quoted, or
plain up to a comma, the mapping's end or the line's (`{name: DB_PASSWORD, value: x}`)."""


def mask_mapping_pairs(text: str) -> str:
    """`text` with the value of each name/value pair written as a flat mapping (JSON's
    `{"name": "DB_PASSWORD", "value": "x"}`, pretty-printed or not; YAML's flow mapping
    `{name: DB_PASSWORD, value: x}`) masked by the rule of JSON's: a member holding a pair's
    value (`PAIR_VALUES`) beside one naming a secret (`PAIR_NAMES`), not a flag or a
    quantity's number (`not_a_credential`). Each mapping, and each member, read once."""
    pieces: list[str] = []
    done = 0
    for mapping in _FLAT_MAPPING.finditer(text):
        members = [
            (_unquoted(member["key"]), member)
            for member in _MEMBER.finditer(text, mapping.start(), mapping.end())
        ]
        name = next(
            (
                scalar
                for key, member in members
                if key in PAIR_NAMES
                and member["value"]
                and is_secret_name(scalar := _unquoted(member["value"].strip()))
            ),
            None,
        )
        if name is None:
            continue
        for key, member in members:
            written = (member["value"] or "").rstrip()
            if key not in PAIR_VALUES or _unquoted(written) in ("", MASK):
                continue
            if not_a_credential(name, _unquoted(written)):
                continue
            quote = written[0] if written[0] in "'\"" else ""
            pieces += (text[done : member.start("value")], f"{quote}{MASK}{quote}")
            done = member.start("value") + len(written)
    return "".join(pieces) + text[done:] if pieces else text


def _unquoted(scalar: str) -> str:
    """A key's or a value's text without the quotes around it."""
    if len(scalar) > 1 and scalar[0] in "'\"" and scalar[-1] == scalar[0]:
        return scalar[1:-1]
    return scalar
