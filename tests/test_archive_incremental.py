"""An add diffs only the profiles that changed (`archive/incremental.py`), and says exactly
what `ipt.diff` of the two whole snapshots says."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.snapshot import SnapshotInfo

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
    used = []
    original = incremental.incremental_diff

    def spy(*args: Any) -> Any:
        found = original(*args)
        used.append(found is not None)
        return found

    monkeypatch.setattr(incremental, "incremental_diff", spy)
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
    from iptoolkit.nodes import partner_of

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
    sizes = []
    original = incremental.incremental_diff

    def spy(*args: Any) -> Any:
        found = original(*args)
        sizes.append(len(found.new))
        return found

    monkeypatch.setattr(incremental, "incremental_diff", spy)
    archive = Archive(tmp_path / "estate.duckdb")
    archive.add(before)
    snapshot = Archive(archive.path).add(after)
    assert len(holders) > 5
    assert 1 < sizes[0] < len(holders) / 2
    assert stored_changes(archive, snapshot)[snapshot] == ipt.diff(before, after).changes
