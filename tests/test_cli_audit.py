"""`iptoolkit audit` (and its alias `findings`): exit codes as `ruff check`, formats,
statistics, configuration, baselines, and secrets masked in every format."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main

from .factories import ACME, GLOBEX, agent, channel, estate_of, profile, unit

PASSWORD = "hunter2-in-url"
FILE = unit("File", fileName="out.xml")


def safe_sftp(id: int, **fields: Any) -> dict[str, Any]:
    return channel(id, "SFTP", partner=GLOBEX, host=f"sftp{id}.test", keyFingerprint="SHA256:a",
                   **fields)  # fmt: skip


def weak_as2(id: int = 20) -> dict[str, Any]:
    return channel(id, "AS2", partner=ACME, signingAlgorithm="SHA1", mdnMode=1,
                   partnerAs2Id="ACME", encryptionAlgorithm="AES256")  # fmt: skip


def profiles() -> list[dict[str, Any]]:
    return [
        profile("P1", name="Orders", agent=agent("AS2", channels=[weak_as2()]), units=[FILE]),
        profile("P2", name="Invoices", agent=agent("SFTP", channels=[safe_sftp(11)]), units=[FILE]),
        profile(
            "P3",
            name="Registry",
            agent=agent("Kafka", schemaRegistryUrl=f"https://bob:{PASSWORD}@reg.test/x"),
            units=[FILE],
        ),
        profile(
            "P4",
            name="Quiet",
            active=False,
            agent=agent("SFTP", channels=[safe_sftp(12, active=False)]),
        ),
    ]


@pytest.fixture()
def snapshot(tmp_path: Path) -> Path:
    return estate_of(*profiles()).save(tmp_path / "snap.json")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_text_report_like_ruff_with_lines_and_exit_1(snapshot: Path) -> None:
    result = run("audit", str(snapshot), "--isolated")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert any(":2:1: SEC006 [warning] AS2 channel 'AS2 20' (channel:20) signs with 'SHA1'"
               in line for line in lines), lines  # fmt: skip
    # one profile a line in a snapshot: P3 (the third) starts on line 4
    assert any(":4:1: SEC011 [error]" in line for line in lines), lines
    assert lines[-1].startswith("Found 2 findings (1 error, 1 warning)")


def test_exit_codes_follow_fail_on(snapshot: Path) -> None:
    assert run("audit", str(snapshot), "--isolated", "--fail-on", "error").exit_code == 1
    only_warning = run("audit", str(snapshot), "--isolated", "--select", "SEC006")
    assert only_warning.exit_code == 1
    quiet = run("audit", str(snapshot), "--isolated", "--select", "SEC006", "--fail-on", "error")
    assert quiet.exit_code == 0
    assert run("audit", str(snapshot), "--isolated", "--fail-on", "never").exit_code == 0
    assert run("audit", str(snapshot), "--isolated", "--select", "HYG").exit_code == 0


def test_errors_exit_2_with_one_line(snapshot: Path, tmp_path: Path) -> None:
    missing = run("audit", str(tmp_path / "nothing.json"))
    assert missing.exit_code == 2
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    result = run("audit", str(broken), "--isolated")
    assert result.exit_code == 2 and result.stderr.startswith("Error: ")
    assert len(result.stderr.strip().splitlines()) == 1
    bad_code = run("audit", str(snapshot), "--select", "SEC999")
    assert bad_code.exit_code == 2 and "SEC999" in bad_code.stderr
    config = tmp_path / "iptoolkit.toml"
    config.write_text('[audit]\nselect = ["SEC"]\nseverity = { SEC006 = "fatal" }\n')
    result = run("audit", str(snapshot), "--config", str(config))
    assert result.exit_code == 2
    assert f"{config}:3: severity of SEC006: 'fatal'" in result.stderr


def test_statistics(snapshot: Path) -> None:
    result = run("audit", str(snapshot), "--isolated", "--statistics")
    *lines, total = result.stdout.splitlines()
    assert [line.split()[:3] for line in lines] == [["1", "SEC006", "[warning]"],
                                                    ["1", "SEC011", "[error]"]]  # fmt: skip
    assert lines[0].endswith("AS2 signing or encryption with a weak algorithm, or none")
    assert total.startswith("Found 2 findings")


@pytest.mark.parametrize("output_format", ["text", "json", "csv", "md", "sarif", "junit"])
def test_secrets_in_urls_are_masked_in_every_format(snapshot: Path, output_format: str) -> None:
    result = run("audit", str(snapshot), "--isolated", "--format", output_format)
    assert result.exit_code == 1, result.output
    assert "SEC011" in result.stdout
    assert PASSWORD not in result.stdout and PASSWORD not in result.stderr
    assert "**********" in result.stdout.replace("\\*", "*")  # Markdown escapes the stars


def test_a_filtered_audit_names_each_profiles_own_line(tmp_path: Path) -> None:
    """Lines come from where reading found each profile (a filter keeps their positions in
    the listing); a bare array on one line gives columns instead."""
    snapshot = estate_of(*profiles()).save(tmp_path / "snap.json")
    result = run("audit", str(snapshot), "--isolated", "--text", "Registry")
    assert ":4:1: SEC011 [error]" in result.stdout, result.output  # P3, the third profile
    bare = tmp_path / "bare.json"
    bare.write_bytes(json.dumps(profiles(), separators=(",", ":")).encode())
    rows = json.loads(run("audit", str(bare), "--isolated", "--format", "json").stdout)["findings"]
    registry = next(row for row in rows if row["code"] == "SEC011")
    text = bare.read_text(encoding="utf-8")
    assert registry["line"] == 1
    assert text.index('{"class":"core:IntegrationProfile","id":"P3"') == registry["column"] - 1


def test_json_and_csv_carry_codes_paths_lines_and_fingerprints(snapshot: Path) -> None:
    rows = json.loads(run("audit", str(snapshot), "--isolated", "--format", "json").stdout)[
        "findings"
    ]
    weak = next(row for row in rows if row["code"] == "SEC006")
    assert weak["path"] == "$.inputAgentSettings.channels[0].signingAlgorithm"
    assert (weak["line"], weak["item"], weak["kind"]) == (2, "channel:20", "weak_as2_algorithm")
    assert len(weak["fingerprint"]) == 16
    table = list(csv.DictReader(io.StringIO(
        run("audit", str(snapshot), "--isolated", "--format", "csv").stdout)))  # fmt: skip
    assert [row["code"] for row in table] == [row["code"] for row in rows]


def test_markdown_escapes_what_it_quotes(tmp_path: Path) -> None:
    hostile = weak_as2() | {"name": "| evil <b>` [x](http://e)"}
    path = estate_of(profile("P1", agent=agent("AS2", channels=[hostile]))).save(
        tmp_path / "h.json"
    )
    out = run("audit", str(path), "--isolated", "--select", "SEC006", "--format", "md").stdout
    assert "<b>" not in out and "\\| evil &lt;b\\>" in out


def test_configuration_is_found_upward_from_the_working_directory(
    snapshot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.iptoolkit.audit]\nignore = ["SEC011"]\nfail-on = "error"\n'
    )
    monkeypatch.chdir(project / "sub")
    result = run("audit", str(snapshot))
    assert result.exit_code == 0, result.output  # SEC011 (the error) ignored, SEC006 a warning
    assert "SEC011" not in result.stdout and "SEC006" in result.stdout


def test_baseline_round_trip(tmp_path: Path) -> None:
    first = estate_of(*profiles()).save(tmp_path / "first.json")
    baseline = tmp_path / "baseline.json"
    wrote = run("audit", str(first), "--isolated", "--write-baseline", str(baseline))
    assert wrote.exit_code == 0 and "Wrote 2 findings" in wrote.stderr
    assert PASSWORD not in baseline.read_text()
    # reordered, and an unrelated field edited: nothing new
    edited = profiles()[::-1]
    edited[0]["description"] = "edited"
    edited[-1]["name"] = "Orders (renamed)"
    edited[-1]["inputAgentSettings"]["channels"][0]["name"] = "AS2 of Acme"  # in the text
    second = estate_of(*edited).save(tmp_path / "second.json")
    result = run("audit", str(second), "--isolated", "--baseline", str(baseline))
    assert result.exit_code == 0, result.output
    assert "Found 0 findings; 2 hidden by the baseline." in result.stdout
    # one risky channel more: exactly one new finding, and exit 1
    riskier = [*edited, profile("P9", agent=agent("FTP", channels=[channel(
        30, "FTP", partner=ACME, host="ftp.acme.test")]), units=[FILE])]  # fmt: skip
    third = estate_of(*riskier).save(tmp_path / "third.json")
    result = run("audit", str(third), "--isolated", "--baseline", str(baseline))
    assert result.exit_code == 1
    [new] = [line for line in result.stdout.splitlines() if ": SEC" in line]
    assert "SEC003" in new and "channel:30" in new
    assert "Found 1 finding (1 warning); 2 hidden by the baseline." in result.stdout


def test_a_file_that_is_not_a_baseline_is_an_error(snapshot: Path) -> None:
    result = run("audit", str(snapshot), "--baseline", str(snapshot))
    assert result.exit_code == 2 and "not a baseline" in result.stderr


def test_findings_stays_an_alias_that_does_not_fail(snapshot: Path) -> None:
    result = run("findings", str(snapshot), "--isolated", "--format", "json", "--kind", "SEC006")
    assert result.exit_code == 0
    assert [row["code"] for row in json.loads(result.stdout)] == ["SEC006"]
    strict = run("findings", str(snapshot), "--isolated", "--fail-on", "warning")
    assert strict.exit_code == 1


def test_python_api_matches_the_command(snapshot: Path) -> None:
    rows = json.loads(run("audit", str(snapshot), "--isolated", "--format", "json").stdout)[
        "findings"
    ]
    assert [row["fingerprint"] for row in rows] == [
        f.fingerprint for f in ipt.audit(ipt.load(snapshot))
    ]


def test_the_readme_workflow_uploads_what_the_audit_writes(tmp_path: Path) -> None:
    """The README's "Audit in CI" workflow: valid YAML, uploads the SARIF file that its
    audit step writes, with the permission upload-sarif needs; the step runs as written."""
    import re
    import shlex

    import yaml

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Audit in CI", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block, "no YAML block under the README's Audit in CI"
    workflow = yaml.safe_load(block.group(1))
    assert workflow["permissions"]["security-events"] == "write"
    steps = workflow["jobs"]["audit"]["steps"]
    [audit_step] = [s for s in steps if s.get("run", "").startswith("iptoolkit audit")]
    [upload] = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload")]
    words = shlex.split(audit_step["run"])
    assert upload["with"]["sarif_file"] == words[words.index("-o") + 1]
    snapshot = estate_of(*profiles()).save(tmp_path / "snapshot.json")
    baseline = tmp_path / "audit-baseline.json"
    run("audit", str(snapshot), "--isolated", "--write-baseline", str(baseline))
    args = [str(snapshot) if w == "snapshot.json" else w for w in words[1:]]
    args = [str(baseline) if w == "audit-baseline.json" else w for w in args]
    args = [str(tmp_path / w) if w == "audit.sarif" else w for w in args]
    result = run(*args, "--isolated")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "audit.sarif").read_text())["version"] == "2.1.0"
