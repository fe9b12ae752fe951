"""Small builders of raw profile JSON for hand-made estates whose answers are obvious.

Each returns a fresh dict in the API's JSON shape (`class` tags, camelCase names), so tests
read like the data they describe:

    estate_of(
        profile("P1", agent=agent("SFTP", channels=[channel(5, "SFTP", partner=ACME)])),
    )
"""

from __future__ import annotations

from typing import Any

from iptoolkit.core.estate import Estate
from iptoolkit.models import ChannelBase, IntegrationPartner

__all__ = [
    "partner",
    "channel",
    "agent",
    "unit",
    "profile",
    "estate_of",
    "known_channel",
    "known_partner",
    "ACME",
    "GLOBEX",
]


def partner(id: int | None, name: str | None = None) -> dict[str, Any]:
    raw: dict[str, Any] = {"class": "core:IntegrationPartner"}
    if id is not None:
        raw["id"] = id
    if name is not None:
        raw["name"] = name
    return raw


ACME = partner(1, "Acme")
GLOBEX = partner(2, "Globex")


def channel(
    id: int | None,
    type: str = "SFTP",
    *,
    partner: dict[str, Any] | None = None,
    active: bool | None = True,
    name: str | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A channel; `type` is the short name (`SFTP` for `IntegrationPartnerChannelSFTP`)."""
    raw: dict[str, Any] = {"class": f"core:IntegrationPartnerChannel{type}"}
    if id is not None:
        raw["id"] = id
    if name is not None:
        raw["name"] = name
    elif id is not None:
        raw["name"] = f"{type} {id}"
    if active is not None:
        raw["active"] = active
    if partner is not None:
        raw["partner"] = dict(partner)
    raw.update(fields)
    return raw


def agent(type: str = "SFTP", **fields: Any) -> dict[str, Any]:
    """Input agent settings; `type` is the name without `AgentSettings` (`SFTP`, `Fax`)."""
    return {"class": f"core:{type}AgentSettings", **fields}


def unit(
    type: str = "Ftp",
    *,
    channel: dict[str, Any] | None = None,
    active: bool | None = True,
    **fields: Any,
) -> dict[str, Any]:
    """A response unit; `type` is the name without `ProfileResponseUnit` (`Ftp`, `File`)."""
    raw: dict[str, Any] = {"class": f"core:{type}ProfileResponseUnit"}
    if active is not None:
        raw["active"] = active
    if channel is not None:
        raw["channel"] = dict(channel)
    raw.update(fields)
    return raw


def profile(
    id: str | None,
    *,
    agent: dict[str, Any] | None = None,
    units: list[dict[str, Any]] | None = None,
    active: bool | None = True,
    **fields: Any,
) -> dict[str, Any]:
    raw: dict[str, Any] = {"class": "core:IntegrationProfile"}
    if id is not None:
        raw["id"] = id
    if active is not None:
        raw["active"] = active
    if agent is not None:
        raw["inputAgentSettings"] = agent
    if units is not None:
        raw["responseSettings"] = {"class": "core:ProfileResponseSettings", "units": units}
    raw.update(fields)
    return raw


def estate_of(*profiles: Any) -> Estate:
    return Estate.from_raw(list(profiles))


def known_channel(estate: Estate, key: int | str) -> ChannelBase:
    """The estate's channel `key`, parsed as a channel type the toolkit knows (the estate
    may keep one of a `class` it does not know as `UnknownChannel`: not where this is asked)."""
    found = estate.channels[key]
    assert isinstance(found, ChannelBase), found
    return found


def known_partner(estate: Estate, key: int | str) -> IntegrationPartner:
    """The estate's partner `key`, parsed as a model (one held inside a channel of an unknown
    type stays a raw JSON object: not where this is asked)."""
    found = estate.partners[key]
    assert isinstance(found, IntegrationPartner), found
    return found


def tiny_estate() -> Estate:
    """Two partners, an inactive profile, a channel named by an id nobody holds."""
    sftp = channel(5, "SFTP", partner=ACME)
    as2 = channel(6, "AS2", partner=GLOBEX, active=False)
    return estate_of(
        profile("P1", name="Orders in", agent=agent("SFTP", channels=[sftp]), group="Sales"),
        profile(
            "P2",
            name="Invoices out",
            agent=agent("Fax", channelIds=[6, 999]),
            units=[unit("AS2", channel=as2), unit("File", fileName="/out/x.csv")],
            group="Finance",
        ),
        profile("P3", name="Old feed", active=False, agent=agent("SFTP", channels=[sftp])),
    )
