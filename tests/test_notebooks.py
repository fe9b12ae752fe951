"""The notebooks run top to bottom and give the outputs they are committed with (nbval).

nbval runs in a child pytest over a copy of `notebooks/` in a temporary folder: the
notebooks write their diagrams and exports next to themselves, and the repository must
not collect them. Strict mode compares every output except PNG images and the cells
tagged `nbval-ignore-output` (the live Explorer, the real-platform cell); the sanitize file
masks ports and timestamps. The `IPTOOLKIT_*` variables are cleared, so the notebooks stay
on the reference server even where a real platform is configured. A run that holds the
Binder test runs nbval there instead, once (`conftest.pytest_collection_modifyitems`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .ci import import_or_fail

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SANITIZE = NOTEBOOKS / "nbval-sanitize.cfg"
EXPECTED = [
    "01-quickstart", "02-topology", "03-explorer", "04-audit-and-export", "05-changes",
    "06-test-against-production", "07-before-the-outage", "app",
]  # fmt: skip

import_or_fail("nbval")  # a skip elsewhere, a failure under CI=true


def nbval_command(python: str | os.PathLike[str], folder: Path) -> list[str]:
    """The nbval run over `folder` with this repository's sanitize file."""
    return [
        str(python),
        "-m",
        "pytest",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        str(folder / SANITIZE.name),
        "--nbval-cell-timeout",
        "300",
        "-p",
        "no:cacheprovider",
        "-q",
        str(folder),
    ]


def clean_env() -> dict[str, str]:
    """This environment without `IPTOOLKIT_*` and with a fixed, headless matplotlib, and no
    progress bar in a cell's output however slow the machine (a kernel is watched)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("IPTOOLKIT_")}
    env["IPTOOLKIT_PROGRESS_DELAY"] = "86400"
    env.pop("MPLBACKEND", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def copy_notebooks(target: Path) -> Path:
    """`notebooks/` without what running them leaves behind."""
    shutil.copytree(
        NOTEBOOKS, target, ignore=shutil.ignore_patterns("output", ".ipynb_checkpoints")
    )
    return target


def test_notebooks_are_committed_executed_and_clean() -> None:
    """Unexecuted cells are not compared by nbval; outputs must hold no secret or temp path."""
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == EXPECTED
    for path in NOTEBOOKS.glob("*.ipynb"):
        notebook = json.loads(path.read_text())
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code" and cell["source"]:
                assert cell["execution_count"] is not None, f"{path.name}: run it before commit"
                assert not any(o.get("output_type") == "error" for o in cell["outputs"])
        text = json.dumps(notebook)
        for leak in ("/tmp/", "client_secret=", "Bearer ey", "IPTOOLKIT_CLIENT_SECRET="):
            assert leak not in text.replace("IPTOOLKIT_CLIENT_SECRET=...", ""), (path, leak)
        assert "application/vnd.jupyter.widget-state+json" not in text, "no widget state"


def test_notebooks_pass_nbval(tmp_path: Path) -> None:
    folder = copy_notebooks(tmp_path / "notebooks")
    result = subprocess.run(
        nbval_command(sys.executable, folder),
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
