"""Deterministic synthetic estates of any size, for demos, tests, notebooks and benchmarks.

`demo_profiles(n, seed=...)` returns raw profile dicts exactly as the platform's listing would
send them; `demo_estate` wraps them in an `Estate`. The same seed always gives the same estate
(one `random.Random(seed)`, no clock, no set order); timestamps are epoch milliseconds in
2024-2026.

What an estate holds, so that every feature of the toolkit has something to show:

- partners with several channels each; a channel pool generated once, so the same channel
  (same id, same content) recurs in many profiles; ids are i64, a few above 2**53;
- the first 35 profiles cycle through every input agent type, so every agent type, and every
  channel type, is present from 60 profiles on; agents hold the channel types the spec names;
- agents that name channels by id (`channelIds`, `comChannelId`, `channelId`,
  `registryChannelId`) point at channels that some other profile holds in full; about 2%
  point at ids that exist nowhere (dangling);
- the spec gives no field that holds IoT, HTTP, SMB or Fax channels in full, so a few FTP
  response units carry them (the models accept any channel class there); that is where the id
  references to those types find them;
- inactive profiles (~10%) and channels (~8%), every response unit type with every content
  type, profiles without response units, every integration unit type, mappings, CSV metadata.

Every profile is its own dict tree: nothing is shared between profiles, so callers may mutate.
No field carries a secret; certificates and keys appear as ids only.

>>> profiles = demo_profiles(60, seed=1)
>>> profiles[0]["class"], profiles[0]["id"]
('core:IntegrationProfile', 'P-000001')
"""

from __future__ import annotations

import gc
from bisect import bisect
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import accumulate
from math import isqrt
from random import Random
from typing import TYPE_CHECKING, Any

from ..models import AGENT_TYPES, CONTENT_TYPES, RESPONSE_UNIT_TYPES
from . import data

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["demo_profiles", "demo_estate"]

_START_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z
_END_MS = 1_782_864_000_000  # 2026-07-01T00:00:00Z
_FIRST_PARTNER_ID = 1001
_FIRST_CHANNEL_ID = 40001
_DANGLING_BASE = 9_000_000_000  # above every pool id: ids that exist nowhere
_BIG_PARTNER_ID = 2**53 + 1  # partner 0: not exact as a float (JavaScript, pandas float64)
_BIG_CHANNEL_IDS = {0: 2**53 + 3, 1: 2**62 + 11}  # pool AS2[0] and SFTP[0]

_AGENT_NAMES = tuple(cls.__name__ for cls in AGENT_TYPES)
_AGENT_CUM = tuple(accumulate(data.AGENTS[name].weight for name in _AGENT_NAMES))
_UNIT_NAMES = tuple(cls.__name__ for cls in RESPONSE_UNIT_TYPES)
_UNIT_CUM = tuple(accumulate((30, 20, 12, 18, 20)))  # File, AS2, Mail, Http, Ftp
_CONTENT_NAMES = tuple(cls.__name__ for cls in CONTENT_TYPES)
_CONTENT_CUM = tuple(accumulate((15, 3, 8, 5, 5, 4, 6, 40)))  # ORIG ... IU, in spec order
_CHANNEL_CUM = tuple(accumulate(data.CHANNEL_WEIGHTS))
_ENCODINGS = tuple(name for name, _ in data.ENCODINGS)
_ENCODING_CUM = tuple(accumulate(weight for _, weight in data.ENCODINGS))
_OFF_TYPES = ("SMB", "HTTP", "IoT", "Fax")
"""Channel types no typed field holds; some FTP response units carry them (see above)."""
_INACTIVE_IN_CYCLE = _AGENT_NAMES.index("OFTPAgentSettings")
"""One profile of the first cycle is always inactive (it holds channels others use too)."""
_GROUP_SLUGS = {group: group.lower().replace("/", "-") for group in data.GROUPS}
_NAME_PAIRS = len(data.STEMS) * len(data.SECTORS)


def demo_profiles(n_profiles: int = 300, *, seed: int = 0) -> list[dict[str, Any]]:
    """`n_profiles` raw, JSON-ready profiles; the same `seed` always gives the same list.

    Each passes strict `parse_profiles` and survives a parse/dump round trip unchanged.
    """
    from ..support.arguments import whole_number

    whole_number(n_profiles, "demo_profiles: n_profiles", 0)
    # Millions of fresh containers make the cyclic collector rescan the growing heap over and
    # over (100,000 profiles: 16 s with it, 3.5 s without); they hold no cycles, so pause it.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _Builder(n_profiles, seed).build()
    finally:
        if was_enabled:
            gc.enable()


def demo_estate(
    n_profiles: int = 300, *, seed: int = 0, fetched_at: datetime | str | None = None
) -> Estate:
    """An `Estate` of `demo_profiles(n_profiles, seed=seed)`, its source `demo:seed=<seed>`.

    `fetched_at` (a date-time, or ISO text of one; UTC when it names no zone) dates it as
    a snapshot fetched then: the archive and `ipt.history` order snapshots by that time,
    and `demo_changes` dates its week seven days later. None (the default): no fetch time.
    """
    from ..core.estate import Estate
    from ..support.arguments import whole_number

    whole_number(n_profiles, "demo_estate: n_profiles", 0)
    if isinstance(fetched_at, str):
        fetched_at = datetime.fromisoformat(fetched_at)
    if fetched_at is not None and fetched_at.tzinfo is None:
        fetched_at = fetched_at.replace(tzinfo=UTC)
    return Estate.from_raw(
        demo_profiles(n_profiles, seed=seed), source_url=f"demo:seed={seed}", fetched_at=fetched_at
    )


def _weighted(rng: Random, items: Sequence[str], cum_weights: Sequence[int]) -> str:
    """`rng.choices(items, cum_weights=...)[0]` without its per-call overhead."""
    return items[bisect(cum_weights, rng.random() * cum_weights[-1])]


def _fresh(channel: dict[str, Any]) -> dict[str, Any]:
    """A copy of a pool channel that shares nothing mutable with the pool."""
    copy = dict(channel)
    copy["partner"] = dict(channel["partner"])
    if "userRoles" in channel:
        copy["userRoles"] = list(channel["userRoles"])
    return copy


def _class(kind: str) -> dict[str, str]:
    return {"class": "core:" + kind}


class _Builder:
    """One estate under construction: the partner and channel pool, then the profiles."""

    def __init__(self, n_profiles: int, seed: int) -> None:
        self.n = n_profiles
        self.rng = Random(seed)
        self.partners: list[tuple[dict[str, Any], str, str]] = []  # (partner, slug, short)
        self.partner_index: dict[int, int] = {}  # partner id -> index in partners
        self.by_type: dict[str, list[dict[str, Any]]] = {t: [] for t in data.CHANNEL_LABELS}
        self.by_partner_type: dict[tuple[int, str], list[dict[str, Any]]] = {}
        self.first_holder: dict[int, int] = {}  # channel id -> first profile holding it
        self.held: dict[str, list[int]] = {t: [] for t in data.CHANNEL_LABELS}
        self.pending: list[tuple[dict[str, Any], str, str, int, int, bool]] = []
        """Id references to fill once every held channel is known."""
        self.units = 0  # response units made so far; the first 40 cover every combination
        self.ftp_units = 0
        self.names: dict[str, int] = {}

    # -- the pool -------------------------------------------------------------------------

    def build(self) -> list[dict[str, Any]]:
        self._make_partners(max(8, isqrt(self.n * 10) // 2))
        self._make_channels()
        rng = self.rng
        cycle = min(self.n, len(_AGENT_NAMES))
        agents = list(_AGENT_NAMES[:cycle])
        agents += rng.choices(_AGENT_NAMES, cum_weights=_AGENT_CUM, k=self.n - cycle)
        profiles = [self._profile(index, name) for index, name in enumerate(agents)]
        self._resolve_references()
        return profiles

    def _make_partners(self, count: int) -> None:
        rng = self.rng
        picks = rng.sample(range(max(count, _NAME_PAIRS)), count)
        for index, pick in enumerate(picks):
            pair, qualifier = pick % _NAME_PAIRS, pick // _NAME_PAIRS
            stem = data.STEMS[pair % len(data.STEMS)]
            short = f"{stem} {data.SECTORS[pair // len(data.STEMS)]}"
            slug = short.lower().replace(" ", "-")
            if qualifier:
                region = data.REGIONS[(qualifier - 1) % len(data.REGIONS)]
                number = (qualifier - 1) // len(data.REGIONS)
                short += f" {region}" + (f" {number + 1}" if number else "")
                slug += f"-q{qualifier}"
            legal = rng.choice(data.LEGAL_FORMS)
            name = f"{short} {legal}" if legal else short
            partner_id = _BIG_PARTNER_ID if index == 0 else _FIRST_PARTNER_ID + index
            partner = {"class": "core:IntegrationPartner", "id": partner_id, "name": name}
            self.partner_index[partner_id] = len(self.partners)
            self.partners.append((partner, slug, short))

    def _make_channels(self) -> None:
        """Two to four channels per partner; every channel type at least once."""
        rng = self.rng
        plan: list[tuple[int, str]] = [(0, "AS2"), (1, "SFTP"), (2, "Mail")]
        for index in range(len(self.partners)):
            for _ in range(rng.choice((1, 2, 2, 3)) + (index > 2)):
                plan.append((index, _weighted(rng, data.CHANNEL_LABELS, _CHANNEL_CUM)))
        for offset, label in enumerate(data.CHANNEL_LABELS):
            if not any(kind == label for _, kind in plan):
                plan.append((offset % len(self.partners), label))
        for number, (index, label) in enumerate(plan):
            partner, slug, short = self.partners[index]
            same = self.by_partner_type.setdefault((index, label), [])
            suffix = ("", " backup", " test", " EU")[min(len(same), 3)]
            channel = {
                "class": "core:IntegrationPartnerChannel" + label,
                "id": _BIG_CHANNEL_IDS.get(number, _FIRST_CHANNEL_ID + number),
                "name": f"{short} {label}{suffix}",
                "active": number != 2 and rng.random() >= 0.08,  # pool Mail[0]: inactive
                "partner": partner,
                **data.CHANNEL_FIELDS[label](rng, slug, short),
            }
            same.append(channel)
            self.by_type[label].append(channel)

    def _channel(self, label: str, partner: int | None, first: bool) -> dict[str, Any]:
        """A pool channel of that type, the partner's own when it has one."""
        pool = self.by_type[label]
        if first:
            return pool[0]
        own = self.by_partner_type.get((partner, label)) if partner is not None else None
        choices = own or pool
        return choices[self.rng.randrange(len(choices))]

    def _hold(self, channel: dict[str, Any], label: str, index: int) -> dict[str, Any]:
        """Put a fresh copy of a pool channel into profile `index`; remember who holds it."""
        if channel["id"] not in self.first_holder:
            self.first_holder[channel["id"]] = index
            self.held[label].append(channel["id"])
        return _fresh(channel)

    # -- profiles -------------------------------------------------------------------------

    def _profile(self, index: int, agent_name: str) -> dict[str, Any]:
        rng = self.rng
        spec = data.AGENTS[agent_name]
        cycling = index < len(_AGENT_NAMES)
        group = spec.groups[rng.randrange(len(spec.groups))]
        docs = data.GROUPS[group]
        doc, token, ext = docs[rng.randrange(len(docs))]

        holds = data.AGENT_HOLDS.get(agent_name)
        held: list[dict[str, Any]] = []
        partner_index: int | None = None
        if holds is not None:
            field, label = holds
            count = 1 if field == "channel" or rng.random() < 0.75 else 2
            picks = [self._channel(label, None, cycling)]
            partner_index = self.partner_index[picks[0]["partner"]["id"]]
            if count == 2:  # the same partner's second channel of that type (test, backup)
                second = self._channel(label, partner_index, False)
                if second is not picks[0]:
                    picks.append(second)
            held = [self._hold(channel, label, index) for channel in picks]
        elif spec.kind == "partner" or group.endswith("Outbound"):
            partner_index = rng.randrange(len(self.partners))

        if partner_index is not None:
            _, slug, short = self.partners[partner_index]
        else:
            short, slug = spec.source or data.SYSTEMS[group.split("/")[0]]
        ctx = data.Ctx(slug, short, doc, token, ext, group)

        agent = {"class": "core:" + agent_name, "typeName": spec.label, **spec.build(rng, ctx)}
        if holds is not None:
            agent[holds[0]] = held[0] if holds[0] == "channel" else held
        refs = data.AGENT_REFS.get(agent_name)
        if refs is not None:
            count = 1 if refs[0] != "channelIds" else rng.choice((1, 1, 2))
            extra_dangling = cycling and agent_name == "FaxAgentSettings"
            self.pending.append((agent, refs[0], refs[1], count, index, extra_dangling))

        name = self._name(spec, group, doc, short, partner_index)
        created = _START_MS + rng.randrange((_END_MS - _START_MS) * 4 // 5)
        modified = created + int((_END_MS - created) * rng.random())
        encoding = _weighted(rng, _ENCODINGS, _ENCODING_CUM)
        profile: dict[str, Any] = {
            "class": "core:IntegrationProfile",
            "id": f"P-{index + 1:06d}",
            "name": name,
            "group": group,
            "active": index != _INACTIVE_IN_CYCLE and rng.random() >= 0.10,
            "created": created,
            "lastModified": modified,
            "lastModifiedGUI": created + int((modified - created) * rng.random()),
            "encoding": encoding,
            "tags": self._tags(group, token, spec.label),
            "inputAgentSettings": agent,
        }
        if rng.random() < 0.9:
            profile["description"] = _description(spec.label, group, doc, short, partner_index)
        if rng.random() < 0.8:
            profile["integrationClientId"] = data.CLIENT_IDS[group.split("/")[0]]
        if ext == "csv" or rng.random() < 0.03:
            profile["inputFileFormatMetadata"] = self._csv()
        skip = rng.random() < 0.15
        profile["skipMapping"] = skip
        structure = data.STRUCTURES[rng.randrange(len(data.STRUCTURES))]
        if not skip:
            profile["mappingSettings"] = data.mapping_settings(structure)
        if rng.random() < 0.9:
            profile["integrationSettings"] = self._integration(structure)
        units = self._units(ctx, encoding, partner_index, index)
        if units is not None:
            profile["responseSettings"] = {"class": "core:ProfileResponseSettings", "units": units}
            if any(unit["contentType"]["class"].endswith("_CSV") for unit in units):
                profile["targetFileFormatMetadata"] = self._csv()
        return profile

    def _name(
        self, spec: data.AgentSpec, group: str, doc: str, short: str, partner: int | None
    ) -> str:
        if group.endswith("Outbound") and partner is not None:
            name = f"Outbound {doc} to {short} ({spec.label})"
        elif spec.kind == "partner" and partner is not None:
            name = f"Inbound {doc} from {short} ({spec.label})"
        else:
            name = f"{doc[0].upper()}{doc[1:]} from {short} ({spec.label})"
        seen = self.names.get(name, 0)
        self.names[name] = seen + 1
        if not seen:
            return name
        if seen <= len(data.NAME_VARIANTS):
            return name + data.NAME_VARIANTS[seen - 1]
        return f"{name} #{seen + 1}"

    def _tags(self, group: str, token: str, label: str) -> str:
        rng = self.rng
        tags = [group.split("/")[-1].lower()]
        for tag in (token, label.lower().replace(" ", "-").replace(".", "")):
            if tag not in tags:
                tags.append(tag)
        if rng.random() < 0.3:
            tags.append(data.EXTRA_TAGS[rng.randrange(len(data.EXTRA_TAGS))])
        return (", " if rng.random() < 0.2 else ",").join(tags)

    def _csv(self) -> dict[str, Any]:
        rng = self.rng
        delimiter = (";", ";", ",", "\t", "|")[rng.randrange(5)]
        return {
            "class": "core:CSVFileMetadata",
            "delimiter": delimiter,
            "loadAsExampleData": rng.random() < 0.2,
        }

    def _integration(self, structure: Any) -> dict[str, Any]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.45:
            unit = {"class": "core:XMLCreationIU", "rootName": structure[2][0]}
        elif roll < 0.8:
            unit = {"class": "core:JsonCreationIU", "startAtNode": structure[2][0].lower()}
        else:
            unit = _class("EdifactCreationIU")
        settings: dict[str, Any] = {"class": "core:ProfileIntegrationSettings", "unit": unit}
        if rng.random() < 0.2:
            settings["postExecutionClass"] = "com.example.integration.post.ArchiveOriginal"
        return settings

    # -- response units -------------------------------------------------------------------

    def _units(
        self, ctx: data.Ctx, encoding: str, partner: int | None, index: int
    ) -> list[dict[str, Any]] | None:
        rng = self.rng
        roll = rng.random()
        if roll < 0.25:  # no response units: half without settings, half with an empty list
            return None if roll < 0.125 else []
        count = 1 if roll < 0.75 else 2 if roll < 0.95 else 3
        units = []
        for _ in range(count):
            if self.units < 40:  # i % 5 and i % 8: all 40 type/content combinations
                kind, content = _UNIT_NAMES[self.units % 5], _CONTENT_NAMES[self.units % 8]
            else:
                kind = _weighted(rng, _UNIT_NAMES, _UNIT_CUM)
                content = _weighted(rng, _CONTENT_NAMES, _CONTENT_CUM)
            self.units += 1
            unit = {
                "class": "core:" + kind,
                "active": rng.random() >= 0.05,
                "encoding": encoding,
                "contentType": _class(content),
            }
            unit.update(self._unit_fields(kind, ctx, partner, index))
            units.append(unit)
        return units

    def _unit_fields(
        self, kind: str, c: data.Ctx, partner: int | None, index: int
    ) -> dict[str, Any]:
        rng = self.rng
        file_name = f"{c.token}_%timestamp%.{c.ext}"
        if kind == "FileProfileResponseUnit":
            folder = _GROUP_SLUGS[c.group]
            return {
                "fileName": f"/data/out/{folder}/{file_name}",
                "targetBackup": rng.random() < 0.3,
            }
        if kind == "AS2ProfileResponseUnit":
            channel = self._channel("AS2", partner, False)
            return {"channel": self._hold(channel, "AS2", index), "fileName": file_name}
        if kind == "MailProfileResponseUnit":
            return {
                "body": f"Please find attached: {c.doc}.",
                "from": "integration@example.com",
                "subject": f"{c.doc} for {c.short}",
                "to": f"edi@{c.slug}.example.com",
            }
        if kind == "HttpProfileResponseUnit":
            method = ("POST", "POST", "PUT")[rng.randrange(3)]
            return {"httpSettings": data.http_settings(rng, c, method)}
        label = "FTP"
        if self.ftp_units < len(_OFF_TYPES):
            label = _OFF_TYPES[self.ftp_units]
        elif rng.random() < 0.1:
            label = _OFF_TYPES[rng.randrange(len(_OFF_TYPES))]
        self.ftp_units += 1
        channel = self._channel(label, partner, False)
        return {"channel": self._hold(channel, label, index), "fileName": file_name}

    # -- id references --------------------------------------------------------------------

    def _resolve_references(self) -> None:
        """Point each id reference at a channel another profile holds in full; about 2%, and
        one in the Fax profile of the first cycle, at ids that exist nowhere."""
        rng = self.rng
        dangling = _DANGLING_BASE
        for agent, field, label, count, index, extra_dangling in self.pending:
            held = self.held[label]
            ids: list[int] = []
            for _ in range(count):
                if not held or rng.random() < 0.02:
                    dangling += 1
                    ids.append(dangling)
                    continue
                at = rng.randrange(len(held))
                if self.first_holder[held[at]] == index and len(held) > 1:
                    at = (at + 1) % len(held)
                if held[at] not in ids:
                    ids.append(held[at])
            if extra_dangling:
                dangling += 1
                ids.append(dangling)
            agent[field] = ids if field == "channelIds" else ids[0]


def _description(label: str, group: str, doc: str, short: str, partner: int | None) -> str:
    if partner is None:
        return f"Reads {doc} from {short} via {label}."
    if group.endswith("Outbound"):
        return f"Sends {doc} to {short}; triggered by the {label} agent."
    return f"Receives {doc} from {short} via {label}."
