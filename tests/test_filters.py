"""Filter: field semantics, JSON round trip, subsets, and agreement with the graph."""

from __future__ import annotations

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import iptoolkit as ipt
from iptoolkit.core.estate import load
from iptoolkit.query import filters as filters_module
from iptoolkit.query.filters import Filter, select, subset
from iptoolkit.query.graph import build_graph
from iptoolkit.query.reach import where_used
from iptoolkit.support.jsonio import dumps_json

from .factories import ACME, GLOBEX, agent, channel, estate_of, profile, unit
from .strategies import profiles as any_profiles

AS2 = channel(10, "AS2", partner=ACME, name="Acme AS2", as2Url="https://as2.acme.example.com")
SFTP = channel(11, "SFTP", partner=ACME, host="sftp.acme.example.com")
FTP = channel(20, "FTP", partner=GLOBEX, name="Globex drop")


def hand_estate() -> ipt.Estate:
    return estate_of(
        profile(
            "P0",
            name="Invoices in",
            group="Finance/AP",
            tags="edi, critical",
            agent=agent("AS2", channels=[AS2]),
            units=[unit("Ftp", channel=FTP)],
        ),
        profile(
            "P1",
            name="Payments",
            group="Finance/AR/Bank",
            tags="bank",
            active=False,
            agent=agent("SFTP", channels=[SFTP]),
        ),
        profile("P2", group="Finance", agent=agent("Fax", channelIds=[20, 99])),
        profile(
            "P3",
            group="Logistics/EDI",
            description="Shipment notices from the WAREHOUSE",
            agent=agent("Kafka", topicName="shipments.v1"),
        ),
        {"id": "P4", "created": "yesterday", "group": "Finance/AP"},
        profile("P5", active=None, agent=agent("CronSftp", channel=SFTP)),
    )


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return hand_estate()


def ids(estate: ipt.Estate, selection: Filter) -> list[str]:
    chosen = select(estate, selection)
    return [estate.raw_profiles[i]["id"] for i in chosen]


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        (Filter(), ["P0", "P1", "P2", "P3", "P4", "P5"]),
        (Filter(agent_types=["SFTPAgentSettings"]), ["P1"]),
        (Filter(agent_types=["sftp"]), ["P1"]),  # a short name, not CronSftp's
        (Filter(agent_types=["core:sftpagentsettings", "KafkaAgentSettings"]), ["P1", "P3"]),
        (Filter(channel_types=["AS2"]), ["P0"]),
        (Filter(channel_types=["IntegrationPartnerChannelFTP"]), ["P0", "P2"]),  # P2 by id
        (Filter(partners=[1]), ["P0", "P1", "P5"]),
        (Filter(partners=["acme"]), ["P0", "P1", "P5"]),
        (Filter(partners=["Globex", "2"]), ["P0", "P2"]),
        (Filter(channels=[99]), ["P2"]),  # named by id, held nowhere
        (Filter(channels=["globex DROP"]), ["P0", "P2"]),
        # the group and its subgroups; the faulty P4 by the group that could be read of it
        (Filter(groups=["Finance"]), ["P0", "P1", "P2", "P4"]),
        (Filter(groups=["Finance/*"]), ["P0", "P1", "P4"]),
        (Filter(groups=["*/edi"]), ["P3"]),
        (Filter(groups=["Fin"]), []),  # a plain group is no prefix of a name
        (Filter(tags=["EDI"]), ["P0"]),
        (Filter(tags=["b*"]), ["P1"]),
        (Filter(active=True), ["P0", "P2", "P3"]),
        (Filter(active=False), ["P1", "P4", "P5"]),  # a missing flag is not active
        (Filter(text="warehouse"), ["P3"]),
        (Filter(text="SHIPMENTS.v1"), ["P3"]),  # the Kafka topic
        (Filter(text="acme.example"), ["P0", "P1", "P5"]),  # channel URL and host
        (Filter(text="invoices acme"), ["P0"]),  # every word
        (Filter(text="   "), ["P0", "P1", "P2", "P3", "P4", "P5"]),
        (Filter(partners=["Acme"], active=True), ["P0"]),  # fields AND
        (Filter(partners=["Acme"], groups=["Logistics"]), []),
        (Filter(partners=["nobody"]), []),
    ],
)
def test_field_semantics(estate, selection, expected):
    assert ids(estate, selection) == expected


def test_a_single_value_stands_for_a_list():
    assert Filter(partners="Acme", groups="Finance/*") == Filter(
        partners=["Acme"], groups=["Finance/*"]
    )


def test_unknown_fields_are_refused():
    with pytest.raises(pydantic.ValidationError):
        Filter(partner=["Acme"])  # type: ignore[call-arg]  # a field it does not have
    with pytest.raises(pydantic.ValidationError):
        Filter.from_json('{"colour": "red"}')


def test_describe():
    assert Filter().describe() == "everything"
    text = Filter(agent_types=["A", "B"], partners=[1], active=False, text="x").describe()
    assert text == "agent type A or B; partner 1; not active; text 'x'"


filters = st.builds(
    Filter,
    agent_types=st.lists(st.text(max_size=5), max_size=2),
    channel_types=st.lists(st.sampled_from(["AS2", "SFTP", "FTP", "x"]), max_size=2),
    partners=st.lists(st.integers(0, 3) | st.sampled_from(["Acme", "globex", "?"]), max_size=2),
    channels=st.lists(
        st.integers(9, 21) | st.text(max_size=4) | st.sampled_from(["acme", "Globex ", "as2"]),
        max_size=2,
    ),  # a channel by the first words of its name (`Acme AS2`) or by none
    groups=st.lists(st.sampled_from(["Finance", "Finance/*", "*/EDI", "Logistics"]), max_size=2),
    tags=st.lists(st.sampled_from(["edi", "bank", "c*"]), max_size=2),
    active=st.none() | st.booleans(),
    text=st.none() | st.sampled_from(["acme", "finance ap", "v1", "zzz"]),
)


@given(filters)
def test_json_round_trip(selection):
    assert Filter.from_json(selection.to_json()) == selection
    assert Filter.model_validate_json(selection.model_dump_json()) == selection


@settings(max_examples=80, deadline=None)
@given(filters)
def test_select_agrees_with_a_brute_force_reading(selection):
    """The profile fields are independent conditions; the channel fields must all hold of
    one channel the profile uses (read here from the channels' JSON, channel by channel).
    A partner or channel value no channel has is the one name it is the first words of."""
    from iptoolkit.core.nodes import partner_of, type_of
    from iptoolkit.models import field_value
    from iptoolkit.support.names import normalise_type, starts_name, strip_kind, type_aliases

    estate = hand_estate()
    chosen = selection.model_dump(exclude_defaults=True)
    expected = set(select(estate, Filter()))
    for name, value in chosen.items():
        if name not in filters_module.CHANNEL_FIELDS:
            expected &= set(select(estate, Filter(**{name: value})))

    def said(value: object) -> str:
        return str(value).strip().lower()

    def facts_of(use) -> dict[str, set[str]]:
        held = use.held if use.held is not None else estate.channels.get(use.key)
        facts = {"channel_types": set(), "partners": set(), "channels": {said(use.key)}}
        if held is not None:
            facts["channel_types"] = set(type_aliases(type_of(held)))
            if field_value(held, "name"):
                facts["channels"].add(said(field_value(held, "name")))
            key, partner = partner_of(held)
            if key is not None:
                facts["partners"] = {
                    said(key),
                    said(field_value(partner, "id")),
                    said(field_value(partner, "name")),
                }
        return facts

    uses = [(n, facts_of(use)) for n, r in enumerate(estate.records) if r.ok for use in r.uses]
    registries = {"partners": estate.partners, "channels": estate.channels}

    def wanted(name: str, value: object) -> str:
        if name == "channel_types":
            return normalise_type(value)
        token = said(strip_kind(value, name[:-1]))
        if any(token in facts[name] for _, facts in uses):
            return token
        names = {field_value(m, "name") for m in registries[name].values()}
        started = [said(n) for n in names if isinstance(n, str) and starts_name(n, token)]
        return started[0] if len(started) == 1 else "\0 no such token"

    def fits(facts: dict[str, set[str]]) -> bool:
        return all(
            any(wanted(name, v) in facts[name] for v in chosen[name])
            for name in filters_module.CHANNEL_FIELDS
            if name in chosen
        )

    if any(name in chosen for name in filters_module.CHANNEL_FIELDS):
        expected &= {n for n, facts in uses if fits(facts)}
    assert select(estate, selection) == sorted(expected)


def test_channel_fields_meet_on_one_channel():
    """P0 receives on Acme's AS2 channel and delivers to Globex by FTP: it is on an AS2
    channel of Acme, not on an AS2 channel of Globex, though it uses Globex and AS2."""
    estate = hand_estate()
    assert "P0" in ids(estate, Filter(partners=["Acme"], channel_types=["AS2"]))
    assert "P0" not in ids(estate, Filter(partners=["Globex"], channel_types=["AS2"]))
    assert "P0" in ids(estate, Filter(partners=["Globex"])) and "P0" in ids(
        estate, Filter(channel_types=["AS2"])
    )


def test_faulty_profiles_are_selected_by_what_could_be_read_of_them(estate):
    assert len(subset(estate, Filter()).problems) == 1
    finance = subset(estate, Filter(groups=["Finance"]))
    assert [problem.profile_id for problem in finance.problems] == ["P4"]
    assert [p.id for p in finance.profiles] == ["P0", "P1", "P2"]
    assert not subset(estate, Filter(groups=["Logistics"])).problems


def test_subset_keeps_what_the_chosen_profiles_reference(estate):
    chosen = estate.subset(Filter(agent_types=["AS2AgentSettings"]))
    assert list(chosen.raw_profiles) == [estate.raw_profiles[0]]
    assert chosen.raw_profiles[0] is estate.raw_profiles[0]  # whole and unchanged
    assert chosen.profiles[0] is estate.profiles[0]  # not parsed again
    assert set(chosen.channels) == {10, 20}
    assert set(chosen.partners) == {1, 2}
    assert chosen.info.extra["filters"] == [{"agent_types": ["AS2AgentSettings"]}]
    again = chosen.subset(Filter(active=True))
    assert len(again.info.extra["filters"]) == 2


def test_subset_renumbers_problems():
    estate = estate_of(profile("A"), {"id": "B", "created": "x"})
    [problem] = subset(estate, Filter()).problems
    assert (problem.index, problem.issues[0].path) == (1, "$[1].created")


def test_each_look_up_table_is_built_once_and_shared_by_later_filters(estate, monkeypatch):
    built: list[str] = []
    real = filters_module._agent_types

    def counting(e: ipt.Estate) -> dict[str, set[int]]:
        built.append("agent_types")
        return real(e)

    monkeypatch.setattr(filters_module, "_agent_types", counting)
    estate = ipt.Estate.from_raw(list(estate.raw_profiles))  # none built yet
    first = select(estate, Filter(agent_types=["AS2"]))
    again = select(estate, Filter(agent_types=["AS2"], text="x"))
    select(estate, Filter(agent_types=["Fax"]))
    assert built == ["agent_types"]
    assert first and set(again) <= set(first)


def equal_estates(a: ipt.Estate, b: ipt.Estate) -> None:
    assert dumps_json(a.raw_profiles) == dumps_json(b.raw_profiles)
    assert a.profiles == b.profiles
    assert a.raw_index == b.raw_index
    assert [(p.index, p.issues) for p in a.problems] == [(p.index, p.issues) for p in b.problems]
    assert a.channels == b.channels and a.partners == b.partners
    assert a.info == b.info


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(any_profiles())
def test_subset_of_the_empty_filter_equals_the_estate(raw):
    estate = ipt.Estate.from_raw(raw)
    equal_estates(subset(estate, Filter()), estate)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(selection=filters)
def test_filters_commute_with_saving_and_loading(tmp_path_factory, selection):
    path = tmp_path_factory.mktemp("snap")
    estate = hand_estate()
    # filter, then save and load
    saved = load(subset(estate, selection).save(path / "subset.json"))
    # save and load, then filter
    loaded = subset(load(estate.save(path / "all.json")), selection)
    assert dumps_json(saved.raw_profiles) == dumps_json(loaded.raw_profiles)
    assert saved.profiles == loaded.profiles


# -- the demo estate ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo() -> ipt.Estate:
    return ipt.demo_estate(n_profiles=400, seed=5)


def test_demo_filters_agree_with_where_used(demo):
    graph = build_graph(demo)
    nodes = [f"profile:{raw['id']}" for raw in demo.raw_profiles]
    for key, partner in list(demo.partners.items())[:15]:
        chosen = [nodes[i] for i in select(demo, Filter(partners=[partner.name]))]
        assert chosen == where_used(graph, f"partner:{key}")
    for type_name in ("AS2", "SFTP", "Mail"):
        chosen = [nodes[i] for i in select(demo, Filter(channel_types=[type_name]))]
        assert chosen == where_used(graph, type=f"IntegrationPartnerChannel{type_name}")
    for type_name in ("SFTPAgentSettings", "KafkaAgentSettings"):
        chosen = [nodes[i] for i in select(demo, Filter(agent_types=[type_name]))]
        assert chosen and chosen == where_used(graph, type=type_name)


def test_demo_subset_saves_byte_for_byte(demo, tmp_path):
    chosen = demo.subset(Filter(groups=["Finance/*"], active=True))
    assert 0 < len(chosen) < len(demo)
    loaded = load(chosen.save(tmp_path / "finance.json.gz"))
    assert [dumps_json(p) for p in loaded.raw_profiles] == [
        dumps_json(p) for p in chosen.raw_profiles
    ]
    assert loaded.info.extra["filters"] == [{"groups": ["Finance/*"], "active": True}]


def test_describe_names_types_as_every_list_does():
    chosen = Filter(
        agent_types=["SFTPAgentSettings"], channel_types=["core:IntegrationPartnerChannelAS2"]
    )
    assert chosen.describe() == "agent type SFTP; channel type AS2"
