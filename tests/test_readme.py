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
