"""How does A reach B: `ipt.paths`, the `paths` command (a real process), its exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import networkx as nx
import pytest

import iptoolkit as ipt
from iptoolkit.query.graph import build_graph

from .test_graph import hand_estate

P1_P2_SHORT = ["profile:P1", "agent:P1", "channel:10", "agent:P2", "profile:P2"]
P1_P2_VIA_ACME = [
    *["profile:P1", "agent:P1", "channel:10", "partner:1"],
    *["channel:11", "agent:P2", "profile:P2"],
]


@pytest.fixture(scope="module")
def G() -> nx.MultiDiGraph[str]:
    return build_graph(hand_estate())


def test_the_known_paths_shortest_first_with_their_directions(G):
    """P1 and P2 listen on Acme's AS2 channel 10 (4 steps), and P2 on Acme's SFTP channel
    11 (6 steps through the partner): both, shortest first, the edges' ways said."""
    found = ipt.paths(G, "profile:P1", "P2")
    assert found.paths == [P1_P2_SHORT, P1_P2_VIA_ACME]
    assert not found.more and not found.longer and found.bounds == ""
    short = found.steps[0]
    assert [(s.relation, s.forward) for s in short] == [
        ("input", True),
        ("listens_on", True),
        ("listens_on", False),
        ("input", False),
    ]
    assert found.edges[:4] == [
        ("profile:P1", "agent:P1"),
        ("agent:P1", "channel:10"),
        ("agent:P2", "channel:10"),
        ("profile:P2", "agent:P2"),
    ]
    assert all(G.has_edge(u, v) for u, v in found.edges)
    assert set(found.nodes) == set(P1_P2_SHORT) | set(P1_P2_VIA_ACME)
    assert "profile:P1 -input-> agent:P1 -listens_on-> channel:10 <-listens_on-" in str(found)
    # the same question asked the other way round: the same paths, reversed
    back = ipt.paths(G, "profile:P2", "profile:P1")
    assert back.paths == [path[::-1] for path in found.paths]


def test_the_bounds_are_kept_and_said(G):
    first = ipt.paths(G, "profile:P1", "P2", limit=1)
    assert first.paths == [P1_P2_SHORT] and first.more and not first.longer
    assert "the first 1 are shown" in first.bounds
    # P3 names Globex's channel 20, on which P1 answers: 8 steps to P2; via Acme, 10
    short = ipt.paths(G, "P3", "P2")
    assert [len(path) - 1 for path in short.paths] == [8] and short.longer
    assert "longer paths than 8 steps" in str(short)
    assert [len(path) - 1 for path in ipt.paths(G, "P3", "P2", cutoff=10).paths] == [8, 10]
    far = ipt.paths(G, "P3", "P2", cutoff=4)
    assert not far and far.longer and "of at most 4 steps" in str(far)


def test_no_path_between_unrelated_items(G):
    # P5 could not be read: a node with no edges; the id-less profile's agent names nothing
    for a, b in (("profile:P1", "P5"), ("partner:1", "profile:#5"), ("channel:99", "P1#6")):
        found = ipt.paths(G, a, b)
        assert found.paths == [] and not found.more and not found.longer, (a, b)
        assert str(found).startswith("no path between") and "at most" not in str(found)
    assert ipt.paths(G, "profile:P1", "profile:P1").paths == [["profile:P1"]]
    with pytest.raises(ipt.UnknownItemError, match="to: "):
        ipt.paths(G, "profile:P1", "P9")
    with pytest.raises(ValueError, match="limit"):
        ipt.paths(G, "profile:P1", "P2", limit=0)


def test_a_demo_estate_has_paths_along_its_records():
    """Every partner a profile's record names is reached, by a path that starts at the
    profile and whose every step is an edge of the graph."""
    estate = ipt.demo_estate(n_profiles=120, seed=3)
    graph = build_graph(estate)
    checked = 0
    for record in estate.valid_records[:30]:
        for key in record.partners:
            found = ipt.paths(graph, record.node, f"partner:{key}", limit=3)
            assert found.paths and found.paths[0][0] == record.node, (record.key, key)
            shortest = found.paths[0]
            assert len(shortest) - 1 == nx.shortest_path_length(
                graph.to_undirected(as_view=True), record.node, f"partner:{key}"
            )
            checked += 1
    assert checked > 20


def test_the_command_in_a_real_process(tmp_path):
    """0 with a path, 1 without, 2 when an item is unknown; JSON says the steps."""
    snapshot = tmp_path / "hand.json"
    hand_estate().save(snapshot)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "iptoolkit.cli", "paths", str(snapshot), *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    found = run("profile:P1", "P2", "--format", "json")
    assert found.returncode == 0, found.stderr
    document = json.loads(found.stdout)
    assert [path["nodes"] for path in document["paths"]] == [P1_P2_SHORT, P1_P2_VIA_ACME]
    assert document["paths"][0]["steps"][2] == {
        "source": "channel:10",
        "target": "agent:P2",
        "relation": "listens_on",
        "forward": False,
    }
    limited = run("profile:P1", "P2", "--limit", "1")
    assert limited.returncode == 0 and "first 1 are shown" in limited.stdout
    none = run("profile:P1", "P5")
    assert none.returncode == 1 and none.stdout.startswith("no path between profile:P1")
    unknown = run("profile:P1", "P9")
    assert unknown.returncode == 2 and unknown.stderr.startswith("Error: to: ")
    assert len(unknown.stderr.strip().splitlines()) == 1
    shared = run("P1", "P2")  # two profiles have the id P1
    assert shared.returncode == 2 and "profile:P1, profile:P1#6" in shared.stderr
