"""Snapshot files: the profiles exactly as received, plus where and when they came from.

A snapshot is JSON (optionally gzip-compressed)::

    {"format": "iptoolkit.snapshot", "version": 1, "toolkit_version": "0.1.0",
     "source_url": "https://...", "fetched_at": "2026-11-22T10:00:00+00:00",
     "profiles": [...]}

Reading also accepts a bare JSON array of profiles or any wrapper `parse_profiles` accepts.
It reads no more than a limit (`reading.py`: 1 GiB of JSON unless raised), and a key given
twice in a profile is that profile's problem (`Listing.issues`), never a value lost unseen.

A snapshot's file name may be a template of its fetch time (`dated_path`), so that a nightly
`iptoolkit fetch -o 'snapshots/{date}.json.gz'` keeps a history without a script.
"""

from __future__ import annotations

import errno
import gzip
import os
import string
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from ..models import Listing, ParseError, listing_of, locate_profiles, read_json
from ..models.jsontext import DuplicateKey, ItemSpans, ListingVisit, Step
from ..support.jsonio import dumps_json
from ..support.reading import TooLargeError, load_limit, read_bounded
from ..support.replacing import replaced_when_written
from .profile_texts import ProfileTexts

__all__ = [
    "SNAPSHOT_FORMAT",
    "NAME_FIELDS",
    "SnapshotInfo",
    "read_snapshot",
    "read_snapshot_json",
    "listing_in",
    "SnapshotJSON",
    "write_snapshot",
    "check_name_template",
    "dated_path",
    "info_of",
    "SnapshotNotFoundError",
]

SNAPSHOT_FORMAT = "iptoolkit.snapshot"
SNAPSHOT_VERSION = 1
NAME_FIELDS = {"date": "%Y-%m-%d", "time": "%H%M%S", "datetime": "%Y-%m-%dT%H%M%SZ"}
"""Fields of a snapshot file name template, as `strftime` formats of the fetch time in UTC:
`{date}` 2026-11-23, `{time}` 061500, `{datetime}` 2026-11-23T061500Z (no colons, which
some file systems refuse, and in an order that sorts by time)."""


class SnapshotNotFoundError(ParseError, FileNotFoundError):
    """No file at the path a snapshot was read from: a `ParseError` as every failed read
    is (the command line's one line), and a `FileNotFoundError`, which a notebook catches
    a missing file by, as `ipt.history` and `audit(baseline=...)` raise it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.errno = errno.ENOENT  # no `strerror` nor `filename`: str() stays the message


@dataclass(frozen=True)
class SnapshotInfo:
    """Where a set of profiles came from and when; `extra` keeps unknown header fields.

    Frozen, as the estate holding it: a change is a new value (`dataclasses.replace`), so
    nothing cached from it (`Estate.summary()`) can go stale. `extra` is a read-only copy
    of the mapping given.
    """

    source_url: str | None = None
    fetched_at: datetime | None = None
    toolkit_version: str | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def __reduce__(self) -> tuple[Any, ...]:
        # a read-only mapping does not pickle; the fields do
        fields = (self.source_url, self.fetched_at, self.toolkit_version, dict(self.extra))
        return (type(self), fields)


def read_snapshot(
    path: str | os.PathLike[str], *, max_size: int | str | None = None
) -> tuple[Listing, SnapshotInfo]:
    """Read a snapshot (or a bare listing) file: its raw profiles, with any issues the text
    gave them, and their origin.

    `max_size` caps the JSON read (bytes, or `"4GiB"`); None: `IPTOOLKIT_MAX_LOAD_SIZE`,
    else 1 GiB.
    """
    document = read_snapshot_json(path, max_size=max_size)
    try:
        return listing_of(document.items, document.at, document.duplicates), document.info
    except ParseError as exc:
        raise ParseError(f"{path}: {exc}", issues=exc.issues) from None


class SnapshotJSON(NamedTuple):
    """A snapshot file as parsed, before its profiles are checked (`listing_of`)."""

    items: list[Any]
    """The raw profiles."""
    at: tuple[Step, ...] | None
    """Where the file holds them (see `locate_profiles`)."""
    duplicates: list[DuplicateKey]
    info: SnapshotInfo
    texts: ProfileTexts | None
    """Each profile's exact JSON text, when asked for and the file is as `save` writes it."""


def read_snapshot_json(
    path: str | os.PathLike[str],
    *,
    max_size: int | str | None = None,
    texts: bool = False,
    visit: ListingVisit | None = None,
) -> SnapshotJSON:
    """`read_snapshot` up to the parsed JSON; `texts`: keep each profile's text too;
    `visit`: see `ListingVisit` (its listing is the one `listing_in` finds)."""
    path = Path(path)
    try:
        data, compressed = read_bounded(path, load_limit(max_size))
    except TooLargeError as exc:
        raise ParseError(str(exc)) from None
    except OSError as exc:
        if isinstance(exc, gzip.BadGzipFile):
            raise ParseError(f"{path}: damaged gzip data ({exc})") from None
        said = f"{path}: cannot read the file ({exc.strerror or exc})"
        if isinstance(exc, FileNotFoundError):
            raise SnapshotNotFoundError(said) from None
        raise ParseError(said) from None
    except (EOFError, zlib.error) as exc:
        raise ParseError(f"{path}: damaged gzip data ({exc})") from None
    if path.suffix == ".gz" and not compressed:
        raise ParseError(f"{path}: the name ends in .gz but the file is not gzip-compressed")
    spans = ItemSpans() if texts else None
    try:
        document, duplicates = read_json(data, texts=spans, visit=visit)
        items, at = listing_in(document)
        info = info_of(document) if _is_snapshot(document) else SnapshotInfo()
        if not _is_snapshot(document):
            _refuse_unless_profiles(items)
    except ParseError as exc:
        raise ParseError(f"{path}: {exc}", issues=exc.issues) from None
    return SnapshotJSON(items, at, duplicates, info, _texts_of(items, spans))


_SNAPSHOT_AT: tuple[Step, ...] = ("profiles",)


def listing_in(document: Any) -> tuple[list[Any], tuple[Step, ...] | None]:
    """The profiles of a snapshot, or of any listing `locate_profiles` finds, and where
    (`ParseError` when there are none)."""
    if _is_snapshot(document):
        return _profiles_of(document), _SNAPSHOT_AT
    return locate_profiles(document)


def _refuse_unless_profiles(items: list[Any]) -> None:
    """A file that is not a snapshot is read as a listing only when some item could be a
    profile (its `class`, or an `id` or input agent): `package.json` read as one faulty
    profile made `diff snapshot.json package.json` report every profile removed."""
    if not items or any(_could_be_profile(item) for item in items):
        return
    first = items[0]
    keys = ", ".join(repr(key) for key in list(first)[:6]) if isinstance(first, dict) else ""
    raise ParseError(
        f"not a snapshot or a profile listing: none of its {len(items):,} item(s) looks like "
        "an integration profile (a 'class' of core:IntegrationProfile, an 'id' or an "
        f"'inputAgentSettings'){f'; the first has keys {keys}' if keys else ''}"
    )


def _could_be_profile(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    cls = item.get("class")
    if isinstance(cls, str):
        return cls == "core:IntegrationProfile"
    return "id" in item or "inputAgentSettings" in item


def _is_snapshot(document: Any) -> bool:
    """A snapshot file's document (any other wrapper may hold `profiles` too)."""
    return isinstance(document, dict) and document.get("format") == SNAPSHOT_FORMAT


def _texts_of(items: list[Any], found: ItemSpans | None) -> ProfileTexts | None:
    """Each profile's text, when the proof held and every profile is a JSON object
    (written compact; anything else is a faulty profile, stored as `save` writes it)."""
    spans = None if found is None else found.spans.get(id(items))
    if found is None or spans is None or len(spans) != len(items):
        return None
    if not all(isinstance(item, dict) for item in items):
        return None
    return ProfileTexts(found.text, [start for start, _ in spans], [end for _, end in spans])


def write_snapshot(
    path: str | os.PathLike[str], raw_profiles: Iterable[Any], info: SnapshotInfo
) -> Path:
    """Write atomically (a temporary file renamed into place); gzip when the name ends .gz."""
    path = Path(path)
    header: dict[str, Any] = {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        **info.extra,
        "toolkit_version": info.toolkit_version,
        "source_url": info.source_url,
        "fetched_at": info.fetched_at.isoformat() if info.fetched_at else None,
    }
    head = dumps_json(header)[:-1]  # leave the object open for the profiles
    # one profile a line: a finding points at its profile's line (SARIF), git diffs by line
    body = b",\n".join(dumps_json(profile) for profile in raw_profiles)
    data = head + b',"profiles":[\n' + body + b"\n]}\n"
    if path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=6, mtime=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with replaced_when_written(path) as part:
        part.write_bytes(data)
    return path


def check_name_template(template: str | os.PathLike[str]) -> str:
    """The template as text, or ValueError naming the field it does not know.

    Checked before anything is fetched, so a typo costs no fetch. `{{` and `}}` are braces.
    """
    text = os.fspath(template)
    known = ", ".join("{" + name + "}" for name in NAME_FIELDS)
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise ValueError(f"{text!r}: {exc} (write {{{{ and }}}} for braces)") from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in NAME_FIELDS or spec or conversion:
            field_text = "{" + name + (f"!{conversion}" if conversion else "")
            field_text += (f":{spec}" if spec else "") + "}"
            raise ValueError(f"{text!r}: unknown field {field_text} in the file name; use {known}")
    return text


def dated_path(template: str | os.PathLike[str], when: datetime | None) -> Path:
    """The file name with its fields filled from `when` (UTC; now when None).

    >>> dated_path("snapshots/{date}.json.gz", datetime(2026, 11, 23, 6, 15, tzinfo=UTC))
    PosixPath('snapshots/2026-11-23.json.gz')
    """
    text = check_name_template(template)
    moment = (when or datetime.now(UTC)).astimezone(UTC)
    return Path(text.format_map({name: moment.strftime(f) for name, f in NAME_FIELDS.items()}))


def _profiles_of(document: dict[str, Any]) -> list[Any]:
    profiles = document.get("profiles")
    if not isinstance(profiles, list):
        raise ParseError("snapshot: 'profiles' is missing or not an array")
    return profiles


def info_of(document: dict[str, Any]) -> SnapshotInfo:
    """A snapshot document's header (all but its profiles) as `SnapshotInfo`: also what the
    archive reads of the header it keeps beside each snapshot's profiles."""
    known = {"format", "version", "toolkit_version", "source_url", "fetched_at", "profiles"}
    version = document.get("version", SNAPSHOT_VERSION)
    if type(version) is not int or version < 1:
        raise ParseError(f"snapshot: 'version' is not a whole number from 1: {version!r}")
    if version > SNAPSHOT_VERSION:  # read as ours, it could lose what the newer one keeps
        raise ParseError(
            f"snapshot: version {version} is newer than this iptoolkit reads "
            f"({SNAPSHOT_VERSION}); update iptoolkit to read it"
        )
    fetched = document.get("fetched_at")
    try:
        if fetched is not None and not isinstance(fetched, str):
            raise ValueError(fetched)  # a number or object is no time either: not dropped
        fetched_at = datetime.fromisoformat(fetched) if fetched is not None else None
    except ValueError:
        raise ParseError(f"snapshot: 'fetched_at' is not an ISO date-time: {fetched!r}") from None
    return SnapshotInfo(
        source_url=document.get("source_url"),
        fetched_at=fetched_at,
        toolkit_version=document.get("toolkit_version"),
        extra={key: value for key, value in document.items() if key not in known},
    )
