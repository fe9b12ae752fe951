"""One question, one answer: "profiles on an AS2 channel of Acme" in Python, on the
command line, in the Explorer's facets and in the MCP tool `find_profiles`.

The estate tells the two readings apart: P-ON is on Acme's AS2 channel; P-MIX has an AS2
channel of Globex and uses Acme on an SFTP channel (selected if the fields were read
profile by profile, not channel by channel); P-SFTP uses only Acme's SFTP channel.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.query.filters import select
from tests.factories import ACME, GLOBEX, agent, channel, estate_of, profile, unit

ACME_AS2 = channel(10, "AS2", partner=ACME, name="Acme AS2")
ACME_SFTP = channel(11, "SFTP", partner=ACME, name="Acme SFTP")
GLOBEX_AS2 = channel(20, "AS2", partner=GLOBEX, name="Globex AS2")
QUESTION = ipt.Filter(partners=["Acme"], channel_types=["AS2"])
ANSWER = ["P-ON"]


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return estate_of(
        profile("P-ON", agent=agent("AS2", channels=[ACME_AS2])),
        profile(
            "P-MIX",
            agent=agent("AS2", channels=[GLOBEX_AS2]),
            units=[unit("Sftp", channel=ACME_SFTP)],
        ),
        profile("P-SFTP", agent=agent("SFTP", channels=[ACME_SFTP])),
    )


def test_python(estate):
    assert [estate.records[i].key for i in select(estate, QUESTION)] == ANSWER
    assert [r.key for r in estate.subset(QUESTION).records] == ANSWER
    # each field alone still means what it says
    assert len(select(estate, ipt.Filter(partners=["Acme"]))) == 3
    assert len(select(estate, ipt.Filter(channel_types=["AS2"]))) == 2


def test_command_line(estate, tmp_path):
    path = tmp_path / "estate.json"
    estate.save(path)
    result = CliRunner().invoke(
        main, ["summary", str(path), "--partner", "Acme", "--channel-type", "AS2", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["profiles"] == len(ANSWER)


def test_explorer_facets(estate):
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    model = ExplorerModel(estate)
    chosen = model.select(QUESTION)
    assert [estate.records[i].key for i in chosen.rows] == ANSWER
    # a facet's count is what choosing that option instead would select
    as2 = model.select(ipt.Filter(channel_types=["AS2"])).facets
    assert as2 is not None and as2.partners == {"Acme": 1, "Globex": 1}
    acme = model.select(ipt.Filter(partners=["Acme"])).facets
    assert acme is not None
    assert acme.channel_types["IntegrationPartnerChannelAS2"] == 1
    assert acme.channel_types["IntegrationPartnerChannelSFTP"] == 2
    for partner, count in as2.partners.items():
        both = ipt.Filter(channel_types=["AS2"], partners=[partner])
        assert count == len(select(estate, both))


def test_mcp_find_profiles(estate):
    from iptoolkit.mcp import answers
    from iptoolkit.mcp.store import Loaded

    page = answers.find_profiles(Loaded("week", estate), QUESTION, 10, None)
    assert [row.id for row in page.items] == ANSWER and page.total == 1
