"""The repository stands on its own: no file points to documents outside it.

The project started from design notes and an API specification kept in a `shared` folder
beside the checkout; a user of the repository has neither. What is still true of them
lives in `docs/` and `tests/fixtures/` now.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(
    rb"\.\./" + rb"shared\b" + rb"|/work/" + rb"shared\b" + rb'|parents\[\d\] / "' + rb'shared"'
)
"""A path to the old shared folder, written or joined (in pieces, so this file does not
match itself)."""


def tracked_files() -> list[Path]:
    """The files git tracks in this checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing tells which files are the repository's")
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_no_tracked_file_references_the_shared_folder_outside_the_repository() -> None:
    files = tracked_files()
    assert len(files) > 50  # the listing worked: the package, tests, docs, notebooks
    offenders = []
    for path in files:
        if not path.is_file():  # deleted in the work tree, not yet committed
            continue
        for number, line in enumerate(path.read_bytes().splitlines(), start=1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert not offenders, "files pointing outside the repository: " + ", ".join(offenders)


def test_the_pattern_catches_the_references_it_is_for() -> None:
    for text in [
        b"see ../" + b"shared" + b"/DESIGN.md",
        b'"/work/' + b"shared" + b'/spec/x.md"',
        b'Path(__file__).parents[2] / "' + b'shared" / "spec"',
    ]:
        assert OUTSIDE.search(text), text
    assert not OUTSIDE.search(b"tests/test_filters.py: shared by later filters")
