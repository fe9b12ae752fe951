"""The main job end to end: server, client, summary, findings, every output file, and the
same estate a week later, served and fetched again, and what changed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.demo.run import run_demo
from iptoolkit.support.names import type_label

from .test_offline import payload_of


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, list[Path], str]:
    """One run of the demo (about ten seconds): its folder, the files written, what it said."""
    out = tmp_path_factory.mktemp("demo") / "out"
    lines: list[str] = []
    written = run_demo(out, n_profiles=80, seed=3, echo=lines.append)
    return out, written, "\n".join(lines)


def test_run_demo_fetches_over_http_and_writes_every_output(demo):
    out, written, text = demo

    assert all(path.exists() and path.stat().st_size > 0 for path in written)
    names = {path.name for path in written}
    assert {"estate.json", "topology.png", "summary.png", "topology.svg", "profiles.csv",
            "estate.graphml", "estate.dot", "findings.csv", "estate-next-week.json",
            "changes.md", "changes.png", "changes.html"} <= names  # fmt: skip
    assert any(name.startswith("partner-") and name.endswith(".md") for name in names)

    fetched = ipt.load(out / "estate.json")
    assert list(fetched.raw_profiles) == ipt.demo_profiles(80, seed=3)
    assert str(fetched.info.source_url).startswith("http://127.0.0.1:")
    assert "Fetched 80 profiles from http://127.0.0.1:" in text
    assert "Reference server stopped." in text
    assert "Partner most profiles depend on:" in text
    # agent types as `iptoolkit summary` says them: the label people read, then the name
    for name in fetched.summary()["agent_types"]:
        assert re.search(rf"^  {re.escape(type_label(name))} \({name}\) +\d+$", text, re.M), name
    # findings by rule code, as `iptoolkit audit --statistics` prints them; no kind names
    found = ipt.findings(fetched)
    codes = {f.code for f in found}
    assert codes and all(f.code for f in found)
    counted = re.findall(r"^\s+([\d,]+)  ([A-Z]{3}\d{3})\s+\[(\w+)\] \S", text, re.MULTILINE)
    assert {code for _, code, _ in counted} == codes
    assert sum(int(n.replace(",", "")) for n, _, _ in counted) == len(found)
    assert not any(f"  {f.kind} " in text for f in found), "old kind names printed"
    snapshot_text = (out / "estate.json").read_text()
    assert "client_secret" not in snapshot_text and "access_token" not in snapshot_text
    assert json.loads(snapshot_text)["format"] == "iptoolkit.snapshot"


def test_run_demo_serves_the_estate_a_week_later_fetches_it_again_and_diffs(demo):
    out, _, text = demo

    fetched, later = ipt.load(out / "estate.json"), ipt.load(out / "estate-next-week.json")
    # the second server served the week of changes, and the estate came over HTTP again
    assert list(later.raw_profiles) == list(ipt.demo_changes(fetched, seed=3).raw_profiles)
    assert str(later.info.source_url).startswith("http://127.0.0.1:")
    then, now = fetched.info.fetched_at, later.info.fetched_at
    assert then is not None and now is not None and now > then
    assert text.count("Reference server stopped.") == 2

    changes = ipt.diff(fetched, later)
    assert changes.of(severity="breaking")
    assert f"Changes: {changes.summary()}" in text
    assert "  breaking: " in text
    assert (out / "changes.md").read_text() == changes.to_markdown()
    assert (out / "changes.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    marked = payload_of(out / "changes.html")["levels"][0]["changes"]  # the overview's news
    assert marked and all(entry[1] < 3 or entry[2] for entry in marked)
