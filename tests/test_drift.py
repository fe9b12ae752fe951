"""Schema drift: `schema_report`, `schema_changes` and the `drift` command.

The demo estate is spec-clean, so each test drifts a copy of its raw JSON by hand and
checks that the report names exactly that: where, how often, in which profiles.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.change.drift import schema_changes
from iptoolkit.change.drift_report import DriftKind
from iptoolkit.cli import main
from iptoolkit.support.redact import MASK

SFTP = "core:SFTPAgentSettings"


@pytest.fixture(scope="module")
def clean() -> list[dict[str, Any]]:
    return ipt.demo_profiles(60, seed=3)


@pytest.fixture
def profiles(clean: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A fresh copy to drift."""
    return copy.deepcopy(clean)


def _of_class(profiles: list[dict[str, Any]], cls: str) -> list[dict[str, Any]]:
    return [p for p in profiles if p["inputAgentSettings"]["class"] == cls]


def _report(profiles: list[dict[str, Any]]) -> ipt.SchemaReport:
    return ipt.schema_report(ipt.Estate.from_raw(profiles))


def _one(report: ipt.SchemaReport, kind: DriftKind) -> Any:
    rows = report.of(kind)
    assert len(rows) == 1, [row.name for row in rows]
    return rows[0]


def test_the_demo_estate_is_spec_clean(clean):
    report = _report(clean)
    assert report.profiles == 60 and report.faulty == 0
    counts = report.counts()
    for kind in ("unknown_class", "unknown_field", "type_mismatch", "always_null"):
        assert counts[kind] == 0, kind
    # the demo never sends the two opaque formats: they are reported, nothing else is
    assert {row.name for row in report.of("never_present")} == {
        "IntegrationProfile.inputFormat",
        "IntegrationProfile.targetFormat",
    }
    assert report.summary() == ("Schema drift in 60 profiles: 2 fields never present"), (
        report.summary()
    )


def test_unknown_class_per_family(profiles):
    sftp = _of_class(profiles, SFTP)
    for profile in sftp[:2]:
        profile["inputAgentSettings"]["class"] = "core:FtpsAgentSettings"
    del sftp[2]["inputAgentSettings"]["class"]
    held = next(p for p in profiles if "channel" in p["inputAgentSettings"])
    held["inputAgentSettings"]["channel"]["class"] = "core:IntegrationPartnerChannelQUIC"
    report = _report(profiles)
    rows = {(row.type, row.found): row for row in report.of("unknown_class")}
    assert set(rows) == {
        ("InputAgentSettings", "core:FtpsAgentSettings"),
        ("InputAgentSettings", "(none)"),
        ("Channel", "core:IntegrationPartnerChannelQUIC"),
    }
    ftps = rows[("InputAgentSettings", "core:FtpsAgentSettings")]
    assert (ftps.path, ftps.count, ftps.profiles) == ("$.inputAgentSettings", 2, 2)
    assert ftps.examples == (sftp[0]["id"], sftp[1]["id"])
    assert ftps.name == "InputAgentSettings[core:FtpsAgentSettings]"
    assert rows[("Channel", "core:IntegrationPartnerChannelQUIC")].path == (
        "$.inputAgentSettings.channel"
    )
    # an unknown class's own fields are not reported again as unknown fields
    assert report.counts()["unknown_field"] == 0
    assert report.faulty == 0


def test_unknown_field_with_path_count_and_examples(profiles):
    sftp = _of_class(profiles, SFTP)
    assert len(sftp) >= 5
    for profile in sftp[:5]:
        profile["inputAgentSettings"]["retryPolicy"] = {"max": 3}
    unit_holder = next(p for p in profiles if p.get("responseSettings"))
    for unit in unit_holder["responseSettings"]["units"]:
        unit["priority"] = 1
    report = _report(profiles)
    rows = {row.name: row for row in report.of("unknown_field")}
    retry = rows["SFTPAgentSettings.retryPolicy"]
    assert retry.path == "$.inputAgentSettings.retryPolicy"
    assert (retry.count, retry.profiles, retry.faulty) == (5, 5, 0)
    assert retry.examples == tuple(p["id"] for p in sftp[:3])
    units = [row for name, row in rows.items() if name.endswith(".priority")]
    assert {row.path for row in units} == {"$.responseSettings.units[*].priority"}
    assert sum(row.count for row in units) == len(unit_holder["responseSettings"]["units"])
    assert all(row.examples == (unit_holder["id"],) for row in units)


def test_type_mismatches_are_read_from_faulty_profiles_too(profiles):
    sftp = _of_class(profiles, SFTP)
    sftp[0]["inputAgentSettings"]["transferType"] = 1719505790345  # epoch ms in an i32
    sftp[1]["inputAgentSettings"]["transferType"] = "60"  # a string where a number is expected
    sftp[2]["active"] = "yes"
    profiles.insert(5, "not a profile")
    estate = ipt.Estate.from_raw(profiles)
    assert len(estate.problems) == 4  # each of them is faulty, and kept
    report = ipt.schema_report(estate)
    assert report.faulty == 4
    rows = {(row.name, row.found): row for row in report.of("type_mismatch")}
    epoch = rows[("SFTPAgentSettings.transferType", "integer beyond i32")]
    assert (epoch.expected, epoch.example, epoch.faulty) == ("integer (i32)", "1719505790345", 1)
    assert epoch.path == "$.inputAgentSettings.transferType"
    text = rows[("SFTPAgentSettings.transferType", "string")]
    assert (text.expected, text.example, text.examples) == (
        "integer (i32)",
        '"60"',
        (sftp[1]["id"],),
    )
    assert rows[("IntegrationProfile.active", "string")].expected == "boolean"
    whole = rows[("IntegrationProfile.(profile)", "string")]
    assert (whole.path, whole.examples) == ("$", ("#5",))
    # nothing dropped: every problem's path is a reported mismatch
    paths = {row.path for row in report.of("type_mismatch")}
    for problem in estate.problems:
        for issue in problem.issues:
            assert "$" + issue.path.split("]", 1)[1] in paths, issue


def test_items_of_an_array_are_checked_at_their_own_path(profiles):
    holder = next(p for p in profiles if p.get("responseSettings"))
    holder["responseSettings"]["units"].append(None)
    holder["mappingSettings"]["sourceStructure"]["nodes"][0]["children"][0]["name"] = 7
    report = _report(profiles)
    rows = {row.path: row for row in report.of("type_mismatch")}
    assert rows["$.responseSettings.units[*]"].found == "null"
    deep = rows["$.mappingSettings.sourceStructure.nodes[*].children[*].name"]
    assert (deep.type, deep.field, deep.expected, deep.found) == (
        "DataStructureItem",
        "name",
        "string",
        "integer",
    )


def test_always_null_and_never_present(profiles):
    for profile in profiles:
        profile["description"] = None
        del profile["encoding"]
    profiles[0]["skipMapping"] = None  # null once, a boolean elsewhere: not always null
    report = _report(profiles)
    null = _one(report, "always_null")
    assert (null.name, null.path, null.count, null.profiles) == (
        "IntegrationProfile.description",
        "$.description",
        60,
        60,
    )
    absent = {row.name: row for row in report.of("never_present")}
    assert set(absent) == {
        "IntegrationProfile.encoding",
        "IntegrationProfile.inputFormat",
        "IntegrationProfile.targetFormat",
    }
    assert absent["IntegrationProfile.encoding"].count == 60


def test_values_shown_are_masked_and_unknown_values_never_shown(profiles):
    sftp = _of_class(profiles, SFTP)
    sftp[0]["inputAgentSettings"]["clientSecret"] = "s3cr3t-unknown"
    sftp[1]["inputAgentSettings"]["channels"] = {"password": "s3cr3t-nested"}
    report = _report(profiles)
    mismatch = _one(report, "type_mismatch")
    assert MASK in mismatch.example
    for text in (str(report), report.to_markdown(), report.to_json(), report._repr_html_()):
        assert "s3cr3t" not in text


def test_renderings_agree(profiles):
    _of_class(profiles, SFTP)[0]["inputAgentSettings"]["<b>odd</b>"] = 1
    report = _report(profiles)
    frame = report.to_frame()
    assert list(frame.columns)[:4] == ["kind", "type", "field", "path"]
    assert len(frame) == len(report) == 3
    data = json.loads(report.to_json())
    assert data["summary"]["unknown_field"] == 1 and len(data["items"]) == 3
    assert "## Unknown fields" in report.to_markdown()
    html = report._repr_html_()
    assert "&lt;b&gt;odd&lt;/b&gt;" in html and "<b>odd</b>" not in html
    assert "\n" not in report.summary()
    assert report.summary() == (
        "Schema drift in 60 profiles: 1 unknown field, 2 fields never present"
    )


def test_schema_changes_both_ways(clean, profiles):
    sftp = _of_class(profiles, SFTP)
    sftp[0]["inputAgentSettings"]["retryPolicy"] = {"max": 3}
    sftp[1]["inputAgentSettings"]["class"] = "core:FtpsAgentSettings"
    sftp[1]["inputAgentSettings"]["newThing"] = 1  # a field of the new class: no change of its own
    old, new = ipt.Estate.from_raw(clean), ipt.Estate.from_raw(profiles)
    added = schema_changes(old, new)
    assert [(c.key, c.op) for c in added] == [
        ("schema:InputAgentSettings[core:FtpsAgentSettings]", "added"),
        ("schema:SFTPAgentSettings.retryPolicy", "added"),
    ]
    assert all(c.kind == "schema" and c.severity == "notable" for c in added)
    assert added[1].path == "$.inputAgentSettings.retryPolicy"
    assert "appears" in added[1].reason
    removed = schema_changes(new, old)
    assert [(c.key, c.op) for c in removed] == [(c.key, "removed") for c in added]
    assert schema_changes(old, ipt.Estate.from_raw(copy.deepcopy(clean))) == []


def test_the_fields_of_a_class_that_appears_are_not_changes_of_their_own(clean):
    sftp = [p for p in clean if p["inputAgentSettings"]["class"] == SFTP]
    old = ipt.Estate.from_raw([p for p in clean if p not in sftp])
    keys = {c.key for c in schema_changes(old, ipt.Estate.from_raw(clean))}
    assert f"schema:InputAgentSettings[{SFTP}]" in keys
    assert not [key for key in keys if key.startswith("schema:SFTPAgentSettings.")]


def test_python_names_are_read_as_the_models_read_them(clean):
    fields = ipt.IntegrationProfile.model_fields
    python_name = {info.alias or name: name for name, info in fields.items()}
    python_named = [{python_name[key]: value for key, value in p.items()} for p in clean]
    assert "input_agent_settings" in python_named[0]
    report = _report(python_named)
    assert report.faulty == 0
    assert report.counts() == _report(clean).counts()


def test_a_snapshot_path_is_read(tmp_path, profiles):
    _of_class(profiles, SFTP)[0]["inputAgentSettings"]["retryPolicy"] = 1
    path = ipt.Estate.from_raw(profiles).save(tmp_path / "s.json")
    assert ipt.schema_report(path).counts()["unknown_field"] == 1


@pytest.fixture
def drifted(tmp_path: Path, profiles: list[dict[str, Any]]) -> Path:
    sftp = _of_class(profiles, SFTP)
    sftp[0]["inputAgentSettings"]["retryPolicy"] = {"max": 3}
    sftp[1]["inputAgentSettings"]["transferType"] = "60"
    return ipt.Estate.from_raw(profiles).save(tmp_path / "drifted.json")


def test_cli_formats(drifted):
    runner = CliRunner()
    text = runner.invoke(main, ["drift", str(drifted)])
    assert text.exit_code == 0, text.output
    assert text.output.startswith(
        "Schema drift in 60 profiles (1 faulty): 1 unknown field, 1 type mismatch"
    )
    assert "SFTPAgentSettings.retryPolicy at $.inputAgentSettings.retryPolicy" in text.output
    md = runner.invoke(main, ["drift", str(drifted), "--format", "md"])
    assert "## Type mismatches" in md.output and "| SFTPAgentSettings | transferType |" in md.output
    data = json.loads(runner.invoke(main, ["drift", str(drifted), "--format", "json"]).output)
    assert {item["kind"] for item in data["items"]} == {
        "unknown_field",
        "type_mismatch",
        "never_present",
    }
    assert data["summary"]["faulty"] == 1
    csv = runner.invoke(main, ["drift", str(drifted), "--format", "csv"]).output.splitlines()
    assert csv[0].startswith("kind,type,field,path,count,profiles")
    assert len(csv) == 1 + len(data["items"])


def test_cli_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = CliRunner().invoke(main, ["drift", str(bad)])
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1 and "bad.json" in result.output
    assert "drift" in CliRunner().invoke(main, ["--help"]).output


def _schema_keys(changes: Any) -> list[tuple[str, str, str | None, str]]:
    return sorted((c.key, c.op, c.path, c.reason) for c in changes if c.kind == "schema")


@pytest.mark.parametrize(
    "drift",
    [
        "field_in_a_changed_profile",
        "field_in_an_added_profile_of_a_type_only_unchanged_profiles_hold",
        "field_removed_from_some_but_kept_by_an_unchanged_one",
        "top_level_field_in_an_added_profile",
        "new_class_in_an_added_profile",
    ],
)
def test_the_diff_walks_only_what_differs_and_agrees_with_whole_walks(clean, drift):
    """`diff` walks the differing profiles and the equal ones naming a candidate; the schema
    changes it reports are those of walking both snapshots whole."""
    old_profiles, new_profiles = copy.deepcopy(clean), copy.deepcopy(clean)
    sftp_old, sftp_new = _of_class(old_profiles, SFTP), _of_class(new_profiles, SFTP)
    added = copy.deepcopy(sftp_new[0])
    added["id"] = "ADDED-1"
    if drift == "field_in_a_changed_profile":
        sftp_new[0]["inputAgentSettings"]["retryPolicy"] = {"max": 3}
    elif drift == "field_in_an_added_profile_of_a_type_only_unchanged_profiles_hold":
        added["inputAgentSettings"]["retryPolicy"] = {"max": 3}
        new_profiles.append(added)
    elif drift == "field_removed_from_some_but_kept_by_an_unchanged_one":
        for profile in (*sftp_old, *sftp_new[:-1]):
            profile["inputAgentSettings"]["retryPolicy"] = {"max": 3}
        sftp_old[0]["inputAgentSettings"].pop("retryPolicy")  # old differs, the rest equal
        new_profiles.remove(sftp_new[1])
    elif drift == "top_level_field_in_an_added_profile":
        added["ownerTeam"] = "ops"
        new_profiles.append(added)
    else:
        added["inputAgentSettings"]["class"] = "core:BrandNewAgentSettings"
        new_profiles.append(added)
    old, new = ipt.Estate.from_raw(old_profiles), ipt.Estate.from_raw(new_profiles)
    whole = schema_changes(ipt.Estate.from_raw(old_profiles), ipt.Estate.from_raw(new_profiles))
    kept_elsewhere = drift == "field_removed_from_some_but_kept_by_an_unchanged_one"
    assert bool(whole) != kept_elsewhere, "the case drifts the schema (or, kept, does not)"
    assert _schema_keys(ipt.diff(old, new).changes) == _schema_keys(whole)
