"""Secrets in command lines, which `redact_text` (`redact.py`) masks too.

A command's credentials (`curl -u user:pw`, `mysql -ppw`, `docker login -p pw`, `--password
pw`, `--token x`) are told from prose (`use -p to make folders`, `the --token option`) by the
command on their line: a flag holds a password only for a command that reads one there.
"""

from __future__ import annotations

import re

from .redact_lines import PROSE
from .secret_names import MASK

__all__ = ["mask_command_secrets"]

_OPTION_PROSE = PROSE | frozenset(
    "option options flag flags argument arguments parameter parameters switch value instead "
    "if when which that this it via as followed only optional here by using at".split()
)
"""Words that follow an option's name in a sentence (`the --token option`), not its value."""


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
