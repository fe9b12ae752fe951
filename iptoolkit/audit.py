"""Findings: the audit an analyst runs first, as a list of typed, sortable findings.

Each finding has a `kind` (one of `KINDS`), a `severity`, a short `text` and the graph
`nodes` involved. Severities:

- `error`: something cannot work or could not be read (parse problems);
- `warning`: likely misconfiguration (active profile on an inactive channel, a channel id
  named but held nowhere, conflicting copies of a channel, duplicate ids or endpoints,
  an active profile that delivers nowhere);
- `info`: housekeeping (inactive profiles still holding active channels, partners without
  an active channel, profiles without an id).

"Active" means `active` is true; a missing flag counts as not active (see `nodes`).

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
from .nodes import (
    agent_node,
    channel_node,
    endpoint,
    is_active,
    label,
    partner_node,
    partner_of,
    profile_keys,
    profile_node,
    profile_uses,
    type_of,
)

if TYPE_CHECKING:
    import pandas

    from .estate import Estate

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
    """The checks, sharing one pass of preparation over the estate."""

    def __init__(self, estate: Estate) -> None:
        self.estate = estate
        self.keys = profile_keys(estate.raw_profiles)
        self.nodes = [profile_node(self.keys[i]) for i in estate.raw_index]
        self.uses = profile_uses(estate)
        self.node_of_id: dict[Any, str] = {}
        for index, raw in enumerate(estate.raw_profiles):
            pid = raw.get("id") if isinstance(raw, dict) else None
            if isinstance(pid, str | int):
                self.node_of_id.setdefault(pid, profile_node(self.keys[index]))

    def parse_problems(self) -> list[Finding]:
        return [
            Finding("parse_problem", "error", str(p), (profile_node(self.keys[p.index]),))
            for p in self.estate.problems
        ]

    def profile_ids(self) -> list[Finding]:
        by_id: dict[Any, list[str]] = defaultdict(list)
        missing = []
        for index, raw in enumerate(self.estate.raw_profiles):
            pid = raw.get("id") if isinstance(raw, dict) else None
            if isinstance(pid, str | int) and not isinstance(pid, bool) and pid != "":
                by_id[pid].append(profile_node(self.keys[index]))
            else:
                missing.append(profile_node(self.keys[index]))
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
                f"the profile at position {node.removeprefix('profile:#')} ({node}) has no id",
                (node,),
            )
            for node in missing
        ]
        return found

    def conflicts(self) -> list[Finding]:
        found = []
        for conflict in self.estate.conflicts:
            node = (channel_node if conflict.kind == "channel" else partner_node)(conflict.key)
            profiles = [self.node_of_id.get(pid, f"profile:{pid}") for pid, _ in conflict.variants]
            found.append(
                Finding(
                    f"{conflict.kind}_conflict",
                    "warning",
                    f"{conflict.kind} {conflict.key} has {len(conflict.variants)} different "
                    f"contents, in profiles {_names(profiles)}",
                    (node, *dict.fromkeys(profiles)),
                )
            )
        return found

    def unresolved(self) -> list[Finding]:
        named: dict[str, list[str]] = defaultdict(list)
        for node, uses in zip(self.nodes, self.uses, strict=True):
            for use in uses:
                if not use.resolved and node not in named[use.node]:
                    named[use.node].append(node)
        return [
            Finding(
                "unresolved_channel", "warning",
                f"{channel} is named by id in {_count(profiles, 'profile')} "
                f"({_names(profiles)}) but held by no profile",
                (channel, *profiles),
            )
            for channel, profiles in named.items()
        ]  # fmt: skip

    def activity(self) -> list[Finding]:
        """Active profiles on inactive channels; inactive profiles holding active ones."""
        found = []
        for profile, node, uses in zip(self.estate.profiles, self.nodes, self.uses, strict=True):
            units = profile.response_units
            if is_active(profile):
                dead = {
                    use.node: use.channel
                    for use in uses
                    if use.resolved
                    and not is_active(use.channel)
                    and (use.use.role != "response" or is_active(units[use.use.unit or 0]))
                }
                if dead:
                    found.append(
                        Finding(
                            "active_profile_inactive_channel", "warning",
                            f"active profile {_label(profile, node)} uses "
                            f"{_count(dead, 'inactive channel')}: {_channels(dead)}",
                            (node, *dead),
                        )
                    )  # fmt: skip
            else:
                live = {use.node: use.channel for use in uses if is_active(use.channel)}
                if live:
                    found.append(
                        Finding(
                            "inactive_profile_active_channel", "info",
                            f"inactive profile {_label(profile, node)} still holds "
                            f"{_count(live, 'active channel')}: {_channels(live)}",
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
                f"({_count(channels[key], 'channel')}, none active)",
                (partner_node(key), *channels[key]),
            )
            for key, partner in self.estate.partners.items()
            if key not in active
        ]  # fmt: skip

    def response_paths(self) -> list[Finding]:
        """Active profiles that deliver nowhere: no response unit, or none active."""
        found = []
        for profile, node in zip(self.estate.profiles, self.nodes, strict=True):
            if not is_active(profile):
                continue
            units = profile.response_units
            if not units:
                text = f"active profile {_label(profile, node)} has no response path"
            elif not any(is_active(unit) for unit in units):
                text = (
                    f"active profile {_label(profile, node)} has "
                    f"{_count(units, 'response path')}, none active"
                )
            else:
                continue
            found.append(Finding("no_response_path", "warning", text, (node,)))
        return found

    def duplicate_endpoints(self) -> list[Finding]:
        """Agents of different profiles on the same URL, host or topic (per agent type)."""
        groups: dict[tuple[str, ...], list[tuple[str, bool]]] = defaultdict(list)
        for profile, node in zip(self.estate.profiles, self.nodes, strict=True):
            agent = profile.input_agent_settings
            if agent is None:
                continue
            where = endpoint(agent)
            entry = (node, is_active(profile))
            if where.url:
                groups[("URL", where.url.rstrip("/").lower())].append(entry)
            if where.host:
                groups[("host", where.host.lower())].append(entry)
            if where.topic:
                groups[("topic", where.topic, type_of(agent) or "?")].append(entry)
        found = []
        for (what, value, *agent_type), entries in groups.items():
            if len(entries) < 2:
                continue
            nodes = [node for node, _ in entries]
            active = sum(1 for _, flag in entries if flag)
            kind_of = f" ({agent_type[0]})" if agent_type else ""
            found.append(
                Finding(
                    "duplicate_endpoint",
                    "warning" if active > 1 else "info",
                    f"{len(nodes)} agents share the {what} {value!r}{kind_of}, "
                    f"{active} of them active: {_names(nodes)}",
                    (*(agent_node(n.removeprefix("profile:")) for n in nodes), *nodes),
                )
            )
        return found


def _label(profile: Any, node: str) -> str:
    return f"{node} ({profile.name})" if profile.name else node


def _count(items: Any, noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


def _names(nodes: list[str]) -> str:
    shown = ", ".join(nodes[:_SHOWN])
    return shown + (f" and {len(nodes) - _SHOWN} more" if len(nodes) > _SHOWN else "")


def _channels(channels: dict[str, Any]) -> str:
    return _names([f"{label(model, node)} ({node})" for node, model in channels.items()])
