"""`demo_environment(estate)`: the same estate as another installation would hold it.

Another installation of the platform (test beside production) holds the same profiles,
channels and partners under ids of its own, with its own timestamps, listed in its own
order, pointing at its own hosts. This makes one from any estate, deterministically (one
`random.Random(seed)`), for the tests, the docs and the notebook of `ipt.compare`; with
`plant=`, a few known differences, each written down in the snapshot's header
(`estate.info.extra["planted"]`: what was planted, on which item, the status a comparison
of the estate (A) with the environment (B) reports for it):

- `removed`: a profile the environment lacks (`only-in-a`);
- `added`: a profile only the environment has, a copy of another under a new name
  (`only-in-b`);
- `algorithm`: a shared channel's encryption algorithm, in every copy (`changed`, one
  channel difference, not one per profile);
- `deactivated`: an active profile made inactive (`active-differs`);
- `schedule`: a profile's cron schedule (`changed`);
- `rewired`: a response unit delivering over another channel of the same type
  (`wired-differently`);
- `secret-header`: an `Authorization` header set on an HTTP response unit (`changed`, its
  value masked in every report).

Each planted difference touches its own profile, and none removes or adds a channel or
partner, so a comparison reports exactly these and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random
from typing import TYPE_CHECKING, Any

from ..core.nodes import partner_of, type_of
from ..core.references import path_steps, usable_id
from ..models.jsontext import loads_json
from ..support.jsonio import dumps_json

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = ["demo_environment", "PLANTS", "TEST_HOSTS"]

PLANTS = (
    "removed",
    "added",
    "algorithm",
    "deactivated",
    "schedule",
    "rewired",
    "secret-header",
)
"""The differences `demo_environment` can plant, in the order it plants them."""

TEST_HOSTS: Mapping[str, str] = {
    ".example.com": ".test.example.com",
    ".example.net": ".test.example.net",
}
"""The default host change: production's `api.acme.example.com` is `api.acme.test.example.com`
in the environment (so `example.com <-> test.example.com` silences it)."""

_STATUS = {
    "removed": "only-in-a",
    "added": "only-in-b",
    "algorithm": "changed",
    "deactivated": "active-differs",
    "schedule": "changed",
    "rewired": "wired-differently",
    "secret-header": "changed",
}
_DAY_MS = 86_400_000


def demo_environment(
    estate: Estate,
    *,
    seed: int = 1,
    hosts: Mapping[str, str] | None = None,
    plant: Iterable[str] | bool = False,
) -> Estate:
    """The estate as another installation would hold it: new ids everywhere (profiles,
    channels, partners, and the ids that name channels), timestamps a week later, the
    listing shuffled, hosts changed by `hosts` (default `TEST_HOSTS`, `{}` for none), and
    the differences named in `plant` (`True`: all of `PLANTS`) planted.

    >>> prod = ipt.demo_estate(300)
    >>> test = ipt.demo_environment(prod, plant=["removed", "schedule"])
    >>> [p["plant"] for p in test.info.extra["planted"]]
    ['removed', 'schedule']
    """
    from ..core.estate import Estate, require_estate
    from ..core.snapshot import SnapshotInfo

    require_estate(estate, "demo_environment")
    wanted = list(PLANTS if plant is True else () if plant is False else plant)
    wanted.sort(key=lambda name: PLANTS.index(name) if name in PLANTS else -1)
    unknown = [name for name in wanted if name not in PLANTS]
    if unknown:
        raise ValueError(f"demo_environment: unknown plant {unknown[0]!r}; known: {PLANTS}")
    rng = Random(seed)
    profiles = loads_json(dumps_json([record.raw for record in estate.records]))
    planter = _Planter(estate.records, profiles, rng, seed)
    planted = [planter.plant(name) for name in wanted]
    kept = [
        (profile, record)
        for profile, record in zip(profiles, estate.records, strict=True)
        if record.index not in planter.removed
    ]
    kept += planter.added
    _Renumber(rng).all(kept)
    listing = [profile for profile, _ in kept]
    rng.shuffle(listing)
    text = dumps_json(listing).decode()
    for old, new in (TEST_HOSTS if hosts is None else hosts).items():
        text = text.replace(old, new)
    info = SnapshotInfo(
        source_url=f"demo-environment:seed={seed}",
        extra={"planted": planted} if wanted else {},
    )
    return Estate.from_raw(text, info=info)


class _Planter:
    """Plants one difference at a time, each on a profile of its own."""

    def __init__(
        self, records: tuple[ProfileRecord, ...], profiles: list[Any], rng: Random, seed: int
    ) -> None:
        self.records, self.profiles, self.rng, self.seed = records, profiles, rng, seed
        self.used: set[int] = set()
        self.removed: set[int] = set()
        self.added: list[tuple[Any, ProfileRecord]] = []
        """Profiles added, each with the record of the profile it copies (its shape)."""
        self.holders: dict[str, set[int]] = {}
        self.first: dict[str, Any] = {}
        for record in records:
            for use in record.uses:
                if use.held is not None and usable_id(use.held.get("id")) is not None:
                    self.holders.setdefault(use.node, set()).add(record.index)
                    self.first.setdefault(use.node, use.held)

    def plant(self, name: str) -> dict[str, Any]:
        record, detail = getattr(self, "_" + name.replace("-", "_"))()
        key = detail if detail is not None else [record.group or "", record.name or ""]
        kind = "channel" if name == "algorithm" else "profile"
        return {"plant": name, "status": _STATUS[name], "kind": kind, "key": key}

    def _pick(self, fits: Any) -> ProfileRecord:
        candidates = [r for r in self.records if r.ok and r.index not in self.used and fits(r)]
        if not candidates:
            raise ValueError("demo_environment: the estate has no profile to plant this on")
        record = self.rng.choice(candidates)
        self.used.add(record.index)
        return record

    def _shared(self, record: ProfileRecord) -> bool:
        """Every channel it holds is held by another profile too (and has an id)."""
        return all(
            use.held is None
            or (use.node in self.holders and self.holders[use.node] - self.removed - {record.index})
            for use in record.uses
        )

    def _removed(self) -> tuple[ProfileRecord, Any]:
        record = self._pick(self._shared)
        self.removed.add(record.index)
        return record, None

    def _added(self) -> tuple[ProfileRecord, Any]:
        record = self._pick(lambda r: r.name is not None)
        copy = loads_json(dumps_json(self.profiles[record.index]))
        copy["name"] = f"{record.name} (second route)"
        self.added.append((copy, record))
        return record, [record.group or "", copy["name"]]

    def _algorithm(self) -> tuple[ProfileRecord, Any]:
        nodes = sorted(
            (node for node, raw in self.first.items()
             if "encryptionAlgorithm" in raw and len(self.holders[node] - self.used) > 1),
            key=str,
        )  # fmt: skip
        if not nodes:
            raise ValueError("demo_environment: no shared channel with an algorithm")
        node = self.rng.choice(nodes)
        raw = self.first[node]
        new = "AES128_CBC" if raw["encryptionAlgorithm"] != "AES128_CBC" else "AES256_CBC"
        for index in self.holders[node]:
            for held in _channels_in(self.profiles[index]):
                if held.get("id") == raw.get("id"):
                    held["encryptionAlgorithm"] = new
        _, partner = partner_of(raw)
        partner_name = partner.get("name", "") if isinstance(partner, dict) else ""
        holder = self.records[min(self.holders[node])]
        return holder, [partner_name, type_of(raw) or "", raw.get("name", "")]

    def _deactivated(self) -> tuple[ProfileRecord, Any]:
        record = self._pick(lambda r: r.active)
        self.profiles[record.index]["active"] = False
        return record, None

    def _schedule(self) -> tuple[ProfileRecord, Any]:
        record = self._pick(
            lambda r: isinstance(r.agent, dict) and isinstance(r.agent.get("cronSchedule"), list)
        )
        agent = self.profiles[record.index]["inputAgentSettings"]
        weekdays = ["0 0 7 ? * MON-FRI"]
        agent["cronSchedule"] = weekdays if agent["cronSchedule"] != weekdays else ["0 0 8 * * ?"]
        return record, None

    def _rewired(self) -> tuple[ProfileRecord, Any]:
        def fits(record: ProfileRecord) -> bool:
            return self._shared(record) and any(self._instead(use) for use in record.uses)

        record = self._pick(fits)
        use = next(use for use in record.uses if self._instead(use))
        other = self._instead(use)
        assert other is not None
        unit = self.profiles[record.index]["responseSettings"]["units"][use.unit]
        unit["channel"] = loads_json(dumps_json(self.first[other]))
        return record, None

    def _instead(self, use: Any) -> str | None:
        """Another channel of the same type, held elsewhere, for a unit's channel."""
        if use.role != "response" or not use.path.endswith("].channel"):
            return None
        kind = type_of(use.held)
        for node in sorted(self.first, key=str):
            if node != use.node and type_of(self.first[node]) == kind:
                if self.holders[node] - self.removed:
                    return node
        return None

    def _secret_header(self) -> tuple[ProfileRecord, Any]:
        def fits(record: ProfileRecord) -> bool:
            return any(
                isinstance(unit, dict) and isinstance(unit.get("httpSettings"), dict)
                and isinstance(unit["httpSettings"].get("headers"), dict)
                for unit in record.response_units
            )  # fmt: skip

        record = self._pick(fits)
        for unit in self.profiles[record.index]["responseSettings"]["units"]:
            settings = unit.get("httpSettings") if isinstance(unit, dict) else None
            if isinstance(settings, dict) and isinstance(settings.get("headers"), dict):
                settings["headers"]["Authorization"] = f"Bearer planted-{self.seed}-s3cr3t"
                break
        return record, None


def _channels_in(value: Any) -> Any:
    """Every channel object inside a profile's JSON."""
    if isinstance(value, dict):
        cls = value.get("class")
        if isinstance(cls, str) and cls.startswith("core:IntegrationPartnerChannel"):
            yield value
        for item in value.values():
            yield from _channels_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _channels_in(item)


class _Renumber:
    """New ids for every profile, channel and partner (the same old id, the same new one
    everywhere), timestamps a week later. Channels are found where the records say a
    profile holds or names them (`ChannelUse.path`), which a copy shares."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.ids: dict[str, dict[Any, Any]] = {"channel": {}, "partner": {}}
        self.base = {"channel": 70_000_000 + rng.randrange(1000) * 1000, "partner": 600_000}

    def all(self, kept: list[tuple[Any, ProfileRecord]]) -> None:
        order = list(range(len(kept)))
        self.rng.shuffle(order)
        for new, index in enumerate(order):
            profile, record = kept[index]
            if not isinstance(profile, dict):
                continue
            if usable_id(profile.get("id")) is not None:
                profile["id"] = f"E-{new + 1:06d}"
            for stamp in ("created", "lastModified", "lastModifiedGUI"):
                if isinstance(profile.get(stamp), int):
                    profile[stamp] += 7 * _DAY_MS
            for use in record.uses:
                self._use(profile, path_steps(use.path), use.held is None)

    def _use(self, profile: Any, steps: tuple[str | int, ...], named: bool) -> None:
        holder: Any = profile
        for step in steps[:-1]:
            try:
                holder = holder[step]
            except (KeyError, IndexError, TypeError):
                return
        last = steps[-1]
        try:
            value = holder[last]
        except (KeyError, IndexError, TypeError):
            return
        if named:
            holder[last] = self._id("channel", value)
        elif isinstance(value, dict):
            if "id" in value:
                value["id"] = self._id("channel", value["id"])
            partner = value.get("partner")
            if isinstance(partner, dict) and "id" in partner:
                partner["id"] = self._id("partner", partner["id"])

    def _id(self, kind: str, old: Any) -> Any:
        if usable_id(old) is None:
            return old
        table = self.ids[kind]
        if old not in table:
            table[old] = self.base[kind] + len(table) + 1
        return table[old]
