"""What a command writes is checked before it works (`cli/outputs.py`): no output onto one
of its inputs (or onto another output), under any spelling; `-p` leaves no folder behind
when nothing was written; `audit` takes `-p` as the other commands do; `watch` checks its
archive's folder and `--every` before it fetches."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two snapshots, a filter, a configuration, a baseline and a mapping, each an input
    some command reads; a link to the snapshot, and the snapshot spelled another way."""
    folder = tmp_path_factory.mktemp("guard")
    snap = ipt.demo_estate(20, seed=1).save(folder / "snap.json")
    other = ipt.demo_estate(20, seed=2).save(folder / "other.json")
    (folder / "filter.json").write_text('{"groups": ["Finance"]}', encoding="utf-8")
    (folder / "iptoolkit.toml").write_text('[audit]\nfail-on = "never"\n', encoding="utf-8")
    (folder / "baseline.json").write_text("[]", encoding="utf-8")
    (folder / "mapping.toml").write_text("# reviewed by hand\n", encoding="utf-8")
    (folder / "link.json").symlink_to(snap)
    (folder / "sub").mkdir()
    return {
        "folder": folder,
        "snap": snap,
        "other": other,
        "filter": folder / "filter.json",
        "config": folder / "iptoolkit.toml",
        "baseline": folder / "baseline.json",
        "mapping": folder / "mapping.toml",
        "link": folder / "link.json",
        "dotted": folder / "sub" / ".." / "snap.json",
    }


def _digests(folder: Path) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in folder.iterdir()
        if path.is_file()
    }


OVERWRITES: dict[str, tuple[list[str], str, str]] = {
    # case: (arguments, the option refused, what it would overwrite)
    "export -o SNAPSHOT": (
        ["export", "{snap}", "-o", "{snap}", "--group", "Finance"], "--output", "SNAPSHOT"
    ),
    "export -o SNAPSHOT spelled d/../": (
        ["export", "{snap}", "-o", "{dotted}"], "--output", "SNAPSHOT"
    ),
    "export -o a link to SNAPSHOT": (["export", "{snap}", "-o", "{link}"], "--output", "SNAPSHOT"),
    "export -o --filter-file": (
        ["export", "{snap}", "-o", "{filter}", "--filter-file", "{filter}"],
        "--output",
        "--filter-file",
    ),
    "findings -o SNAPSHOT": (["findings", "{snap}", "-o", "{link}"], "--output", "SNAPSHOT"),
    "audit -o SNAPSHOT": (["audit", "{snap}", "-o", "{snap}"], "--output", "SNAPSHOT"),
    "audit --details-file SNAPSHOT": (
        ["audit", "{snap}", "--format", "md", "--details-file", "{snap}"],
        "--details-file",
        "SNAPSHOT",
    ),
    "audit --write-baseline SNAPSHOT": (
        ["audit", "{snap}", "--write-baseline", "{snap}"], "--write-baseline", "SNAPSHOT"
    ),
    "audit -o --config": (
        ["audit", "{snap}", "-o", "{config}", "--config", "{config}"], "--output", "--config"
    ),
    "audit -o the configuration found": (
        ["audit", "{snap}", "-o", "iptoolkit.toml"], "--output", "the configuration found"
    ),
    "audit -o --baseline": (
        ["audit", "{snap}", "-o", "{baseline}", "--baseline", "{baseline}"],
        "--output",
        "--baseline",
    ),
    "audit --details-file onto -o": (
        ["audit", "{snap}", "--format", "md", "--details-file", "r.md", "-o", "r.md"],
        "--details-file",
        "the file of --output",
    ),
    "diff --details-file OLD": (
        ["diff", "{snap}", "{other}", "--format", "md", "--details-file", "{snap}"],
        "--details-file",
        "OLD",
    ),
    "diff --details-file NEW": (
        ["diff", "{snap}", "{other}", "--format", "md", "--details-file", "{other}"],
        "--details-file",
        "NEW",
    ),
    "compare --details-file B": (
        ["compare", "{snap}", "{other}", "--format", "md", "--details-file", "{other}"],
        "--details-file",
        "B",
    ),
    "compare --write-mapping --mapping": (
        ["compare", "{snap}", "{other}", "--mapping", "{mapping}", "--write-mapping", "{mapping}"],
        "--write-mapping",
        "--mapping",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(OVERWRITES))
def test_an_output_onto_an_input_is_refused_before_any_work(
    files: dict[str, Path], case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args, option, name = OVERWRITES[case]
    monkeypatch.chdir(files["folder"])
    before = _digests(files["folder"])
    result = CliRunner().invoke(main, [arg.format(**files) for arg in args])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and result.stdout == "", result.output
    assert f"Invalid value for {option}: " in result.stderr
    assert f" is also {name}" in result.stderr, result.stderr
    assert _digests(files["folder"]) == before  # nothing written, nothing made


def test_a_baseline_may_be_renewed_in_place(files: dict[str, Path], tmp_path: Path) -> None:
    """--write-baseline does not read --baseline: naming the same file renews it."""
    baseline = tmp_path / "baseline.json"
    baseline.write_text("[]", encoding="utf-8")
    args = ["audit", str(files["snap"]), "--isolated", "--baseline", str(baseline)]
    result = CliRunner().invoke(main, [*args, "--write-baseline", str(baseline)])
    assert result.exit_code == 0, result.output
    assert baseline.read_text(encoding="utf-8") != "[]"


def test_a_device_is_no_file_to_lose(files: dict[str, Path]) -> None:
    """Two outputs into /dev/null discard both: nothing is overwritten."""
    args = ["audit", str(files["snap"]), "--isolated", "--format", "md", "-o", os.devnull]
    result = CliRunner().invoke(main, [*args, "--details-file", os.devnull])
    assert result.exit_code in (0, 1), result.output  # 1: findings
    assert f"whole report written to {os.devnull}" in result.stderr


def test_the_archive_of_a_reference_is_an_input(files: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    from iptoolkit.archive import Archive

    archive = Archive(tmp_path / "estate.duckdb")
    archive.add(files["snap"])
    before = archive.path.read_bytes()
    at = f"{archive.path}@1"
    args = ["compare", at, str(files["other"]), "--format", "md", "--details-file"]
    result = CliRunner().invoke(main, [*args, str(archive.path)])
    assert result.exit_code == 2, result.output
    assert f"{archive.path} is also A, which the command reads" in result.stderr
    assert archive.path.read_bytes() == before
    fetch = ["fetch", "-o", str(archive.path), "--archive", str(archive.path), "--base-url"]
    result = CliRunner().invoke(main, [*fetch, "http://127.0.0.1:9"])  # nothing is asked
    assert result.exit_code == 2 and "is also the file of --output" in result.stderr
    assert archive.path.read_bytes() == before


@pytest.mark.parametrize(
    ("option", "extra"),
    [("-o", []), ("--write-baseline", []), ("--details-file", ["--format", "md"])],
)
def test_audit_writes_into_a_missing_folder_only_with_p(
    files: dict[str, Path], tmp_path: Path, option: str, extra: list[str]
) -> None:
    target = tmp_path / "new" / "deeper" / "out.txt"
    args = ["audit", str(files["snap"]), "--isolated", *extra, option, str(target)]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and "does not exist (-p/--mkdirs creates it)" in refused.stderr
    assert not (tmp_path / "new").exists()
    for flag in ("-p", "--mkdirs"):
        result = CliRunner().invoke(main, [*args, flag])
        assert result.exit_code in (0, 1), result.output  # 1: findings
        assert target.stat().st_size > 0
        target.unlink()


BROKEN_INPUTS = {
    "export": (["export", "{bogus}", "-o", "{target}.csv"], 1),
    "plot": (["plot", "{bogus}", "-o", "{target}.svg"], 1),
    "audit": (["audit", "{bogus}", "-o", "{target}.txt"], 2),
    "diff": (["diff", "{bogus}", "{snap}", "--format", "md", "--details-file", "{target}.md"], 2),
    "compare": (["compare", "{bogus}", "{snap}", "--write-mapping", "{target}.toml"], 2),
}


@pytest.mark.parametrize("command", list(BROKEN_INPUTS))
def test_p_leaves_no_folder_when_nothing_was_written(
    files: dict[str, Path], tmp_path: Path, command: str
) -> None:
    bogus = tmp_path / "bogus.json"
    bogus.write_text("{}", encoding="utf-8")  # no profiles in it: it cannot be read
    (tmp_path / "kept").mkdir()
    target = tmp_path / "kept" / "new" / "deeper" / "out"
    args, code = BROKEN_INPUTS[command]
    named = {"bogus": bogus, "snap": files["snap"], "target": target}
    result = CliRunner().invoke(main, [*(arg.format(**named) for arg in args), "-p"])
    assert result.exit_code == code, result.output
    assert "bogus.json" in result.stderr
    assert not (tmp_path / "kept" / "new").exists()  # made by -p, then removed: empty
    assert (tmp_path / "kept").is_dir()  # a folder that was there stays


class _Fetched(BaseException):
    """A fetch that must not happen: a BaseException, so that neither the watch's retries
    nor `--every`'s rounds take it for a failed fetch and go on."""


class _NoFetch:
    """Stands for `iptoolkit.client.Client` where no fetch may happen."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise _Fetched("fetched before the options were checked")


def _watch(archive: Path, *more: str) -> list[str]:
    return ["watch", "--archive", str(archive), "--base-url", "http://127.0.0.1:9", *more]


@pytest.fixture
def no_fetch(monkeypatch: pytest.MonkeyPatch, no_waits: list[float]) -> None:
    pytest.importorskip("duckdb")
    import iptoolkit.client

    monkeypatch.setattr(iptoolkit.client, "Client", _NoFetch)
    monkeypatch.setenv("IPTOOLKIT_BEARER_TOKEN", "token")


@pytest.mark.usefixtures("no_fetch")
def test_watch_checks_the_archive_folder_before_it_fetches(tmp_path: Path) -> None:
    archive = tmp_path / "missing" / "w.duckdb"
    for when in ("--once", "--every"):
        args = _watch(archive, when, *(["1h"] if when == "--every" else []))
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert "Invalid value for --archive: folder " in result.stderr
        assert "does not exist (-p/--mkdirs creates it)" in result.stderr
        assert not archive.parent.exists()


@pytest.mark.usefixtures("no_waits")
def test_watch_p_makes_the_folder_and_a_failed_fetch_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("duckdb")
    import iptoolkit.client

    class Unreachable:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise ConnectionError("unreachable")

    monkeypatch.setattr(iptoolkit.client, "Client", Unreachable)
    monkeypatch.setenv("IPTOOLKIT_BEARER_TOKEN", "token")
    archive = tmp_path / "made" / "w.duckdb"
    result = CliRunner().invoke(main, _watch(archive, "--once", "-p"))
    assert result.exit_code == 2, result.output
    assert "the fetch failed 3 times" in result.stderr
    assert not archive.parent.exists()


@pytest.mark.usefixtures("no_fetch")
@pytest.mark.parametrize("every", ["0.5s", "0", "0.99", "8d", "604801", "1e9", "9" * 40 + "d"])
def test_every_out_of_range_is_refused_before_anything(tmp_path: Path, every: str) -> None:
    archive = tmp_path / "w.duckdb"
    result = CliRunner().invoke(main, _watch(archive, "--every", every))
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert f"--every {every!r}: write a duration from 1s to 7d" in result.stderr
    assert not os.listdir(tmp_path)


def test_every_accepts_its_range_and_help_states_it() -> None:
    pytest.importorskip("duckdb")
    from iptoolkit.archive.watch import EVERY_RANGE, parse_every

    assert (parse_every("1s"), parse_every("1"), parse_every("7d")) == (1.0, 1.0, 604800.0)
    assert (parse_every("10080m"), parse_every("168h")) == (EVERY_RANGE[1],) * 2
    assert EVERY_RANGE == (1.0, 7 * 86400.0)
    result = CliRunner().invoke(main, ["watch", "--help"])
    assert "from 1s to 7d" in " ".join(result.output.split())
