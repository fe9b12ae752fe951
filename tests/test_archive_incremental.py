"""An add diffs only the profiles that changed (`archive/incremental.py`), and says exactly
what `ipt.diff` of the two whole snapshots says."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.snapshot import SnapshotInfo

pytest.importorskip("duckdb")
from iptoolkit.archive import Archive, incremental  # noqa: E402
from iptoolkit.archive.history import stored_changes  # noqa: E402

START = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def _dated(profiles: list[Any], day: int) -> ipt.Estate:
    info = SnapshotInfo(source_url="demo:seed=5", fetched_at=START + timedelta(days=day))
    return ipt.Estate.from_raw(profiles, info=info)


def _held_channel(profiles: list[Any]) -> tuple[int, str, Any]:
    """A profile holding a channel with an id and a partner: its index, the channel's JSON
    path in it, and the channel's id."""
    for record in ipt.Estate.from_raw(profiles).records:
        for use in record.uses:
            held = use.held
            if isinstance(held, dict) and held.get("id") and isinstance(held.get("partner"), dict):
                return record.index, use.path, held["id"]
    raise AssertionError("the demo holds no channel with a partner")


def _at(value: Any, path: str) -> Any:
    for step in re.findall(r"[^.\[\]]+", path):
        value = value[int(step)] if step.isdigit() else value[step]
    return value


def _rename_partner(profiles: list[Any]) -> None:
    index, path, _ = _held_channel(profiles)
    profiles[index] = copy.deepcopy(profiles[index])
    _at(profiles[index], path)["partner"]["name"] = "Renamed Partner"  # one copy differs


def _deactivate_channel_everywhere(profiles: list[Any]) -> None:
    _, _, ident = _held_channel(profiles)
    for record in ipt.Estate.from_raw(profiles).records:
        for use in record.uses:
            if isinstance(use.held, dict) and use.held.get("id") == ident:
                changed = copy.deepcopy(profiles[record.index])
                _at(changed, use.path)["active"] = False
                profiles[record.index] = changed


def _deactivate_a_referenced_channel(profiles: list[Any]) -> None:
    """A channel that unchanged profiles name by id changes: the diff lists them too."""
    records = ipt.Estate.from_raw(profiles).records
    named = {use.key for record in records for use in record.uses if use.held is None}
    for record in records:
        for use in record.uses:
            if use.held is not None and use.key in named:
                changed = copy.deepcopy(profiles[record.index])
                _at(changed, use.path)["active"] = not use.held.get("active")
                profiles[record.index] = changed
                return
    raise AssertionError("the demo names no held channel by id")


def _new_field(profiles: list[Any]) -> None:
    profiles[3] = {**profiles[3], "brandNewField": 1}  # schema: a field appears


def _remove_holder(profiles: list[Any]) -> None:
    index, _, _ = _held_channel(profiles)
    del profiles[index]


def _make_faulty(profiles: list[Any]) -> None:
    profiles[5] = {**profiles[5], "active": "yes"}  # not a boolean: a faulty profile


def _watch_incremental(monkeypatch: pytest.MonkeyPatch, seen: Callable[[Any], None]) -> None:
    """Hand every answer of `incremental_diff` (None: it did not apply) to `seen`."""
    original = incremental.incremental_diff

    def spy(*args: Any) -> Any:
        found = original(*args)
        seen(found)
        return found

    monkeypatch.setattr(incremental, "incremental_diff", spy)


WEEKS: dict[str, Callable[[list[Any]], None]] = {
    "partner renamed in one copy": _rename_partner,
    "channel deactivated": _deactivate_channel_everywhere,
    "a channel named by id changes": _deactivate_a_referenced_channel,
    "a field appears": _new_field,
    "a channel's holder removed": _remove_holder,
    "a profile becomes faulty": _make_faulty,
}


@pytest.fixture(scope="module")
def base() -> list[Any]:
    return list(ipt.demo_estate(300, seed=5).raw_profiles)


@pytest.mark.parametrize("name", sorted(WEEKS))
def test_an_add_diffs_as_ipt_diff_of_the_whole_snapshots(
    name: str, base: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _dated(list(base), 0)
    changed = list(base)
    WEEKS[name](changed)
    after = ipt.demo_changes(_dated(changed, 0), seed=len(name))  # and a demo week's churn
    after = _dated(list(after.raw_profiles), 7)
    used: list[bool] = []
    _watch_incremental(monkeypatch, lambda found: used.append(found is not None))
    path = tmp_path / "estate.duckdb"
    Archive(path).add(before)
    fresh = Archive(path)  # a fresh object: nothing of the first add kept
    snapshot = fresh.add(after)
    assert used == [True], "the incremental diff did not apply"
    whole = ipt.diff(before, after)
    assert stored_changes(fresh, snapshot)[snapshot] == whole.changes
    assert fresh.last_diff(snapshot).notes == whole.notes  # type: ignore[union-attr]


def test_profiles_keyed_by_position_take_the_whole_diff(base: list[Any], tmp_path: Path) -> None:
    without_id = [{k: v for k, v in base[0].items() if k != "id"}, *base[1:]]
    before, after = _dated(without_id, 0), _dated(without_id[:-1], 7)
    archive = Archive(tmp_path / "estate.duckdb")
    archive.add(before)
    snapshot = Archive(archive.path).add(after)
    assert stored_changes(archive, snapshot)[snapshot] == ipt.diff(before, after).changes


def test_of_a_partners_holders_only_the_first_of_each_copy_joins_the_smaller_estates(
    base: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later holder of copies already met changes neither registry: it is left out, and
    the changes are still those of `ipt.diff`."""
    from iptoolkit.core.nodes import partner_of

    index, path, _ = _held_channel(base)
    changed = list(base)
    changed[index] = {**changed[index], "description": "reworded"}
    before, after = _dated(list(base), 0), _dated(changed, 7)
    partner = partner_of(_at(base[index], path))[0]
    holders = {
        record.key
        for record in ipt.Estate.from_raw(base).records
        if any(u.held is not None and partner_of(u.held)[0] == partner for u in record.uses)
    }
    sizes: list[int] = []
    _watch_incremental(monkeypatch, lambda found: sizes.append(len(found.new)))
    archive = Archive(tmp_path / "estate.duckdb")
    archive.add(before)
    snapshot = Archive(archive.path).add(after)
    assert len(holders) > 5
    assert 1 < sizes[0] < len(holders) / 2
    assert stored_changes(archive, snapshot)[snapshot] == ipt.diff(before, after).changes


def _copy_paths(profiles: list[Any]) -> list[tuple[int, str]]:
    """(profile index, JSON path) of every held channel with an id."""
    return [
        (record.index, use.path)
        for record in ipt.Estate.from_raw(profiles).records
        for use in record.uses
        if isinstance(use.held, dict) and use.held.get("id") is not None
    ]


def _edit_copy(profile: Any, path: str, rnd: random.Random, partners: list[Any]) -> Any:
    """The profile with one held channel's copy changed: its activity, name, partner's
    name, or partner (so copies of one channel or partner come to differ)."""
    profile = copy.deepcopy(profile)
    channel = _at(profile, path)
    what = rnd.randrange(4)
    if what == 0:
        channel["active"] = not channel.get("active", True)
    elif what == 1:
        channel["name"] = rnd.choice(["n1", "n2", "n3"])
    elif what == 2 and isinstance(channel.get("partner"), dict):
        channel["partner"]["name"] = rnd.choice(["Alpha", "Beta", "Gamma"])
    else:
        channel["partner"] = copy.deepcopy(rnd.choice(partners))
    return profile


@pytest.mark.parametrize("seed", range(12))
def test_random_weeks_of_shared_and_conflicting_copies_diff_as_ipt_diff(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Profiles cloned under new ids (many holders of each copy), copies made to differ on
    both sides, edits, a copy made equal to another holder's, profiles added, removed and
    reordered: the incremental diff says what `ipt.diff` says (fails when the smaller
    estates leave out the first holders of each copy)."""
    rnd = random.Random(seed)
    base = [copy.deepcopy(p) for p in ipt.demo_estate(40, seed=5).raw_profiles]
    partners = [
        use.held["partner"]
        for record in ipt.Estate.from_raw(base).records
        for use in record.uses
        if isinstance(use.held, dict) and isinstance(use.held.get("partner"), dict)
    ]
    for n in range(rnd.randint(3, 12)):
        clone = copy.deepcopy(rnd.choice(base))
        clone["id"] = f"CLONE-{n}"
        base.insert(rnd.randrange(len(base) + 1), clone)
    paths = _copy_paths(base)
    for _ in range(rnd.randint(0, 6)):
        index, path = rnd.choice(paths)
        base[index] = _edit_copy(base[index], path, rnd, partners)
    new = list(base)
    adds: list[Any] = []
    for _ in range(rnd.randint(1, 4)):
        index, path = rnd.choice(paths)
        chance = rnd.random()
        if chance < 0.4:
            new[index] = {**new[index], "description": f"edited {rnd.randrange(3)}"}
        elif chance < 0.6:
            new[index] = _edit_copy(new[index], path, rnd, partners)
        elif chance < 0.8:  # equal to another holder's copy of the same channel
            ident = _at(new[index], path).get("id")
            others = [(j, p) for j, p in paths if j != index and _at(new[j], p).get("id") == ident]
            if others:
                j, other = rnd.choice(others)
                new[index] = copy.deepcopy(new[index])
                held = _at(new[index], path)
                held.clear()
                held.update(copy.deepcopy(_at(new[j], other)))
        else:
            added = copy.deepcopy(new[index])
            added["id"] = f"ADDED-{rnd.randrange(1000)}"
            adds.append(added)
    for added in adds:  # after the edits, whose positions are the base's
        new.insert(rnd.randrange(len(new) + 1), added)
    if rnd.random() < 0.3:
        del new[rnd.randrange(len(new))]
    for _ in range(rnd.randint(0, 4)):
        a, b = rnd.randrange(len(new)), rnd.randrange(len(new))
        new[a], new[b] = new[b], new[a]
    before, after = _dated(base, 0), _dated(new, 7)
    used: list[bool] = []
    _watch_incremental(monkeypatch, lambda found: used.append(found is not None))
    archive = Archive(tmp_path / "estate.duckdb")
    archive.add(before)
    fresh = Archive(archive.path)
    snapshot = fresh.add(after)
    whole = ipt.diff(before, after)
    assert used == [True]
    assert stored_changes(fresh, snapshot).get(snapshot, ()) == whole.changes
    assert fresh.last_diff(snapshot).notes == whole.notes  # type: ignore[union-attr]
