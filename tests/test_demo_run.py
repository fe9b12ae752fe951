"""The main job end to end: server, client, summary, findings and every output file."""

from __future__ import annotations

import json

import iptoolkit as ipt
from iptoolkit.demo_run import run_demo


def test_run_demo_fetches_over_http_and_writes_every_output(tmp_path):
    lines: list[str] = []
    written = run_demo(tmp_path / "out", n_profiles=80, seed=3, echo=lines.append)
    text = "\n".join(lines)

    assert all(path.exists() and path.stat().st_size > 0 for path in written)
    names = {path.name for path in written}
    assert {"estate.json", "topology.png", "summary.png", "topology.svg", "profiles.csv",
            "estate.graphml", "estate.dot", "findings.csv"} <= names  # fmt: skip
    assert any(name.startswith("partner-") and name.endswith(".md") for name in names)

    fetched = ipt.load(tmp_path / "out" / "estate.json")
    assert list(fetched.raw_profiles) == ipt.demo_profiles(80, seed=3)
    assert fetched.info.source_url.startswith("http://127.0.0.1:")
    assert "Fetched 80 profiles from http://127.0.0.1:" in text
    assert "Reference server stopped." in text
    assert "Partner most profiles depend on:" in text
    snapshot_text = (tmp_path / "out" / "estate.json").read_text()
    assert "client_secret" not in snapshot_text and "access_token" not in snapshot_text
    assert json.loads(snapshot_text)["format"] == "iptoolkit.snapshot"
