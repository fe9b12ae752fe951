"""`iptoolkit diff OLD NEW`: formats and exit codes (0 same, 1 changed, 2 trouble)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from iptoolkit.cli import main
from tests.factories import ACME, agent, channel, estate_of, profile


def sftp(pid: str, *, active: bool = True, dir: str = "/in") -> dict[str, Any]:
    return profile(
        pid, agent=agent("SFTP", dir=dir, channels=[channel(5, partner=ACME)]), active=active
    )


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory) -> dict[str, Path]:
    """base; notable (a directory moved); breaking (a profile deactivated)."""
    folder = tmp_path_factory.mktemp("diff")
    files = {
        "base": estate_of(sftp("P1"), sftp("P2")),
        "notable": estate_of(sftp("P2"), sftp("P1", dir="/out")),
        "breaking": estate_of(sftp("P1", active=False), sftp("P2")),
    }
    paths = {}
    for name, estate in files.items():
        paths[name] = folder / f"{name}.json"
        estate.save(paths[name])
    return paths


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["diff", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_text_by_default_and_exit_0_without_exit_code(snapshots):
    code, out, _ = run(snapshots["base"], snapshots["notable"])
    assert code == 0
    assert out.splitlines()[0] == "1 profile changed; 1 notable"
    assert '$.inputAgentSettings.dir: "/in" -> "/out"' in out


def test_exit_code_follows_git_diff(snapshots):
    assert run(snapshots["base"], snapshots["base"], "--exit-code")[:2] == (0, "No changes.\n")
    assert run(snapshots["base"], snapshots["notable"], "--exit-code")[0] == 1


@pytest.mark.parametrize(
    ("new", "fail_on", "expected"),
    [
        ("notable", "breaking", 0),
        ("breaking", "breaking", 1),
        ("notable", "notable", 1),
        ("base", "any", 0),
        ("notable", "any", 1),
    ],
)
def test_fail_on_a_severity(snapshots, new, fail_on, expected):
    assert run(snapshots["base"], snapshots[new], "--fail-on", fail_on)[0] == expected


def test_json_format(snapshots):
    code, out, _ = run(snapshots["base"], snapshots["breaking"], "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["summary"]["severity"]["breaking"] == 1
    assert data["changes"][0]["path"] == "$.active"


def test_csv_format(snapshots):
    _, out, _ = run(snapshots["base"], snapshots["breaking"], "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(row["key"], row["path"], row["severity"]) for row in rows] == [
        ("profile:P1", "$.active", "breaking")
    ]


def test_md_format(snapshots):
    _, out, _ = run(snapshots["base"], snapshots["breaking"], "--format", "md")
    assert out.startswith("# Changes") and "## Breaking (1)" in out


def test_trouble_is_one_line_and_exit_2(snapshots, tmp_path):
    code, _, err = run(snapshots["base"], tmp_path / "missing.json")
    assert code == 2 and "does not exist" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    code, out, err = run(snapshots["base"], broken, "--exit-code")
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and len(err.strip().splitlines()) == 1
    assert "broken.json" in err


def test_help_lists_diff():
    result = CliRunner().invoke(main, ["--help"])
    assert "  diff " in result.output


def test_plot_draws_the_changes_beside_the_output(snapshots, tmp_path):
    target = tmp_path / "out" / "changes.svg"
    code, out, err = run(
        snapshots["base"], snapshots["breaking"], "--format", "json", "--plot", target, "-p"
    )
    assert code == 0
    assert json.loads(out)["changes"]  # stdout is still the machine form alone
    assert err.strip() == f"diagram written to {target}"
    svg = target.read_text(encoding="utf-8")
    assert "<svg" in svg[:400] and "Changes:" in svg and "1 breaking" in svg


def test_plot_wants_a_picture_suffix(snapshots, tmp_path):
    code, out, err = run(snapshots["base"], snapshots["notable"], "--plot", tmp_path / "c.md")
    assert code == 2 and out == ""
    assert "--plot c.md: the diagram is written as one of .png, .svg, .pdf" in err
    assert not (tmp_path / "c.md").exists()


def test_html_writes_the_map_of_both_snapshots_beside_the_output(snapshots, tmp_path):
    from .test_offline import payload_of

    target = tmp_path / "changes.html"
    code, out, err = run(snapshots["base"], snapshots["breaking"], "--format", "json",
                         "--html", target)  # fmt: skip
    assert code == 0 and json.loads(out)["changes"]
    assert err.strip() == f"map written to {target}"
    news = [entry for level in payload_of(target)["levels"] for entry in level["changes"]]
    assert any(entry[2] for entry in news)  # the breaking change ringed
    code, out, err = run(snapshots["base"], snapshots["notable"], "--html", tmp_path / "c.htm")
    assert code == 2 and out == "" and "--html c.htm: the file name must end in .html" in err


@pytest.mark.parametrize("option", ["--plot", "--html", "--details-file"])
def test_a_missing_folder_is_refused_unless_mkdirs(snapshots, tmp_path, option):
    """As `plot -o` and `export -o`: a typo in a path scatters no new folders."""
    path = tmp_path / "missing" / ("x.html" if option == "--html" else "x.png")
    if option == "--details-file":
        path = path.with_suffix(".md")
    extra = ["--format", "md"] if option == "--details-file" else []
    args = [snapshots["base"], snapshots["notable"], option, path, *extra]
    code, _, err = run(*args)
    assert code == 2 and "-p/--mkdirs" in err and option in err, err
    assert not path.parent.exists()
    code, _, err = run(*args, "-p")
    assert code == 0, err
    assert path.is_file()


def test_old_newer_than_new_is_a_warning_on_stderr(tmp_path):
    from datetime import UTC, datetime

    from iptoolkit.core.estate import Estate
    from iptoolkit.core.snapshot import SnapshotInfo

    paths = []
    for day in (16, 17):
        info = SnapshotInfo(fetched_at=datetime(2026, 11, day, tzinfo=UTC))
        paths.append(tmp_path / f"{day}.json")
        Estate.from_raw([sftp("P1")], info=info).save(paths[-1])
    code, out, err = run(paths[0], paths[1])
    assert code == 0 and err == ""
    code, out, err = run(paths[1], paths[0])
    assert err.startswith("Warning: the old snapshot was fetched after the new one")
    assert "Note: the old snapshot was fetched after the new one" in out


def test_plot_draws_only_the_changes_unless_all(tmp_path):
    import xml.etree.ElementTree as ET

    many = [sftp(f"P{n}") for n in range(1, 30)]
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    estate_of(*many).save(old)
    estate_of(sftp("P1", dir="/moved"), *many[1:]).save(new)
    counts = {}
    for extra in ((), ("--all",)):
        target = tmp_path / f"c{len(extra)}.svg"
        code, _, _ = run(old, new, "--plot", target, *extra)
        assert code == 0
        texts = [el.text or "" for el in ET.parse(target).iter("{http://www.w3.org/2000/svg}text")]
        counts[extra] = sum(text.startswith("P") or "profile:P" in text for text in texts)
    assert counts[()] < counts[("--all",)]
