"""The README runs as written: its Python blocks in order, as a reader pastes them into one
notebook, and its shell blocks, in one empty folder, against the reference server its
first block starts (no platform, no network).

A block that cannot run so says why in a comment on the line before it, which this test
reads: `<!-- readme-test: skip, REASON -->` (it needs a real platform, installs packages,
serves until stopped), or `<!-- readme-test: exit 0 or 1, REASON -->` for commands whose
exit code 1 says what they found. Only Python and shell blocks are code a reader runs;
YAML, TOML, INI and JSON blocks are files to copy (`test_cli_audit` reads the audit
workflow's).
"""

from __future__ import annotations

import contextlib
import re
import shlex
from pathlib import Path
from typing import NamedTuple

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
RUN = ("python", "bash")
MARKER = re.compile(r"<!-- readme-test: (skip|exit 0 or 1), (\S.*?) -->")


class Block(NamedTuple):
    language: str
    code: str
    line: int
    """The line of the README its code starts on."""
    marker: str
    """"" (run it and expect 0), "skip" or "exit 0 or 1"."""


def readme_blocks() -> list[Block]:
    """Every fenced block of the README, with the marker on the line before it."""
    lines = README.read_text(encoding="utf-8").splitlines()
    blocks = []
    at = 0
    while at < len(lines):
        fence = re.fullmatch(r"```(\w*)", lines[at])
        if not fence:
            at += 1
            continue
        end = lines.index("```", at + 1)
        marked = MARKER.fullmatch(lines[at - 1]) if at else None
        code = "\n".join(lines[at + 1 : end]) + "\n"
        blocks.append(Block(fence.group(1), code, at + 2, marked.group(1) if marked else ""))
        at = end + 1
    return blocks


def test_every_block_runs_or_says_why_not() -> None:
    """Each marker names a known way and a reason, and stands before code that runs: a
    marker the test cannot read would skip nothing and say nothing."""
    text = README.read_text(encoding="utf-8")
    markers = re.findall(r"<!-- readme-test:.*", text)
    assert markers and all(MARKER.fullmatch(marker) for marker in markers), markers
    blocks = readme_blocks()
    assert len([b for b in blocks if b.marker]) == len(markers), "a marker before no block"
    assert all(b.language in RUN for b in blocks if b.marker)
    assert [b.language for b in blocks if b.language in RUN and not b.marker].count("python") >= 4
    assert any(b.language == "bash" and "archive import" in b.code and not b.marker for b in blocks)


def test_the_readme_runs_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from iptoolkit.cli import main

    pytest.importorskip("duckdb")
    pytest.importorskip("fastapi")
    monkeypatch.chdir(tmp_path)  # it saves and exports files
    for variable in ("IPTOOLKIT_BASE_URL", "IPTOOLKIT_CLIENT_ID", "IPTOOLKIT_CLIENT_SECRET"):
        monkeypatch.delenv(variable, raising=False)
    namespace: dict[str, object] = {}
    ran = {"python": 0, "bash": 0}
    try:
        for block in readme_blocks():
            if block.language not in RUN or block.marker == "skip":
                continue
            where = f"README.md:{block.line}"
            if block.language == "python":
                code = "\n" * (block.line - 1) + block.code  # tracebacks name README lines
                exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our README
            for number, line in enumerate(block.code.splitlines()):
                words = shlex.split(line, comments=True) if block.language == "bash" else []
                if not words:
                    continue
                assert words[0] == "iptoolkit", f"{where}: mark a block of other commands"
                result = CliRunner().invoke(main, words[1:])
                allowed = (0, 1) if block.marker == "exit 0 or 1" else (0,)
                assert result.exit_code in allowed, (block.line + number, line, result.output)
            ran[block.language] += 1
    finally:
        stack = namespace.get("stack")
        if isinstance(stack, contextlib.ExitStack):
            stack.close()  # the tour's server
        import matplotlib.pyplot as plt

        plt.close("all")
    assert ran["python"] >= 4 and ran["bash"] >= 2, ran
    for made in ("snapshot.json", "finance.graphml", "audit.sarif", "october.json"):
        assert (tmp_path / made).is_file(), made
    assert len(list((tmp_path / "snapshots").glob("*.json.gz"))) == 8
    import iptoolkit as ipt

    archive = ipt.Archive(tmp_path / "estate.duckdb")
    assert len(archive) == 8, "the folder's snapshots, each stored once"
    assert str(archive.snapshots.fetched_at.iloc[0]).startswith("2026-10-01")


def test_the_install_lines_install_what_exists() -> None:
    """iptoolkit is installed from a checkout (or the repository's URL), not from PyPI: no
    `pip install iptoolkit` a reader would copy and fail with (or get another package)."""
    text = README.read_text(encoding="utf-8")
    installs = re.findall(r"pip install ([^\n`#]*)", text)
    assert installs
    for words in installs:
        assert words.startswith("-e .") or words.startswith("-e '.[") or "git+https://" in words, (
            words
        )
    install = next(b for b in readme_blocks() if "pip install" in b.code)
    assert "git clone" in install.code.splitlines()[0]


def test_the_readme_names_every_notebook() -> None:
    """The README's "`notebooks/` holds six short notebooks": as many as there are, each
    named."""
    section = README.read_text(encoding="utf-8").split("## Notebooks", 1)[1].split("\n## ", 1)[0]
    said = re.search(r"`notebooks/` holds (\w+) short notebooks", section)
    assert said
    numbered = sorted(p.stem for p in (README.parent / "notebooks").glob("[0-9]*.ipynb"))
    numbers = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    assert numbers.index(said.group(1)) == len(numbered)
    paragraph = section.split("\n\n")[1]
    for stem in [*numbered, "app"]:
        assert f"`{stem}`" in paragraph, stem


NEEDS_A_SERVER = ("fetch", "serve", "demo", "explore")
"""Commands of the README that reach a platform or run a server: tested in test_cli and
(explore) test_app."""


def command_lines() -> list[list[str]]:
    """The README's command-line examples, as argument lists, comments left out."""
    section = README.read_text().split("## The command line", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "the command-line section has no bash block"
    lines = [shlex.split(line, comments=True) for line in block.group(1).splitlines()]
    return [words for words in lines if words]


def test_the_readme_commands_run(tmp_path, monkeypatch):
    """Every command of the README works on the tour's demo estate as written: a filter
    that selects nothing would fail it (exit code 1)."""
    from click.testing import CliRunner

    import iptoolkit as ipt
    from iptoolkit.cli import main

    monkeypatch.chdir(tmp_path)
    estate = ipt.demo_estate(n_profiles=300, seed=0)  # what the tour saves as snapshot.json
    estate.save("snapshot.json")
    estate.save("last-week.json")
    runner = CliRunner()
    ran = 0
    for words in command_lines():
        assert words[0] == "iptoolkit", words
        if words[1] in NEEDS_A_SERVER:
            continue
        result = runner.invoke(main, words[1:])
        assert result.exit_code == 0, (words, result.output)
        ran += 1
    assert ran >= 8
    assert (tmp_path / "topology.svg").exists() and (tmp_path / "docs" / "sftp.png").exists()
