"""The Binder setup works: install from `binder/` into a fresh venv, run the notebooks there.

repo2docker needs Docker, which these machines lack, so this does by hand what it does:
a new virtual environment, `pip install -r binder/requirements.txt`, then `binder/postBuild`
run from the repository root with that environment first on PATH; then nbval (installed on
top, as a test tool) runs every notebook in it. Slow (a few minutes: packages are
downloaded, or taken from pip's cache), hence `slow`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .test_notebooks import clean_env, copy_notebooks, nbval_command

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"


def _run(command: list[str], *, cwd: Path, env: dict[str, str], timeout: float) -> None:
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, (
        f"{' '.join(command)} failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    )


def test_binder_files_are_what_repo2docker_reads() -> None:
    assert (BINDER / "requirements.txt").is_file()
    assert (BINDER / "apt.txt").read_text().split() == ["graphviz"]
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK), "postBuild must be executable"
    assert post_build.read_text().startswith("#!/usr/bin/env bash")
    assert (BINDER / "runtime.txt").read_text().strip().startswith("python-3.")
    assert "urlpath=lab/tree/notebooks/01-quickstart.ipynb" in (BINDER / "README.md").read_text()
    assert "'.[server,app,archive]'" in post_build.read_text(), "Voila and the archive on Binder"
    readme = (ROOT / "README.md").read_text()
    assert "urlpath=voila/render/notebooks/app.ipynb" in readme, "the app's Binder badge"
    assert (ROOT / "notebooks" / "app.ipynb").is_file()


def test_binder_environment_runs_the_notebooks(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / "bin"
    python = bin_dir / "python"
    env = clean_env()
    env.pop("PYTHONHOME", None)
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_COMPILE"] = "0"  # no .pyc written ahead: each import compiles what it reads,
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # once (every kernel compiled it all: 5 s each)
    pip = [str(python), "-m", "pip", "install", "--quiet"]

    _run([*pip, "-r", str(BINDER / "requirements.txt")], cwd=ROOT, env=env, timeout=1200)
    # postBuild builds the package from the repository root, as repo2docker does; a copy
    # keeps build artefacts out of the working tree
    source = tmp_path / "repo"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "__pycache__", "*.pyc", ".pytest_cache", ".ruff_cache",
            ".hypothesis", "output", "demo-output", "screenshots", ".ipynb_checkpoints",
        ),
    )  # fmt: skip
    _run(["bash", str(source / "binder" / "postBuild")], cwd=source, env=env, timeout=1200)

    overrides = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(overrides.read_text())
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    check = (
        "import iptoolkit, iptoolkit.server, ipykernel, ipywidgets, anywidget, jupyterlab; "
        "import voila, iptoolkit.app; assert iptoolkit.app.NOTEBOOK.is_file(); "
        "print(iptoolkit.__file__)"
    )
    found = subprocess.run(  # from tmp: the repository root would shadow the install
        [str(python), "-c", check],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert found.returncode == 0, found.stderr
    assert str(venv) in found.stdout, "iptoolkit must come from the Binder venv"

    _run([*pip, "nbval", "pytest"], cwd=tmp_path, env=env, timeout=600)
    folder = copy_notebooks(tmp_path / "notebooks")
    _run(nbval_command(python, folder), cwd=tmp_path, env=env, timeout=900)
