"""Help that tells the truth: each claim of `--help` checked against what the command does.
`findings --fail-on` names its own default (never, whatever the configuration says; audit's
is the configuration's); `watch --exec` splits its command as a shell would but runs no
shell."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main


def _help(*command: str) -> str:
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ipt.demo_estate(40, seed=1).save(tmp_path_factory.mktemp("help") / "estate.json")


@pytest.mark.parametrize(
    ("command", "default", "exit_code"),
    [
        ("audit", "[default: the configuration's fail-on, else warning]", 1),
        ("findings", "[default: never, whatever the configuration says]", 0),
    ],
)
def test_fail_on_says_its_real_default(
    snapshot: Path, tmp_path: Path, command: str, default: str, exit_code: int
) -> None:
    assert default in _help(command)
    config = tmp_path / "iptoolkit.toml"
    config.write_text('[audit]\nfail-on = "info"\n', encoding="utf-8")
    result = CliRunner().invoke(main, [command, str(snapshot), "--config", str(config)])
    assert result.stdout.strip(), "the demo estate has findings"
    assert result.exit_code == exit_code, result.output


def test_watch_exec_is_split_as_a_shell_would_but_not_run_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("duckdb")
    from iptoolkit.archive.notify import run_command

    assert "split into words as a shell would (quotes kept together) but not run by one" in (
        _help("watch")
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IPT_WORD", "expanded")
    delivery = run_command('tee "two words" $IPT_WORD > out', "the changelog")
    assert delivery.ok, delivery
    # a shell would have expanded $IPT_WORD and redirected into out: tee got them as words
    assert sorted(os.listdir(tmp_path)) == sorted(["two words", "$IPT_WORD", ">", "out"])
    assert (tmp_path / "two words").read_text() == "the changelog"


def test_watch_exec_that_a_shell_could_not_split_is_refused_before_anything(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "estate.duckdb"
    args = ["watch", "--archive", str(archive), "--once", "--base-url", "http://127.0.0.1:9"]
    for command, words in (('tee "open', "No closing quotation"), ("  ", "an empty command")):
        result = CliRunner().invoke(main, [*args, "--exec", command])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("Error: Invalid value for '--exec'")
        assert words in result.stderr and result.stderr.count("\n") == 1
    assert not archive.exists()
