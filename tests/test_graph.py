"""The estate graph: node ids, edges, attributes, where-used, impact, neighbourhood."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import iptoolkit as ipt
from iptoolkit.query.graph import NODE_KINDS, RELATIONS, build_graph
from iptoolkit.query.reach import Impact, impact, neighbourhood, where_used

from .factories import ACME, GLOBEX, agent, channel, estate_of, partner, profile, unit
from .strategies import profiles as any_profiles

AS2_ACME = channel(10, "AS2", partner=ACME, as2Url="https://as2.acme.example.com/in")
SFTP_ACME = channel(11, "SFTP", partner=ACME, host="sftp.acme.example.com")
FTP_GLOBEX = channel(20, "FTP", partner=GLOBEX, host="ftp.globex.example.com")
OLD_GLOBEX = channel(21, "FTP", partner=GLOBEX, active=False)


def hand_estate() -> ipt.Estate:
    """P1 receives over AS2 from Acme and answers over FTP to Globex; P2 listens on both
    Acme channels; P3 names channel 20 and a missing 99 by id; P4 is inactive; then a
    faulty profile, a profile without id and a duplicate id."""
    return estate_of(
        profile(
            "P1",
            name="Orders in",
            group="Sales/Orders",
            agent=agent("AS2", channels=[AS2_ACME]),
            units=[unit("Ftp", channel=FTP_GLOBEX, fileName="orders.csv")],
        ),
        profile("P2", agent=agent("SFTP", channels=[AS2_ACME, SFTP_ACME]), units=[]),
        profile("P3", agent=agent("Fax", channelIds=[20, 99])),
        profile("P4", active=False, agent=agent("SFTP", channels=[SFTP_ACME])),
        {"id": "P5", "created": "yesterday"},
        profile(None, agent=agent("Http", url="/api/orders")),
        profile("P1", agent=agent("ManualUpload")),
    )


@pytest.fixture(scope="module")
def G() -> nx.MultiDiGraph[str]:
    return build_graph(hand_estate())


def edges(graph: nx.MultiDiGraph[str]) -> set[tuple[str, str, str]]:
    return {(u, v, d["relation"]) for u, v, d in graph.edges(data=True)}


def test_node_ids_and_kinds(G):
    kinds = dict(G.nodes(data="kind"))
    assert {n for n, k in kinds.items() if k == "profile"} == {
        "profile:P1", "profile:P2", "profile:P3", "profile:P4", "profile:P5",
        "profile:#5", "profile:P1#6",
    }  # fmt: skip
    assert {n for n, k in kinds.items() if k == "channel"} == {
        "channel:10", "channel:11", "channel:20", "channel:99",
    }  # fmt: skip
    assert {n for n, k in kinds.items() if k == "partner"} == {"partner:1", "partner:2"}
    assert {n for n, k in kinds.items() if k == "agent"} == {
        "agent:P1", "agent:P2", "agent:P3", "agent:P4", "agent:#5", "agent:P1#6",
    }  # fmt: skip
    assert {n for n, k in kinds.items() if k == "response"} == {"response:P1:0"}


def test_edges_point_outward_with_relations(G):
    assert edges(G) == {
        ("profile:P1", "agent:P1", "input"),
        ("agent:P1", "channel:10", "listens_on"),
        ("profile:P1", "response:P1:0", "delivers"),
        ("response:P1:0", "channel:20", "via"),
        ("profile:P2", "agent:P2", "input"),
        ("agent:P2", "channel:10", "listens_on"),
        ("agent:P2", "channel:11", "listens_on"),
        ("profile:P3", "agent:P3", "input"),
        ("agent:P3", "channel:20", "references"),
        ("agent:P3", "channel:99", "references"),
        ("profile:P4", "agent:P4", "input"),
        ("agent:P4", "channel:11", "listens_on"),
        ("profile:#5", "agent:#5", "input"),
        ("profile:P1#6", "agent:P1#6", "input"),
        ("channel:10", "partner:1", "belongs_to"),
        ("channel:11", "partner:1", "belongs_to"),
        ("channel:20", "partner:2", "belongs_to"),
    }
    assert (
        G.get_edge_data("agent:P3", "channel:99")[0]["path"] == "inputAgentSettings.channelIds[1]"
    )


def test_flat_attributes_and_what_they_were_read_from(G):
    p1 = G.nodes["profile:P1"]
    assert (p1["name"], p1["group"], p1["active"], p1["agent_type"]) == (
        "Orders in", "Sales/Orders", True, "AS2AgentSettings",
    )  # fmt: skip
    assert p1["problem"] is False and p1["record"].model.id == "P1"
    assert p1["record"].raw["id"] == "P1" and "model" not in p1
    ch = G.nodes["channel:10"]
    assert ch["type"] == "IntegrationPartnerChannelAS2"
    assert (ch["partner"], ch["partner_id"], ch["resolved"]) == ("Acme", 1, True)
    assert ch["url"] == "https://as2.acme.example.com/in"
    assert G.nodes["channel:20"]["host"] == "ftp.globex.example.com"
    assert G.nodes["channel:99"]["resolved"] is False
    assert G.nodes["channel:99"]["model"] is None
    assert G.nodes["agent:#5"]["url"] == "/api/orders"
    assert G.nodes["agent:#5"]["json"]["class"].startswith("core:")  # the agent as sent
    response = G.nodes["response:P1:0"]
    assert (response["type"], response["target"]) == ("FtpProfileResponseUnit", "orders.csv")
    assert G.nodes["partner:1"]["active_channels"] == 2
    for _, data in G.nodes(data=True):
        flat = {k: v for k, v in data.items() if k not in ("model", "record", "json")}
        assert all(v is None or isinstance(v, str | int | float | bool) for v in flat.values())


def test_faulty_profile_is_a_node_without_edges(G):
    p5 = G.nodes["profile:P5"]
    assert p5["problem"] is True and p5["record"].model is None
    assert "$[4].created" in p5["error"]
    assert G.degree("profile:P5") == 0


def test_a_conflicting_channel_links_every_partner_it_names():
    estate = estate_of(
        profile("A", agent=agent("SFTP", channels=[channel(5, partner=ACME)])),
        profile("B", agent=agent("SFTP", channels=[channel(5, partner=GLOBEX)])),
    )
    graph = build_graph(estate)
    assert {v for _, v in graph.out_edges("channel:5")} == {"partner:1", "partner:2"}
    assert where_used(graph, "partner:2") == ["profile:A", "profile:B"]


def test_id_less_channels_and_partners():
    estate = estate_of(
        profile("A", agent=agent("SFTP", channels=[channel(None, partner=partner(None, "Z"))]))
    )
    graph = build_graph(estate)
    assert graph.has_edge("agent:A", "channel:A:inputAgentSettings.channels[0]")
    assert graph.has_edge("channel:A:inputAgentSettings.channels[0]", "partner:name:Z")


def test_where_used(G):
    assert where_used(G, "partner:1") == ["profile:P1", "profile:P2", "profile:P4"]
    assert where_used(G, "partner:2") == ["profile:P1", "profile:P3"]
    assert where_used(G, "channel:99") == ["profile:P3"]
    assert where_used(G, "response:P1:0") == ["profile:P1"]
    assert where_used(G, "profile:P2") == ["profile:P2"]
    assert where_used(G, type="SFTPAgentSettings") == ["profile:P2", "profile:P4"]
    assert where_used(G, type="core:sftpagentsettings") == ["profile:P2", "profile:P4"]
    assert where_used(G, type="AS2") == ["profile:P1", "profile:P2"]
    assert where_used(G, type="FtpProfileResponseUnit") == ["profile:P1"]
    assert where_used(G, type="Fax") == ["profile:P3"]
    assert where_used(G, type="SFTP") == ["profile:P2", "profile:P4"]  # agents and channels
    assert where_used(G, type="NoSuchType") == []


def test_where_used_refuses_unclear_questions(G):
    with pytest.raises(TypeError):
        where_used(G)
    with pytest.raises(TypeError):
        where_used(G, "partner:1", type="AS2")
    with pytest.raises(nx.NodeNotFound, match="node id, e.g. 'partner:17'"):
        where_used(G, "Initech")


def test_impact_of_a_channel(G):
    lost = impact(G, "channel:10")
    assert lost.lose_input == ["profile:P1"]  # its only channel
    assert lost.partial_input == ["profile:P2"]  # still has channel 11
    assert lost.lose_response == [] and lost.partners == []
    assert lost.profiles == ["profile:P1", "profile:P2"]
    assert "1 profile loses their input, 1 loses part of it" in str(lost)  # not "1 profiles"


def test_impact_of_a_partner_takes_its_channels(G):
    lost = impact(G, "partner:1")
    assert lost.lose_input == ["profile:P1", "profile:P2"]  # P4 is inactive: nothing stops
    assert lost.partners == ["partner:1"]
    lost = impact(G, "channel:20")
    assert (lost.lose_input, lost.lose_response, lost.responses) == (
        ["profile:P3"], ["profile:P1"], ["response:P1:0"],
    )  # fmt: skip
    assert lost.partners == ["partner:2"]  # its only active channel


def test_impact_of_an_inactive_channel_is_nothing():
    estate = estate_of(
        profile("A", agent=agent("SFTP", channels=[OLD_GLOBEX, FTP_GLOBEX])),
        profile("B", agent=agent("SFTP", channels=[OLD_GLOBEX])),
    )
    graph = build_graph(estate)
    assert impact(graph, "channel:21") == Impact("channel:21", nodes=["channel:21"])
    assert not impact(graph, "channel:21")
    assert impact(graph, "channel:20").lose_input == ["profile:A"]
    assert impact(graph, "profile:A").lose_input == ["profile:A"]
    assert impact(graph, "agent:B").lose_input == ["profile:B"]  # the agent itself goes


def test_neighbourhood(G):
    assert set(neighbourhood(G, "partner:2", depth=0)) == {"partner:2"}
    assert set(neighbourhood(G, "partner:2")) == {"partner:2", "channel:20"}
    around = neighbourhood(G, "partner:2", depth=3)
    assert {"profile:P1", "profile:P3", "response:P1:0", "agent:P3"} <= set(around)
    assert around.nodes["channel:20"]["name"] == "FTP 20"
    around.nodes["channel:20"]["name"] = "changed"
    assert G.nodes["channel:20"]["name"] == "FTP 20"  # an independent copy
    with pytest.raises(ValueError):
        neighbourhood(G, "partner:2", depth=-1)


# -- the demo estate ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo() -> ipt.Estate:
    return ipt.demo_estate(n_profiles=300, seed=3)


def test_demo_graph_shape(demo):
    graph = build_graph(demo)
    kinds = {node: attributes["kind"] for node, attributes in graph.nodes(data=True)}
    assert set(kinds.values()) == set(NODE_KINDS)
    assert sum(1 for k in kinds.values() if k == "profile") == len(demo.raw_profiles)
    assert sum(1 for k in kinds.values() if k == "partner") == len(demo.partners)
    resolved = [n for n, d in graph.nodes(data=True) if d["kind"] == "channel" and d["resolved"]]
    assert len(resolved) == len(demo.channels)
    allowed = {
        ("profile", "agent"): "input",
        ("agent", "channel"): {"listens_on", "references"},
        ("profile", "response"): "delivers",
        ("response", "channel"): "via",
        ("channel", "partner"): "belongs_to",
    }
    for u, v, attributes in graph.edges(data=True):
        relation = attributes["relation"]
        assert relation in RELATIONS
        expected = allowed[(kinds[u], kinds[v])]
        assert relation in expected if isinstance(expected, set) else relation == expected
    assert nx.is_directed_acyclic_graph(graph)


def test_demo_where_used_agrees_with_the_raw_json(demo):
    graph = build_graph(demo)
    for key in list(demo.partners)[:20]:
        used = where_used(graph, f"partner:{key}")
        named = [f"profile:{raw['id']}" for raw in demo.raw_profiles if key in _partner_ids(raw)]
        assert named and set(named) <= set(used)  # references by id may add more


def _partner_ids(value: Any) -> set[Any]:
    """Every partner id anywhere in a raw JSON value."""
    if isinstance(value, list):
        return set().union(*map(_partner_ids, value)) if value else set()
    if not isinstance(value, dict):
        return set()
    found = set().union(*map(_partner_ids, value.values())) if value else set()
    named = value.get("partner")
    if isinstance(named, dict) and "id" in named:
        found.add(named["id"])
    return found


# -- properties -----------------------------------------------------------------------------

PARTNERS = [partner(1, "Acme"), partner(2, "Globex"), partner(None, "NoId")]
POOL = {
    cid: channel(cid, kind, partner=PARTNERS[cid % 3], active=cid % 4 != 0)
    for cid, kind in [(100, "SFTP"), (101, "AS2"), (102, "FTP"), (103, "SFTP"), (104, "AS2")]
}
"""Channels by id, one content each: a consistent estate has no conflicts."""

held = st.sampled_from(sorted(POOL)).map(lambda cid: POOL[cid]) | st.builds(
    lambda p: channel(None, "SFTP", partner=p), st.sampled_from([*PARTNERS, None])
)
references = st.lists(st.sampled_from([*POOL, 555]), max_size=3)
agents = st.one_of(
    st.builds(lambda cs: agent("SFTP", channels=cs), st.lists(held, max_size=3)),
    st.builds(lambda c: agent("CronSftp", channel=c), held),
    st.builds(lambda ids: agent("Fax", channelIds=ids), references),
    st.builds(lambda i: agent("Message", comChannelId=i), st.sampled_from([*POOL, 556])),
    st.just(agent("ManualUpload")),
    st.none(),
)
units = st.lists(st.builds(lambda c: unit("Ftp", channel=c), held) | st.just(unit("File")))
raw_profiles = st.lists(st.tuples(agents, units), max_size=6).map(
    lambda items: [profile(f"P{i}", agent=a, units=u) for i, (a, u) in enumerate(items)]
)


def partners_named(raw: dict[str, Any], held_ids: set[int]) -> set[str]:
    """The partner nodes a profile's raw JSON names, read without the toolkit: partners of
    the channels it holds, and of the channels it names by an id some profile holds."""
    found: set[str] = set()
    settings = raw.get("inputAgentSettings") or {}
    channels = [*settings.get("channels", []), settings.get("channel")]
    channels += [u.get("channel") for u in raw.get("responseSettings", {}).get("units", [])]
    ids = [*settings.get("channelIds", []), settings.get("comChannelId")]
    channels += [POOL[i] for i in ids if i in held_ids]
    for held_channel in filter(None, channels):
        named = held_channel.get("partner")
        if named:
            found.add(
                f"partner:{named['id']}" if "id" in named else f"partner:name:{named['name']}"
            )
    return found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw_profiles)
def test_profiles_reach_exactly_the_partners_their_json_names(raw):
    estate = ipt.Estate.from_raw(raw)
    graph = build_graph(estate)
    held_ids = {int(key) for key in estate.channels if isinstance(key, int)}
    for item in raw:
        reached = {
            node
            for node in nx.descendants(graph, f"profile:{item['id']}")
            if graph.nodes[node]["kind"] == "partner"
        }
        assert reached == partners_named(item, held_ids)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(any_profiles())
def test_any_valid_listing_makes_a_graph(raw):
    estate = ipt.Estate.from_raw(raw)
    graph = build_graph(estate)
    assert sum(1 for _, a in graph.nodes(data=True) if a["kind"] == "profile") == len(raw)
    for node in list(graph)[:5]:
        where_used(graph, node)
        impact(graph, node)


def test_neighbourhood_keeps_the_graph_order_whatever_the_hash_seed():
    import os
    import subprocess
    import sys

    code = (
        "import iptoolkit as ipt; G = ipt.build_graph(ipt.demo_estate(120, seed=4)); "
        "p = sorted(n for n in G if n.startswith('partner:'))[0]; "
        "H = ipt.neighbourhood(G, p, depth=2); print(list(H), list(H.edges(keys=True)))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }  # fmt: skip
    assert len(outputs) == 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("node"), st.sampled_from("abcd"), st.integers(0, 3)),
            st.tuples(st.just("edge"), st.sampled_from("abcde"), st.sampled_from("abcde")),
        ),
        max_size=30,
    )
)
def test_a_build_fills_the_graph_as_networkx_own_methods_would(steps):
    """`_Parts` writes networkx's maps directly: the same nodes, keys, data and order as
    `add_nodes_from` and `add_edge` give, a node met first in a link included."""
    from iptoolkit.query.graph import _Parts

    ours: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    theirs: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    parts = _Parts(ours)
    for number, (op, first, second) in enumerate(steps):
        if op == "node":
            parts.node(first, {"weight": second, "step": number})
            theirs.add_nodes_from([(first, {"weight": second, "step": number})])
        else:
            parts.edge(first, second, {"step": number})
            theirs.add_edge(first, second, step=number)
    assert list(ours.nodes(data=True)) == list(theirs.nodes(data=True))
    assert list(ours.edges(keys=True, data=True)) == list(theirs.edges(keys=True, data=True))
    assert list(ours.in_edges(keys=True, data=True)) == list(theirs.in_edges(keys=True, data=True))
    for node in theirs:
        assert ours.pred[node] == theirs.pred[node]
        assert ours[node] == theirs[node]


def _any(value: Any) -> Any:
    """A wrong argument, on purpose: what a notebook passes by mistake."""
    return value


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (
            lambda e, G: ipt.build_graph(_any("snapshot.json")),
            "build_graph: estate must be an Estate",
        ),
        (lambda e, G: ipt.build_graph(G), "build_graph: .* not MultiDiGraph"),
        (lambda e, G: ipt.findings(_any("snapshot.json")), r"findings: .*ipt.load\(path\)"),
        (lambda e, G: ipt.audit(_any(None)), "audit: estate must be an Estate, not NoneType"),
        (lambda e, G: ipt.where_used(e, "partner:1"), "where_used: graph .* not Estate"),
        (lambda e, G: ipt.impact(e, "channel:5"), r"impact: .*ipt.build_graph\(estate\)"),
        (lambda e, G: ipt.paths(e, "P1", "partner:1"), "paths: graph .* not Estate"),
        (lambda e, G: ipt.neighbourhood(_any("G"), "partner:1"), "neighbourhood: .* not str"),
        (lambda e, G: ipt.paths(G, "P1", "partner:1", limit=_any("3")), "limit must be a whole"),
        (lambda e, G: ipt.paths(G, "P1", "partner:1", cutoff=_any(2.5)), "cutoff .* float: 2.5"),
        (lambda e, G: ipt.neighbourhood(G, "partner:1", _any(None)), "depth .* NoneType"),
    ],
)
def test_a_wrong_kind_of_argument_is_a_type_error_naming_it(call: Any, said: str) -> None:
    """An estate where the graph belongs (or a path, a graph where the estate does) is a
    `TypeError` naming the function and the argument, not an `AttributeError` ('str' object
    has no attribute 'info') or "argument of type 'Estate' is not iterable" from inside."""
    estate = hand_estate()
    with pytest.raises(TypeError, match=said):
        call(estate, build_graph(estate))


def test_a_name_of_white_space_alone_is_labelled_by_its_id():
    """A profile, channel, partner or agent named `"   "` would draw as a blank label on
    the map and in the lists: its id stands in, as for an empty name."""
    from iptoolkit.topology.view import node_label

    blank = partner(7, "   ")
    estate = estate_of(
        profile(
            "P9",
            name=" \t ",
            agent=agent("SFTP", name="  ", channels=[channel(5, name="  ", partner=blank)]),
        )
    )
    graph = build_graph(estate)
    assert graph.nodes["partner:7"]["name"] == "7"
    labels = {node: node_label(graph, node) for node in graph}
    assert labels == {
        "profile:P9": "P9",
        "agent:P9": "SFTPAgentSettings agent",  # as an agent with no name
        "channel:5": "5",
        "partner:7": "7",
    }
