"""URLs anywhere in a profile, found fast: each profile's JSON text is searched for URL
strings first (one regular expression over bytes orjson wrote), and only a profile with a
suspect URL is walked to find where it sits. A URL inside a held channel is reported once
for the channel, not once per profile holding a copy."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from ...core.profile_texts import ProfileTexts, as_profile_texts
from ...support.jsonio import dumps_json
from ..rule import AuditContext

__all__ = ["UrlAt", "urls_where", "is_loopback", "host_of"]

_URL_STRING = re.compile(rb'"([a-zA-Z][a-zA-Z0-9+.-]*://[^"\\]*)"')
_LOOPBACK = ("localhost", "::1", "ip6-localhost")


class UrlAt(NamedTuple):
    """A URL, the profile it was found in, its JSON path there, and the channel node
    when it sits inside a channel the profile holds."""

    url: str
    record: Any
    path: str
    channel: str | None


def is_loopback(host: str | None) -> bool:
    """Whether a host name stays on the machine (localhost, 127.x.x.x, ::1)."""
    if not host:
        return False
    host = host.lower().strip("[]")
    return host in _LOOPBACK or host.startswith("127.") or host.endswith(".localhost")


def host_of(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def urls_where(ctx: AuditContext, suspect: Callable[[str], bool]) -> Iterator[UrlAt]:
    """Every URL string for which `suspect` is true: once per channel for URLs inside a
    held channel, once per profile elsewhere."""
    hits: dict[int, set[str]] = {}
    for position, url in ctx.shared("urls.all", _all_urls):
        if suspect(url):
            hits.setdefault(position, set()).add(url)
    seen_channels: set[tuple[str, str]] = set()
    records = ctx.records
    for position in sorted(hits):
        record = records[position]
        wanted = hits[position]
        held = [(f"$.{use.path}", use.node) for use in record.uses if use.held is not None]
        for path, value in _strings(record.raw, "$"):
            if value not in wanted:
                continue
            base, channel = next(((at, node) for at, node in held if _inside(path, at)),
                                 ("", None))  # fmt: skip
            if channel is not None:
                if (channel, path[len(base) :]) in seen_channels:
                    continue
                seen_channels.add((channel, path[len(base) :]))
            yield UrlAt(value, record, path, channel)


def _all_urls(ctx: AuditContext) -> list[tuple[int, str]]:
    """(position among the records, URL) of every URL string of a valid profile: the
    profiles' JSON searched at once for `://` (a plain substring search, fast), each hit
    read back to its opening quote."""
    records = ctx.records
    if ctx.texts is not None:
        texts = as_profile_texts(ctx.texts)
    else:
        texts = ProfileTexts.joined([dumps_json(r.raw) if r.ok else b"" for r in records])
    text = texts.text
    found = []
    for position, hit in texts.find_all(b"://"):
        if not records[position].ok:
            continue
        quote = text.rfind(b'"', max(texts.starts[position], hit - 40), hit)
        if quote != -1:
            url = _URL_STRING.match(text, quote)
            if url is not None:
                found.append((position, url.group(1).decode("utf-8", "replace")))
    return found


def _inside(path: str, base: str) -> bool:
    return path == base or path.startswith(base + ".") or path.startswith(base + "[")


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _strings(item, f"{path}[{n}]")
