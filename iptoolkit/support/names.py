"""How things are named: type names as the API spells them, as readers say them, and counts.

One module so that every view agrees: the canonical name of a type is the API's class
without `core:` (`CronCloudStorageAgentSettings`): data (summaries, tables, filters,
exports) carries it. People read `type_label` of it (`Cron Cloud Storage`): diagrams, the
Explorer, the command line's text. Filters accept either, in any case, and short names
(`type_matches`). Imports nothing but the standard library, and rapidfuzz when close
matches are looked for.
"""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

__all__ = [
    "CHANNEL_PREFIX",
    "NODE_KINDS",
    "NO_TYPE",
    "did_you_mean",
    "close_matches",
    "Vocabulary",
    "names_started",
    "starts_name",
    "normalise_type",
    "named_type",
    "composed",
    "plural",
    "slug",
    "strip_kind",
    "type_aliases",
    "type_label",
    "type_matches",
]

NODE_KINDS = ("profile", "agent", "response", "channel", "partner")
"""The kinds of graph node, each the prefix of its node ids (`channel:40003`)."""

NO_TYPE = "(none)"
"""What counts stand a profile without an input agent (or a channel without a type) under."""

CHANNEL_PREFIX = "IntegrationPartnerChannel"
"""Channel type names start with this; `AS2` is accepted for `IntegrationPartnerChannelAS2`."""

_SHORT_NAMES = (
    (CHANNEL_PREFIX.lower(), ""),
    ("", "agentsettings"),
    ("", "profileresponseunit"),
)
"""(prefix, suffix) pairs, lower case, that a type's short name leaves out."""

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")
_TYPE_SUFFIXES = ("AgentSettings", "ProfileResponseUnit")
_TYPE_PREFIXES = (CHANNEL_PREFIX,)
_SPELLING = {
    "Ftp": "FTP",
    "Sftp": "SFTP",
    "Http": "HTTP",
    "Ssh": "SSH",
    "Sql": "SQL",
    "Sap": "SAP",
    "Imap": "IMAP",
    "Pop3": "POP3",
    "Ldap": "LDAP",
    "Oftp": "OFTP",
    "Mongodb": "MongoDB",
    "Webdav": "WebDAV",
    "CloudStorage": "Cloud Storage",
    "X400": "X.400",
}


@lru_cache(maxsize=1024)
def type_label(type_name: Any) -> str:
    """A type name as a reader says it: `SFTPAgentSettings` -> `SFTP`,
    `CronFtpAgentSettings` -> `Cron FTP`, `IntegrationPartnerChannelAS2` -> `AS2`;
    `?` when there is no name."""
    if not isinstance(type_name, str) or not type_name:
        return "?"
    text = type_name.removeprefix("core:")
    for prefix in _TYPE_PREFIXES:
        if text.startswith(prefix) and len(text) > len(prefix):
            text = text[len(prefix) :]
    for suffix in _TYPE_SUFFIXES:
        if text.endswith(suffix) and len(text) > len(suffix):
            text = text[: -len(suffix)]
    if text.startswith("Cron") and len(text) > 4 and text[4].isupper():
        rest = text[4:]
        return "Cron " + _SPELLING.get(rest, _CAMEL.sub(" ", rest))
    return _SPELLING.get(text, _CAMEL.sub(" ", text))


def named_type(name: str) -> str:
    """`Cron Cloud Storage (CronCloudStorageAgentSettings)`: a type as people say it, then
    the name filters and JSON use (`summary` and the demo list types so)."""
    return name if name == NO_TYPE else f"{type_label(name)} ({name})"


def composed(text: str) -> str:
    """`text` in Unicode's composed form (NFC): one name typed as `é` or as `e` and a
    combining accent looks and means the same (compare matches keys so, diff says so)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def normalise_type(name: Any) -> str:
    """A type name for comparing: no `core:` prefix, lower case."""
    text = str(name or "").strip()
    if text.startswith("core:"):
        text = text[len("core:") :]
    return text.lower()


def type_matches(actual: Any, wanted: Any) -> bool:
    """`wanted` names `actual`: the same type name (any case, `core:` optional), its short
    name (`AS2` for `IntegrationPartnerChannelAS2`, `Fax` for `FaxAgentSettings`, `Ftp` for
    `FtpProfileResponseUnit`) or its label (`Cron Cloud Storage`)."""
    return normalise_type(wanted) in type_aliases(actual)


@lru_cache(maxsize=1024)
def type_aliases(name: Any) -> tuple[str, ...]:
    """The normalised forms that name a type (see `type_matches`)."""
    full = normalise_type(name)
    if not full:
        return ()
    aliases = [full]
    for prefix, suffix in _SHORT_NAMES:
        if full.startswith(prefix) and full.endswith(suffix):
            short = full[len(prefix) : len(full) - len(suffix)]
            if short:
                aliases.append(short)
                break
    spoken = normalise_type(type_label(name))
    if spoken not in aliases:
        aliases.append(spoken)
    return tuple(aliases)


_UNCOUNTED = frozenset({"info"})
"""Nouns with no plural of their own: `673 info` (a severity), never `673 infos`."""


def plural(count: int, noun: str) -> str:
    """`1 channel`, `2 channels`, `10,000 profiles`, `3 info`: a count with its noun."""
    ending = "" if count == 1 or noun in _UNCOUNTED else "s"
    return f"{count:,} {noun}{ending}"


def agreeing(count: int, verb: str) -> str:
    """`verb` as it agrees with a count of things: `1 profile loses`, `2 profiles lose`."""
    return f"{verb}s" if count == 1 else verb


def unresolved_note(count: int) -> str:
    """What follows a channel count when ids are named but held nowhere:
    ` (and 2 unresolved channel ids)`, or nothing. An unresolved id is not a channel; every
    view says so in these words."""
    return f" (and {plural(count, 'unresolved channel id')})" if count else ""


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str, limit: int = 60, default: str = "item") -> str:
    """`Viking Tools GmbH & Co. KG` -> `viking-tools-gmbh-co-kg`: ASCII, lower case, at most
    `limit` characters, `default` when nothing is left: a safe file name or anchor. Mask
    secrets first (`redact.redact_text`) where the text may hold a URL. A name Windows
    keeps for a device (`CON`, `nul`, `COM1`) gets `-` and `default` after it: `con.md`
    cannot be made on Windows, or is the console."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    made = _NOT_SLUG.sub("-", plain.lower()).strip("-")[:limit].strip("-") or default
    return f"{made}-{default}" if made in _DEVICE_NAMES else made


_DEVICE_NAMES = frozenset(
    {"con", "prn", "aux", "nul", *(f"{port}{n}" for port in ("com", "lpt") for n in range(10))}
)
"""Names Windows reserves for devices, whatever the extension (`CON.md`, `nul.svg`)."""


def strip_kind(value: Any, kind: str) -> Any:
    """`channel:40003` -> `40003` when `kind` is `channel`: a node id where a bare id or
    name is expected (filters) names the same item. Anything else is returned unchanged."""
    if isinstance(value, str) and value.strip().lower().startswith(kind + ":"):
        return value.strip()[len(kind) + 1 :]
    return value


_CUTOFF = 60
"""The least likeness (rapidfuzz's `QRatio`, 0 to 100) of a close match."""

_START_CUTOFF = 75
"""The least likeness of a close match by a word's first words: a start is short, and
`Acme Tols` is 62 like `acme`, the start of every Acme."""

_LEAST_START = 3
"""A name's first words are compared on their own from this many characters: `Acme` of
`Acme Tools Inc.` is, `AB` of `AB Logistics` is not (two letters look like too much)."""


def _words(text: str) -> str:
    """`text` as close matches compare it: rapidfuzz's `default_process` (lower case,
    punctuation as spaces), then runs of spaces as one."""
    from rapidfuzz import utils

    return " ".join(utils.default_process(text).split())


class Vocabulary:
    """Words to find close matches among, each once in its first spelling (any case),
    prepared once: the MCP server keeps one per estate and asks it many times.

    A word is close when it looks like what was typed as a whole, or when its first words
    do: `Mosel Retial` and `Mosel Retal` are typos of `Mosel Retail`, the start of
    `Mosel Retail GmbH & Co. KG`, which as a whole looks less like them than
    `Mosel Tools S.A.` does (a legal form is what people leave out).

    rapidfuzz, not difflib: over the 21,000 ids and names of a 10,000-profile estate
    difflib took 85 ms, rapidfuzz a few, which an MCP tool's 100 ms needs."""

    def __init__(self, words: Iterable[Any]) -> None:
        spelled: dict[str, str] = {}
        for word in words:
            if word is not None:
                text = str(word)
                if text.strip():
                    spelled.setdefault(text.lower(), text)
        self.lowered = list(spelled)
        self.spelled = list(spelled.values())
        self.processed = [_words(text) for text in self.spelled]
        starts: list[tuple[int, str, int]] = []
        for index, text in enumerate(self.processed):
            cut = text.rfind(" ")
            while cut >= _LEAST_START:
                text = text[:cut]
                starts.append((len(text), text, index))
                cut = text.rfind(" ")
        starts.sort()
        self.starts = [start for _, start, _ in starts]
        """The first words of each word of several (`mosel`, `mosel retail`, ...), shortest
        first, so that those long enough to be alike are one slice (`closest`) ..."""
        self.started = [index for _, _, index in starts]
        """... and the index of the word each start is of."""
        self.start_lengths = [length for length, _, _ in starts]

    def closest(self, word: Any, limit: int = 3) -> list[str]:
        """The words that look like `word` (any case, punctuation aside), as a whole or by
        their first words, best first (a whole word before a start that looks as alike);
        when none does, the words that contain it (a fragment of three characters or more:
        `acme`)."""
        from rapidfuzz import fuzz, process

        wanted = _words(str(word))
        best: dict[int, tuple[float, int]] = {}
        """word index -> (likeness, 1 for the whole word, 0 for its start)"""
        for _, score, index in process.extract(
            wanted, self.processed, scorer=fuzz.QRatio, processor=None, limit=10 * limit,
            score_cutoff=_CUTOFF,
        ):  # fmt: skip
            best[index] = (score, 1)
        # QRatio is at most 200 * shorter / (both lengths): only starts whose length is
        # within that bound of the text's can reach the cut-off
        ratio = _START_CUTOFF / (200 - _START_CUTOFF)
        low = bisect_left(self.start_lengths, math.ceil(len(wanted) * ratio))
        high = bisect_right(self.start_lengths, math.floor(len(wanted) / ratio))
        for _, score, at in process.extract(
            wanted, self.starts[low:high], scorer=fuzz.QRatio, processor=None,
            limit=10 * limit, score_cutoff=_START_CUTOFF,
        ):  # fmt: skip
            index = self.started[low + at]
            best[index] = max(best.get(index, (0.0, 0)), (score, 0))
        if best:
            ranked = sorted(best, key=lambda index: (-best[index][0], -best[index][1], index))
            return [self.spelled[index] for index in ranked[:limit]]
        fragment = str(word).strip().lower()
        if len(fragment) < 3:
            return []
        held = (index for index, lowered in enumerate(self.lowered) if fragment in lowered)
        return [self.spelled[index] for _, index in zip(range(limit), held, strict=False)]


def starts_name(name: Any, start: Any) -> bool:
    """`start` is the first words of `name`, not all of it (any case, runs of white space
    as one): `Mosel Retail` starts `Mosel Retail GmbH & Co. KG`, and so does
    `Mosel Retail GmbH & Co`; `Mosel Ret` does not (it ends inside a word), nor does
    `Acme` start `Acmeco Ltd`, another company."""
    whole = " ".join(str(name).lower().split())
    first = " ".join(str(start).lower().split())
    return (
        bool(first)
        and len(whole) > len(first)
        and whole.startswith(first)
        and not (whole[len(first)].isalnum() and first[-1].isalnum())
    )


def names_started(start: Any, names: Iterable[Any]) -> list[str]:
    """The names `start` is the first words of (`starts_name`), each once (any case) in
    its first spelling: one is the name meant, several are what it could be."""
    found: dict[str, str] = {}
    for name in names:
        if isinstance(name, str) and starts_name(name, start):
            found.setdefault(" ".join(name.lower().split()), name)
    return list(found.values())


def close_matches(word: Any, candidates: Iterable[Any], limit: int = 3) -> list[str]:
    """The candidates that look like `word`, best first, each once in its own spelling
    (see `Vocabulary.closest`)."""
    return Vocabulary(candidates).closest(word, limit)


def did_you_mean(word: Any, candidates: Iterable[Any]) -> str:
    """` (did you mean 'Acme Retail EU'?)` or nothing: what follows an unknown name."""
    found = close_matches(word, candidates)
    if not found:
        return ""
    return f" (did you mean {' or '.join(repr(match) for match in found)}?)"
