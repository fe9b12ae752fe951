"""The index: one record per profile, and every view agreeing with it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.core.nodes import endpoint, is_active, target
from iptoolkit.core.records import profile_keys
from iptoolkit.models import IntegrationPartnerChannelSFTP
from iptoolkit.query.filters import select

from .factories import known_channel, known_partner


def anonymous(port: int, partner: int) -> dict[str, Any]:
    """A profile without an id whose agent holds a channel without an id."""
    channel = {
        "class": "core:IntegrationPartnerChannelSFTP",
        "port": port,
        "active": True,
        "partner": {"class": "core:IntegrationPartner", "id": partner, "name": f"P{partner}"},
    }
    agent = {"class": "core:CronSshAgentSettings", "channel": channel}
    return {"class": "core:IntegrationProfile", "active": True, "inputAgentSettings": agent}


@pytest.fixture()
def twins() -> ipt.Estate:
    return ipt.Estate.from_raw([anonymous(22, 1), anonymous(23, 2)])


def test_id_less_channels_of_id_less_profiles_are_two_channels_everywhere(twins):
    keys = ["#0:inputAgentSettings.channel", "#1:inputAgentSettings.channel"]
    nodes = [f"channel:{key}" for key in keys]
    assert list(twins.channels) == keys
    assert [record.channel_keys for record in twins.records] == [(keys[0],), (keys[1],)]

    graph = ipt.build_graph(twins)
    for node, profile, port in zip(nodes, ["profile:#0", "profile:#1"], [22, 23], strict=True):
        assert graph.nodes[node]["kind"] == "channel"
        assert graph.nodes[node]["model"].port == port
        assert ipt.where_used(graph, node) == [profile]
    assert not [n for n in graph if "None" in n]

    channels = twins.to_frame("channels").set_index("node")
    assert list(channels.index) == nodes
    assert list(channels["profiles"]) == [1, 1]
    assert list(twins.to_frame("profiles")["channels"]) == [1, 1]

    for position, key in enumerate(keys):
        assert select(twins, ipt.Filter(channels=[key])) == [position]
    assert select(twins, ipt.Filter(partners=[2])) == [1]

    found = ipt.findings(twins)
    assert found.counts().get("profile_without_id") == 2
    assert not found.of(kind="channel_conflict")


def test_profile_keys_follow_the_one_rule():
    raw = [{"id": "P1"}, {"id": "P1"}, {}, {"id": ""}, {"id": True}, {"id": 7}, "junk"]
    assert profile_keys(raw) == ["P1", "P1#1", "#2", "#3", "#4", "7", "#6"]


def test_active_is_one_rule_read_by_one_function():
    """`is_active` is what "active" means, for a model, a raw dict or a node's attributes;
    no module of the package reads the flag as a truth by itself."""
    values: list[object] = [{"active": True}, {"active": "true"}, {}, None, []]
    assert [is_active(v) for v in values] == [
        True, False, False, False, False,
    ]  # fmt: skip
    assert is_active(ipt.Estate.from_raw([{"id": "P1", "active": True}]).profiles[0])
    package = Path(ipt.__file__).parent
    own_reading = re.compile(r"""(?:\.get\(|\[)["']active["']\)?\]? is (?:not )?True""")
    found = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        if path != package / "core" / "nodes.py"  # the one rule, which names what it replaces
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if own_reading.search(line)
    ]
    assert found == [], f"read the flag with core.nodes.is_active: {found}"


def test_a_subset_shares_its_parents_records_and_keys():
    estate = ipt.demo_estate(n_profiles=200, seed=3)
    chosen = estate.subset(ipt.Filter(agent_types=["SFTP"]))
    assert chosen.records and all(
        estate.records[record.index] is record for record in chosen.records
    )
    graph = ipt.build_graph(estate)
    assert all(node in graph for node in ipt.build_graph(chosen))


def test_a_subset_knows_its_parents_conflicts_between_chosen_profiles():
    def holder(pid: str, name: str, group: str) -> dict[str, Any]:
        channel = {"class": "core:IntegrationPartnerChannelAS2", "id": 5, "name": name}
        agent = {"class": "core:AS2AgentSettings", "channel": channel}
        return {"id": pid, "group": group, "inputAgentSettings": agent}

    estate = ipt.Estate.from_raw(
        [holder("A", "one", "X"), holder("B", "two", "X"), holder("C", "three", "Y")]
    )
    [conflict] = estate.conflicts
    assert conflict.profiles == ("profile:A", "profile:B", "profile:C")
    [kept] = estate.subset(ipt.Filter(groups=["X"])).conflicts
    assert kept.profiles == ("profile:A", "profile:B")
    assert not estate.subset(ipt.Filter(groups=["Y"])).conflicts


def test_a_subset_shows_the_copy_of_a_conflicting_channel_and_partner_it_holds():
    def holder(pid: str, name: str) -> dict[str, Any]:
        partner = {"class": "core:IntegrationPartner", "id": 9, "name": f"Partner {name}"}
        channel = {"class": "core:IntegrationPartnerChannelAS2", "id": 5, "name": name}
        agent = {"class": "core:AS2AgentSettings", "channel": {**channel, "partner": partner}}
        return {"id": pid, "group": pid, "inputAgentSettings": agent}

    estate = ipt.Estate.from_raw([holder("A", "one"), holder("B", "two")])
    assert known_channel(estate, 5).name == "one" and known_partner(estate, 9).name == "Partner one"
    only_b = estate.subset(ipt.Filter(groups=["B"]))
    assert known_channel(only_b, 5).name == "two" and known_partner(only_b, 9).name == "Partner two"


def test_one_activity_rule_everywhere():
    raw: list[dict[str, Any]] = [
        {"id": "yes", "active": True},
        {"id": "missing"},
        {"id": "text", "active": "true"},
    ]
    estate = ipt.Estate.from_raw(raw)
    expected = [True, False, False]
    assert [record.active for record in estate.records] == expected
    assert list(estate.to_frame("profiles")["active"]) == expected
    graph = ipt.build_graph(estate)
    assert [graph.nodes[f"profile:{r['id']}"]["active"] for r in raw] == expected
    assert select(estate, ipt.Filter(active=True)) == [0]
    assert estate.summary()["active_profiles"] == 1


def test_one_count_and_one_name_for_each_thing_across_views():
    pytest.importorskip("ipywidgets")
    from iptoolkit.support.names import type_label
    from iptoolkit.widgets import Explorer

    estate = ipt.demo_estate(n_profiles=300, seed=0)
    summary = estate.summary()
    assert summary["unresolved_channels"] >= 1  # the demo names a channel held nowhere

    channels = estate.to_frame("channels")
    assert int(channels["resolved"].sum()) == summary["channels"] == len(estate.channels)
    assert int((~channels["resolved"]).sum()) == summary["unresolved_channels"]
    assert len(estate.to_frame("partners")) == summary["partners"]
    profiles = estate.to_frame("profiles")
    assert profiles["agent_type"].value_counts().to_dict() == summary["agent_types"]

    graph = ipt.build_graph(estate)
    resolved = [d["resolved"] for _, d in graph.nodes(data=True) if d["kind"] == "channel"]
    assert (resolved.count(True), resolved.count(False)) == (
        summary["channels"],
        summary["unresolved_channels"],
    )

    words = (
        f"{summary['channels']} channels (and {summary['unresolved_channels']} unresolved "
        f"channel id{'s' if summary['unresolved_channels'] != 1 else ''})"
    )
    assert words in estate._repr_html_().replace("<b>", "").replace("</b>", "")

    figure = ipt.plot_topology(graph)
    try:
        title = " ".join(text.get_text() for text in figure.texts)
        assert f"{summary['profiles']} profiles, {words}, {summary['partners']} partners" in title
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)

    explorer = Explorer(estate)
    try:
        assert explorer.counts.endswith(f"{summary['partners']} partners, {words}")
        offered = dict(explorer.panel.agent_types.options)
        for name, count in summary["agent_types"].items():
            assert offered[f"{type_label(name)} ({count:,})"] == name
    finally:
        explorer.close()

    summary_chart = ipt.plot_summary(estate)
    try:
        assert f"{summary['profiles']} profiles, {words}" in summary_chart.get_suptitle()
        labels = {t.get_text() for ax in summary_chart.axes for t in ax.get_yticklabels()}
        top = sorted(summary["agent_types"], key=summary["agent_types"].get, reverse=True)[:5]
        assert {type_label(name) for name in top} <= labels
        assert not [label for label in labels if "AgentSettings" in label]
    finally:
        plt.close(summary_chart)

    by_type = ipt.plot_topology(graph, group_by="agent_type")
    try:
        drawn = {text.get_text().partition(" (")[0] for text in by_type.axes[0].texts}
        biggest = max(summary["agent_types"], key=summary["agent_types"].get)
        assert {f"{type_label(biggest)} agents", f"{type_label(biggest)} profiles"} <= drawn
        assert not [text for text in drawn if "AgentSettings" in text]
    finally:
        plt.close(by_type)


def test_the_views_build_no_profile_model_and_models_come_on_first_use():
    raw = ipt.demo_profiles(120, seed=3)
    raw[7] = {**raw[7], "created": "yesterday"}  # one faulty profile among them
    estate = ipt.Estate.from_raw(raw)
    graph = ipt.build_graph(estate)
    estate.to_frame("profiles"), estate.to_frame("channels"), ipt.findings(estate).to_frame()
    estate.subset(ipt.Filter(text="a"))
    ipt.where_used(graph, f"channel:{next(iter(estate.channels))}")
    ipt.Explorer(estate)
    assert not [record.index for record in estate.records if record.built.model is not None]

    twin = ipt.Estate.from_raw(raw).records[0]  # the same JSON, indexed again
    first = estate.records[0].model
    assert first is not None and estate.records[0].built.model is first
    assert twin.built.model is None and twin == estate.records[0]  # invisible to ==
    assert estate.records[7].model is None and estate.records[7].problem is not None
    models = estate.profiles
    assert models[0] is first  # built once, shared with the record
    assert [m.to_json_dict() for m in models] == [r for i, r in enumerate(raw) if i != 7]


def test_endpoints_are_worked_out_on_first_use_as_they_were_at_load():
    raw = ipt.demo_profiles(60, seed=5)
    raw[3] = {**raw[3], "created": "yesterday"}  # a faulty one: it points nowhere
    estate = ipt.Estate.from_raw(raw)
    ipt.compare(estate, ipt.demo_environment(estate, plant=True))  # compare reads none
    assert all(record.built.where is None for record in estate.records)
    for record in estate.records:
        units = tuple(endpoint(unit) for unit in record.response_units)
        assert record.response_endpoints == units
        assert record.agent_endpoint == endpoint(record.agent)
        assert record.response_targets == tuple(
            target(unit, at) for unit, at in zip(record.response_units, units, strict=True)
        )
        assert record.built.where is not None  # kept, and invisible to ==
    assert estate.records[3].response_endpoints == () and estate.records[3].problem
    assert ipt.Estate.from_raw(raw).records == estate.records


def test_a_channel_under_an_unknown_agent_counts_only_if_it_is_one():
    good = {"class": "core:IntegrationPartnerChannelSFTP", "id": 5, "port": 22}
    bad = {"class": "core:IntegrationPartnerChannelSFTP", "id": 6, "port": "twenty-two"}
    agent = {"class": "core:SomeFutureAgentSettings", "channels": [good, bad, "7"]}
    estate = ipt.Estate.from_raw([{"id": "P1", "active": True, "inputAgentSettings": agent}])
    assert list(estate.channels) == [5]
    kept = estate.channels[5]  # the registry keeps the model
    assert isinstance(kept, IntegrationPartnerChannelSFTP) and kept.port == 22
    assert [use.path for use in estate.records[0].uses] == ["inputAgentSettings.channels[0]"]


def test_profiles_sent_with_python_names_are_indexed_like_json_names():
    channel = {"class": "core:IntegrationPartnerChannelSFTP", "id": 41, "port": 22}
    as_json = {
        "id": "P1",
        "inputAgentSettings": {"class": "core:CronSshAgentSettings", "channel": channel},
        "responseSettings": {
            "units": [{"class": "core:FtpProfileResponseUnit", "channel": channel}]
        },
    }
    as_python = {
        "id": "P1",
        "input_agent_settings": {"class": "core:CronSshAgentSettings", "channel": channel},
        "response_settings": {
            "units": [{"class": "core:FtpProfileResponseUnit", "channel": channel}]
        },
    }
    one, other = (ipt.Estate.from_raw([raw]).records[0] for raw in (as_json, as_python))
    assert other.raw is not one.raw and other.raw == as_python  # kept as received
    assert (other.agent_type, other.channel_keys, len(other.response_units)) == (
        one.agent_type, one.channel_keys, 1,
    ) == ("CronSshAgentSettings", (41,), 1)  # fmt: skip


def test_a_python_named_profile_keeps_its_channels_beside_an_unknown_python_like_key():
    # `cron_schedule` is a Python name of an agent field, but at the profile's level it
    # is an unknown field: the model keeps it as sent, and the walk of the model's JSON
    # must not take it for a reason to give up
    channel = {"class": "core:IntegrationPartnerChannelSFTP", "id": 41, "port": 22}
    raw = {
        "id": "P1",
        "cron_schedule": "kept as sent",
        "input_agent_settings": {"class": "core:CronSshAgentSettings", "channel": channel},
    }
    record = ipt.Estate.from_raw([raw]).records[0]
    assert record.ok and record.channel_keys == (41,)


def test_odd_input_that_validates_loads():
    odd_class = {"id": "P1", "inputAgentSettings": {"class": ["x"], "channel": {"id": 4}}}
    estate = ipt.Estate.from_raw([odd_class])
    assert estate.records[0].ok and list(estate.channels) == [4]

    models = ipt.parse_profiles([{"id": "P2", "name": "two", "active": True}])
    record = ipt.Estate.from_raw(models).records[0]
    assert (record.key, record.name, record.active) == ("P2", "two", True)


def test_strict_loading_names_the_first_faulty_profile_and_counts_the_rest():
    raw = [{"id": "P1"}, {"id": "P2", "created": "soon"}, {"id": "P3", "active": "yes"}]
    with pytest.raises(ipt.ParseError) as caught:
        ipt.Estate.from_raw(raw, strict=True)
    assert "profile 1 (id 'P2')" in str(caught.value) and "(1 more faulty profile)" in str(
        caught.value
    )
    assert str(caught.value) == str(pytest.raises(ipt.ParseError, ipt.parse_profiles, raw).value)
