"""One way to name an item: node id, bare id, or a partner's or channel's name, the same in
`resolve_node`, the queries and the diagrams' highlight."""

from __future__ import annotations

import networkx as nx
import pytest

import iptoolkit as ipt
from iptoolkit.query.resolve import (
    ID_KINDS,
    AmbiguousItemError,
    ItemIndex,
    UnknownItemError,
    resolve_node,
)
from iptoolkit.support.names import close_matches, did_you_mean, strip_kind

from .factories import ACME, agent, channel, estate_of, profile
from .plot_helpers import haloed
from .test_graph import hand_estate


@pytest.fixture(scope="module")
def G() -> nx.MultiDiGraph[str]:
    return ipt.build_graph(hand_estate())


@pytest.mark.parametrize(
    ("ref", "node"),
    [
        ("channel:10", "channel:10"),  # the node id
        ("10", "channel:10"),  # the bare id
        (10, "channel:10"),  # an int, as the JSON holds it
        ("as2 10", "channel:10"),  # the channel's name, any case
        ("ACME", "partner:1"),  # the partner's name
        ("1", "partner:1"),
        ("P2", "profile:P2"),
        ("  P2 ", "profile:P2"),
        ("partner:ACME", "partner:1"),  # a kind and a name
        ("Channel:10", "channel:10"),  # the kind in any case
    ],
)
def test_every_form_names_the_item(G, ref, node):
    assert resolve_node(G, ref) == node


def test_the_queries_take_every_form(G):
    assert (
        ipt.where_used(G, "11") == ipt.where_used(G, "channel:11") == ["profile:P2", "profile:P4"]
    )
    assert ipt.where_used(G, "acme") == ipt.where_used(G, "partner:1")
    assert ipt.impact(G, "SFTP 11").node == "channel:11"
    assert set(ipt.neighbourhood(G, "Globex")) == set(ipt.neighbourhood(G, "partner:2"))


def test_an_id_of_several_kinds_is_refused_with_the_node_ids():
    both = estate_of(profile("10", agent=agent("AS2", channels=[channel(10, "AS2", partner=ACME)])))
    graph = ipt.build_graph(both)
    with pytest.raises(
        AmbiguousItemError, match="could be a profile or channel: profile:10, channel:10"
    ) as caught:
        ipt.where_used(graph, "10")
    assert caught.value.nodes == ("profile:10", "channel:10")
    assert isinstance(caught.value, ValueError)
    assert ipt.where_used(graph, "channel:10") == ["profile:10"]


def test_a_bare_id_two_profiles_share_is_refused_with_both_node_ids():
    """Not silently the first: where used, impact and paths of either would be half the answer."""
    feed = agent("AS2", channels=[channel(10, "AS2", partner=ACME)])
    twins = estate_of(profile("P1", agent=feed), profile("P2"), profile("P1"))
    graph = ipt.build_graph(twins)
    for ask in (
        lambda: ipt.where_used(graph, "P1"),
        lambda: ipt.impact(graph, "P1"),
        lambda: ipt.paths(graph, "P1", "channel:10"),
    ):
        with pytest.raises(AmbiguousItemError, match="profile:P1, profile:P1#2") as caught:
            ask()
        assert caught.value.nodes == ("profile:P1", "profile:P1#2")
    assert ItemIndex(graph).matches("P1") == ["profile:P1", "profile:P1#2"]
    assert ipt.where_used(graph, "profile:P1") == ["profile:P1"]  # a node id is one item
    assert resolve_node(graph, "P1#2") == "profile:P1#2"
    assert resolve_node(graph, "P2") == "profile:P2"


def test_an_unknown_item_suggests_close_names(G):
    with pytest.raises(UnknownItemError, match=r"did you mean partner:2 \(Globex\)\?"):
        ipt.impact(G, "Globx")
    with pytest.raises(nx.NodeNotFound, match="'channel:12'.*did you mean channel:"):
        ipt.where_used(G, "channel:12")
    with pytest.raises(nx.NodeNotFound, match="highlight: nothing in the graph is named"):
        ipt.plot_topology(G, highlight="Initech")


def test_profile_names_count_only_where_the_caller_says(G):
    with pytest.raises(UnknownItemError, match="'orders in'"):
        resolve_node(G, "orders in")
    assert resolve_node(G, "orders in", named=ID_KINDS) == "profile:P1"
    assert resolve_node(G, "profile:Orders In", named=ID_KINDS) == "profile:P1"


def test_one_index_answers_many_questions_and_its_errors_are_value_errors(G):
    index = ItemIndex(G)
    assert [index.resolve(ref) for ref in ("10", "acme", "P2")] == [
        "channel:10",
        "partner:1",
        "profile:P2",
    ]
    with pytest.raises(UnknownItemError, match="did you mean partner:2 \\(Globex\\)") as caught:
        index.resolve("Globx")
    assert caught.value.choices == ["partner:2 (Globex)"]
    with pytest.raises(UnknownItemError, match="an empty id; name an item by node id"):
        index.resolve("  ")


def test_matches_reads_as_resolve_without_errors_or_suggestions(G, monkeypatch):
    index = ItemIndex(G)
    monkeypatch.setattr(ItemIndex, "suggest", lambda *a, **k: pytest.fail("no suggestions"))
    assert index.matches("acme") == ["partner:1"]
    assert index.matches("channel:10") == ["channel:10"]
    assert index.matches(" 10 ", kinds=("channel",), named=("channel",)) == ["channel:10"]
    assert index.matches("orders in", kinds=("profile",), named=("profile",)) == ["profile:P1"]
    assert index.matches("Globx") == [] and index.matches("") == []
    both = ipt.build_graph(
        estate_of(profile("10", agent=agent("AS2", channels=[channel(10, "AS2", partner=ACME)])))
    )
    assert ItemIndex(both).matches("10") == ["profile:10", "channel:10"]


def test_highlight_takes_a_name(G):
    by_name = ipt.plot_topology(G, highlight="acme").axes[0]
    assert haloed(by_name) == haloed(ipt.plot_topology(G, highlight="partner:1").axes[0]) > 0
    with pytest.raises(UnknownItemError, match="highlight"):
        ipt.plot_topology(G, highlight=["acme", "Nobody at all"])


def test_the_name_helpers():
    assert strip_kind("channel:40003", "channel") == "40003"
    assert strip_kind("partner:17", "channel") == "partner:17"
    assert strip_kind(17, "partner") == 17
    assert close_matches("finanse", ["Finance", "Sales", "finance"]) == ["Finance"]
    assert (
        did_you_mean("Mosel Retal", ["Mosel Retail", "Acme"]) == " (did you mean 'Mosel Retail'?)"
    )
    assert did_you_mean("zzz", ["Mosel Retail"]) == ""
    assert close_matches("mosel", ["Acme", "Mosel Retail EU", "Mosel Retail"]) == [
        "Mosel Retail EU",
        "Mosel Retail",
    ], "a fragment finds the names holding it"
    assert close_matches("mo", ["Mosel Retail"]) == [], "but not one of two letters"


def test_filters_take_node_ids():
    from iptoolkit.query.filters import UnjudgedProfilesWarning

    estate = hand_estate()  # its faulty profile's channels are not read: said each time
    with pytest.warns(UnjudgedProfilesWarning, match="P5"):
        by_id = estate.subset(ipt.Filter(partners=["1"]))
    assert len(by_id) == 3
    with pytest.warns(UnjudgedProfilesWarning, match="P5"):
        by_node = estate.subset(ipt.Filter(partners=["partner:1"]))
    assert [r.key for r in by_node.records] == [r.key for r in by_id.records]
    with pytest.warns(UnjudgedProfilesWarning, match="channels"):
        assert len(estate.subset(ipt.Filter(channels=["channel:11"]))) == 2


def test_the_first_words_of_a_name_and_their_typos():
    from iptoolkit.support.names import Vocabulary

    words = Vocabulary(["Mosel Tools S.A.", "Mosel Retail GmbH & Co. KG", "Acme Tools"])
    for typo in ("Mosel Retial", "Mosel Retal", "Mosel Ret"):
        assert words.closest(typo)[0] == "Mosel Retail GmbH & Co. KG", typo
    assert words.closest("Acme Tols") == ["Acme Tools"]
    from iptoolkit.support.names import names_started, starts_name

    assert starts_name("Mosel Retail GmbH & Co. KG", "mosel  RETAIL")
    assert starts_name("Mosel Retail GmbH & Co. KG", "Mosel Retail GmbH & Co")
    assert not starts_name("Mosel Retail GmbH & Co. KG", "Mosel Ret"), "it ends inside a word"
    assert not starts_name("Acmeco Ltd", "Acme"), "another company"
    assert not starts_name("Mosel Retail", "Mosel Retail"), "a whole name is no start"
    names = ["Mosel Retail GmbH", "Mosel Tools S.A.", "mosel retail gmbh", "Elbe Retail"]
    assert names_started("Mosel", names) == ["Mosel Retail GmbH", "Mosel Tools S.A."]


@pytest.fixture(scope="module")
def big() -> ipt.Estate:
    """The estate a new user tried: 10,000 profiles, whose partner is `Mosel Retail GmbH &
    Co. KG` where the 300-profile README's is `Mosel Retail`."""
    return ipt.demo_estate(10_000)


MOSEL = "Mosel Retail GmbH & Co. KG"


def test_a_partner_filter_takes_the_start_of_a_name_or_says_what_it_could_be(big):
    from iptoolkit.query.filters import unmatched

    whole = big.subset(ipt.Filter(partners=[MOSEL]))
    assert len(whole) > 0
    started = big.subset(ipt.Filter(partners=["Mosel Retail"]))
    assert [r.key for r in started.records] == [r.key for r in whole.records]
    hints = dict((value, hint) for _, value, hint in unmatched(
        big, ipt.Filter(partners=["Mosel Retial", "Mosel Retal", "Mosel Ret", "mosel"])
    ))  # fmt: skip
    for typo in ("Mosel Retial", "Mosel Retal", "Mosel Ret"):
        assert hints[typo].startswith(f" (did you mean {MOSEL!r}"), hints[typo]
    assert hints["mosel"] == (
        " (could be 'Mosel Logistics GmbH & Co. KG' or 'Mosel Retail GmbH & Co. KG' or "
        "'Mosel Tools S.A.')"
    ), "the start of three names selects none of them"
    from iptoolkit.query.filters import completed

    said = completed(big, ipt.Filter(partners=["Mosel Retail"]))
    assert said == [("partners", "Mosel Retail", MOSEL)]


def test_an_item_is_named_by_the_start_of_its_name_or_a_typo_of_it(big):
    G = ipt.build_graph(big)
    index = ItemIndex(G)
    partner = resolve_node(G, MOSEL)
    assert index.resolve("partner:Mosel Retail") == partner
    with pytest.raises(AmbiguousItemError, match="could be a partner or channel") as caught:
        index.resolve("Mosel Retail")  # the partner's start, and its channels'
    assert caught.value.nodes[0] == partner and len(caught.value.nodes) > 1
    assert f"{partner} ({MOSEL})" in str(caught.value)
    assert str(caught.value).endswith("or its kind (partner:Mosel Retail)")
    for typo in ("Mosel Retial", "Mosel Retal"):
        with pytest.raises(UnknownItemError) as unknown:
            index.resolve(typo)
        assert f"{partner} ({MOSEL})" in unknown.value.choices, typo


def test_paths_suggests_partners_too(big, tmp_path):
    from click.testing import CliRunner

    from iptoolkit.cli import main

    snapshot = big.save(tmp_path / "big.json")
    result = CliRunner().invoke(main, ["paths", str(snapshot), "P-000001", "Mosel Retal"])
    assert result.exit_code == 2
    assert "did you mean partner:" in result.stderr and f"({MOSEL})" in result.stderr
    result = CliRunner().invoke(main, ["summary", str(snapshot), "--partner", "Mosel Retail"])
    assert result.exit_code == 0, result.output
    assert f"('Mosel Retail' is {MOSEL!r})" in result.stderr


def test_a_str_is_one_kind_and_an_unknown_kind_is_named(G):
    """`named="partner"` was read as the kinds p, a, r, ...: no name matched."""
    assert resolve_node(G, "acme", named="partner") == "partner:1"
    assert resolve_node(G, "orders in", named="profile") == "profile:P1"
    assert resolve_node(G, "10", kinds="channel") == "channel:10"
    with pytest.raises(ValueError, match="resolve_node: named: unknown kind 'partners'"):
        resolve_node(G, "acme", named=["partners"])
    with pytest.raises(TypeError, match="resolve_node: kinds takes .* not int: 3"):
        resolve_node(G, "acme", kinds=3)  # type: ignore[arg-type]  # wrong on purpose
    assert ItemIndex(G).matches("acme", named="partner") == ["partner:1"]
