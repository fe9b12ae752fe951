"""A team's own rule: a module merely imported (the decorator registers its rules), a
package installed with an `iptoolkit.rules` entry point (a tiny dist-info on sys.path), or a
module the configuration names, is run by the audit and the command; a broken one is an
error naming it."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.auditing import BUILTIN_RULES, AuditConfig, RuleError, all_rules, audit
from iptoolkit.cli import main

from .factories import estate_of, profile

RULES_MODULE = """
from iptoolkit.auditing import rule


@rule("ACME001", "unnamed_profile", "warning",
      title="Profile without a name",
      rationale="People find profiles by name.",
      remedy="Name the profile in the platform.",
      options={"min-length": 1})
def unnamed_profile(ctx):
    least = ctx.option("min-length")
    for record in ctx.records:
        if len(record.name or "") < least:
            yield ctx.finding(f"{record.node} has no name", record, path="$.name")
"""


def install(root: Path, module: str, source: str, entry: str | None) -> None:
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    if entry is not None:
        info = root / f"{module}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[iptoolkit.rules]\n{entry}\n")


@pytest.fixture()
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield tmp_path
    for name in [name for name in sys.modules if name.startswith("acme_")]:
        del sys.modules[name]


ESTATE = estate_of(profile("P1", name="Orders"), profile("P2"))


def test_a_rule_runs_once_its_module_is_imported(on_path: Path) -> None:
    """No list to add a rule to: `@rule` registers it as its module runs, and `ipt.audit`
    runs it from then on, after the built-in rules; the module gone, the rule is too."""
    install(on_path, "acme_own", RULES_MODULE, None)
    before = ipt.audit(ESTATE)
    importlib.import_module("acme_own")
    found = ipt.audit(ESTATE)
    assert [(f.code, f.kind, f.nodes) for f in found if f.code == "ACME001"] == [
        ("ACME001", "unnamed_profile", ("profile:P2",))
    ]
    assert [f for f in found if f.code != "ACME001"] == list(before)
    assert [one.code for one in all_rules()] == [*(one.code for one in BUILTIN_RULES), "ACME001"]
    del sys.modules["acme_own"]
    assert list(ipt.audit(ESTATE)) == list(before)


def test_registered_rules_keep_one_order(on_path: Path) -> None:
    """By code, whatever the order of imports; a module run again replaces its own rules."""
    for module, code in (("acme_zulu", "ACME002"), ("acme_alpha", "ACME001")):
        source = RULES_MODULE.replace("ACME001", code).replace("unnamed_profile", module)
        install(on_path, module, source, None)
        importlib.import_module(module)
    assert [one.code for one in all_rules()][-2:] == ["ACME001", "ACME002"]
    importlib.reload(sys.modules["acme_alpha"])
    codes = [one.code for one in all_rules()]
    assert codes == [*(one.code for one in BUILTIN_RULES), "ACME001", "ACME002"]


def test_a_cell_run_again_with_another_code_replaces_its_rule(on_path: Path) -> None:
    """A notebook cell (a module) run again with the rule's code changed keeps one rule:
    the old code would otherwise share the new one's name, and every audit would fail."""
    install(on_path, "acme_cell", RULES_MODULE, None)
    importlib.import_module("acme_cell")
    (on_path / "acme_cell.py").write_text(RULES_MODULE.replace("ACME001", "ACME009"))
    importlib.invalidate_caches()
    importlib.reload(sys.modules["acme_cell"])
    assert [one.code for one in all_rules()][-1:] == ["ACME009"]
    assert "ACME001" not in {one.code for one in all_rules()}
    assert [f.code for f in ipt.audit(ESTATE) if f.code.startswith("ACME")] == ["ACME009"]


def test_an_entry_point_rule_is_run(on_path: Path, tmp_path: Path) -> None:
    install(on_path, "acme_rules", RULES_MODULE, "acme = acme_rules")
    assert "ACME001" in {one.code for one in all_rules()}
    found = audit(ESTATE, select=["ACME"])
    assert [(f.code, f.kind, f.nodes, f.path) for f in found] == [
        ("ACME001", "unnamed_profile", ("profile:P2",), "$.name")
    ]
    config = AuditConfig(options={"ACME001": {"min-length": 7}})
    assert len(audit(ESTATE, config, select=["ACME001"])) == 2  # "Orders" is short now
    snapshot = ESTATE.save(tmp_path / "s.json")
    result = CliRunner().invoke(main, ["audit", str(snapshot), "--isolated", "--select", "ACME",
                                       "--format", "sarif"])  # fmt: skip
    assert result.exit_code == 1, result.output
    assert '"id": "ACME001"' in result.stdout and '"ruleId": "ACME001"' in result.stdout


def test_a_module_named_in_the_configuration(on_path: Path, tmp_path: Path) -> None:
    install(on_path, "acme_more", RULES_MODULE, None)
    assert "ACME001" not in {one.code for one in all_rules()}
    config = tmp_path / "iptoolkit.toml"
    config.write_text('[audit]\nplugins = ["acme_more"]\nselect = ["ACME001"]\n')
    found = audit(ESTATE, config)
    assert [f.code for f in found] == ["ACME001"]


def test_a_broken_rule_is_named(on_path: Path) -> None:
    install(on_path, "acme_broken", RULES_MODULE.replace("record.name or", "record.nam or"),
            "broken = acme_broken:unnamed_profile")  # fmt: skip
    with pytest.raises(RuleError, match=r"rule ACME001 \(unnamed_profile\) failed: "):
        audit(ESTATE, select=["ACME001"])
    snapshot = ESTATE.save(on_path / "s.json")
    for command, code in (("audit", 2), ("findings", 1)):  # the command's own code
        result = CliRunner().invoke(
            main, [command, str(snapshot), "--isolated", "--select", "ACME001"]
        )
        assert result.exit_code == code, result.output
        assert result.stderr.startswith("Error: rule ACME001 (unnamed_profile) failed: ")
        assert len(result.stderr.splitlines()) == 1


def test_an_entry_point_that_is_not_a_rule_is_an_error(on_path: Path) -> None:
    install(on_path, "acme_wrong", "VALUE = 3\n", "wrong = acme_wrong:VALUE")
    with pytest.raises(ValueError, match="entry point wrong = 'acme_wrong:VALUE'.*not int"):
        all_rules()


PLUGIN_FAULTS = {
    "acme_raises": ('raise RuntimeError("no licence server")\n',
                    "{folder}/iptoolkit.toml:2: plugins: cannot import the rule module "
                    "'acme_raises': RuntimeError: no licence server"),
    "acme_junk": (RULES_MODULE.replace('ctx.finding(f"{record.node} has no name", record, '
                                       'path="$.name")', "record.node").replace(
        "ACME001", "ACME004"), "rule ACME004 (unnamed_profile) failed: TypeError: it yielded "
                               "'profile:P2' (str), not a Finding"),
    "acme_exits": (RULES_MODULE.replace("least = ", "raise SystemExit(3)\n    least = ").replace(
        "ACME001", "ACME005"), "rule ACME005 (unnamed_profile) failed: SystemExit: 3"),
}  # fmt: skip


def test_a_plugin_at_fault_is_one_line_and_exit_2_in_a_real_run(tmp_path: Path) -> None:
    """A plugin module that raises as it is imported, a rule that yields what is no finding,
    a rule that calls sys.exit: each once gave a traceback (or its own exit code) and the
    exit code that means "findings"; now one line naming the file and line or the rule, and
    exit 2, in the command as a user runs it."""
    snapshot = ESTATE.save(tmp_path / "s.json")
    for module, (source, said) in PLUGIN_FAULTS.items():
        folder = tmp_path / module
        folder.mkdir()
        install(folder, module, source, None)
        (folder / "iptoolkit.toml").write_text(f'[audit]\nplugins = ["{module}"]\n')
        ran = subprocess.run(
            [sys.executable, "-m", "iptoolkit.cli", "audit", str(snapshot)],
            capture_output=True, text=True, cwd=folder, timeout=120,
            env={**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])},
        )  # fmt: skip
        assert ran.returncode == 2, (module, ran.stderr)
        said = said.replace("{folder}", str(folder))
        assert ran.stderr.startswith(f"Error: {said}"), (module, ran.stderr)
        assert len(ran.stderr.splitlines()) == 1, ran.stderr
