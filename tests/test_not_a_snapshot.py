"""Issue 44 (a new user's first steps): a JSON file that is no snapshot and holds no profile
listing (`package.json`) is refused, naming the file; it was read as one faulty profile, and
`diff snapshot.json package.json` reported every profile removed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli.host import main
from iptoolkit.models import ParseError

PACKAGE = {"name": "my-app", "version": "1.0.0", "dependencies": {"react": "^18"}}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "snapshot": tmp_path / "snapshot.json",
        "package": tmp_path / "package.json",
        "objects": tmp_path / "objects.json",
        "faulty": tmp_path / "faulty.json",
        "empty": tmp_path / "empty.json",
    }
    ipt.demo_estate(30, seed=1).save(paths["snapshot"])
    paths["package"].write_text(json.dumps(PACKAGE), encoding="utf-8")
    paths["objects"].write_text('{"items": [{"a": 1}, {"b": 2}]}', encoding="utf-8")
    paths["faulty"].write_text('[{"id": "P1", "active": "maybe"}]', encoding="utf-8")
    paths["empty"].write_text("[]", encoding="utf-8")
    return paths


@pytest.mark.parametrize("name", ["package", "objects"])
def test_a_json_file_without_profiles_is_refused_naming_it(
    files: dict[str, Path], name: str
) -> None:
    with pytest.raises(ParseError, match=rf"{name}\.json: not a snapshot or a profile listing"):
        ipt.load(files[name])
    result = CliRunner().invoke(main, ["diff", str(files["snapshot"]), str(files[name])])
    assert result.exit_code == 2, result.output
    assert f"{name}.json: not a snapshot or a profile listing" in result.stderr
    assert "removed" not in result.stdout
    summary = CliRunner().invoke(main, ["summary", str(files[name])])
    assert summary.exit_code != 0 and "not a snapshot" in summary.stderr


def test_a_listing_of_faulty_profiles_is_still_read_and_reported(files: dict[str, Path]) -> None:
    faulty = ipt.load(files["faulty"])
    assert len(faulty) == 1 and len(faulty.problems) == 1  # reported, not dropped
    assert len(ipt.load(files["empty"])) == 0
    assert len(ipt.load(files["snapshot"])) == 30
