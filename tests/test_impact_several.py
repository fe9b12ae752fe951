"""impact of several items at once (Python, CLI, MCP), and an id known only in another
loaded snapshot (MCP get_item and the resolver say where it is)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.mcp import answers
from iptoolkit.mcp.store import Store
from iptoolkit.query.resolve import UnknownItemError
from tests.factories import ACME, agent, channel, estate_of, profile

AS2_A = channel(10, "AS2", partner=ACME, name="Acme AS2 main")
AS2_B = channel(11, "AS2", partner=ACME, name="Acme AS2 backup")
SFTP = channel(12, "SFTP", partner=ACME, name="Acme SFTP")


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    """P-BOTH listens on both AS2 channels; P-A on the main one; P-S on SFTP."""
    return estate_of(
        profile("P-BOTH", agent=agent("AS2", channels=[AS2_A, AS2_B])),
        profile("P-A", agent=agent("AS2", channels=[AS2_A])),
        profile("P-S", agent=agent("SFTP", channels=[SFTP])),
    )


def test_python_both_channels_together_take_what_neither_alone_does(estate):
    graph = ipt.build_graph(estate)
    one = ipt.impact(graph, "channel:11")
    assert one.lose_input == [] and one.partial_input == ["profile:P-BOTH"]
    both = ipt.impact(graph, ["channel:10", "Acme AS2 backup"])  # any way of naming each
    assert both.nodes == ["channel:10", "channel:11"] and both.node == "channel:10 + channel:11"
    assert both.lose_input == ["profile:P-BOTH", "profile:P-A"] and not both.partial_input
    assert not both.partners  # Acme keeps its SFTP channel
    # a tuple is taken (impact's Ref TypeVar, used once, makes mypy refuse it)
    everything = ipt.impact(graph, ("channel:10", "channel:11", "channel:12"))  # type: ignore[arg-type]
    assert everything.partners == ["partner:1"]
    with pytest.raises(ValueError, match="at least one"):
        ipt.impact(graph, [])


def test_command_line(estate, tmp_path):
    path = tmp_path / "estate.json"
    estate.save(path)
    result = CliRunner().invoke(main, ["impact", str(path), "10", "channel:11", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["nodes"] == ["channel:10", "channel:11"]
    assert document["lose_input"] == ["profile:P-BOTH", "profile:P-A"]
    text = CliRunner().invoke(main, ["impact", str(path), "channel:11"]).stdout
    assert "Without channel:11:" in text and "1  lose part of their input: profile:P-BOTH" in text


def test_mcp(estate, tmp_path):
    path = tmp_path / "estate.json"
    estate.save(path)
    store = Store.from_paths([path])
    found = answers.impact(store.current, ["channel:10", "channel:11"], 10, None)
    assert found.nodes == ["channel:10", "channel:11"]
    assert [ref.node for ref in found.lose_input.items] == ["profile:P-BOTH", "profile:P-A"]
    single = answers.impact(store.current, "channel:11", 10, None)
    assert single.partial_input.total == 1 and single.lose_input.total == 0


def test_an_id_of_another_snapshot_says_where_it_is(estate, tmp_path):
    from datetime import UTC, datetime

    from iptoolkit.core.snapshot import SnapshotInfo

    monday, tuesday = tmp_path / "monday.json", tmp_path / "tuesday.json"
    ipt.Estate.from_raw(
        list(estate.raw_profiles), info=SnapshotInfo(fetched_at=datetime(2026, 11, 16, tzinfo=UTC))
    ).save(monday)
    later = [p for p in estate.raw_profiles if p["id"] != "P-S"]  # SFTP channel gone with it
    ipt.Estate.from_raw(
        later, info=SnapshotInfo(fetched_at=datetime(2026, 11, 17, tzinfo=UTC))
    ).save(tuesday)
    store = Store.from_paths([monday, tuesday])
    for ref in ("channel:12", "12", "Acme SFTP", "P-S"):
        with pytest.raises(UnknownItemError) as caught:
            answers.get_item(store.current, ref)
        message = str(caught.value)
        assert "not in snapshot 'tuesday' but in snapshot 'monday' as" in message, message
        assert "did you mean" not in message and caught.value.choices == []
    # known in neither: close matches as before
    with pytest.raises(UnknownItemError, match="did you mean"):
        answers.get_item(store.current, "channel:13")
    # asked of the snapshot that has it: the answer
    assert answers.get_item(store.get("monday"), "channel:12").node == "channel:12"
