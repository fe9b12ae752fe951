"""Secrets in lines of YAML and of commands, which `redact_text` (`redact.py`) masks too.

Read line by line, not by one expression: a Kubernetes or Compose `env` entry (`- name:
DB_PASSWORD` above or below its `value: x`) is a name/value pair masked by the rule of JSON's
(`PAIR_NAMES`, `PAIR_VALUES`), whose members are siblings only at one indentation of one list
item; a YAML block scalar's value is the lines below its key; and a command's credentials
(`curl -u user:pw`, `mysql -ppw`, `docker login -p pw`, `--password pw`, `--token x`) are
told from prose (`use -p to make folders`, `the --token option`) by the command on their line.
"""

from __future__ import annotations

import re

from .secret_names import MASK, PAIR_NAMES, PAIR_VALUES, is_secret_name

__all__ = ["BLOCK_SCALAR", "PROSE", "block_scalar", "mask_yaml_pairs", "mask_command_secrets"]

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
_OPTION_PROSE = PROSE | frozenset(
    "option options flag flags argument arguments parameter parameters switch value instead "
    "if when which that this it via as followed only optional here by using at".split()
)
"""Words that follow an option's name in a sentence (`the --token option`), not its value."""


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


_COMMAND_SECRET = re.compile(
    r"""(?<![\w\-])(?:(?P<user>-u|-U|--user|--proxy-user)(?:[ \t]++|=)"""  # curl's `-u u:pw`
    r"""(?P<user_quote>["']?+)(?P<name>[^\s:"'/@]{1,100}+):"""
    r"""|-p(?P<blank>[ \t]*+)"""  # mysql's `-ppw`, `docker login -p pw`
    r"""|--(?P<option>[A-Za-z][\w\-]{0,60}+)[ \t]++)"""  # `--password pw`, `--token x`
)
"""Where a command's credential starts: after a user and a colon (`curl -u admin:pw`,
`--user`, `--proxy-user`), a `-p` (`_MYSQL`, `_LOGIN` say when), an option named as a
secret followed by a blank (`--client-secret x`; `--password=x` is `redact_query`'s pair)."""
_MYSQL = re.compile(r"(?<![\w\-.])(?:mysql|mariadb)(?:dump|admin|import|check|sh)?(?![\w\-.])")
"""Commands whose `-p` holds the password glued to it (`mysql -u root -ps3cret db`)."""
_LOGIN = re.compile(r"(?<![\w\-.])(?:login|sshpass)(?![\w\-.@])")
"""Commands whose `-p` holds the password after a blank (`docker login -u me -p x`, `oc
login`, `az login`, `sshpass -p x ssh`); elsewhere a `-p` is a port, parents, a path."""
_CURL = re.compile(r"(?<![\w\-.])curl(?![\w\-.])")
"""The command whose `-u user:password` is one (`docker run -u www-data:www-data`,
`git push -u origin:main`, `psql -U postgres:5432` are a user and group, a branch, a port)."""
_COMMAND_END = re.compile(r"&&|\|\||[;|\n]|[,.](?=[ \t])|\bthen\b")
"""Where a command on a line ends and the next begins: its `-p` is no longer the login's."""
_SECRET_OPTIONS = frozenset(
    "password passwd pass pwd token secret client-secret api-key apikey access-token "
    "auth-token private-key storepass keypass".split()
)
"""Options whose value is a credential (`--password x`, `--client-secret x`); not options
about one (`--no-password`, `--ask-pass`, `--token-ttl 5`, `--with-token < file`)."""
_WORD_END = re.compile(r"[\s\"'`]")
_QUOTE_END = {quote: re.compile(f"[{quote}\n]") for quote in ("'", '"')}
"""Where a quoted argument ends: at its closing quote, or unclosed at its line's end."""


def mask_command_secrets(text: str) -> str:
    """`text` with the credentials of command lines masked (`_COMMAND_SECRET`): the password
    of `-u user:password`, quoted or not, `-p`'s value for a command that reads a password
    there, and the value of an option named for a credential (`_SECRET_OPTIONS`), not a word of
    prose (`the --token option`), another option, or a mask. One pass, left to right; the
    commands of a line are looked for once, and only for a `-p` on it."""
    pieces: list[str] = []
    done = position = 0
    line_start = line_end = -1  # the line of the last match seen
    commands: dict[re.Pattern[str], tuple[int, int]] = {}  # a command's place on it
    while (match := _COMMAND_SECRET.search(text, position)) is not None:
        start = position = match.end()
        blank, option = match.group("blank", "option")
        if match.start() > line_end:  # a new line: its commands not looked for yet
            line_start = text.rfind("\n", 0, match.start()) + 1
            found = text.find("\n", match.start())
            line_end, commands = len(text) if found == -1 else found, {}
        if option is None:  # `curl -u u:pw`, `login -p pw`, `mysql -ppw`
            user = match.group("user") is not None
            command = _CURL if user else _LOGIN if blank else _MYSQL
            if command not in commands:
                commands[command] = _first(command, text, line_start, line_end)
            begins, ends = commands[command]
            follows = text[start : start + 1]  # a `-p` before another option has none
            if not begins < match.start() < ends or follows == "" or (follows == "-" and not user):
                continue
            value = _command_value(text, start, match.group("user_quote") if user else "")
        else:
            if option.lower().replace("_", "-") not in _SECRET_OPTIONS:
                continue
            value = _command_value(text, start, "")
            if _placeholder(text[start : value[0]]):
                continue
        end, masked = value
        if text[start:end].strip("'\"") in ("", MASK):
            continue
        pieces += (text[done:start], masked)
        done = position = end
    return "".join(pieces) + text[done:] if pieces else text


def _first(command: re.Pattern[str], text: str, start: int, end: int) -> tuple[int, int]:
    """Where `command` first stands in `text[start:end]` (one line) and where the command
    it begins ends (`_COMMAND_END`), else `len(text)` twice."""
    found = command.search(text, start, end)
    if found is None:
        return len(text), len(text)
    after = _COMMAND_END.search(text, found.end(), end)
    return found.start(), end if after is None else after.start()


def _placeholder(value: str) -> bool:
    """An option's value that is not one: another option, prose (`the --token option`), a
    placeholder (`<value>`, `[NAME]`, `PASSWORD`)."""
    word = value.strip("'\"").rstrip(",.;:!?)")
    return (
        word[:1] in ("", "-", "<", "[", "(")
        or word.lower() in _OPTION_PROSE
        or (word.isalpha() and word.isupper())
    )


def _command_value(text: str, start: int, quote: str) -> tuple[int, str]:
    """Where a command's argument starting at `start` ends (inside a quote opened before
    it, `quote`, or its own), and what stands for it: its closing quote, or its line's end
    when none closes it; else at white space or a quote."""
    opened = quote or text[start : start + 1]
    if opened in ("'", '"'):
        first = start + (not quote)  # past its own opening quote
        found = _QUOTE_END[opened].search(text, first)  # not the quote of a later line
        end = len(text) if found is None else found.start()
        closed = found is not None and found.group() == opened
        while not closed and end > first and text[end - 1] == "\r":
            end -= 1
        own = "" if quote else opened
        return end + (closed and not quote), f"{own}{MASK}{own if closed else ''}"
    found = _WORD_END.search(text, start)
    return (len(text) if found is None else found.start()), MASK
