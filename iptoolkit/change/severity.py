"""How much a change matters: breaking, notable or cosmetic, and why, in words.

The rules are written once, in `RULES`: each function below answers with one of them, and
the README shows them as a table (`rules_markdown`, a test holds the two equal). One
principle decides: a change is **breaking** when an active profile stops receiving or
delivering something, **cosmetic** when it changes nothing a profile does, **notable**
otherwise. So a migration (a link replaced by another on the same agent or response unit,
a channel removed after every active user was rewired) is notable, and removing an active
profile is as breaking as deactivating it.

Rules that need the estates (who uses a channel, which links were replaced) are applied in
`diff.py` and `rewire.py`; this module classifies a field by its name and place.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..support.names import composed
from .record import Severity
from .walk import FieldChange

__all__ = [
    "Rule",
    "RULES",
    "rule",
    "rules_markdown",
    "COSMETIC_FIELDS",
    "TIMESTAMP_FIELDS",
    "field_severity",
    "link_severity",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """One line of the severity table: what happens, and how severe it is."""

    name: str
    severity: Severity
    when: str
    """What happens, as the README's table says it."""


RULES: tuple[Rule, ...] = (
    Rule("profile-stops", "breaking", "an active profile is removed or deactivated"),
    Rule(
        "input-lost",
        "breaking",
        "an active profile's agent loses an input channel and gains none in its place",
    ),
    Rule(
        "response-lost",
        "breaking",
        "an active profile loses a response path: a response unit removed or deactivated, "
        "or a unit's channel removed with none in its place",
    ),
    Rule(
        "left-behind",
        "breaking",
        "a channel or partner is removed or deactivated while an active profile still uses "
        "it or lost it without a replacement (the reason names those profiles)",
    ),
    Rule(
        "rewired",
        "notable",
        "a link is replaced by another on the same agent, the same response unit or the "
        "same channel: rewired from channel A to channel B",
    ),
    Rule(
        "migrated",
        "notable",
        "a channel or partner is removed or deactivated after every active profile using it "
        "was rewired, or while no active profile uses it",
    ),
    Rule(
        "inactive",
        "notable",
        "an inactive profile is removed or deactivated, or loses a link",
    ),
    Rule(
        "goes-with",
        "notable",
        "a link is added or removed with its profile, channel or partner (shown under it)",
    ),
    Rule(
        "added",
        "notable",
        "a profile, channel, partner or link is added; something is activated; a profile "
        "becomes faulty or is fixed",
    ),
    Rule(
        "setting",
        "notable",
        "an endpoint, schedule, certificate, class, reference or other setting changes",
    ),
    Rule(
        "cosmetic",
        "cosmetic",
        "a name, description, tag, type label (`typeName`) or timestamp (`created`, "
        "`lastModified`, ...) changes, except inside mapping structures",
    ),
)
"""The severity table, most severe first."""

_BY_NAME = {item.name: item for item in RULES}


def rule(name: str) -> Severity:
    """The severity of the rule called `name` (a KeyError for a rule not in the table)."""
    return _BY_NAME[name].severity


def rules_markdown() -> str:
    """The table as the README shows it."""
    lines = ["| severity | when |", "|---|---|"]
    lines += [f"| {item.severity} | {item.when} |" for item in RULES]
    return "\n".join(lines)


TIMESTAMP_FIELDS = frozenset(
    {
        "created",
        "lastModified",
        "lastModifiedGUI",
        "createdAt",
        "updatedAt",
        "modified",
        "updated",
    }
)
"""Fields holding a time (epoch milliseconds on the platform): shown as dates too."""

COSMETIC_FIELDS = frozenset({"name", "description", "tags", "typeName"}) | TIMESTAMP_FIELDS

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

_CERTIFICATE = re.compile(r"certificate|cert(?:Id)?$|keystore|truststore", re.IGNORECASE)
"""A field naming a certificate or key store (`remoteCertificateId`, `localCert`)."""

_WHAT = {
    "channel": "its channel changed",
    "channels": "its channels changed",
    "partner": "its partner changed",
    "units": "its response units changed",
    "unit": "a response unit changed",
    "inputAgentSettings": "its input agent changed",
    "responseSettings": "its response settings changed",
}
"""What a change of a structural field changes, in words."""


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
            return rule("added"), "its activity changed"
        if kind == "profile":
            return rule("profile-stops"), "profile deactivated"
        users = active_users()
        if users:
            return rule("left-behind"), f"{kind} deactivated; active profiles use it: {users}"
        return rule("migrated"), f"{kind} deactivated; no active profile uses it"
    if _UNIT_ACTIVE.match(change.path) and change.old is True and change.new is not True:
        owner = active_users()
        if owner:
            return (
                rule("response-lost"),
                f"active profile {owner} loses a response path: unit deactivated",
            )
        return rule("inactive"), "a response unit deactivated"
    name = change.name
    if name in COSMETIC_FIELDS and change.top != "mappingSettings":
        return rule("cosmetic"), _unicode_form_only(change.old, change.new)
    if name == "class":
        return rule("setting"), "its class changed"
    if _CERTIFICATE.search(name):
        return rule("setting"), f"a certificate changed ({name})"
    if name in ENDPOINT_FIELDS:
        return rule("setting"), f"an endpoint changed ({name})"
    if name in SCHEDULE_FIELDS:
        return rule("setting"), f"a schedule changed ({name})"
    if name in _WHAT:
        return rule("setting"), _WHAT[name]
    if name == "id" or name.endswith(("Id", "Ids")):
        return rule("setting"), f"a reference changed ({name})"
    return rule("setting"), f"a setting changed ({name})" if name else "a setting changed"


def link_severity(
    source: str,
    target: str,
    *,
    removed: bool,
    active_owner: str | None,
    with_item: bool = False,
    replaced_by: str | None = None,
) -> tuple[Severity, str]:
    """A link added or removed. `active_owner` is the profile owning the source (an agent
    or response unit, or the profile itself) when that profile is active in the new
    snapshot; `with_item`: the link comes or goes with its profile (added or removed);
    `replaced_by`: the target of a link added from the same source in its place (a
    rewiring). Losing such a link without a replacement is breaking."""
    if not removed:
        return rule("goes-with" if with_item else "added"), "a link was added"
    if replaced_by is not None:
        owner = f"active profile {active_owner}: " if active_owner else ""
        return rule("rewired"), f"{owner}rewired from {target} to {replaced_by}"
    if active_owner is not None:
        if source.startswith("agent:"):
            return (
                rule("input-lost"),
                f"active profile {active_owner} loses its input channel {target}",
            )
        if source.startswith("response:"):
            return (
                rule("response-lost"),
                f"active profile {active_owner} loses a response path to {target}",
            )
        if source.startswith("profile:") and target.startswith("response:"):
            return rule("response-lost"), f"active profile {active_owner} loses a response path"
        if source.startswith("profile:") and target.startswith("agent:"):
            return rule("input-lost"), f"active profile {active_owner} loses its input agent"
    if with_item or not source.startswith(("agent:", "response:", "profile:")):
        return rule("goes-with"), "a link was removed"
    return rule("inactive"), "a link of an inactive profile was removed"


def _unicode_form_only(old: Any, new: Any) -> str:
    """The reason for a text changed only in its Unicode form (`Café` as one character or
    as `e` and a combining accent): the two look the same, and would read as no change."""
    if type(old) is str and type(new) is str and old != new and composed(old) == composed(new):
        return "the same text in another Unicode form"
    return ""
