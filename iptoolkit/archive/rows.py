"""What one estate becomes in the archive: each profile's exact JSON, its digest, what the
views show of it, and where it uses channels.

Worked out from the estate's records (`core/records.py`), so the archive keys profiles,
channels and partners exactly as every other view does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.nodes import is_active, partner_of
from ..core.profile_texts import ProfileTexts
from ..models import type_name_of
from ..support.jsonio import dumps_json

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = ["SnapshotRows", "snapshot_rows", "text_digests", "header_of", "digest"]


def digest(data: bytes | memoryview) -> str:
    """A content digest (BLAKE2b, 128 bits, hex): equal JSON, equal digest."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True)
class SnapshotRows:
    """One estate as the archive stores it."""

    header: dict[str, Any]
    """The snapshot file's header as `Estate.save` writes it (without the profiles)."""
    texts: ProfileTexts
    """Each profile's JSON, as `Estate.save` writes it, in listing order."""
    digests: list[str]
    keys: list[str]
    """Each profile's key (`core/records.py`)."""
    digest: str
    """Of the header and every profile in order: a snapshot stored twice has the same."""

    def version(self, position: int, record: ProfileRecord) -> tuple[Any, ...]:
        """The `versions` row of a profile, but its version id."""
        return (
            self.digests[position],
            self.texts[position].decode(),
            None if record.id is None else str(record.id),
            record.name,
            record.group,
            record.active,
            record.agent_type,
            not record.ok,
        )


def header_of(estate: Estate) -> dict[str, Any]:
    """The header `write_snapshot` writes for this estate, field for field, in order."""
    from ..core.snapshot import SNAPSHOT_FORMAT, SNAPSHOT_VERSION

    info = estate.info
    return {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        **info.extra,
        "toolkit_version": info.toolkit_version,
        "source_url": info.source_url,
        "fetched_at": info.fetched_at.isoformat() if info.fetched_at else None,
    }


def snapshot_rows(
    estate: Estate, texts: ProfileTexts | None = None, digests: list[str] | None = None
) -> SnapshotRows:
    """The rows of `estate`; `texts`: each profile's JSON as its file holds it, when known
    (`read_snapshot_json`), so that it is read there, not written again (`digests`:
    theirs, `text_digests`)."""
    header = header_of(estate)
    if texts is None or len(texts) != len(estate.records):
        texts = ProfileTexts.joined([dumps_json(raw) for raw in estate.raw_profiles])
        digests = None
    if digests is None:
        digests = text_digests(texts)
    whole = hashlib.blake2b(dumps_json(header), digest_size=16)
    for one in digests:
        whole.update(one.encode())
    keys = [record.key for record in estate.records]
    return SnapshotRows(header, texts, digests, keys, whole.hexdigest())


def text_digests(texts: ProfileTexts) -> list[str]:
    """The digest of each profile's text, read in place."""
    return [digest(texts.view(position)) for position in range(len(texts))]


def use_rows(record: ProfileRecord) -> Iterator[tuple[Any, ...]]:
    """The `uses` rows of a profile (without the version id): each place it uses a channel,
    with the channel's id (None when it has none: its key is then `<profile key>:<path>`),
    name, type, activity and partner, for the channels it holds."""
    for use in record.uses:
        held = use.held
        if held is None:
            yield (use.role, use.path, use.unit, str(use.key), None, None, None, None, None)
            continue
        pkey, partner = partner_of(held)
        pname = partner.get("name") if isinstance(partner, dict) else None
        yield (
            use.role,
            use.path,
            use.unit,
            None if use.key == f"{record.key}:{use.path}" else str(use.key),
            _text(held.get("name")) if isinstance(held, dict) else None,
            type_name_of(held),
            is_active(held),
            None if pkey is None else str(pkey),
            pname if isinstance(pname, str) else None,
        )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
