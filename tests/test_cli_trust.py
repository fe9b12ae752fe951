"""A command line that docs pipelines can trust: a filter that selects nothing, a folder
that does not exist or a format a diagram cannot be is an error naming what and where."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.cli import main

from .factories import agent, estate_of, known_partner, profile

PARTNER = "Kestrel Chemicals GmbH & Co. KG"  # a partner of the seed-1 demo estate


def _commands(snapshot: Path, tmp_path: Path) -> dict[str, list[str]]:
    """Every command that takes the filter options, ready for more arguments."""
    return {
        "summary": ["summary", str(snapshot)],
        "findings": ["findings", str(snapshot)],
        "plot": ["plot", str(snapshot), "-o", str(tmp_path / "t.svg")],
        "export": ["export", str(snapshot), "-o", str(tmp_path / "t.csv")],
    }


@pytest.mark.parametrize("command", ["summary", "findings", "plot", "export"])
def test_a_filter_that_selects_nothing_is_an_error(runner, snapshot, tmp_path, command):
    args = _commands(snapshot, tmp_path)[command]
    result = runner.invoke(main, [*args, "--partner", "Kestrel Chemicls"])
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert "--partner 'Kestrel Chemicls'" in result.stderr
    assert f"did you mean {PARTNER!r}" in result.stderr
    assert "--allow-empty" in result.stderr
    assert not (tmp_path / "t.svg").exists() and not (tmp_path / "t.csv").exists()
    allowed = runner.invoke(main, [*args, "--partner", "Kestrel Chemicls", "--allow-empty"])
    assert allowed.exit_code == 0, allowed.output
    assert "-> 0 of 60 profiles" in allowed.stderr


def test_each_value_that_matches_nothing_is_named(runner, snapshot, tmp_path):
    args = _commands(snapshot, tmp_path)["summary"]
    result = runner.invoke(main, [*args, "--group", "Finanse", "--agent-type", "SFPT"])
    assert result.exit_code == 1
    assert "--agent-type 'SFPT' (did you mean 'SFTP'" in result.stderr
    assert "--group 'Finanse' (did you mean 'Finance'" in result.stderr
    result = runner.invoke(main, [*args, "--text", "no-such-word-anywhere"])
    assert result.exit_code == 1 and "--text 'no-such-word-anywhere'" in result.stderr


def test_parts_that_match_only_apart_are_said_so(runner, snapshot):
    estate = ipt.load(snapshot)
    groups = sorted({r.group.split("/")[0] for r in estate.records if r.group})
    pairs = [
        (a, b)
        for a in groups
        for b in groups
        if a != b and not estate.subset(ipt.Filter(groups=[a], text=b))
    ]
    group, other = pairs[0]  # a group, and another group's name as text: none has both
    result = runner.invoke(main, ["summary", str(snapshot), "--group", group, "--text", other])
    assert result.exit_code == 1
    assert "each part matches some, together none" in result.stderr


def test_items_are_named_by_node_id_bare_id_or_name(runner, snapshot, tmp_path):
    estate = ipt.load(snapshot)
    key = next(k for k in estate.partners if known_partner(estate, k).name == PARTNER)
    expected = len(estate.subset(ipt.Filter(partners=[key])))
    for ref in (str(key), f"partner:{key}", PARTNER.upper()):
        result = runner.invoke(main, ["summary", str(snapshot), "--json", "--partner", ref])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["profiles"] == expected > 0
    channel = next(iter(estate.channels))
    result = runner.invoke(main, ["summary", str(snapshot), "--channel", f"channel:{channel}"])
    assert result.exit_code == 0, result.output
    output = tmp_path / "h.svg"
    plot = ["plot", str(snapshot), "-o", str(output), "--highlight"]
    result = runner.invoke(main, [*plot, PARTNER.lower()])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, [*plot, "Kestrel Chemicals"])  # the start of several names
    assert result.exit_code == 1 and "could be a partner or channel: partner:" in result.stderr
    assert f"({PARTNER}), channel:" in result.stderr
    assert "or its kind (partner:Kestrel Chemicals)" in result.stderr
    result = runner.invoke(main, [*plot, "partner:Kestrel Chemicals"])  # of one partner
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, [*plot, "Kestrel Chemicls"])
    assert result.exit_code == 1 and f"did you mean partner:{key} ({PARTNER}) or channel:" in (
        result.stderr
    )


def test_a_highlight_the_filter_left_out_is_named_as_such(runner, snapshot, tmp_path):
    """Not "nothing is named P-000002, did you mean P-000001?": it exists, outside the filter."""
    estate = ipt.load(snapshot)
    chosen = estate.subset(ipt.Filter(partners=[PARTNER]))
    outside = next(r.id for r in estate.records if r.id not in {c.id for c in chosen.records})
    args = ["plot", str(snapshot), "-o", str(tmp_path / "h.svg"), "--partner", PARTNER]
    result = runner.invoke(main, [*args, "--highlight", outside])
    assert result.exit_code == 1
    assert f"profile:{outside} is not in the diagram of this filter (partner " in result.stderr
    result = runner.invoke(main, [*args, "--highlight", "no such thing"])
    assert result.exit_code == 1 and "nothing in the graph is named" in result.stderr


def test_a_diagram_says_which_formats_it_can_be(runner, snapshot, tmp_path):
    result = runner.invoke(main, ["plot", str(snapshot), "-o", str(tmp_path / "x.jpg")])
    assert result.exit_code == 2
    assert ".png, .svg or .pdf" in result.stderr and "--output" in result.stderr


@pytest.mark.parametrize(("command", "name"), [("plot", "t.svg"), ("export", "t.csv")])
def test_a_missing_folder_is_an_error_unless_mkdirs(runner, snapshot, tmp_path, command, name):
    output = tmp_path / "new" / "deeper" / name
    args = [command, str(snapshot), "-o", str(output)]
    result = runner.invoke(main, args)
    assert result.exit_code == 2 and "does not exist (-p/--mkdirs creates it)" in result.stderr
    assert not output.parent.exists()
    for flag in ("-p", "--mkdirs"):
        result = runner.invoke(main, [*args, flag])
        assert result.exit_code == 0, result.output
        assert output.exists()
        output.unlink()


def test_findings_by_kind(runner, snapshot):
    base = ["findings", str(snapshot), "--format", "json"]
    every = ipt.findings(ipt.load(snapshot))
    kinds = sorted({f.kind for f in every})[:2]
    result = runner.invoke(main, [*base, *(f"--kind={kind}" for kind in kinds)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [row["kind"] for row in rows] == [f.kind for f in every if f.kind in kinds]
    assert rows and len(rows) < len(every)
    result = runner.invoke(main, [*base, "--kind", "unresolved_chanel"])
    assert result.exit_code == 2
    assert "did you mean 'unresolved_channel'" in result.stderr
    assert "duplicate_endpoint" in result.stderr  # the known kinds are listed


def test_a_cut_list_says_how_to_see_it_all(runner, tmp_path):
    shared = [profile(f"P{n}", agent=agent("SFTP", host="sftp.example.com")) for n in range(6)]
    path = estate_of(*shared).save(tmp_path / "shared.json")
    result = runner.invoke(main, ["findings", str(path), "--kind", "duplicate_endpoint"])
    assert result.exit_code == 0, result.output
    assert "and 3 more" in result.stdout  # 6 agents share the host; the text names 3
    assert "--format json or csv lists all" in result.stderr
    result = runner.invoke(
        main, ["findings", str(path), "--format", "json", "--kind", "duplicate_endpoint"]
    )
    assert len(json.loads(result.stdout)[0]["nodes"]) == 12  # 6 agents and their profiles
    assert "lists all" not in result.stderr


def test_a_diagram_too_tall_to_read_warns_and_suggests_grouping(
    runner, snapshot, tmp_path, monkeypatch
):
    from iptoolkit.plot import topology

    estate = ipt.load(snapshot)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 60 profiles node by node: readable, no warning
        ipt.plot_topology(estate, group_by=False)
    monkeypatch.setattr(topology, "MAX_DETAIL_ROWS", 40)
    with pytest.warns(topology.LargeDiagramWarning, match=r"rows one node each.*group_by="):
        ipt.plot_topology(estate, group_by=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # grouped, the same estate is short
        ipt.plot_topology(estate, group_by="group")
    output = tmp_path / "tall.png"
    result = runner.invoke(main, ["plot", str(snapshot), "-o", str(output), "--group-by", "none"])
    assert result.exit_code == 0 and output.exists()
    assert "warning: the diagram draws" in result.stderr and "--group-by" in result.stderr


def test_fetch_into_a_missing_folder_needs_mkdirs(runner, tmp_path):
    from iptoolkit.server import running

    output = tmp_path / "snapshots" / "today.json"
    with running(ipt.demo_estate(n_profiles=5, seed=3)) as server:
        env = {
            "IPTOOLKIT_BASE_URL": server.base_url,
            "IPTOOLKIT_CLIENT_SECRET": server.client_secret,
        }
        args = ["fetch", "-o", str(output), "--client-id", server.client_id, "--no-progress"]
        result = runner.invoke(main, args, env=env)
        assert result.exit_code == 2 and "-p/--mkdirs" in result.stderr
        assert not output.parent.exists()
        result = runner.invoke(main, [*args, "-p"], env=env)
    assert result.exit_code == 0, result.output
    assert len(ipt.load(output)) == 5
