"""Faulty profiles under a filter: selected by what can be read of them, reported when the
filter asks what they cannot answer, never dropped in silence (API, CLI, Explorer)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.query.filters import Filter, select, subset, unjudged
from iptoolkit.viewmodel.explorer_model import ExplorerModel

from .factories import ACME, agent, channel, estate_of, profile

AS2 = channel(10, "AS2", partner=ACME, name="Acme AS2")


def faulty_estate() -> ipt.Estate:
    """Two valid profiles and four faulty ones, each faulty in one field only."""
    return estate_of(
        profile("OK-FIN", group="Finance/AP", agent=agent("AS2", channels=[AS2])),
        profile("OK-LOG", group="Logistics", active=False, agent=agent("SFTP")),
        profile("BAD-NAME", name=123, group="Finance/GL", agent=agent("SFTP")),
        {**profile("BAD-ACTIVE", group="Logistics", name="Yes-man"), "active": "yes"},
        profile("BAD-AGENT", group="Finance", name="Orders in", inputAgentSettings="oops"),
        profile("BAD-GROUP", group=["Finance"], agent=agent("Fax")),
    )


def ids(estate: ipt.Estate, positions: list[int]) -> list[str]:
    return [estate.records[position].key for position in positions]


def test_a_faulty_profile_is_selected_by_what_can_be_read_of_it() -> None:
    estate = faulty_estate()
    assert len(estate.problems) == 4
    finance = ids(estate, select(estate, Filter(groups=["Finance"])))
    assert finance == ["OK-FIN", "BAD-NAME", "BAD-AGENT"]
    chosen = subset(estate, Filter(groups=["Finance"]))
    assert [problem.profile_id for problem in chosen.problems] == ["BAD-NAME", "BAD-AGENT"]
    assert ids(estate, select(estate, Filter(agent_types=["SFTP"]))) == ["OK-LOG", "BAD-NAME"]
    assert ids(estate, select(estate, Filter(text="yes-man"))) == ["BAD-ACTIVE"]


def test_active_and_inactive_split_the_estate_as_the_summary_counts() -> None:
    estate = faulty_estate()
    active = select(estate, Filter(active=True))
    inactive = select(estate, Filter(active=False))
    assert len(active) == estate.summary()["active_profiles"]
    assert sorted(active + inactive) == list(range(len(estate.records)))
    assert "BAD-ACTIVE" in ids(estate, inactive)  # "yes" is not true: the one rule
    assert not unjudged(estate, Filter(active=True))


def test_what_a_faulty_profile_cannot_answer_is_reported_not_dropped() -> None:
    estate = faulty_estate()
    left = {
        estate.records[position].key: fields
        for position, fields in unjudged(estate, Filter(partners=["Acme"]))
    }
    assert set(left) == {"BAD-NAME", "BAD-ACTIVE", "BAD-AGENT", "BAD-GROUP"}
    assert set(left.values()) == {("partners",)}
    # a field that says no settles it: BAD-ACTIVE is in Logistics, not Finance
    both = unjudged(estate, Filter(partners=["Acme"], groups=["Finance"]))
    assert [estate.records[p].key for p, _ in both] == ["BAD-NAME", "BAD-AGENT", "BAD-GROUP"]
    assert dict(both)[5] == ("partners", "groups")  # its group is a list: unreadable
    assert ids(estate, select(estate, Filter(partners=["Acme"]))) == ["OK-FIN"]
    # an agent that could not be read cannot say its type
    assert [p for p, _ in unjudged(estate, Filter(agent_types=["SFTP"]))] == [4]


def test_the_explorer_selects_and_counts_as_the_filters_do() -> None:
    estate = faulty_estate()
    model = ExplorerModel(estate)
    for chosen in (Filter(groups=["Finance"]), Filter(active=False), Filter(partners=["Acme"])):
        assert model.select(chosen).rows == select(estate, chosen)
    facets = model.facets
    assert facets.active[True] + facets.active[False] == len(estate.records)
    assert facets.groups["Finance"] == len(select(estate, Filter(groups=["Finance"])))
    assert "faulty" in model.select(Filter(partners=["Acme"])).counts_text()
    assert "faulty" not in model.select(Filter(active=False)).counts_text()


@pytest.fixture
def types_file(tmp_path: Path) -> Path:
    """A demo snapshot with the review's four bad fields (the seventh's null id is allowed)."""
    path = tmp_path / "s.json"
    ipt.demo_estate(30).save(path)
    data = json.loads(path.read_text())
    rows = data["profiles"]
    rows[3]["active"] = "yes"
    rows[4]["name"] = 123
    rows[5]["inputAgentSettings"] = "oops"
    rows[6]["id"] = None
    path.write_text(json.dumps(data))
    return path


def group_of(path: Path, index: int) -> str:
    return str(json.loads(path.read_text())["profiles"][index]["group"]).split("/")[0]


def test_a_filtered_audit_reports_the_faulty_profiles_it_selected(runner, types_file):
    group = group_of(types_file, 4)
    args = ["audit", str(types_file), "--group", group, "--select", "DAT001"]
    result = runner.invoke(main, [*args, "--fail-on", "error"])
    assert result.exit_code == 1, result.output
    assert "DAT001" in result.stdout and "P-000005" in result.stdout
    # numbered as in the file, where its line and column point, not as in the subset
    assert "profile 4 (id 'P-000005'): $[4].name" in result.stdout


def test_export_keeps_the_faulty_profiles_the_filter_selected(runner, types_file, tmp_path):
    group = group_of(types_file, 4)
    out = tmp_path / "out.json"
    result = runner.invoke(main, ["export", str(types_file), "-o", str(out), "--group", group])
    assert result.exit_code == 0, result.output
    written = [row["id"] for row in json.loads(out.read_text())["profiles"]]
    assert "P-000005" in written
    whole = ipt.load(types_file)
    assert len(written) == len(select(whole, Filter(groups=[group])))


def test_active_in_the_command_counts_as_the_summary_does(runner, types_file):
    whole = runner.invoke(main, ["summary", str(types_file)]).stdout
    active = runner.invoke(main, ["summary", str(types_file), "--active"])
    inactive = runner.invoke(main, ["summary", str(types_file), "--inactive"])
    count = ipt.load(types_file).summary()["active_profiles"]
    assert f"({count} active" in whole
    assert f"-> {count} of 30 profiles" in active.stderr
    assert f"-> {30 - count} of 30 profiles" in inactive.stderr


def test_the_command_says_which_faulty_profiles_the_filter_could_not_judge(runner, types_file):
    name = next(iter(ipt.load(types_file).to_frame("partners")["name"]))
    result = runner.invoke(main, ["summary", str(types_file), "--partner", str(name)])
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert notes == [
        "note: 3 faulty profiles could not be matched against --partner and are left out: "
        "P-000004, P-000005, P-000006"
    ]


def test_a_notebooks_subset_warns_of_what_it_could_not_judge() -> None:
    """`estate.subset` in a notebook: the profiles left out unjudged are named in a warning
    (the command line's note), and no warning when every profile was judged."""
    from iptoolkit.query.filters import UnjudgedProfilesWarning

    estate = faulty_estate()
    with pytest.warns(UnjudgedProfilesWarning, match="could not be matched against partners"):
        chosen = estate.subset(Filter(partners=["Acme"]))
    assert ids(chosen, list(range(len(chosen)))) == ["OK-FIN"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        estate.subset(Filter(active=True))  # the one rule judges every profile


def test_a_notebooks_subset_warns_of_a_value_that_matches_nothing() -> None:
    """A misspelt partner gave an empty estate and no hint; now a warning says which value
    matched nothing and what was perhaps meant. No error: an empty selection can be meant."""
    from iptoolkit.query.filters import UnmatchedFilterWarning

    feed = agent("AS2", channels=[channel(10, "AS2", partner=ACME)])
    estate = estate_of(profile("P1", agent=feed, group="Sales"), profile("P2", group="Stock"))
    with pytest.warns(UnmatchedFilterWarning) as caught:
        chosen = estate.subset(Filter(partners=["Acmee"]))
    assert len(chosen) == 0 and issubclass(UnmatchedFilterWarning, UserWarning)
    said = [str(w.message) for w in caught if w.category is UnmatchedFilterWarning]
    assert said == ["partners='Acmee' (did you mean 'Acme'?) matches none of the 2 profiles"]
    with pytest.warns(UnmatchedFilterWarning, match="^groups='Sale' .*'Sales'.* none of the 2"):
        assert len(estate.subset(Filter(groups=["Sale", "Stock"]))) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        estate.subset(Filter(partners=["acme"], groups=["Sales"]))
        ipt.Estate.from_raw([]).subset(Filter(partners=["Acme"]))  # nothing to match
