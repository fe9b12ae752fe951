"""Findings: the audit an analyst runs first, as a list of typed, sortable findings.

Each finding has a `kind` (one of `KINDS`), a `severity`, a short `text` and the graph
`nodes` involved. Severities:

- `error`: something cannot work or could not be read (parse problems);
- `warning`: likely misconfiguration (active profile on an inactive channel, a channel id
  named but held nowhere, conflicting copies of a channel, duplicate ids or endpoints,
  an active profile that delivers nowhere);
- `info`: housekeeping (inactive profiles still holding active channels, partners without
  an active channel, profiles without an id).

"Active" means `active` is true; a missing flag counts as not active (see `records`).

>>> import iptoolkit as ipt
>>> found = ipt.findings(ipt.Estate.from_raw([{"id": "P1", "active": True}]))
>>> [f.kind for f in found]
['no_response_path']
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .models import gc_paused
from .names import plural
from .nodes import agent_node, channel_node, is_active, label, partner_node, partner_of

if TYPE_CHECKING:
    import pandas

    from .estate import Estate
    from .records import ProfileRecord

__all__ = ["Finding", "Findings", "findings", "KINDS", "SEVERITIES"]

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
KINDS = (
    "parse_problem",
    "duplicate_profile_id",
    "profile_without_id",
    "channel_conflict",
    "partner_conflict",
    "unresolved_channel",
    "active_profile_inactive_channel",
    "inactive_profile_active_channel",
    "partner_without_active_channel",
    "no_response_path",
    "duplicate_endpoint",
)
_SHOWN = 3


@dataclass(frozen=True)
class Finding:
    """One thing worth a look: what (`kind`), how bad, in words, and the nodes involved."""

    kind: str
    severity: Severity
    text: str
    nodes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"[{self.severity}] {self.text}"


class Findings(list[Finding]):
    """A list of findings, errors first, with a table view."""

    def to_frame(self) -> pandas.DataFrame:
        """One row per finding: severity, kind, text, nodes (a list of node ids)."""
        import pandas as pd

        rows = [(f.severity, f.kind, f.text, list(f.nodes)) for f in self]
        return pd.DataFrame(rows, columns=["severity", "kind", "text", "nodes"])

    def counts(self) -> dict[str, int]:
        """How many findings of each kind, in the order of `KINDS`."""
        counted = {kind: 0 for kind in KINDS}
        for finding in self:
            counted[finding.kind] = counted.get(finding.kind, 0) + 1
        return {kind: n for kind, n in counted.items() if n}

    def of(self, *, kind: str | None = None, severity: str | None = None) -> Findings:
        """The findings of one kind and/or severity."""
        return Findings(
            f
            for f in self
            if (kind is None or f.kind == kind) and (severity is None or f.severity == severity)
        )

    def __str__(self) -> str:
        return "\n".join(str(finding) for finding in self)


def findings(estate: Estate) -> Findings:
    """Audit the estate: every check in `KINDS`, most severe first."""
    with gc_paused():
        audit = _Audit(estate)
        found = [
            *audit.parse_problems(),
            *audit.profile_ids(),
            *audit.conflicts(),
            *audit.unresolved(),
            *audit.activity(),
            *audit.partners_without_active_channel(),
            *audit.response_paths(),
            *audit.duplicate_endpoints(),
        ]
    rank = {severity: n for n, severity in enumerate(SEVERITIES)}
    return Findings(sorted(found, key=lambda f: rank[f.severity]))


class _Audit:
    """The checks, each reading the estate's records."""

    def __init__(self, estate: Estate) -> None:
        self.estate = estate

    def parse_problems(self) -> list[Finding]:
        records = self.estate.records
        return [
            Finding("parse_problem", "error", str(problem), (records[problem.index].node,))
            for problem in self.estate.problems
        ]

    def profile_ids(self) -> list[Finding]:
        by_id: dict[Any, list[str]] = defaultdict(list)
        missing = []
        for record in self.estate.records:
            if record.id is not None:
                by_id[record.id].append(record.node)
            else:
                missing.append(record)
        found = [
            Finding(
                "duplicate_profile_id", "warning", f"{len(nodes)} profiles share the id {pid!r}",
                tuple(nodes),
            )
            for pid, nodes in by_id.items()
            if len(nodes) > 1
        ]  # fmt: skip
        found += [
            Finding(
                "profile_without_id",
                "info",
                f"the profile at position {record.index} ({record.node}) has no id",
                (record.node,),
            )
            for record in missing
        ]
        return found

    def conflicts(self) -> list[Finding]:
        found = []
        for conflict in self.estate.conflicts:
            node = (channel_node if conflict.kind == "channel" else partner_node)(conflict.key)
            profiles = list(dict.fromkeys(conflict.profiles))
            found.append(
                Finding(
                    f"{conflict.kind}_conflict",
                    "warning",
                    f"{conflict.kind} {conflict.key} has {len(conflict.variants)} different "
                    f"contents, in profiles {_names(list(conflict.profiles))}",
                    (node, *profiles),
                )
            )
        return found

    def unresolved(self) -> list[Finding]:
        return [
            Finding(
                "unresolved_channel", "warning",
                f"{channel_node(key)} is named by id in {plural(len(profiles), 'profile')} "
                f"({_names(list(profiles))}) but held by no profile",
                (channel_node(key), *profiles),
            )
            for key, profiles in self.estate.unresolved.items()
        ]  # fmt: skip

    def activity(self) -> list[Finding]:
        """Active profiles on inactive channels; inactive profiles holding active ones."""
        found = []
        channels = self.estate.channels
        for record in self.estate.valid_records:
            units = record.response_units
            node = record.node
            used = [
                (use, use.held if use.held is not None else channels.get(use.key))
                for use in record.uses
            ]
            if record.active:
                dead = {}
                for use, channel in used:
                    if channel is None or is_active(channel):
                        continue
                    if use.role != "response" or is_active(units[use.unit or 0]):
                        dead[use.node] = channel
                if dead:
                    found.append(
                        Finding(
                            "active_profile_inactive_channel", "warning",
                            f"active profile {_label(record)} uses "
                            f"{plural(len(dead), 'inactive channel')}: {_channels(dead)}",
                            (node, *dead),
                        )
                    )  # fmt: skip
            else:
                live = {use.node: channel for use, channel in used if is_active(channel)}
                if live:
                    found.append(
                        Finding(
                            "inactive_profile_active_channel", "info",
                            f"inactive profile {_label(record)} still holds "
                            f"{plural(len(live), 'active channel')}: {_channels(live)}",
                            (node, *live),
                        )
                    )  # fmt: skip
        return found

    def partners_without_active_channel(self) -> list[Finding]:
        channels: dict[Any, list[str]] = defaultdict(list)
        active: set[Any] = set()
        for key, channel in self.estate.channels.items():
            pkey, _ = partner_of(channel)
            channels[pkey].append(channel_node(key))
            if is_active(channel):
                active.add(pkey)
        return [
            Finding(
                "partner_without_active_channel", "info",
                f"partner {label(partner, key)} has no active channel "
                f"({plural(len(channels[key]), 'channel')}, none active)",
                (partner_node(key), *channels[key]),
            )
            for key, partner in self.estate.partners.items()
            if key not in active
        ]  # fmt: skip

    def response_paths(self) -> list[Finding]:
        """Active profiles that deliver nowhere: no response unit, or none active."""
        found = []
        for record in self.estate.valid_records:
            if not record.active:
                continue
            units = record.response_units
            if not units:
                text = f"active profile {_label(record)} has no response path"
            elif not any(is_active(unit) for unit in units):
                text = (
                    f"active profile {_label(record)} has "
                    f"{plural(len(units), 'response path')}, none active"
                )
            else:
                continue
            found.append(Finding("no_response_path", "warning", text, (record.node,)))
        return found

    def duplicate_endpoints(self) -> list[Finding]:
        """Agents of different profiles on the same URL, host or topic (per agent type)."""
        groups: dict[tuple[str, ...], list[ProfileRecord]] = defaultdict(list)
        for record in self.estate.valid_records:
            if record.agent is None:
                continue
            where = record.agent_endpoint
            if where.url:
                groups[("URL", where.url.rstrip("/").lower())].append(record)
            if where.host:
                groups[("host", where.host.lower())].append(record)
            if where.topic:
                groups[("topic", where.topic, record.agent_type or "?")].append(record)
        found = []
        for (what, value, *agent_type), records in groups.items():
            if len(records) < 2:
                continue
            nodes = [record.node for record in records]
            active = sum(1 for record in records if record.active)
            kind_of = f" ({agent_type[0]})" if agent_type else ""
            found.append(
                Finding(
                    "duplicate_endpoint",
                    "warning" if active > 1 else "info",
                    f"{len(nodes)} agents share the {what} {value!r}{kind_of}, "
                    f"{active} of them active: {_names(nodes)}",
                    (*(agent_node(record.key) for record in records), *nodes),
                )
            )
        return found


def _label(record: ProfileRecord) -> str:
    return f"{record.node} ({record.name})" if record.name else record.node


def _names(nodes: list[str]) -> str:
    shown = ", ".join(nodes[:_SHOWN])
    return shown + (f" and {len(nodes) - _SHOWN} more" if len(nodes) > _SHOWN else "")


def _channels(channels: dict[str, Any]) -> str:
    return _names([f"{label(model, node)} ({node})" for node, model in channels.items()])
