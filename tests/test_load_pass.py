"""`ipt.load`'s one pass (proof, fast check and index, profile by profile) against the
step-by-step road it replaces: the same estate, to the last record, registry and conflict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import iptoolkit as ipt
import iptoolkit.core.estate
from iptoolkit.core._load_pass import LoadPass
from iptoolkit.core.estate import Estate
from iptoolkit.core.records import PENDING, RecordBuilder
from iptoolkit.core.snapshot import SnapshotInfo, read_snapshot_json, write_snapshot
from iptoolkit.models import listing_of
from iptoolkit.models.jsontext import _compact
from iptoolkit.support.jsonio import dumps_json

from .factories import ACME, GLOBEX, agent, channel, known_channel, profile, unit
from .strategies import model_strategy, mutated_profiles

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def step_by_step(path: Path) -> Estate:
    """The estate as loaded before the one pass: read, then check, then index."""
    document = read_snapshot_json(path)
    listing = listing_of(document.items, document.at, document.duplicates)
    return Estate.from_raw(listing, info=document.info)


def loaded(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Estate, bool]:
    """`ipt.load(path)`, and whether it took the one pass."""
    passes: list[LoadPass] = []

    class Spied(LoadPass):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            passes.append(self)

    monkeypatch.setattr(iptoolkit.core.estate, "LoadPass", Spied)
    estate = ipt.load(path)
    assert len(passes) == 1
    return estate, passes[0].proven


def assert_same(one: Estate, other: Estate) -> None:
    assert one.records == other.records
    assert [(p.index, p.profile_id, p.issues) for p in one.problems] == [
        (p.index, p.profile_id, p.issues) for p in other.problems
    ]
    assert dict(one.channels) == dict(other.channels)
    assert dict(one.partners) == dict(other.partners)
    assert one.conflicts == other.conflicts
    assert dict(one.unresolved) == dict(other.unresolved)
    assert one.info == other.info


# P2 uses a Python name (the fast check leaves it to pydantic, which accepts it) and holds a
# second copy of channel 5; P3 is faulty and holds channel 7 first, which must not count;
# P4 holds a third copy of 5 and the first valid copy of 7; P5 names 7 by its id as text;
# the last item is no profile at all.
LISTING: list[Any] = [
    profile(
        "P1",
        agent=agent("SFTP", channels=[channel(5, partner=ACME)]),
        units=[unit("Ftp", channel=channel(6, "FTP", partner=GLOBEX))],
    ),
    {
        "class": "core:IntegrationProfile",
        "id": "P2",
        "input_agent_settings": agent("SFTP", channels=[channel(5, name="renamed", partner=ACME)]),
    },
    profile("P3", active="yes", agent=agent("SFTP", channels=[channel(7, partner=GLOBEX)])),  # type: ignore[arg-type]
    profile("P4", agent=agent("SFTP", channels=[channel(5, name="third"), channel(7)])),
    profile("P5", agent=agent("SFTP", comChannelId="7")),
    profile("P1", agent=agent("Fax")),
    [1, 2],
]


def test_a_listing_of_every_kind_loads_in_one_pass_as_it_did_step_by_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_snapshot(tmp_path / "mixed.json", LISTING, SnapshotInfo(source_url="https://x"))
    estate, one_pass = loaded(path, monkeypatch)
    assert one_pass
    assert_same(estate, step_by_step(path))
    assert [p.profile_id for p in estate.problems] == ["P3", None]
    assert [r.key for r in estate.records][5] == "P1#5"
    assert known_channel(estate, 7).name == "SFTP 7" and estate.records[4].partners == ()
    assert [c.key for c in estate.conflicts] == [5]
    assert estate.conflicts[0].profiles == ("profile:P1", "profile:P2", "profile:P4")


def test_a_bare_array_as_orjson_writes_it_loads_in_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bare.json"
    path.write_bytes(dumps_json(LISTING))
    estate, one_pass = loaded(path, monkeypatch)
    assert one_pass
    assert_same(estate, step_by_step(path))


def test_a_snapshot_whose_first_profile_holds_json_text_loads_in_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a MongoDB agent's query is JSON text in a string: its escaped `": ` and `", "` are
    # no tokens, and once sent the whole file down the slow road (issue 45)
    query = profile("Q1", agent=agent("MongoDB", query='{"status": "NEW", "n": 1}'))
    path = write_snapshot(tmp_path / "query.json", [query, *LISTING], SnapshotInfo())
    estate, one_pass = loaded(path, monkeypatch)
    assert one_pass
    assert_same(estate, step_by_step(path))


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(LISTING, indent=2),  # not as orjson writes it
        json.dumps(LISTING)[:-1] + ', {"id": "P9", "id": "P10"}]',  # a repeated key
        json.dumps(LISTING)[:-1] + ', {"id": "P9", "size": 1e400}]',  # beyond a double
    ],
    ids=["indented", "repeated key", "beyond a double"],
)
def test_text_the_pass_cannot_prove_is_read_step_by_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    path = tmp_path / "listing.json"
    path.write_text(text)
    try:
        expected = step_by_step(path)
    except ipt.ParseError as exc:
        with pytest.raises(ipt.ParseError, match="beyond the range of a double") as caught:
            loaded(path, monkeypatch)
        assert str(caught.value) == str(exc)
        return
    estate, one_pass = loaded(path, monkeypatch)
    assert not one_pass
    assert_same(estate, expected)


listings = st.lists(
    st.one_of(model_strategy(ipt.IntegrationProfile), mutated_profiles()), max_size=6
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(listing=listings)
def test_generated_listings_load_in_one_pass_as_step_by_step(
    tmp_path_factory: pytest.TempPathFactory, listing: list[dict[str, Any]]
) -> None:
    path = write_snapshot(tmp_path_factory.mktemp("pass") / "s.json", listing, SnapshotInfo())
    with pytest.MonkeyPatch.context() as monkeypatch:
        estate, one_pass = loaded(path, monkeypatch)
    assert one_pass or not orjson_writes(listing) or not _compact(path.read_bytes())
    assert_same(estate, step_by_step(path))


def orjson_writes(value: Any) -> bool:
    """False for an integer beyond 64 bits, which the snapshot writes with the stdlib."""
    try:
        orjson.dumps(value)
    except TypeError:
        return False
    return True


def test_strict_loading_names_the_first_faulty_profile_after_the_pass(tmp_path: Path) -> None:
    path = write_snapshot(tmp_path / "mixed.json", LISTING, SnapshotInfo())
    with pytest.raises(ipt.ParseError, match=r"mixed\.json: .*P3") as caught:
        ipt.load(path, strict=True)
    assert "$[2].active" in str(caught.value)


@pytest.mark.parametrize(
    "wrap",
    [
        lambda items: {"data": {"items": items}},
        lambda items: {"_embedded": {"data": {"profiles": items}}},
    ],
    ids=["data.items", "_embedded.data.profiles"],
)
def test_a_listing_nested_deeper_is_read_step_by_step_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrap: Any
) -> None:
    path = tmp_path / "wrapped.json"
    path.write_bytes(orjson.dumps(wrap(LISTING)))
    estate, one_pass = loaded(path, monkeypatch)
    assert not one_pass and len(estate.records) == len(LISTING)
    assert_same(estate, step_by_step(path))


def test_an_answer_keyed_profiles_is_no_snapshot_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "answer.json"
    path.write_bytes(orjson.dumps({"profiles": LISTING, "total": 7, "fetched_at": "yesterday"}))
    estate, one_pass = loaded(path, monkeypatch)
    assert one_pass and dict(estate.info.extra) == {}
    assert_same(estate, step_by_step(path))


def test_a_pass_the_proof_voids_lets_its_work_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    voided: list[LoadPass] = []

    class Spied(LoadPass):
        def void(self) -> None:
            assert len(self.records._raw) == len(LISTING)  # every profile was visited
            super().void()
            voided.append(self)

    path = tmp_path / "late.json"
    path.write_bytes(orjson.dumps(LISTING)[:-1] + b',{"id":"P9","id":"P10"}]')
    monkeypatch.setattr(iptoolkit.core.estate, "LoadPass", Spied)
    estate = ipt.load(path)
    assert [p.profile_id for p in estate.problems][-1] == "P10"
    [read] = voided
    assert not read.proven and read.items is None and read.records._raw == []


def test_a_record_builder_hands_its_records_out_once() -> None:
    builder = RecordBuilder()
    builder.add(LISTING[0])
    builder.add(LISTING[1], PENDING)
    records = builder.finish()
    assert [record.key for record in records] == ["P1", "P2"]
    with pytest.raises(RuntimeError, match="after finish"):
        builder.add(LISTING[3])
    with pytest.raises(RuntimeError, match="twice"):
        builder.finish()
