"""How things are named: type names as the API spells them, as readers say them, and counts.

One module so that every view agrees: the canonical name of a type is the API's class
without `core:` (`CronCloudStorageAgentSettings`): data (summaries, tables, filters,
exports) carries it. People read `type_label` of it (`Cron Cloud Storage`): diagrams, the
Explorer, the command line's text. Filters accept either, in any case, and short names
(`type_matches`). Imports nothing but the standard library, and rapidfuzz when close
matches are looked for.
"""

from __future__ import annotations

import re
import unicodedata
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
    "normalise_type",
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


def unresolved_note(count: int) -> str:
    """What follows a channel count when ids are named but held nowhere:
    ` (and 2 unresolved channel ids)`, or nothing. An unresolved id is not a channel; every
    view says so in these words."""
    return f" (and {plural(count, 'unresolved channel id')})" if count else ""


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str, limit: int = 60, default: str = "item") -> str:
    """`Viking Tools GmbH & Co. KG` -> `viking-tools-gmbh-co-kg`: ASCII, lower case, at most
    `limit` characters, `default` when nothing is left: a safe file name or anchor. Mask
    secrets first (`redact.redact_text`) where the text may hold a URL."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    return _NOT_SLUG.sub("-", plain.lower()).strip("-")[:limit].strip("-") or default


def strip_kind(value: Any, kind: str) -> Any:
    """`channel:40003` -> `40003` when `kind` is `channel`: a node id where a bare id or
    name is expected (filters) names the same item. Anything else is returned unchanged."""
    if isinstance(value, str) and value.strip().lower().startswith(kind + ":"):
        return value.strip()[len(kind) + 1 :]
    return value


_CUTOFF = 60
"""The least likeness (rapidfuzz's `QRatio`, 0 to 100) of a close match."""


class Vocabulary:
    """Words to find close matches among, each once in its first spelling (any case),
    prepared once: the MCP server keeps one per estate and asks it many times.

    rapidfuzz, not difflib: over the 21,000 ids and names of a 10,000-profile estate
    difflib took 85 ms, rapidfuzz a few, which an MCP tool's 100 ms needs."""

    def __init__(self, words: Iterable[Any]) -> None:
        from rapidfuzz import utils

        spelled: dict[str, str] = {}
        for word in words:
            if word is not None:
                text = str(word)
                if text.strip():
                    spelled.setdefault(text.lower(), text)
        self.lowered = list(spelled)
        self.spelled = list(spelled.values())
        self.processed = [utils.default_process(text) for text in self.spelled]

    def closest(self, word: Any, limit: int = 3) -> list[str]:
        """The words that look like `word` (any case, punctuation aside), best first; when
        none looks like it as a whole, the words that contain it (a fragment of three
        characters or more: `acme`)."""
        from rapidfuzz import fuzz, process, utils

        found = process.extract(
            utils.default_process(str(word)), self.processed, scorer=fuzz.QRatio,
            processor=None, limit=limit, score_cutoff=_CUTOFF,
        )  # fmt: skip
        if found:
            return [self.spelled[index] for _, _, index in found]
        fragment = str(word).strip().lower()
        if len(fragment) < 3:
            return []
        held = (index for index, lowered in enumerate(self.lowered) if fragment in lowered)
        return [self.spelled[index] for _, index in zip(range(limit), held, strict=False)]


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
