"""The README's tour runs as written (on the demo estate, without a platform to connect to)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
NEEDS_A_PLATFORM = ("Client(", "Client.from_env", "fetch_estate", 'ipt.load("snapshot.json")')


def tour_code() -> str:
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert block, "README.md has no python block"
    lines = block.group(1).splitlines()
    return "\n".join(line for line in lines if not any(s in line for s in NEEDS_A_PLATFORM))


def test_the_readme_tour_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # it saves and exports files
    code = tour_code()
    assert "ipt.demo_estate(" in code
    namespace: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our own README
    assert (tmp_path / "snapshot.json").exists()
    assert (tmp_path / "finance.graphml").exists()
    import matplotlib.pyplot as plt

    plt.close("all")


NEEDS_A_SERVER = ("fetch", "serve", "demo", "explore")
"""Commands of the README that reach a platform or run a server: tested in test_cli and
(explore) test_app."""


def command_lines() -> list[list[str]]:
    """The README's command-line examples, as argument lists, comments left out."""
    import shlex

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
