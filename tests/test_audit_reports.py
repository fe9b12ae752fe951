"""SARIF and JUnit XML as the tools that read them see them: SARIF validated against the
official SARIF 2.1.0 JSON schema (tests/fixtures/sarif-2.1.0.json, from Microsoft's
sarif-multitool package) and, when npm can install it, by the multitool itself; JUnit XML
read by junitparser, as CI dashboards read it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from iptoolkit.auditing.reports.sarif import FINGERPRINT
from iptoolkit.cli import main

from .factories import ACME, agent, channel, estate_of, partner, profile, unit

FIXTURES = Path(__file__).parent / "fixtures"
PASSWORD = "pw-in-url"


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    weak = channel(20, "AS2", partner=ACME, signingAlgorithm="SHA1", mdnMode=0,
                   partnerAs2Id="A", encryptionAlgorithm="AES256")  # fmt: skip
    estate = estate_of(
        profile("P1", agent=agent("AS2", channels=[weak]), units=[unit("File", fileName="x")]),
        profile("P2", agent=agent("CronSql", cronSchedule=["bad"])),
        profile("P3", agent=agent("Kafka", schemaRegistryUrl=f"http://u:{PASSWORD}@r.test")),
    )
    return estate.save(tmp_path_factory.mktemp("reports") / "snap.json")


def report(snapshot: Path, output_format: str, *more: str) -> str:
    result = CliRunner().invoke(
        main, ["audit", str(snapshot), "--isolated", "--format", output_format, *more]
    )
    assert result.exit_code == 1, result.output
    assert PASSWORD not in result.stdout
    return result.stdout


@pytest.fixture(scope="module")
def sarif(snapshot: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    document = json.loads(report(snapshot, "sarif"))
    assert isinstance(document, dict)
    return document


def test_sarif_is_valid_against_the_official_schema(sarif: dict[str, Any]) -> None:
    import jsonschema

    schema = json.loads((FIXTURES / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(sarif), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    broken = json.loads(json.dumps(sarif))
    broken["runs"][0]["results"][0]["level"] = "fatal"  # the check can fail
    assert list(validator.iter_errors(broken))


def test_sarif_rules_results_locations_and_fingerprints(sarif: dict[str, Any]) -> None:
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert {"SEC006", "SEC011", "OPS005", "DAT001"} <= set(ids)
    weak_rule = rules[ids.index("SEC006")]
    assert weak_rule["help"]["text"] and "Remedy" in weak_rule["help"]["markdown"]
    assert weak_rule["properties"]["security-severity"] == "5.5"
    by_rule = {result["ruleId"]: result for result in run["results"]}
    weak = by_rule["SEC006"]
    assert ids[weak["ruleIndex"]] == "SEC006" and weak["level"] == "warning"
    [location] = weak["locations"]
    physical = location["physicalLocation"]
    assert physical["artifactLocation"]["uri"].endswith("snap.json")
    assert physical["region"]["startLine"] == 2  # P1, the first profile, on line 2
    assert by_rule["OPS005"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    logical = location["logicalLocations"]
    assert logical[0]["fullyQualifiedName"] == "channel:20"
    assert (
        logical[1]["fullyQualifiedName"] == "$[0].inputAgentSettings.channels[0].signingAlgorithm"
    )
    assert len(weak["partialFingerprints"]["iptoolkitFinding/v1"]) == 16
    assert by_rule["SEC011"]["level"] == "error"


def test_sarif_driver_says_where_to_read_about_the_tool(sarif: dict[str, Any]) -> None:
    """GitHub shows a tool's `informationUri` beside its alerts; the multitool advises it
    (SARIF2005) when it is missing. An absolute https address, as SARIF wants."""
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"].startswith("https://")


def test_a_finding_of_several_profiles_points_at_the_first_it_names(tmp_path: Path) -> None:
    """HYG005 (agents of several profiles on one URL) and DAT004 (a channel id no profile
    holds) are found in no one profile: they once pointed at line 1 of the snapshot; now
    at the first profile each names (the snapshot holds a profile per line, from line 2),
    in SARIF, JSON and the text report alike."""
    estate = estate_of(
        profile("P0", agent=agent("ManualUpload")),
        profile("P1", agent=agent("Http", url="/api/orders")),
        profile("P2", agent=agent("Message", comChannelId=77)),
        profile("P3", agent=agent("Http", url="/API/orders/")),
    )
    snapshot = estate.save(tmp_path / "snap.json")
    lines = snapshot.read_text().splitlines()
    assert '"id":"P1"' in lines[2] and '"id":"P2"' in lines[3]  # P1 on line 3, P2 on 4
    found = json.loads(report(snapshot, "sarif", "--select", "HYG005,DAT004"))
    starts = {
        result["ruleId"]: result["locations"][0]["physicalLocation"]["region"]["startLine"]
        for result in found["runs"][0]["results"]
    }
    assert starts == {"HYG005": 3, "DAT004": 4}
    rows = json.loads(report(snapshot, "json", "--select", "HYG005,DAT004"))
    rows = rows["findings"] if isinstance(rows, dict) else rows
    assert {row["code"]: row["line"] for row in rows} == {"HYG005": 3, "DAT004": 4}
    text = report(snapshot, "text", "--select", "HYG005,DAT004")
    assert "snap.json:3:1: HYG005" in text and "snap.json:4:1: DAT004" in text, text


def test_sarif_uri_is_relative_to_the_working_directory(
    snapshot: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(snapshot.parent.parent)
    document = json.loads(report(snapshot, "sarif"))
    uri = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"][
        "uri"
    ]
    assert uri == f"{snapshot.parent.name}/snap.json"


_ESCAPE_PAIR = r"\\[\\\[\]]"
_EMBEDDED_LINK = re.compile(
    rf"(?<!\\)(?:\\\\)*\[(?P<text>(?:[^\\\[\]]|{_ESCAPE_PAIR})*)\]\((?P<target>[^)]*)\)"
)
r"""SARIF 2.1.0 §3.11.6's embedded link in a plain text message: `[link text](target)`,
the link text holding `\\`, `\[` and `\]` as escapes, its `[` not itself escaped."""


def test_sarif_message_text_holds_no_embedded_link_from_a_name(tmp_path: Path) -> None:
    """A platform name in a finding's text is free text: as `[x](javascript:alert(1))` it
    would be an embedded link (SARIF 2.1.0 §3.11.6) in the plain text message, a link a
    viewer may make clickable. Escaped with backslashes, the message reads as its text."""
    link = "[x](javascript:alert(1)) sftp"
    weak = [
        channel(31, "AS2", name=f"back\\slash {link}", partner=partner(7, "a]b[c"),
                signingAlgorithm="SHA1", mdnMode=0, partnerAs2Id="A"),
        channel(32, "AS2", name="a]b[c", partner=partner(8, "back\\slash"),
                signingAlgorithm="SHA1", mdnMode=0, partnerAs2Id="B"),
        channel(33, "AS2", name=f"{link} https://u:{PASSWORD}@h.test/x",
                signingAlgorithm="SHA1", mdnMode=0, partnerAs2Id="C"),
    ]  # fmt: skip
    estate = estate_of(profile("P1", agent=agent("AS2", channels=weak)))
    snapshot = estate.save(tmp_path / "snap.json")
    rows = json.loads(report(snapshot, "json"))["findings"]
    masked = {row["fingerprint"]: row["text"] for row in rows}
    results = json.loads(report(snapshot, "sarif"))["runs"][0]["results"]
    texts = {r["partialFingerprints"][FINGERPRINT]: r["message"]["text"] for r in results}
    assert texts.keys() == masked.keys()
    quoting = {key for key, text in masked.items() if "javascript:" in text}
    assert len(quoting) >= 3, masked  # the test reaches a name with a link in it
    assert any("a]b[c" in text for text in masked.values())
    for key, text in texts.items():
        assert not _EMBEDDED_LINK.search(text), text
        read = re.sub(_ESCAPE_PAIR, lambda pair: pair.group(0)[1], text)
        assert (read if key in quoting else text) == masked[key]
    plain = [text for key, text in texts.items() if key not in quoting]
    assert any("a]b[c" in text for text in plain), plain  # kept as written


@pytest.mark.slow
def test_microsofts_sarif_multitool_accepts_it(
    sarif: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    tools = tmp_path_factory.mktemp("multitool")
    installed = subprocess.run(
        [npm, "install", "--prefix", str(tools), "--no-audit", "--no-fund",
         "@microsoft/sarif-multitool"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    tool = tools / "node_modules" / ".bin" / "sarif-multitool"
    if installed.returncode != 0 or not tool.exists():
        pytest.skip(f"sarif-multitool could not be installed: {installed.stderr[-300:]}")
    path = tools / "audit.sarif"
    path.write_text(json.dumps(sarif), encoding="utf-8")
    out = tools / "report.sarif"
    subprocess.run([str(tool), "validate", str(path), "-o", str(out)], capture_output=True,
                   timeout=300, check=False)  # fmt: skip
    if not out.exists():
        pytest.skip("sarif-multitool ran but wrote no report (no .NET runtime?)")
    verdict = json.loads(out.read_text(encoding="utf-8"))
    errors = [r for run in verdict["runs"] for r in run.get("results", [])
              if r.get("level") == "error"]  # fmt: skip
    assert not errors, [e["message"] for e in errors]


def test_junit_has_one_case_per_rule(snapshot: Path, tmp_path: Path) -> None:
    from junitparser import Failure, JUnitXml

    path = tmp_path / "audit.xml"
    path.write_text(report(snapshot, "junit"), encoding="utf-8")
    xml = JUnitXml.fromfile(str(path))
    [suite] = list(xml)
    cases = {case.name.split()[0]: case for case in suite}
    assert len(cases) == suite.tests and len(cases) > 25
    failed = {
        code for code, case in cases.items() if any(isinstance(r, Failure) for r in case.result)
    }
    # warnings and worse fail (--fail-on warning); OPS002: P2 and P3 deliver nowhere
    assert failed == {"SEC001", "SEC006", "SEC009", "SEC011", "OPS002", "OPS005"}
    assert cases["SEC006"].result[0].type == "warning"
    assert "signs with 'SHA1'" in cases["SEC006"].result[0].text
    assert cases["HYG001"].is_passed
    assert suite.failures == len(failed)
