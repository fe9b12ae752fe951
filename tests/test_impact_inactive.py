"""`iptoolkit impact` on an inactive item: one line saying it is inactive, with the counts
that still hold, instead of five zeros that read as "nothing uses it"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from iptoolkit.cli import main
from tests.factories import ACME, GLOBEX, agent, channel, estate_of, profile

LIVE = channel(10, "AS2", partner=ACME, name="Acme AS2")
OLD = channel(11, "AS2", partner=ACME, active=False, name="Acme AS2 old")
ONLY_OLD = channel(12, "SFTP", partner=ACME, name="Acme SFTP")
GLOBEX_OLD = channel(20, "SFTP", partner=GLOBEX, active=False, name="Globex SFTP")


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """P-ON listens on Acme's live and old AS2; P-OLD (inactive) on the old one and on
    Acme SFTP (active, used by nothing active); P-G on Globex's one channel, inactive; P-FAX
    names channel 99, which no profile holds."""
    estate = estate_of(
        profile("P-ON", agent=agent("AS2", channels=[LIVE, OLD])),
        profile("P-OLD", active=False, agent=agent("AS2", channels=[OLD, ONLY_OLD])),
        profile("P-G", agent=agent("SFTP", channels=[GLOBEX_OLD])),
        profile("P-FAX", agent=agent("Fax", channelIds=[99])),  # an id no profile holds
    )
    return estate.save(tmp_path_factory.mktemp("impact") / "estate.json")


def _impact(snapshot: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["impact", str(snapshot), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    ("items", "line"),
    [
        (
            ["channel:11"],
            "Without channel:11: nothing stops, it is inactive (2 profiles use it, 1 of them "
            "active)",
        ),
        (
            ["Globex"],
            "Without partner:2: nothing stops, it is inactive (0 of its 1 channel active; "
            "1 profile uses its channels, an active one)",
        ),
        (["P-OLD"], "Without profile:P-OLD: nothing stops, it is inactive"),
        (
            ["channel:99"],
            "Without channel:99: nothing stops, it is an id no profile holds (1 profile uses "
            "it, an active one)",
        ),
        (
            ["channel:11", "partner:2"],
            "Without channel:11 + partner:2: nothing stops, none is active: channel:11 is "
            "inactive (2 profiles use it, 1 of them active); partner:2 is inactive (0 of its "
            "1 channel active; 1 profile uses its channels, an active one)",
        ),
    ],
)
def test_an_inactive_item_is_one_line(snapshot: Path, items: list[str], line: str) -> None:
    assert _impact(snapshot, *items) == line + "\n"


def test_an_inactive_item_among_active_ones_is_named_under_the_lists(snapshot: Path) -> None:
    lines = _impact(snapshot, "channel:10", "channel:11").splitlines()
    assert lines[0] == "Without channel:10 + channel:11:"
    assert lines[1].split() == ["1", "lose", "their", "input:", "profile:P-ON"]
    assert lines[-1] == (
        "  channel:11 is inactive (2 profiles use it, 1 of them active): it stops nothing itself"
    )
    assert len(lines) == 7


def test_an_active_item_that_stops_nothing_keeps_its_zeros(snapshot: Path) -> None:
    lines = _impact(snapshot, "channel:12").splitlines()  # used by the inactive P-OLD only
    assert len(lines) == 6 and all(line.split()[0] == "0" for line in lines[1:])


def test_json_lists_the_inactive_items(snapshot: Path) -> None:
    document = json.loads(_impact(snapshot, "channel:10", "channel:11", "--format", "json"))
    assert document["inactive"] == ["channel:11"]
    assert document["lose_input"] == ["profile:P-ON"]
    assert json.loads(_impact(snapshot, "channel:12", "--format", "json"))["inactive"] == []
