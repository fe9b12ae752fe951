"""Estate: lenient loading keeps every profile, registries, conflicts, snapshots round trip."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.estate import Estate

ACME = {"class": "core:IntegrationPartner", "id": 1, "name": "Acme"}


def sftp_channel(port: int = 22) -> dict[str, Any]:
    return {
        "class": "core:IntegrationPartnerChannelSFTP",
        "id": 5,
        "name": "sftp acme",
        "partner": ACME,
        "port": port,
    }


RAW: list[Any] = [  # a listing as sent: its last item is no profile
    {
        "class": "core:IntegrationProfile",
        "id": "P1",
        "group": "Finance/AP",
        "inputAgentSettings": {"class": "core:SFTPAgentSettings", "channels": [sftp_channel()]},
    },
    {
        "id": "P2",
        "inputAgentSettings": {"class": "core:FaxAgentSettings", "channelIds": [5, 77]},
        "responseSettings": {
            "units": [{"class": "core:FtpProfileResponseUnit", "channel": sftp_channel(23)}]
        },
    },
    {"id": "P3", "created": "yesterday"},
    "not even an object",
]


def test_lenient_loading_keeps_faulty_profiles_as_problems():
    estate = Estate.from_raw(RAW)
    assert [p.id for p in estate.profiles] == ["P1", "P2"]
    assert [(p.index, p.profile_id) for p in estate.problems] == [(2, "P3"), (3, None)]
    assert estate.problems[0].issues[0].path == "$[2].created"
    assert estate.problems[0].raw is RAW[2]
    assert list(estate.raw_profiles) == RAW
    assert list(estate.raw_index) == [0, 1]
    assert [record.ok for record in estate.records] == [True, True, False, False]
    assert estate.records[2].problem is estate.problems[0]


def test_strict_loading_raises():
    with pytest.raises(ipt.ParseError, match=r"\$\[2\]\.created"):
        Estate.from_raw(RAW, strict=True)


def test_channel_and_partner_registries_and_conflicts():
    estate = Estate.from_raw(RAW)
    assert list(estate.channels) == [5]
    assert list(estate.partners) == [1]
    [conflict] = estate.conflicts
    assert conflict.kind == "channel" and conflict.key == 5
    assert [profile_id for profile_id, _ in conflict.variants] == ["P1", "P2"]
    assert conflict.profiles == ("profile:P1", "profile:P2")
    assert [use.role for use in estate.records[1].uses] == ["reference", "reference", "response"]


def test_identical_shared_channels_are_no_conflict():
    raw = [RAW[0], {**RAW[0], "id": "P9"}]
    estate = Estate.from_raw(raw)
    assert not estate.conflicts
    assert len(estate.channels) == 1


@pytest.mark.parametrize("name", ["snap.json", "snap.json.gz"])
def test_save_then_load_gives_back_every_profile_byte_for_byte(tmp_path, name):
    fetched = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
    estate = Estate.from_raw(RAW, source_url="https://platform.example/api", fetched_at=fetched)
    path = estate.save(tmp_path / name)
    loaded = ipt.load(path)
    assert list(loaded.raw_profiles) == RAW
    assert json.dumps(loaded.raw_profiles) == json.dumps(RAW)
    assert loaded.info.source_url == "https://platform.example/api"
    assert loaded.info.fetched_at == fetched
    assert len(loaded.problems) == 2
    assert loaded.save(tmp_path / ("again-" + name)).read_bytes() == path.read_bytes()


def test_load_accepts_a_bare_array_and_wrappers(tmp_path):
    (tmp_path / "bare.json").write_text(json.dumps(RAW[:2]))
    (tmp_path / "wrapped.json").write_text(json.dumps({"items": RAW[:2], "total": 2}))
    for name in ("bare.json", "wrapped.json"):
        assert [p.id for p in ipt.load(tmp_path / name).profiles] == ["P1", "P2"]


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        (b'[{"id": "P1"', "trunc.json", "not JSON"),
        (b"plain text", "fake.json.gz", "not gzip"),
        (gzip.compress(b"[1, 2", mtime=0)[:-6], "broken.json.gz", "damaged gzip"),
        (b'{"format": "iptoolkit.snapshot", "profiles": 3}', "odd.json", "'profiles'"),
    ],
)
def test_bad_files_give_a_parse_error_naming_the_file(tmp_path, content, name, expected):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ipt.ParseError) as caught:
        ipt.load(path)
    assert name in str(caught.value) and expected in str(caught.value)


def test_missing_file(tmp_path):
    with pytest.raises(ipt.ParseError, match="cannot read"):
        ipt.load(tmp_path / "nope.json")


def test_repr_and_html_summary():
    estate = Estate.from_raw(RAW, source_url="https://platform.example/api")
    assert repr(estate) == (
        "<Estate 4 profiles (2 problems), 1 channels, 1 partners, "
        "source='https://platform.example/api'>"
    )
    html = estate._repr_html_()
    assert "<td>SFTP</td>" in html and "<td>Fax</td>" in html  # as people say them
    summary = estate.summary()
    # every profile counted once, the faulty ones by what could be read of them
    assert summary["agent_types"] == {"(none)": 2, "SFTPAgentSettings": 1, "FaxAgentSettings": 1}
    assert sum(summary["agent_types"].values()) == summary["profiles"]
    assert summary["problems"] == 2


def test_channels_without_ids_in_profiles_without_ids_stay_apart():
    def anonymous(port: int) -> dict[str, Any]:
        channel = {"class": "core:IntegrationPartnerChannelSFTP", "port": port}
        return {"inputAgentSettings": {"class": "core:CronSshAgentSettings", "channel": channel}}

    estate = Estate.from_raw([anonymous(22), anonymous(23)])
    assert sorted(estate.channels) == [
        "#0:inputAgentSettings.channel",
        "#1:inputAgentSettings.channel",
    ]
    assert not estate.conflicts


def test_an_estate_cannot_be_changed():
    estate = Estate.from_raw(RAW)
    with pytest.raises(AttributeError, match="immutable"):
        estate.channels = {}
    with pytest.raises(TypeError):
        estate.channels[99] = None  # type: ignore[index]
    with pytest.raises(TypeError):  # kept once made: a change would reach every graph
        estate.unresolved["#0:nowhere"] = ()  # type: ignore[index]
    assert isinstance(estate.records, tuple)  # as annotated, and so at run time
    assert isinstance(estate.profiles, tuple)


def test_its_snapshot_info_cannot_change_under_a_cached_summary():
    """The info is frozen, so `summary()` (cached) cannot go stale; changing it means a new
    value, and `from_raw` fills the toolkit version without writing into the caller's info."""
    import dataclasses
    import pickle

    from iptoolkit.core.snapshot import SnapshotInfo

    extra: dict[str, Any] = {"filters": []}
    given = SnapshotInfo(source_url="https://one.example", extra=extra)
    estate = Estate.from_raw(RAW, info=given)
    assert given.toolkit_version is None  # the caller's object is as it was
    assert estate.info.toolkit_version == ipt.__version__
    assert estate.summary()["source_url"] == "https://one.example"
    with pytest.raises(dataclasses.FrozenInstanceError):
        estate.info.source_url = "https://two.example"  # type: ignore[misc]
    with pytest.raises(TypeError):
        estate.info.extra["filters"] = ["x"]  # type: ignore[index]
    extra["late"] = True  # the dict the caller passed is copied, not kept
    assert "late" not in estate.info.extra
    assert estate.summary()["source_url"] == "https://one.example"
    moved = dataclasses.replace(estate.info, source_url="https://two.example")
    assert moved.extra == {"filters": []} and estate.info.source_url == "https://one.example"
    assert pickle.loads(pickle.dumps(moved)) == moved


def test_as_estate_takes_an_estate_or_a_path_and_names_what_is_wrong(tmp_path):
    estate = Estate.from_raw(RAW)
    assert ipt.as_estate(estate) is estate
    path = estate.save(tmp_path / "snap.json")
    for given in (path, str(path)):
        assert ipt.as_estate(given).raw_profiles == estate.raw_profiles
    with pytest.raises(
        TypeError, match=r"diff: old must be an Estate or a snapshot path, not list"
    ):
        ipt.as_estate([], "diff: old")  # type: ignore[arg-type]  # refused, as asked
    with pytest.raises(TypeError, match="write_docs: previous must be"):
        ipt.write_docs(estate, tmp_path / "site", previous=42)  # type: ignore[arg-type]  # refused


def test_saved_snapshot_has_ordinary_file_permissions(tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        path = Estate.from_raw(RAW).save(tmp_path / "snap.json")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_what_is_no_profile_or_no_listing_is_said_in_plain_words(tmp_path):
    """A null profile was "got null null"; a generator "the JSON is a object"."""
    estate = Estate.from_raw([None, 5, {"id": "P3"}])
    assert [p.message for p in estate.problems] == [
        "$[0]: expected a JSON object; got null",
        "$[1]: expected a JSON object; got number 5",
    ]
    with pytest.raises(ipt.ParseError) as caught:
        Estate.from_raw(p for p in [{"id": "P1"}])  # type: ignore[arg-type]
    assert str(caught.value) == (
        "no list of profiles found: given a generator, not JSON; "
        "expected a list of profiles (a JSON array) or an object that holds one"
    )
    (tmp_path / "text.json").write_text('"just text"')
    with pytest.raises(ipt.ParseError, match="the JSON is a string; expected a list"):
        ipt.load(tmp_path / "text.json")
