"""demo_changes (demo/week.py): a week of realistic changes, read back from the raw JSON.

Every check compares the two listings as plain JSON (by profile id, channel id), not through
the toolkit's own views, so a change that went missing or went wrong is seen here.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest

import iptoolkit as ipt
from iptoolkit.demo.week import ADDED, NEW_FIELD, REMOVED, demo_changes

CHANNEL = "core:IntegrationPartnerChannel"
FETCHED = datetime(2026, 11, 16, 6, 0, tzinfo=UTC)


def _estate(n: int, seed: int = 0) -> ipt.Estate:
    return ipt.Estate.from_raw(ipt.demo_profiles(n, seed=seed), fetched_at=FETCHED)


def _by_id(estate: ipt.Estate) -> dict[str, dict[str, Any]]:
    return {profile["id"]: profile for profile in estate.raw_profiles}


def _channels(node: Any, where: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, channel) for every channel object held anywhere in a JSON tree."""
    if isinstance(node, dict):
        if str(node.get("class", "")).startswith(CHANNEL):
            yield where, node
            return
        for name, value in node.items():
            yield from _channels(value, f"{where}.{name}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _channels(value, f"{where}[{index}]")


def _copies(
    profiles: dict[str, dict[str, Any]],
) -> dict[int, list[tuple[str, str, dict[str, Any]]]]:
    """Channel id -> (profile id, path, channel) of each held copy."""
    found: dict[int, list[tuple[str, str, dict[str, Any]]]] = {}
    for pid, profile in profiles.items():
        for path, channel in _channels(profile):
            found.setdefault(channel["id"], []).append((pid, path, channel))
    return found


@pytest.fixture(scope="module")
def pair() -> tuple[ipt.Estate, ipt.Estate]:
    old = _estate(300)
    return old, demo_changes(old, seed=4)


def test_the_public_name_is_the_function_even_once_its_module_is_imported() -> None:
    assert ipt.demo_changes is demo_changes and callable(ipt.demo_changes)


def test_the_same_seed_gives_the_same_week_and_another_seed_another() -> None:
    old = _estate(120)
    first = orjson.dumps(list(demo_changes(old, seed=1).raw_profiles))
    again = orjson.dumps(list(demo_changes(_estate(120), seed=1).raw_profiles))
    other = orjson.dumps(list(demo_changes(old, seed=2).raw_profiles))
    assert first == again
    assert first != other


def test_the_old_estate_is_not_touched() -> None:
    old = _estate(300)
    before = orjson.dumps(list(old.raw_profiles))
    new = demo_changes(old, seed=0)
    assert orjson.dumps(list(old.raw_profiles)) == before
    assert orjson.dumps(list(new.raw_profiles)) != before
    assert old.info.fetched_at == FETCHED


def test_the_new_estate_loads_cleanly_a_week_later(pair) -> None:
    old, new = pair
    assert new.problems == () and new.conflicts == ()
    assert len(ipt.parse_profiles(list(new.raw_profiles))) == len(new)
    assert new.info.fetched_at == FETCHED + timedelta(days=7)
    assert new.info.source_url == old.info.source_url
    assert demo_changes(ipt.demo_estate(40)).info.fetched_at is None


def test_profiles_added_and_removed(pair) -> None:
    old, new = _by_id(pair[0]), _by_id(pair[1])
    added = [new[pid] for pid in new.keys() - old.keys()]
    removed = [old[pid] for pid in old.keys() - new.keys()]
    assert len(added) == ADDED and len(removed) == REMOVED
    assert any(profile["active"] is False for profile in removed)
    week = range(int(FETCHED.timestamp() * 1000), int((FETCHED + timedelta(7)).timestamp() * 1000))
    old_names = {profile["name"] for profile in old.values()}
    old_channels = _copies(old)
    for profile in added:
        assert profile["created"] in week and profile["name"] not in old_names
        held = [channel["id"] for _, channel in _channels(profile)]
        assert held and all(channel_id in old_channels for channel_id in held)
    # no channel disappears with the removed profiles
    gone = {
        cid for profile in removed for _, channel in _channels(profile) for cid in [channel["id"]]
    }
    new_channels = _copies(new)
    moved = [cid for cid in gone if cid not in new_channels]
    assert len(moved) <= 1  # at most the AS2 channel the partner moved away from


def test_a_partner_moves_to_a_new_as2_channel(pair) -> None:
    old, new = _by_id(pair[0]), _by_id(pair[1])
    old_copies, new_copies = _copies(old), _copies(new)
    fresh = [cid for cid in new_copies.keys() - old_copies.keys()]
    gone = [cid for cid in old_copies.keys() - new_copies.keys()]
    assert len(fresh) == 1 and len(gone) == 1
    assert fresh[0] not in pair[0].unresolved  # no profile named the new id before
    new_channel = new_copies[fresh[0]][0][2]
    old_channel = old_copies[gone[0]][0][2]
    assert new_channel["class"] == old_channel["class"] == CHANNEL + "AS2"
    assert new_channel["partner"] == old_channel["partner"]
    assert new_channel["as2Url"] != old_channel["as2Url"] and new_channel["active"] is True
    # every profile that held the old channel (and is still there) holds the new one instead
    rewired = {(pid, path) for pid, path, _ in old_copies[gone[0]] if pid in new}
    assert rewired == {(pid, path) for pid, path, _ in new_copies[fresh[0]]}
    assert sum(old[pid]["active"] for pid, _ in rewired) >= 2


def test_a_channel_is_deactivated_under_active_profiles(pair) -> None:
    old, new = _by_id(pair[0]), _by_id(pair[1])
    old_copies, new_copies = _copies(old), _copies(new)
    deactivated = [
        cid
        for cid, copies in new_copies.items()
        if cid in old_copies
        and all(channel["active"] is True for _, _, channel in old_copies[cid])
        and all(channel["active"] is False for _, _, channel in copies)
    ]
    assert len(deactivated) == 1
    users = new_copies[deactivated[0]]
    assert any(
        new[pid]["active"] and path.startswith("$.inputAgentSettings") for pid, path, _ in users
    )
    node = f"channel:{deactivated[0]}"
    flagged = [f for f in ipt.findings(pair[1]) if f.kind == "active_profile_inactive_channel"]
    assert any(node in finding.nodes for finding in flagged)


def _changed(old: dict[str, Any], new: dict[str, Any], read) -> list[str]:
    return [pid for pid in old.keys() & new.keys() if read(old[pid]) != read(new[pid])]


def test_cosmetic_edits_a_new_schedule_and_a_new_endpoint(pair) -> None:
    old, new = _by_id(pair[0]), _by_id(pair[1])
    described = _changed(old, new, lambda p: p.get("description"))
    tagged = _changed(old, new, lambda p: p.get("tags"))
    scheduled = _changed(old, new, lambda p: p["inputAgentSettings"].get("cronSchedule"))
    hosts = _changed(
        old,
        new,
        lambda p: [u.get("httpSettings", {}).get("host") for u in _units(p)],
    )
    assert len(described) == len(tagged) == len(scheduled) == len(hosts) == 1
    assert new[described[0]]["description"].startswith(old[described[0]]["description"])
    assert new[tagged[0]]["tags"].startswith(old[tagged[0]]["tags"] + ",")
    for pid in (*described, *tagged, *scheduled, *hosts):
        assert new[pid]["lastModified"] > old[pid]["lastModified"]


def _units(profile: dict[str, Any]) -> list[dict[str, Any]]:
    return (profile.get("responseSettings") or {}).get("units") or []


def test_one_agent_type_gains_a_field_the_spec_does_not_describe(pair) -> None:
    old, new = pair
    assert not any(NEW_FIELD in p["inputAgentSettings"] for p in old.raw_profiles)
    carriers = {
        p["inputAgentSettings"]["class"]
        for p in new.raw_profiles
        if NEW_FIELD in p["inputAgentSettings"]
    }
    assert len(carriers) == 1
    of_type = [p for p in new.raw_profiles if p["inputAgentSettings"]["class"] in carriers]
    assert len(of_type) >= 2 and all(NEW_FIELD in p["inputAgentSettings"] for p in of_type)
    assert NEW_FIELD not in type(new.profiles[0].input_agent_settings).model_fields


@pytest.mark.parametrize("n", [40, 1200])
def test_every_kind_of_change_at_other_sizes(n: int) -> None:
    old = _estate(n, seed=n)
    new = demo_changes(old, seed=n)
    before, after = _by_id(old), _by_id(new)
    assert new.problems == () and new.conflicts == ()
    assert len(after.keys() - before.keys()) == ADDED
    assert len(before.keys() - after.keys()) == REMOVED
    assert len(_copies(after).keys() - _copies(before).keys()) == 1  # the new AS2 channel
    assert sum(NEW_FIELD in p["inputAgentSettings"] for p in after.values()) >= 2
    assert len(_changed(before, after, lambda p: p["inputAgentSettings"].get("cronSchedule"))) == 1


@pytest.mark.parametrize("n", [0, 1, 6])
def test_tiny_estates_change_what_they_can(n: int) -> None:
    old = _estate(n)
    new = demo_changes(old)
    assert new.problems == ()
    assert len(new) <= n + ADDED


def test_schema_drift_sees_the_new_field_in_the_new_estate_only(pair) -> None:
    old, new = pair
    unknown = [item for item in ipt.schema_report(new).items if item.kind == "unknown_field"]
    assert [(item.field, item.path) for item in unknown] == [
        (NEW_FIELD, f"$.inputAgentSettings.{NEW_FIELD}")
    ]
    carriers = [p for p in new.raw_profiles if NEW_FIELD in p["inputAgentSettings"]]
    assert unknown[0].profiles == len(carriers)
    assert not [item for item in ipt.schema_report(old).items if item.kind == "unknown_field"]
