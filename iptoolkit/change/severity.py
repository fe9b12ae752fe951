"""How much a change matters: breaking, notable or cosmetic, and why, in words.

The rules of issue 12, written once:

- **breaking**: an active profile loses its input channel or a response path (a link from
  its agent or to or from one of its response units is removed, or a response unit is
  deactivated); a channel or partner that
  active profiles use is deactivated or removed; a profile is deactivated.
- **cosmetic**: names, descriptions, tags, type labels (`typeName`) and timestamps
  (`created`, `lastModified`, ...), except inside mapping structures, where a node's name is
  what the mapping reads.
- **notable**: everything else. The issue names topology, endpoints, schedules, activity
  and classes; any other setting (a timeout, a file pattern) is notable too, because it
  changes what a profile does, which cosmetic changes never do.

Breaking rules that need the estates (who uses a channel) are applied in `diff.py`; this
module classifies a field by its name and place.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .model import Severity
from .walk import FieldChange

__all__ = ["COSMETIC_FIELDS", "field_severity", "link_severity"]

COSMETIC_FIELDS = frozenset(
    {
        "name",
        "description",
        "tags",
        "typeName",
        "created",
        "lastModified",
        "lastModifiedGUI",
        "createdAt",
        "updatedAt",
        "modified",
        "updated",
    }
)

ENDPOINT_FIELDS = frozenset(
    {
        "url",
        "as2Url",
        "endpointUrl",
        "smtpServerUrl",
        "schemaRegistryUrl",
        "host",
        "port",
        "uri",
        "share",
        "remotePath",
        "topic",
        "topicName",
        "queue",
        "queueName",
        "routingKey",
        "dir",
        "directory",
        "bucket",
        "fileName",
        "filePattern",
        "to",
        "from",
        "httpSettings",
    }
)

SCHEDULE_FIELDS = frozenset({"cronSchedule", "interval", "subscriptionInterval"})

TOPOLOGY_FIELDS = frozenset(
    {"channel", "channels", "partner", "units", "unit", "inputAgentSettings", "responseSettings"}
)


_UNIT_ACTIVE = re.compile(r"responseSettings\.units\[\d+\]\.active$")
"""A response unit's own `active` (not that of a channel it holds)."""


def field_severity(
    change: FieldChange, kind: str, active_users: Callable[[], str]
) -> tuple[Severity, str]:
    """The severity of a changed field of a profile, channel or partner, and its reason.

    `active_users()` names the active profiles using a channel or partner, or the profile
    itself when active ("" for none), asked only when something is deactivated.
    """
    if change.path == "active":
        if change.old is not True or change.new is True:
            return "notable", "its activity changed"
        if kind == "profile":
            return "breaking", "profile deactivated"
        users = active_users()
        if users:
            return "breaking", f"{kind} deactivated; active profiles use it: {users}"
        return "notable", f"{kind} deactivated; no active profile uses it"
    if _UNIT_ACTIVE.match(change.path) and change.old is True and change.new is not True:
        owner = active_users()
        if owner:
            return "breaking", f"active profile {owner} loses a response path: unit deactivated"
        return "notable", "a response unit deactivated"
    name = change.name
    if name in COSMETIC_FIELDS and change.top != "mappingSettings":
        return "cosmetic", ""
    if name == "class":
        return "notable", "its class changed"
    if name in ENDPOINT_FIELDS:
        return "notable", "an endpoint changed"
    if name in SCHEDULE_FIELDS:
        return "notable", "a schedule changed"
    if name in TOPOLOGY_FIELDS or name == "id" or name.endswith(("Id", "Ids")):
        return "notable", "the topology changed"
    return "notable", "a setting changed"


def link_severity(
    source: str, target: str, *, removed: bool, active_owner: str | None
) -> tuple[Severity, str]:
    """A link added or removed. `active_owner` is the profile node owning the source (an
    agent or response unit, or the profile itself) when that profile is active in the new
    snapshot; losing such a link is breaking."""
    if not removed:
        return "notable", "the topology changed: a link was added"
    if active_owner is not None:
        if source.startswith("agent:"):
            return "breaking", f"active profile {active_owner} loses its input channel {target}"
        if source.startswith("response:"):
            return "breaking", f"active profile {active_owner} loses a response path to {target}"
        if source.startswith("profile:") and target.startswith("response:"):
            return "breaking", f"active profile {active_owner} loses a response path"
        if source.startswith("profile:") and target.startswith("agent:"):
            return "breaking", f"active profile {active_owner} loses its input agent"
    return "notable", "the topology changed: a link was removed"
