"""The archive opens in the oldest DuckDB that pyproject.toml allows, not only in ours.

DuckDB 2 writes a storage format no DuckDB 1.x reads unless told otherwise; the archive
asks for the format of the oldest version allowed (`opening.STORAGE_VERSION`). The proof
is that version itself: a venv of its own with `duckdb==1.4.*` (the lowest `duckdb>=` of
pyproject.toml) from the package registry
(made once per test session; the test skips, saying why, only when pip cannot reach the
registry) reads every view of archives written here, and answers as DuckDB here does.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.snapshot import SnapshotInfo

pytest.importorskip("duckdb")
import duckdb  # noqa: E402

from iptoolkit.archive import Archive  # noqa: E402
from iptoolkit.archive.opening import STORAGE_VERSION  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
START = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)
QUERIES = {
    "snapshots": "SELECT snapshot_id, seq, profiles, channels, partners FROM snapshots",
    "profiles": "SELECT snapshot_id, position, key, node, faulty, json FROM profiles",
    "channels": "SELECT snapshot_id, key, name, type, partner, json FROM channels",
    "partners": "SELECT snapshot_id, key, name, channels FROM partners",
    "links": "SELECT snapshot_id, profile, role, path, channel FROM links",
    "changes": "SELECT snapshot_id, number, kind, key, op, severity, path FROM changes",
}
"""A question per view, in columns every DuckDB prints alike (no time zones)."""
_OFFLINE = re.compile(
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name "
    r"resolution|Name or service not known|Network is unreachable|ConnectionError|"
    r"No matching distribution found|Could not find a version that satisfies",
    re.I,
)


def oldest_duckdb() -> str:
    """The lowest DuckDB version pyproject.toml allows (`duckdb>=1.4` -> `1.4`)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    found = {
        match.group(1)
        for requirements in extras.values()
        for requirement in requirements
        if (match := re.fullmatch(r"duckdb\s*>=\s*([\d.]+)(?:\s*,.*)?", requirement))
    }
    assert len(found) == 1, found
    return found.pop()


def test_the_storage_version_is_the_oldest_duckdb_allowed() -> None:
    """Raising `duckdb>=` in pyproject.toml and the format the archive writes go together."""
    oldest = oldest_duckdb()
    assert STORAGE_VERSION == f"v{oldest}.0" if oldest.count(".") == 1 else f"v{oldest}"


@pytest.fixture(scope="session")
def old_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a venv holding the oldest DuckDB allowed, made once per session."""
    venv = tmp_path_factory.mktemp("duckdb-oldest") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    wanted = f"duckdb=={oldest_duckdb()}.*"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
    run = subprocess.run(
        [*pip, "--disable-pip-version-check", "--no-input", "--timeout", "30", wanted],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if run.returncode != 0:
        said = " ".join(run.stderr.split())[-400:]
        if _OFFLINE.search(run.stderr):
            pytest.skip(f"pip cannot reach the package registry for {wanted}: {said}")
        pytest.fail(f"pip install {wanted} failed: {said}")
    return python


def _answers_here(path: Path) -> dict[str, Any]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            view: [list(row) for row in con.execute(f"{query} ORDER BY ALL").fetchall()]
            for view, query in QUERIES.items()
        }
    finally:
        con.close()


def _answers_there(python: Path, path: Path) -> dict[str, Any]:
    code = (
        "import json, sys, duckdb\n"
        "queries = json.loads(sys.argv[2])\n"
        "con = duckdb.connect(sys.argv[1], read_only=True)\n"
        "answers = {v: [list(r) for r in con.execute(q + ' ORDER BY ALL').fetchall()]\n"
        "           for v, q in queries.items()}\n"
        "print(json.dumps({'version': duckdb.__version__, 'answers': answers}))\n"
    )
    run = subprocess.run(
        [str(python), "-c", code, str(path), json.dumps(QUERIES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    said: dict[str, Any] = json.loads(run.stdout)
    assert said["version"].startswith(oldest_duckdb() + "."), said["version"]
    answers = said["answers"]
    assert isinstance(answers, dict), answers
    return answers


def _week(base: ipt.Estate, day: int) -> ipt.Estate:
    info = SnapshotInfo(source_url="demo", fetched_at=START + timedelta(days=day))
    return ipt.Estate.from_raw(list(base.raw_profiles), info=info)


def test_the_oldest_duckdb_allowed_reads_every_view(old_duckdb: Path, tmp_path: Path) -> None:
    first = ipt.demo_estate(40, seed=6)
    second = ipt.demo_changes(first, seed=1)
    third = ipt.demo_changes(second, seed=2)
    made = Archive(tmp_path / "new.duckdb")  # made here, a snapshot added in the middle
    for estate, day in ((first, 0), (third, 14), (second, 7)):
        made.add(_week(estate, day))
    made.compact()
    made.add(_week(ipt.demo_changes(third, seed=3), 21))  # written again after compacting
    # an archive an earlier iptoolkit made in DuckDB 2's own format: compacting rewrites it
    before = tmp_path / "before.duckdb"
    duckdb.connect(str(before)).close()
    for estate, day in ((first, 0), (second, 7)):
        Archive(before).add(_week(estate, day))
    Archive(before).compact()
    for path in (made.path, before):
        answers = _answers_there(old_duckdb, path)
        assert answers == json.loads(json.dumps(_answers_here(path))), path
        assert all(answers[view] for view in QUERIES), path
