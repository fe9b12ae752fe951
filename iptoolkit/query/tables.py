"""Tables of an estate: one pandas row per profile, channel, partner or response path.

Columns are named as analysts say them; every table has a `node` column with the graph
node id, so a where-used answer selects rows directly::

    frame = estate.to_frame("profiles")
    frame[frame.node.isin(ipt.where_used(G, "partner:17"))]

Faulty profiles are rows of the profiles table too (`problem` True, what could be read).
pandas is imported when a table is made, so `import iptoolkit` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..core.indexed import Indexed
from ..core.nodes import (
    channel_node,
    endpoint,
    is_active,
    label,
    partner_node,
    partner_of,
    raw_field,
    response_node,
    type_of,
)
from ..models import field_value, gc_paused, timestamp
from ..support.redact import redact_text

if TYPE_CHECKING:
    import pandas


__all__ = ["to_frame", "FRAME_KINDS", "COLUMNS"]

COLUMNS: dict[str, tuple[str, ...]] = {
    "profiles": (
        "node", "id", "name", "group", "active", "agent_type", "partners", "n_partners",
        "channels", "input_channels", "response_paths", "active_response_paths", "tags",
        "description", "created", "last_modified", "problem", "error",
    ),
    "channels": (
        "node", "id", "name", "channel_type", "active", "partner", "partner_id", "host",
        "url", "resolved", "profiles", "input_profiles", "response_profiles",
        "reference_profiles",
    ),
    "partners": (
        "node", "id", "name", "channels", "active_channels", "channel_types", "profiles",
        "input_profiles", "response_profiles",
    ),
    "responses": (
        "node", "profile_id", "profile_name", "profile_active", "index", "unit_type",
        "active", "content_type", "channel", "channel_name", "partner", "target", "host",
        "url",
    ),
}  # fmt: skip
"""The columns of each table, in order."""

FRAME_KINDS = tuple(COLUMNS)
_BOOLEAN = ("active", "profile_active", "resolved", "problem")
_DATES = ("created", "last_modified")
_COUNTS = (
    "n_partners", "channels", "input_channels", "response_paths", "active_response_paths",
    "partner_id", "index",
)  # fmt: skip


def to_frame(estate: Indexed, kind: str = "profiles") -> pandas.DataFrame:
    """The estate as a table of `kind`: "profiles", "channels", "partners" or "responses",
    its texts masked (a URL's password, a secret in a description: `redact_text`) but the
    `node` column, the graph's ids rows are selected by (`profile:orders@acme.example`
    would read as `user:password@host`; `where_used` answers them as they are)."""
    builder = _BUILDERS.get(kind)
    if builder is None:
        allowed = ", ".join(repr(name) for name in FRAME_KINDS)
        raise ValueError(f"unknown table kind {kind!r}; choose one of {allowed}")
    import pandas as pd

    with gc_paused():
        rows = builder(estate)
    # object first: letting pandas infer would turn ids above 2**53 next to gaps into floats
    frame = pd.DataFrame(rows, columns=list(COLUMNS[kind]), dtype=object)
    for column in frame.columns:
        if column in _BOOLEAN:
            frame[column] = frame[column].astype("boolean")
        elif column in _DATES:
            frame[column] = pd.to_datetime(frame[column], utc=True, errors="coerce")
        elif column in _COUNTS:
            try:  # nullable integers: a faulty profile has no counts
                frame[column] = frame[column].astype("Int64")
            except (TypeError, ValueError):
                pass  # an unknown channel type with a textual partner id: keep as is
        elif _all_integers(frame[column]):
            frame[column] = frame[column].astype("Int64")  # exact, gaps allowed
        elif column == "node":  # the graph's id, rows are selected by: as the graph has it
            frame[column] = frame[column].infer_objects()
        else:
            frame[column] = _masked(frame[column]).infer_objects()
    return frame


def _masked(column: pandas.Series) -> pandas.Series:
    """Each text of `column` masked (`redact_text`), as every export of the table masks it:
    a notebook shows the frame itself, and a channel's URL or a description may hold a
    password. Each distinct text is masked once (groups, types and partners repeat)."""
    made: dict[str, str] = {}

    def mask(value: Any) -> Any:
        if type(value) is not str:
            return value
        found = made.get(value)
        if found is None:
            found = made[value] = redact_text(value)
        return found

    return column.map(mask)


def _all_integers(column: pandas.Series) -> bool:
    values = column.dropna()
    return len(values) > 0 and all(
        isinstance(value, int) and not isinstance(value, bool) for value in values
    )


def _profiles(estate: Indexed) -> list[dict[str, Any]]:
    rows = []
    for record in estate.records:
        raw = record.raw if isinstance(record.raw, dict) else {}
        row: dict[str, Any] = {
            "node": record.node,
            "id": record.id,
            "name": record.name,
            "group": record.group,
            "active": record.active,
            "agent_type": record.agent_type,
            "tags": raw_field(raw, "tags", str),
            "description": record.description,
            "created": _date(raw_field(raw, "created", int)),
            "last_modified": _date(raw_field(raw, "lastModified", int)),
            "problem": not record.ok,
            "error": record.problem.message if record.problem is not None else None,
        }
        if record.ok:
            units = record.response_units
            row.update(
                partners="; ".join(label(estate.partners.get(key), key) for key in record.partners),
                n_partners=len(record.partners),
                channels=len(record.channel_keys),
                input_channels=len({u.key for u in record.uses if u.role != "response"}),
                response_paths=len(units),
                active_response_paths=sum(1 for unit in units if is_active(unit)),
            )
        rows.append(row)
    return rows


def _channels(estate: Indexed) -> list[dict[str, Any]]:
    """One row per channel, then one per unresolved channel id (`resolved` False)."""
    profiles: dict[Any, dict[str, set[int]]] = {}
    for position, record in enumerate(estate.records):
        for use in record.uses:
            by_role = profiles.setdefault(use.key, {})
            by_role.setdefault(use.role, set()).add(position)
    rows = []
    for key, channel in [*estate.channels.items(), *((key, None) for key in estate.unresolved)]:
        pkey, partner = partner_of(channel)
        where = endpoint(channel)
        by_role = profiles.get(key, {})
        rows.append(
            {
                "node": channel_node(key),
                "id": field_value(channel, "id") if channel is not None else key,
                "name": field_value(channel, "name"),
                "channel_type": type_of(channel),
                "active": is_active(channel),
                "partner": label(partner, pkey) if pkey is not None else None,
                "partner_id": field_value(partner, "id"),
                "host": where.host,
                "url": where.url,
                "resolved": channel is not None,
                "profiles": len(set().union(*by_role.values())),
                "input_profiles": len(by_role.get("input", ())),
                "response_profiles": len(by_role.get("response", ())),
                "reference_profiles": len(by_role.get("reference", ())),
            }
        )
    return rows


def _partners(estate: Indexed) -> list[dict[str, Any]]:
    stats: dict[Any, dict[str, Any]] = {
        key: {"channels": 0, "active": 0, "types": {}, "input": set(), "response": set()}
        for key in estate.partners
    }
    for channel in estate.channels.values():
        pkey, _ = partner_of(channel)
        if pkey in stats:
            stats[pkey]["channels"] += 1
            stats[pkey]["active"] += is_active(channel)
            stats[pkey]["types"].setdefault(type_of(channel) or "?")
    for position, record in enumerate(estate.records):
        for use in record.uses:
            pkey, _ = partner_of(use.held if use.held is not None else estate.channels.get(use.key))
            if pkey in stats:
                role = "response" if use.role == "response" else "input"
                stats[pkey][role].add(position)
    return [
        {
            "node": partner_node(key),
            "id": field_value(partner, "id"),
            "name": field_value(partner, "name"),
            "channels": stats[key]["channels"],
            "active_channels": stats[key]["active"],
            "channel_types": "; ".join(stats[key]["types"]),
            "profiles": len(stats[key]["input"] | stats[key]["response"]),
            "input_profiles": len(stats[key]["input"]),
            "response_profiles": len(stats[key]["response"]),
        }
        for key, partner in estate.partners.items()
    ]


def _responses(estate: Indexed) -> list[dict[str, Any]]:
    rows = []
    for record in estate.valid_records:
        via = {use.unit: use for use in record.uses if use.role == "response"}
        for index, unit in enumerate(record.response_units):
            use = via.get(index)
            channel = use.held if use is not None else None
            pkey, partner = partner_of(channel)
            where = record.response_endpoints[index]
            rows.append(
                {
                    "node": response_node(record.key, index),
                    "profile_id": record.id,
                    "profile_name": record.name,
                    "profile_active": record.active,
                    "index": index,
                    "unit_type": type_of(unit),
                    "active": is_active(unit),
                    "content_type": type_of(field_value(unit, "contentType")),
                    "channel": use.key if use is not None else None,
                    "channel_name": field_value(channel, "name"),
                    "partner": label(partner, pkey) if pkey is not None else None,
                    "target": record.response_targets[index],
                    "host": where.host,
                    "url": where.url,
                }
            )
    return rows


def _date(value: int | None) -> datetime | None:
    """An epoch number as a UTC datetime; None when it is out of any calendar's range."""
    try:
        stamp = timestamp(value)
    except (OverflowError, ValueError):
        return None
    return stamp.datetime if stamp is not None else None


_BUILDERS: dict[str, Callable[[Indexed], list[dict[str, Any]]]] = {
    "profiles": _profiles,
    "channels": _channels,
    "partners": _partners,
    "responses": _responses,
}
