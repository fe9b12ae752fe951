"""The guard rails of a commit (.pre-commit-config.yaml): ruff, ruff format and mypy as
local hooks on the project's venv, and the commit-msg hook (.ci/commit_msg.py) that refuses
a subject of 72 characters or more and a body with no blank line before it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .ci import import_or_fail

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".pre-commit-config.yaml"
SCRIPT = ROOT / ".ci" / "commit_msg.py"


def _check(message: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "message",
    [
        "a" * 71 + "\n",
        "mcp --http: print the address once the port listens\n\nWhy, at length.\nMore.\n",
        # git's comments and what `git commit -v` shows below the scissors are not the message
        "# a comment line longer than seventy-two characters, as git's own are, is left out\n"
        "short subject\n\nbody\n"
        "# ------------------------ >8 ------------------------\n" + "x" * 100 + "\n",
        "",
    ],
)
def test_a_good_message_passes(message: str, tmp_path: Path) -> None:
    result = _check(message, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        ("a" * 72 + "\n", "the subject is 72 characters"),
        ("a" * 120 + "\n\nbody\n", "the subject is 120 characters"),
        ("subject\nbody straight after\n", "a blank line must part the subject from the body"),
    ],
)
def test_a_long_subject_or_a_missing_blank_line_is_refused(
    message: str, complaint: str, tmp_path: Path
) -> None:
    result = _check(message, tmp_path)
    assert result.returncode == 1
    assert complaint in result.stderr


def _hooks() -> dict[str, dict[str, object]]:
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]  # nothing fetched
    return {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}


def test_the_hooks_run_lint_and_the_message_check_from_the_venv() -> None:
    hooks = _hooks()
    assert set(hooks) == {"ruff-check", "ruff-format", "mypy", "commit-subject"}
    assert all(hook["language"] == "system" for hook in hooks.values())
    entries = {name: str(hook["entry"]).split() for name, hook in hooks.items()}
    assert entries["ruff-check"][:2] == [".venv/bin/ruff", "check"]
    assert entries["ruff-format"][:2] == [".venv/bin/ruff", "format"]
    assert entries["mypy"] == [".venv/bin/mypy"] and hooks["mypy"]["pass_filenames"] is False
    assert entries["commit-subject"] == [".venv/bin/python", ".ci/commit_msg.py"]
    assert hooks["commit-subject"]["stages"] == ["commit-msg"]
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert set(config["default_install_hook_types"]) == {"pre-commit", "commit-msg"}


def test_pre_commit_accepts_the_config_and_refuses_a_broken_one(tmp_path: Path) -> None:
    import_or_fail("pre_commit")

    def validate(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "validate-config", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )

    result = validate(CONFIG)
    assert result.returncode == 0, result.stdout + result.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        CONFIG.read_text(encoding="utf-8").replace("language: system", "language: no-such"),
        encoding="utf-8",
    )
    assert validate(broken).returncode != 0
