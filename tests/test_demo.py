"""The demo estate: deterministic, valid against the strict models, and rich enough to show
every feature (all agent and channel types, shared and dangling channels, inactive things).

The tables below are written from the spec, not imported from the generator, so that a
generator drifting from the spec fails here.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from pydantic import BaseModel

from iptoolkit.demo import demo_estate, demo_profiles
from iptoolkit.demo import estate as demo
from iptoolkit.models import (
    AGENT_TYPES,
    CHANNEL_TYPES,
    CONTENT_TYPES,
    RESPONSE_UNIT_TYPES,
    FallbackModel,
    dump_profiles,
    parse_profiles,
)

CHANNEL_PREFIX = "core:IntegrationPartnerChannel"

HOLDS = {
    "AS2AgentSettings": ("channels", "AS2"),
    "AS4AgentSettings": ("channels", "AS4"),
    "SFTPAgentSettings": ("channels", "SFTP"),
    "FTPAgentSettings": ("channels", "FTP"),
    "OFTPAgentSettings": ("channels", "OFTP"),
    "CronOftpAgentSettings": ("channel", "OFTP"),
    "CronPop3AgentSettings": ("channel", "Mail"),
    "CronImapAgentSettings": ("channel", "Mail"),
    "CronSshAgentSettings": ("channel", "SFTP"),
    "CronX400AgentSettings": ("channel", "X400"),
    "CronFtpAgentSettings": ("channel", "FTP"),
    "CronSftpAgentSettings": ("channel", "SFTP"),
}
"""Agent type -> (field, channel type) as the spec names them."""

REFERENCES = {
    "FaxAgentSettings": ("channelIds", "Fax"),
    "IoTAgentSettings": ("channelIds", "IoT"),
    "SMTPAgentSettings": ("channelId", "Mail"),
    "MessageAgentSettings": ("comChannelId", None),
    "CronCloudStorageAgentSettings": ("comChannelId", None),
    "CronWebdavAgentSettings": ("comChannelId", None),
    "KafkaAgentSettings": ("registryChannelId", None),
}
"""Agent type -> (field naming channels by id, type those channels must have or None)."""

RESERVED_DOMAINS = ("example.com", "example.net", ".test")


# -- helpers --------------------------------------------------------------------------------


def walk(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every (path, value) in a JSON tree, the root included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]")


def channels_in(profile: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every full channel object in a profile, with its path."""
    for path, value in walk(profile):
        if isinstance(value, dict) and str(value.get("class", "")).startswith(CHANNEL_PREFIX):
            yield path, value


def type_of(channel: dict[str, Any]) -> str:
    kind = channel["class"]
    assert isinstance(kind, str), kind
    return kind.removeprefix(CHANNEL_PREFIX)


def references(profiles: list[dict[str, Any]]) -> Iterator[tuple[str, str | None, object]]:
    """(profile id, expected channel type, referenced id as the JSON has it) for every id
    reference."""
    for profile in profiles:
        agent = profile["inputAgentSettings"]
        name = agent["class"].removeprefix("core:")
        if name in REFERENCES:
            field, kind = REFERENCES[name]
            value = agent[field]
            for channel_id in value if isinstance(value, list) else [value]:
                yield profile["id"], kind, channel_id


def held_by(profiles: list[dict[str, Any]]) -> dict[int, list[tuple[str, dict[str, Any]]]]:
    """Channel id -> (profile id, content) for every full channel object."""
    found: dict[int, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for profile in profiles:
        for _, channel in channels_in(profile):
            found[channel["id"]].append((profile["id"], channel))
    return found


@pytest.fixture(scope="module", params=[0, 42])
def profiles(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    """300 profiles; tests must not mutate them."""
    return demo_profiles(300, seed=request.param)


# -- determinism ----------------------------------------------------------------------------


def test_public_names() -> None:
    assert demo.__all__ == ["demo_profiles", "demo_estate"]


def test_same_seed_gives_the_same_profiles_key_order_included() -> None:
    first, second = demo_profiles(200, seed=7), demo_profiles(200, seed=7)
    assert first == second
    assert json.dumps(first) == json.dumps(second)


def test_different_seeds_differ() -> None:
    a, b = demo_profiles(200, seed=0), demo_profiles(200, seed=1)
    assert a != b
    assert {p["name"] for p in a} != {p["name"] for p in b}


def test_same_output_whatever_the_hash_seed() -> None:
    """No dependence on set or str-hash order: two interpreters, two hash seeds, one digest."""
    code = (
        "import hashlib, json; from iptoolkit.demo import demo_profiles; "
        "print(hashlib.sha256(json.dumps(demo_profiles(300, seed=5)).encode()).hexdigest())"
    )
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        digests.add(out.stdout.strip())
    here = hashlib.sha256(json.dumps(demo_profiles(300, seed=5)).encode()).hexdigest()
    assert digests == {here}


def test_global_random_is_neither_used_nor_touched() -> None:
    random.seed(1)
    state = random.getstate()
    a = demo_profiles(80, seed=3)
    assert random.getstate() == state
    random.seed(2)
    assert demo_profiles(80, seed=3) == a


# -- validity -------------------------------------------------------------------------------


def test_strict_parse_and_round_trip_of_500() -> None:
    raw = demo_profiles(500, seed=9)
    assert dump_profiles(parse_profiles(raw)) == raw
    # through JSON text too: ids above 2**53 must come back exactly
    assert dump_profiles(parse_profiles(orjson.dumps(raw))) == raw


@pytest.mark.parametrize("n", [0, 1, 7, 35, 61])
def test_small_estates_are_valid(n: int) -> None:
    raw = demo_profiles(n, seed=n)
    assert len(raw) == n
    assert dump_profiles(parse_profiles(raw)) == raw


def test_negative_size_is_refused() -> None:
    with pytest.raises(ValueError, match="n_profiles"):
        demo_profiles(-1)


def _assert_known(model: Any, path: str) -> None:
    if isinstance(model, BaseModel):
        assert not isinstance(model, FallbackModel), f"{path}: unknown class {model!r}"
        assert not model.model_extra, f"{path}: fields the spec does not name: {model.model_extra}"
        for name in model.model_fields_set:
            _assert_known(getattr(model, name), f"{path}.{name}")
    elif isinstance(model, list):
        for index, item in enumerate(model):
            _assert_known(item, f"{path}[{index}]")


def test_every_key_and_class_is_one_the_spec_names(profiles: list[dict[str, Any]]) -> None:
    """A misspelt key would round-trip as an extra field; a wrong class as a fallback."""
    for index, model in enumerate(parse_profiles(profiles)):
        _assert_known(model, f"$[{index}]")


# -- coverage -------------------------------------------------------------------------------


def test_first_35_profiles_cycle_through_every_agent_type() -> None:
    classes = [p["inputAgentSettings"]["class"] for p in demo_profiles(35, seed=4)]
    assert classes == [f"core:{cls.__name__}" for cls in AGENT_TYPES]


def test_every_agent_and_channel_type_is_present(profiles: list[dict[str, Any]]) -> None:
    agents = {p["inputAgentSettings"]["class"] for p in profiles}
    assert agents == {f"core:{cls.__name__}" for cls in AGENT_TYPES}
    kinds = {channel["class"] for p in profiles for _, channel in channels_in(p)}
    assert kinds == {f"core:{cls.__name__}" for cls in CHANNEL_TYPES}


@pytest.mark.parametrize("seed", range(5))
def test_every_channel_type_is_present_from_60_profiles(seed: int) -> None:
    kinds = {
        channel["class"] for p in demo_profiles(60, seed=seed) for _, channel in channels_in(p)
    }
    assert len(kinds) == len(CHANNEL_TYPES)


def test_agents_hold_the_channel_types_the_spec_names(profiles: list[dict[str, Any]]) -> None:
    for profile in profiles:
        agent = profile["inputAgentSettings"]
        name = agent["class"].removeprefix("core:")
        assert agent["typeName"], profile["id"]
        if name not in HOLDS:
            assert "channel" not in agent and "channels" not in agent, profile["id"]
            continue
        field, kind = HOLDS[name]
        held = agent[field] if field == "channels" else [agent[field]]
        assert isinstance(agent[field], list if field == "channels" else dict)
        assert held and all(type_of(channel) == kind for channel in held), profile["id"]


def test_response_units_hold_channels_of_a_fitting_type(profiles: list[dict[str, Any]]) -> None:
    for profile in profiles:
        for unit in profile.get("responseSettings", {}).get("units", []):
            if unit["class"] == "core:AS2ProfileResponseUnit":
                assert type_of(unit["channel"]) == "AS2"
            elif unit["class"] == "core:FtpProfileResponseUnit":
                # FTP, or a type no typed field can hold (see the demo module's docstring)
                assert type_of(unit["channel"]) in {"FTP", "SMB", "HTTP", "IoT", "Fax"}
            else:
                assert "channel" not in unit


def test_every_response_unit_type_with_every_content_type(profiles: list[dict[str, Any]]) -> None:
    pairs = {
        (unit["class"], unit["contentType"]["class"])
        for p in profiles
        for unit in p.get("responseSettings", {}).get("units", [])
    }
    assert pairs == {
        (f"core:{unit.__name__}", f"core:{content.__name__}")
        for unit in RESPONSE_UNIT_TYPES
        for content in CONTENT_TYPES
    }
    without = [p for p in profiles if not p.get("responseSettings", {}).get("units")]
    assert any("responseSettings" not in p for p in without)
    assert any("responseSettings" in p for p in without)  # an empty list of units


def test_integration_mapping_and_file_metadata(profiles: list[dict[str, Any]]) -> None:
    units = {
        p["integrationSettings"]["unit"]["class"] for p in profiles if "integrationSettings" in p
    }
    assert units == {"core:XMLCreationIU", "core:JsonCreationIU", "core:EdifactCreationIU"}
    assert any(p["skipMapping"] for p in profiles)
    for profile in profiles:
        mapping = profile.get("mappingSettings")
        if mapping is None:
            continue
        names = {
            f"{node['name']}/{child['name']}"
            for side in ("sourceStructure", "targetStructure")
            for node in mapping[side]["nodes"]
            for child in node["children"]
        }
        assert mapping["mappings"]
        for link in mapping["mappings"]:
            assert link["source"] in names and link["destination"] in names
    csv = [p["inputFileFormatMetadata"] for p in profiles if "inputFileFormatMetadata" in p]
    assert csv and all(meta["class"] == "core:CSVFileMetadata" for meta in csv)
    assert 0 < len(csv) < len(profiles)


def test_profile_fields_are_filled(profiles: list[dict[str, Any]]) -> None:
    for key in ("description", "integrationClientId", "tags", "encoding", "skipMapping"):
        assert any(key in p for p in profiles), key
    assert any("," in p["tags"] for p in profiles)
    assert len({p["group"] for p in profiles}) >= 10
    assert any(p["group"].count("/") == 2 for p in profiles)  # a tree, not a flat list


# -- channels, partners, references ---------------------------------------------------------


def test_shared_channels_are_identical_everywhere(profiles: list[dict[str, Any]]) -> None:
    found = held_by(profiles)
    shared = [cid for cid, uses in found.items() if len({pid for pid, _ in uses}) >= 2]
    assert len(shared) >= 10
    for channel_id, uses in found.items():
        first = uses[0][1]
        assert all(content == first for _, content in uses), channel_id


def test_partners_own_several_channels(profiles: list[dict[str, Any]]) -> None:
    by_partner: dict[int, set[int]] = defaultdict(set)
    partners: dict[int, dict[str, Any]] = {}
    for profile in profiles:
        for _, channel in channels_in(profile):
            partner = channel["partner"]
            assert set(partner) == {"class", "id", "name"}
            assert partner["class"] == "core:IntegrationPartner"
            assert partners.setdefault(partner["id"], partner) == partner
            by_partner[partner["id"]].add(channel["id"])
    assert sum(len(ids) >= 2 for ids in by_partner.values()) >= 5
    names = [partner["name"] for partner in partners.values()]
    assert len(set(names)) == len(names)


def test_references_resolve_to_channels_other_profiles_hold(profiles: list[dict[str, Any]]) -> None:
    found = held_by(profiles)
    refs = list(references(profiles))
    assert len(refs) >= 20
    dangling = [ref for ref in refs if ref[2] not in found]
    assert dangling, "some references must point nowhere"
    for profile_id, kind, channel_id in refs:
        assert isinstance(channel_id, int) and not isinstance(channel_id, bool)
        if channel_id in found:
            holders = {pid for pid, _ in found[channel_id]}
            assert holders - {profile_id}, f"{profile_id} refers to a channel only it holds"
            if kind is not None:
                assert type_of(found[channel_id][0][1]) == kind, (profile_id, channel_id)


def test_dangling_references_are_few() -> None:
    raw = demo_profiles(3000, seed=1)
    found = held_by(raw)
    refs = list(references(raw))
    dangling = sum(channel_id not in found for _, _, channel_id in refs)
    assert 0 < dangling <= 0.05 * len(refs)


def test_inactive_profiles_and_channels(profiles: list[dict[str, Any]]) -> None:
    inactive = sum(not p["active"] for p in profiles)
    assert 0.03 * len(profiles) < inactive < 0.2 * len(profiles)
    channels = {channel["id"]: channel for p in profiles for _, channel in channels_in(p)}
    assert any(not channel["active"] for channel in channels.values())
    assert sum(channel["active"] for channel in channels.values()) > len(channels) / 2


def test_ids(profiles: list[dict[str, Any]]) -> None:
    ids = [p["id"] for p in profiles]
    assert all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids)
    numbers = [
        value["id"]
        for p in profiles
        for _, channel in channels_in(p)
        for value in (channel, channel["partner"])
    ]
    assert all(type(n) is int and 0 < n < 2**63 for n in numbers)
    assert len({n for n in numbers if n > 2**53}) >= 2


def test_names_are_unique_and_read_like_profiles(profiles: list[dict[str, Any]]) -> None:
    names = [p["name"] for p in profiles]
    assert len(set(names)) == len(names)
    assert any(re.fullmatch(r"Inbound \S+ from .+ \(AS2\)", name) for name in names)


def test_timestamps_are_epoch_milliseconds_2024_to_2026(profiles: list[dict[str, Any]]) -> None:
    low, high = 1_704_067_200_000, 1_798_761_600_000  # 2024-01-01 .. 2027-01-01, UTC
    for p in profiles:
        assert low <= p["created"] <= p["lastModifiedGUI"] <= p["lastModified"] < high


# -- safety ---------------------------------------------------------------------------------


def test_no_secret_looking_keys_or_values(profiles: list[dict[str, Any]]) -> None:
    for path, value in walk(profiles):
        if isinstance(value, dict):
            for key in value:
                assert not re.search("password|secret|token", key, re.I), f"{path}.{key}"
        elif isinstance(value, str):
            assert not re.search("password|secret|PRIVATE KEY|Bearer ", value, re.I), path


def test_hosts_are_reserved_names_only(profiles: list[dict[str, Any]]) -> None:
    hosts = set()
    for path, value in walk(profiles):
        if isinstance(value, str):
            hosts.update(re.findall(r"(?:://|@)([A-Za-z0-9.-]+)", value))
            if path.endswith(".host"):
                hosts.add(value)
    assert len(hosts) > 20
    assert all(host.endswith(RESERVED_DOMAINS) for host in hosts), sorted(
        h for h in hosts if not h.endswith(RESERVED_DOMAINS)
    )


def test_profiles_share_no_objects(profiles: list[dict[str, Any]]) -> None:
    """Callers may mutate what they get: no dict or list is shared between two profiles."""
    owner: dict[int, str] = {}
    for profile in profiles:
        for path, value in walk(profile):
            if isinstance(value, dict | list):
                assert owner.setdefault(id(value), profile["id"]) == profile["id"], path


def test_mutating_one_profile_leaves_the_next_call_alone() -> None:
    first = demo_profiles(60, seed=2)
    for profile in first:
        for _, channel in channels_in(profile):
            channel["partner"]["name"] = "changed"
    assert demo_profiles(60, seed=2) != first
    assert all(
        channel["partner"]["name"] != "changed"
        for profile in demo_profiles(60, seed=2)
        for _, channel in channels_in(profile)
    )


# -- the estate -----------------------------------------------------------------------------


def test_demo_estate() -> None:
    estate = demo_estate(120, seed=4)
    assert len(estate.profiles) == 120
    assert not estate.problems
    assert not estate.conflicts
    assert estate.info.source_url == "demo:seed=4"
    held = held_by(demo_profiles(120, seed=4))
    assert set(estate.channels) == set(held)


def test_a_demo_estate_dated_as_a_snapshot() -> None:
    """Dated demo snapshots, for the archive and `ipt.history` without a platform."""
    from datetime import UTC, datetime, timedelta

    from iptoolkit.demo import demo_changes

    assert demo_estate(20).info.fetched_at is None
    dated = demo_estate(20, fetched_at="2026-10-01T02:15:00Z")
    assert dated.info.fetched_at == datetime(2026, 10, 1, 2, 15, tzinfo=UTC)
    assert demo_estate(20, fetched_at="2026-10-01").info.fetched_at == datetime(
        2026, 10, 1, tzinfo=UTC
    ), "no zone: UTC"
    later = demo_changes(dated).info.fetched_at
    assert later == dated.info.fetched_at + timedelta(days=7)
