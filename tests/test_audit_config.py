"""The audit's configuration: select, ignore, severities, thresholds, suppressions with
expiry; where it is found; and a bad file as one error naming its line."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from iptoolkit.auditing import AuditConfig, ConfigError, audit, find_config, load_config
from iptoolkit.auditing.config import parse_config
from iptoolkit.cli import main

from .factories import ACME, agent, channel, estate_of, profile, unit

WEAK = channel(20, "AS2", partner=ACME, signingAlgorithm="SHA1", mdnMode=0,
               partnerAs2Id="ACME", encryptionAlgorithm="AES128")  # fmt: skip
ESTATE = estate_of(
    profile("P1", agent=agent("AS2", channels=[WEAK]), units=[unit("File", fileName="x")]),
    profile("P2", agent=agent("CronSql", cronSchedule=["bad cron"])),
)
TODAY = dt.date(2027, 1, 15)


def configured(text: str, name: str = "iptoolkit.toml") -> AuditConfig:
    return parse_config(text, Path(name))


def codes(config: AuditConfig, **kwargs: Any) -> list[str]:
    return sorted(f.code for f in audit(ESTATE, config, today=TODAY, **kwargs))


def test_the_defaults_run_every_rule() -> None:
    assert codes(AuditConfig()) == ["OPS002", "OPS005", "SEC006", "SEC009"]


def test_select_and_ignore_by_code_prefix_and_name() -> None:
    assert codes(configured('[audit]\nselect = ["SEC"]\n')) == ["SEC006", "SEC009"]
    assert codes(configured('[audit]\nignore = ["SEC009", "invalid_cron"]\n')) == [
        "OPS002",
        "SEC006",
    ]
    # the command line's select replaces the configuration's; its ignore adds to it
    config = configured('[audit]\nselect = ["SEC"]\nignore = ["SEC009"]\n')
    assert codes(config, select=["OPS"], ignore=["OPS002"]) == ["OPS005"]


def test_severity_overrides() -> None:
    config = configured('[audit.severity]\nSEC009 = "info"\nOPS005 = "warning"\n')
    found = {f.code: f.severity for f in audit(ESTATE, config)}
    assert found["SEC009"] == "info" and found["OPS005"] == "warning"
    assert found["SEC006"] == "warning"


def test_thresholds_per_rule() -> None:
    many = estate_of(*(profile(f"P{n}", agent=agent("AS2", channels=[WEAK])) for n in range(3)))
    config = configured("[audit.options.OPS003]\nmax-dependents = 2\n")
    assert {f.item for f in audit(many, config, select=["OPS003"])} == {"channel:20", "partner:1"}
    config = configured("[audit.options.OPS003]\nmax-dependents = 3\n")
    assert audit(many, config, select=["OPS003"]) == []


SUPPRESS = """\
[audit]
select = ["SEC"]

[[audit.suppress]]
code = "SEC006"
item = "channel:20"
reason = "the partner moves to SHA256 in Q1"
expires = {expires}
"""


def test_a_suppression_hides_one_finding_until_it_expires() -> None:
    live = configured(SUPPRESS.format(expires="2027-03-31"))
    found = audit(ESTATE, live, today=TODAY)
    assert [f.code for f in found] == ["SEC009"] and found.suppressed == 1
    expired = configured(SUPPRESS.format(expires="2027-01-01"))
    found = audit(ESTATE, expired, today=TODAY)
    assert sorted(f.code for f in found) == ["CFG001", "SEC006", "SEC009"]
    [note] = found.of(code="CFG001")
    assert "expired on 2027-01-01" in note.text and "iptoolkit.toml:4" in note.text
    assert "moves to SHA256" in note.text


def test_a_suppression_without_expiry_holds() -> None:
    config = configured(SUPPRESS.replace("expires = {expires}\n", ""))
    assert [f.code for f in audit(ESTATE, config, today=dt.date(2100, 1, 1))] == ["SEC009"]


def test_pyproject_holds_it_under_tool_iptoolkit_audit(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.iptoolkit.audit]\nselect = ["SEC009"]\n'
    )
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_config(nested) == tmp_path / "pyproject.toml"
    assert codes(load_config(start=nested)) == ["SEC009"]
    (tmp_path / "a" / "iptoolkit.toml").write_text('[audit]\nselect = ["OPS005"]\n')
    assert find_config(nested) == tmp_path / "a" / "iptoolkit.toml"  # the nearer one wins


def test_no_file_found_is_the_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(tmp_path) is None
    assert load_config(start=tmp_path) == AuditConfig()


BAD = {
    '[audit]\nselect = ["SEC"]\nignor = ["HYG"]\n': ("3", "unknown key 'ignor'", "did you mean"),
    '[audit]\nselect = [\n  "SEC",\n  "SEC999",\n]\n': (
        "4",
        "'SEC999'",
    ),
    '[audit]\n\n[audit.severity]\nSEC006 = "fatal"\n': ("4", "'fatal' is not one of"),
    '[audit]\n\n[audit.severity]\nXYZ001 = "info"\n': ("4", "unknown rule code 'XYZ001'"),
    "[audit.options.OPS003]\nmax-dependants = 3\n": ("2", "no threshold 'max-dependants'"),
    '[audit.options.OPS003]\nmax-dependents = "many"\n': ("2", "must be a whole number"),
    '[audit]\nfail-on = "sometimes"\n': ("2", "fail-on must be one of"),
    '[audit]\n\n[[audit.suppress]]\ncode = "SEC006"\nitem = "channel:1"\n': ("3", "needs reason"),
    '[audit]\n\n[[audit.suppress]]\ncode = "SEC006"\nitem = "c"\nreason = "r"\nexpires = "2"\n': (
        "3",
        "expires must be a date",
    ),
    '[audit]\nselect = ["SEC"\n': ("2", "Unclosed array"),
    '[audit]\nselect = ["SEC"]\nfail-on = \n': ("3", "Invalid value"),
    '[lint]\nselect = ["SEC"]\n': ("1", "unknown table 'lint'"),
}


@pytest.mark.parametrize("text", list(BAD), ids=range(len(BAD)))
def test_a_bad_file_is_one_error_naming_its_line(text: str) -> None:
    with pytest.raises(ConfigError) as caught:
        configured(text)
    message = str(caught.value)
    line, *said = BAD[text]
    assert "\n" not in message
    assert (
        message.startswith("iptoolkit.toml:" + line)
        or f"({line}" in message
        or (f"at {line}" in message)
    ), message
    for words in said:
        assert words in message, message


THRESHOLDS = {
    "OPS003]\nmax-dependents = nan": "OPS003.max-dependents must be a whole number",
    "OPS003]\nmax-dependents = inf": "OPS003.max-dependents must be a whole number",
    "OPS003]\nmax-dependents = 2.5": "OPS003.max-dependents must be a whole number",
    "OPS003]\nmax-dependents = -5": "OPS003.max-dependents must be at least 1, not -5",
    "OPS004]\nmax-same-minute = 0": "OPS004.max-same-minute must be at least 1, not 0",
    "OPS006]\nmax-seconds = -inf": "OPS006.max-seconds must be a whole number",
    "SEC007]\nmin-rsa-bits = -1": "SEC007.min-rsa-bits must be at least 0, not -1",
    "SEC009]\nno-mdn-modes = [0, nan]": "SEC009.no-mdn-modes[1] must be a whole number",
    "SEC009]\nno-mdn-modes = [{a = 1}]": "SEC009.no-mdn-modes[0] must be a whole number",
}


def test_a_threshold_that_is_no_count_is_refused_naming_file_and_line(tmp_path: Path) -> None:
    """Each of these once passed the check and failed inside its rule ("rule OPS003 failed:
    ValueError", no file named) or quietly meant nonsense (a herd of zero): now the command
    stops before auditing, one line naming the file, the line and the threshold, exit 2;
    `ipt.audit` given the same thresholds in Python refuses them too."""
    snapshot = ESTATE.save(tmp_path / "s.json")
    config = tmp_path / "iptoolkit.toml"
    for text, said in THRESHOLDS.items():
        config.write_text(f"[audit]\n\n[audit.options.{text}\n")  # the threshold on line 4
        result = CliRunner().invoke(main, ["audit", str(snapshot), "--config", str(config)])
        assert result.exit_code == 2, (text, result.output)
        assert result.stderr == f"Error: {config}:4: {said}" + result.stderr.split(said)[1], text
        assert len(result.stderr.splitlines()) == 1, result.stderr
        code, setting = text.split("]\n")
        options = {code: tomllib.loads(setting)}
        with pytest.raises(ConfigError, match=re.escape(said)):
            audit(ESTATE, AuditConfig(options=options))
    config.write_text("[audit.options.OPS004]\nmax-same-minute = 1\n")  # the least allowed
    assert configured(config.read_text()).options == {"OPS004": {"max-same-minute": 1}}


def test_the_documented_example_is_a_valid_configuration() -> None:
    from iptoolkit.auditing.config import EXAMPLE

    without_plugin = "".join(
        line for line in EXAMPLE.splitlines(keepends=True) if not line.startswith("plugins")
    )  # acme_rules is the example's own module, not one installed
    config = configured(without_plugin, "pyproject.toml")
    assert config.fail_on == "warning"
    assert [one.code for one in config.suppress] == ["SEC006"]


def test_audit_takes_one_selector_as_a_str_and_refuses_one_that_names_no_rule() -> None:
    """`ignore="SEC001"` was read letter by letter (S, E, C, 0, 1: every SEC and CFG rule
    ignored), and a typo in `select` or `ignore` gave a clean audit; the command line and
    the configuration file refuse the typo, naming the close matches."""
    estate = estate_of(
        profile("P1", agent=agent("SFTP", channels=[channel(5, "FTP", partner=ACME)])),
    )
    everything = audit(estate)
    codes = {f.code for f in everything}
    assert any(code.startswith("SEC") for code in codes), codes
    ignored = audit(estate, ignore="SEC001")
    assert {f.code for f in ignored} == codes - {"SEC001"}
    assert audit(estate, select="SEC") == audit(estate, select=["SEC"])
    with pytest.raises(ValueError, match="select: no rule code, prefix or name 'SCE'"):
        audit(estate, select=["SCE"])
    with pytest.raises(ValueError, match="did you mean 'weak_as2_algorithm'"):
        audit(estate, ignore=["weak_as2"])
    with pytest.raises(TypeError, match="select takes rule codes.*not int: 1"):
        audit(estate, select=[1])  # type: ignore[list-item]
