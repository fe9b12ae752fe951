"""The Markdown of `compare`, `diff` and `audit` fits a GitHub comment (65,536 characters)
for the 2,000-profile demo estate and its test installation, run through the command line,
and still names every difference, change or finding by count: those shown plus those the
note says it left out are all of them; `--details-file` holds the whole report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main

from .report_estates import report_files

GITHUB_LIMIT = 65_536
LEFT_OUT = re.compile(r"^> \*\*Left out to fit a GitHub comment\*\*.*$", re.MULTILINE)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return report_files(tmp_path_factory.mktemp("estates"))


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def left_out(markdown: str) -> str:
    found = LEFT_OUT.findall(markdown)
    assert len(found) == 1, markdown[:3000]
    return str(found[0])


def test_compare_markdown_fits_and_counts_every_difference(
    files: dict[str, Path], tmp_path: Path
) -> None:
    pair = (str(files["prod"]), str(files["test"]))
    markdown = run("compare", *pair, "--format", "md")
    assert len(markdown) < GITHUB_LIMIT
    everything = json.loads(run("compare", *pair, "--format", "json"))
    total = len(everything["differences"])
    shown = len(re.findall(r"^\| (?:breaking|notable|cosmetic) \|", markdown, re.MULTILINE))
    note = left_out(markdown)
    cut = sum(int(n.replace(",", "")) for n in re.findall(r"([\d,]+) \w+ differences?", note))
    assert shown + cut == total and 0 < shown < total
    assert everything["summary"]["text"] in markdown.replace("\\_", "_")
    details = tmp_path / "compare-details.md"
    markdown = run("compare", *pair, "--format", "md", "--details-file", str(details))
    assert str(details) in left_out(markdown)
    whole = details.read_text(encoding="utf-8")
    assert len(whole) > GITHUB_LIMIT and not LEFT_OUT.search(whole)
    assert len(re.findall(r"^\| (?:breaking|notable|cosmetic) \|", whole, re.MULTILINE)) == total


@pytest.mark.parametrize("second", ["week", "test"])
def test_diff_markdown_fits_and_counts_every_change(
    files: dict[str, Path], second: str, tmp_path: Path
) -> None:
    """A week's changes fit as they are; the two installations (no id in common, so every
    item removed and added) are cut, and say by how much."""
    pair = (str(files["prod"]), str(files[second]))
    markdown = run("diff", *pair, "--format", "md")
    assert len(markdown) < GITHUB_LIMIT
    everything = json.loads(run("diff", *pair, "--format", "json"))
    sections = re.findall(r"^## \w+ \(([\d,]+)\)$", markdown, re.MULTILINE)
    assert sum(int(n.replace(",", "")) for n in sections) == len(everything["changes"])
    assert f"**{everything['summary']['text']}**" in markdown
    if second == "week":
        assert not LEFT_OUT.search(markdown)
        return
    note = left_out(markdown)
    cut = int(re.search(r"([\d,]+) changes", note).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert 0 < cut < len(everything["changes"])
    details = tmp_path / "diff-details.md"
    run("diff", *pair, "--format", "md", "--details-file", str(details))
    assert not LEFT_OUT.search(details.read_text(encoding="utf-8"))


@pytest.mark.parametrize("snapshot", ["prod", "test"])
def test_audit_markdown_fits_and_counts_every_finding(
    files: dict[str, Path], snapshot: str
) -> None:
    markdown = run("audit", str(files[snapshot]), "--isolated", "--format", "md")
    assert len(markdown) < GITHUB_LIMIT
    everything = json.loads(run("audit", str(files[snapshot]), "--isolated", "--format", "json"))
    findings = everything["findings"] if isinstance(everything, dict) else everything
    rows = re.findall(r"^\| `(\w+)` \|", markdown, re.MULTILINE)
    note = left_out(markdown)
    by_code = {
        code: int(n.replace(",", "")) for n, code in re.findall(r"([\d,]+) ([A-Z]+\d+)", note)
    }
    for code in {f["code"] for f in findings}:
        assert rows.count(code) + by_code.get(code, 0) == sum(f["code"] == code for f in findings)
    assert f"Found {len(findings):,} findings" in markdown


@pytest.fixture(scope="module")
def compared(files: dict[str, Path]) -> ipt.Comparison:
    return ipt.compare(files["prod"], files["test"])


@pytest.fixture(scope="module")
def diffed(files: dict[str, Path]) -> ipt.EstateDiff:
    return ipt.diff(files["prod"], files["test"])


@pytest.mark.parametrize("limit", [3_000, 10_000, 40_000])
def test_a_cut_report_keeps_the_worst_first_and_stays_within_any_limit(
    compared: ipt.Comparison, diffed: ipt.EstateDiff, limit: int
) -> None:
    result = compared
    markdown = result.to_markdown(limit=limit)
    assert len(markdown) <= limit < len(result.to_markdown())
    severities = re.findall(r"^\| (breaking|notable|cosmetic) \|", markdown, re.MULTILINE)
    breaking = sum(d.severity == "breaking" for d in result.differences)
    assert severities[:breaking] == ["breaking"] * breaking  # every breaking one, first
    changes = diffed.to_markdown(limit=limit)
    assert len(changes) <= limit and "Breaking" in changes


def test_details_file_goes_with_markdown_only(files: dict[str, Path], tmp_path: Path) -> None:
    details = tmp_path / "all.md"
    for args in (
        ["compare", str(files["prod"]), str(files["test"])],
        ["diff", str(files["prod"]), str(files["week"])],
        ["audit", str(files["prod"])],
    ):
        result = CliRunner().invoke(
            main, [*args, "--format", "json", "--details-file", str(details)]
        )
        assert result.exit_code == 2 and "goes with --format md" in result.stderr, result.output
    assert not details.exists()
