"""Secrets in command lines, which `redact_text` (`redact.py`) masks too.

A command's credentials (`curl -u user:pw`, `mysql -ppw`, `docker login -p pw`, `mongosh -p
pw`, `redis-cli -a pw`, `ldapsearch -w pw`, `smbclient -U user%pw`, `keytool -storepass pw`,
`--password pw`, `--token x`) are told from prose (`use -p to make folders`, `ls -a`, `the
--token option`) by the command on their line: a flag holds a password only for a command
on its line that reads one there (the first there, or a later one past its end). A
placeholder there (`-a <password>`) is masked, and so is prose that names the command before
a glued flag (`the mysql client reads -password`): where a command takes a password, any
word may be one (`-p SECRETPW`, `-p (x)`, `-password`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .redact_lines import PROSE
from .secret_names import MASK

__all__ = ["COMMAND_MARK", "mask_command_secrets"]

_OPTION_PROSE = PROSE | frozenset(
    "option options flag flags argument arguments parameter parameters switch value instead "
    "if when which that this it via as followed only optional here by using at".split()
)
"""Words that follow an option's name in a sentence (`the --token option`), not its value."""


COMMAND_MARK = re.compile(r"(?<![\w\-])-[uUpawsknd\-]")
"""What a command's credential stands after (`-u`, `-p`, `-a`, `-w`, `-storepass`, `-keypass`,
`-new`, `--`; `mask_command_secrets`): text without one skips that pass, found in one search
(a generator of `in` tests per text doubled the time of masking a snapshot's every field)."""
_FLAG_PATTERN = (
    r"-(?P<flag>[pawU]|(?:(?:src|dest)?(?:store|key)pass|new)(?=[ \t]))(?P<blank>[ \t]*+)"
)
_FLAG = re.compile(_FLAG_PATTERN)
"""A flag some command reads a password after (`_FLAGS`), and the blank after it."""
_COMMAND_SECRET = re.compile(
    r"""(?<![\w\-])(?:(?P<user>-[uU](?:[ \t]++|=)?+|--(?:proxy-)?user(?:[ \t]++|=))"""
    r"""(?P<user_quote>["']?+)(?P<name>[^\s:"'/]{0,100}+):"""  # curl's `-u u:pw`, `-u :pw`
    rf"""|{_FLAG_PATTERN}"""
    r"""|--(?P<option>[A-Za-z][\w\-]{0,60}+)[ \t]++)"""  # `--password pw`, `--token x`
)
"""Where a command's credential starts: after a user and a colon (`curl -u admin:pw`,
`-uadmin:pw`, `-u me@x.com:pw`, `-u :pw`, `--user`, `--proxy-user`), a flag some command
reads a password after (`_FLAGS` says which), an option named as a secret followed by a
blank (`--client-secret x`; `--password=x` is `redact_query`'s pair)."""


def _command(names: str) -> re.Pattern[str]:
    """A command's name standing as a word (not `mysql.conf`, `login@host`, `mongodb://`)."""
    return re.compile(rf"(?<![\w\-.])(?:{names})(?![\w\-.@])")


_MYSQL = _command(r"(?:mysql|mariadb)(?:dump|admin|import|check|sh)?")
_LOGIN = _command(r"login|sshpass")
_MONGO = _command(r"mongo(?:sh|dump|restore|export|import|stat|top|files)?")
_REDIS = _command(r"redis-(?:cli|benchmark)")
_LDAP = _command(r"ldap(?:search|modify|add|delete|passwd|whoami|compare|modrdn|exop)")
_SMB = _command(r"smbclient|rpcclient|smbcacls|smbcquotas|smbtree|smbget")
_KEYTOOL = _command(r"keytool|jarsigner")
_CURL = _command(r"curl")
"""The command whose `-u user:password` is one (`docker run -u www-data:www-data`,
`git push -u origin:main`, `psql -U postgres:5432` are a user and group, a branch, a port)."""


class _Reader(NamedTuple):
    """A command reading a password after one of its flags: glued to it (`mysql -ppw`),
    after a blank (`docker login -p pw`), or both; after a user and a `%` (`smbclient -U
    alice%pw`: `after`)."""

    command: re.Pattern[str]
    glued: bool
    blank: bool
    after: str = ""


_KEYTOOL_READS = (_Reader(_KEYTOOL, glued=False, blank=True),)
_FLAGS: dict[str, tuple[_Reader, ...]] = {
    "p": (
        _Reader(_MYSQL, glued=True, blank=False),  # `mysql -p db` asks, `db` is a database
        _Reader(_LOGIN, glued=False, blank=True),  # `docker login`, `oc login`, `sshpass`
        _Reader(_MONGO, glued=True, blank=True),
    ),
    "a": (_Reader(_REDIS, glued=False, blank=True),),
    "w": (_Reader(_LDAP, glued=True, blank=True),),
    "U": (_Reader(_SMB, glued=True, blank=True, after="%"),),
    **dict.fromkeys(
        (
            "storepass",
            "keypass",
            "srcstorepass",
            "srckeypass",
            "deststorepass",
            "destkeypass",
            "new",
        ),
        _KEYTOOL_READS,
    ),  # fmt: skip
}
"""Which commands read a password after each flag: elsewhere a `-p` is a port, parents, a
path; a `-a` all; a `-w` a word; a `-U` a user alone."""
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
    of `-u user:password`, quoted or not, a flag's value for a command that reads a password
    there (`_FLAGS`), and the value of an option named for a credential (`_SECRET_OPTIONS`),
    not a word of prose (`the --token option`), another option, or a mask. One pass, left to
    right; the commands of a line are looked for once, and only for a flag on it."""
    pieces: list[str] = []
    done = position = 0
    line_start = line_end = -1  # the line of the last match seen
    commands: dict[re.Pattern[str], tuple[int, int]] = {}  # a command's place on it
    while (match := _COMMAND_SECRET.search(text, position)) is not None:
        start = position = match.end()
        flag, option = match.group("flag", "option")
        if match.start() > line_end:  # a new line: its commands not looked for yet
            line_start = text.rfind("\n", 0, match.start()) + 1
            newline = text.find("\n", match.start())
            line_end, commands = len(text) if newline == -1 else newline, {}
        if option is not None:  # `--password pw`
            if option.lower().replace("_", "-") not in _SECRET_OPTIONS:
                continue
            value = _command_value(text, start, "")
            if _placeholder(text[start : value[0]]):
                continue
        elif flag is None and _within(
            _CURL, match.start(), text, (line_start, line_end), commands
        ):  # `curl -u u:pw`
            value = _command_value(text, start, match.group("user_quote"))
        else:  # `mysql -ppw`, `login -p pw`, `smbclient -U u%pw` (`-U u%p:w` read as curl's)
            flagged = match if flag is not None else _FLAG.match(text, match.start())
            if flagged is None:
                continue
            read = _flag_read(flagged, text, (line_start, line_end), commands)
            if read is None:
                if flagged is not match:  # its word read once, not once per `-U` in it
                    position = max(position, _command_value(text, match.start(), "")[0])
                continue
            start, value = read
        end, masked = value
        if text[start:end].strip("'\"") in ("", MASK):
            continue
        pieces += (text[done:start], masked)
        done = position = end
    return "".join(pieces) + text[done:] if pieces else text


def _within(
    command: re.Pattern[str],
    at: int,
    text: str,
    line: tuple[int, int],
    commands: dict[re.Pattern[str], tuple[int, int]],
) -> bool:
    """Whether `at` lies in a command `command` begins on its `line` (`_first`): the first
    one there, or past its end the next (`mysql -pa db; mysql -pb db`). `commands` holds
    where each was found on the line, so that a line is searched once for each."""
    place = commands.get(command)
    if place is None:
        place = _first(command, text, line[0], line[1])
    while place[1] <= at:  # that one ended before `at`: the next (`the mysql docs; mysql -px`)
        place = _first(command, text, place[1], line[1])
    commands[command] = place
    return place[0] < at < place[1]


def _reader(
    flag: str,
    blank: bool,
    at: int,
    text: str,
    line: tuple[int, int],
    commands: dict[re.Pattern[str], tuple[int, int]],
) -> _Reader | None:
    """The command that reads a password after `flag` at `at`, written with a `blank`
    after it or not, on its line; None when none does (`mkdir -p`, `ls -a`)."""
    for reader in _FLAGS[flag]:
        if (reader.blank if blank else reader.glued) and _within(
            reader.command, at, text, line, commands
        ):
            return reader
    return None


def _flag_read(
    flagged: re.Match[str],
    text: str,
    line: tuple[int, int],
    commands: dict[re.Pattern[str], tuple[int, int]],
) -> tuple[int, tuple[int, str]] | None:
    """The password after a flag (`_FLAG`'s groups in `flagged`): where it begins, ends and
    what stands for it, when a command on the `line` reads one there (`_reader`)."""
    flag, blank = flagged.group("flag"), bool(flagged.group("blank"))
    reader = _reader(flag, blank, flagged.start(), text, line, commands)
    if reader is None:
        return None
    return _flag_value(text, flagged.end(), reader)


def _flag_value(text: str, start: int, reader: _Reader) -> tuple[int, tuple[int, str]] | None:
    """Where the password after a flag (`start`) begins, where it ends and what stands for
    it: its word, or the part after `reader.after` in it (`alice%pw`); None when another
    option follows (a placeholder, `-p <password>`, is masked: a shape, not a secret)."""
    if text[start : start + 1] in ("", "-"):
        return None  # `mongosh -u admin -p` asks for it
    if not reader.after:
        return start, _command_value(text, start, "")
    word_end = _command_value(text, start, "")[0]
    cut = text.find(reader.after, start, word_end)
    if cut == -1:
        return None  # a user alone: the command asks for the password
    quote = text[start] if text[start] in ("'", '"') else ""
    return cut + 1, _command_value(text, cut + 1, quote)


def _first(command: re.Pattern[str], text: str, start: int, end: int) -> tuple[int, int]:
    """Where `command` first stands as one in `text[start:end]` (one line) and where the
    command it begins ends (`_COMMAND_END`), else `len(text)` twice."""
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
