"""A "next week" of a demo estate made by hand, with the changes a diff of it reports.

Until a test needs the real `ipt.diff`, the `Change` records are written out here from the
edits made, so what a picture or an export shows can be checked against them.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

from iptoolkit.change.estate_diff import Change, EstateDiff
from iptoolkit.core.estate import Estate
from iptoolkit.core.snapshot import SnapshotInfo

__all__ = ["next_week", "WEEK_START", "deactivate_channel"]

WEEK_START = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)


def deactivate_channel(raw: Any, channel_id: int) -> int:
    """Set `active: false` on every copy of a channel in a profile; how many were found."""
    found = 0
    if isinstance(raw, dict):
        if str(raw.get("class", "")).startswith("core:IntegrationPartnerChannel") and (
            raw.get("id") == channel_id
        ):
            raw["active"] = False
            found += 1
        for value in raw.values():
            found += deactivate_channel(value, channel_id)
    elif isinstance(raw, list):
        for value in raw:
            found += deactivate_channel(value, channel_id)
    return found


def next_week(old: Estate) -> EstateDiff:
    """Two profiles removed, two added, one agent edited, one shared channel deactivated.

    Returns the diff with its changes written by hand (node ids of the real estates).
    """
    raw = [copy.deepcopy(profile) for profile in old.raw_profiles]
    removed = [raw.pop(9), raw.pop(20)]
    added = []
    for n, template in enumerate(raw[40:42], start=1):
        new = copy.deepcopy(template)
        new["id"] = f"P-9{n:05d}"
        new["name"] = f"New feed {n}"
        added.append(new)
    raw.extend(added)
    edited = raw[5]
    edited["inputAgentSettings"]["filePattern"] = "invoic_v2_*.edi"
    channel_id = 40012
    assert sum(deactivate_channel(profile, channel_id) for profile in raw)
    new_estate = Estate.from_raw(
        raw, info=SnapshotInfo(fetched_at=WEEK_START + timedelta(days=7), source_url="demo")
    )
    changes = [
        Change("channel", f"channel:{channel_id}", "changed", "breaking", "$.active", True, False),
        *(Change("profile", f"profile:{p['id']}", "removed", "notable") for p in removed),
        *(Change("profile", f"profile:{p['id']}", "added", "notable") for p in added),
        Change(
            "profile",
            f"profile:{edited['id']}",
            "changed",
            "notable",
            "$.inputAgentSettings.filePattern",
            "invoic_*.edi",
            "invoic_v2_*.edi",
        ),
    ]
    return EstateDiff(old, new_estate, tuple(changes))


def dated(estate: Estate, when: datetime = WEEK_START) -> Estate:
    """The same profiles, recorded as fetched at `when`."""
    return Estate.from_raw(list(estate.raw_profiles), info=SnapshotInfo(fetched_at=when))
