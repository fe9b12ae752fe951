"""Click-through details: links in the detail pane, the back history, typed names, lookup
over the whole estate, and the link widget's messages (what the front end sends)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.query.graph import build_graph
from iptoolkit.viewmodel.explorer_html import Link, link_html, list_html

from .factories import ACME, GLOBEX, agent, channel, estate_of, partner, profile, unit

pytest.importorskip("ipywidgets")

from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.detail import HISTORY, SUGGESTIONS, DetailPane  # noqa: E402
from iptoolkit.widgets.links import LinkedHTML  # noqa: E402

SECRET = "hunter2-do-not-show"


@pytest.fixture(scope="module")
def demo() -> Estate:
    return demo_estate(n_profiles=120, seed=3)


@pytest.fixture()
def explorer(demo: Estate, tmp_path: Path) -> Iterator[Explorer]:
    x = Explorer(demo, folder=tmp_path / "out", diagram=False)
    yield x
    x.close()


def small() -> Estate:
    """Two partners, three channels (one of Globex's used by an inactive profile only), two
    profiles named alike, a secret in an agent and one in a URL."""
    acme_sftp = channel(5, "SFTP", partner=ACME, name="Acme SFTP")
    acme_as2 = channel(6, "AS2", partner=ACME, name="Acme AS2")
    globex_ftp = channel(7, "FTP", partner=GLOBEX, name="Globex FTP")
    return estate_of(
        profile(
            "P1",
            name="Orders in",
            agent=agent("SFTP", channels=[acme_sftp], password=SECRET),
            units=[unit("Ftp", channel=globex_ftp)],
        ),
        profile("P2", name="Orders in", agent=agent("SFTP", channels=[acme_as2])),
        profile(
            "P3",
            name="Old invoices",
            active=False,
            agent=agent("SFTP", channels=[globex_ftp], url=f"sftp://bob:{SECRET}@h.example/in"),
        ),
    )


@pytest.fixture()
def pane_explorer(tmp_path: Path) -> Iterator[Explorer]:
    x = Explorer(small(), folder=tmp_path / "out", diagram=False)
    yield x
    x.close()


def click(widget: LinkedHTML, node: str) -> None:
    """What the front end sends when a link is clicked (or focused and Enter pressed)."""
    widget._handle_custom_msg({"event": "open", "node": node}, [])


def linked(page: str) -> list[str]:
    """The node ids a page links to, in order."""
    import re

    return re.findall(r"data-node='([^']+)'", page)


# -- the HTML -----------------------------------------------------------------------------


def test_link_html_escapes_masks_and_marks_outside() -> None:
    page = link_html(Link("partner:x'><script>", "<b>Acme</b> https://u:pw@h/x"))
    assert "<script>" not in page and "<b>" not in page
    assert "data-node='partner:x&#x27;&gt;&lt;script&gt;'" in page
    assert ":pw@" not in page and "**********" in page
    assert "class='ipt-link'" in page and "href='#'" in page  # focusable: Enter clicks it
    outside = link_html(Link("partner:1", "Acme", outside=True))
    assert "ipt-outside" in outside and "not in the current selection" in outside
    listed = list_html("Its channels", [Link("channel:5", "Acme SFTP"), "plain <text>"])
    assert linked(listed) == ["channel:5"] and "plain &lt;text&gt;" in listed


def test_each_kind_links_the_items_it_names(pane_explorer: Explorer) -> None:
    detail = pane_explorer.detail
    detail.show("profile:P1")  # channels it uses, partners they belong to, impact
    assert {"channel:5", "channel:7", "partner:1", "partner:2"} <= set(linked(detail.content.value))
    detail.show("channel:5")  # its partner, where used, impact
    page = detail.content.value
    assert "partner:1" in linked(page) and "profile:P1" in linked(page)
    assert "1 active profile would receive nothing." in page
    assert "Profiles that lose all input (1)" in page
    assert "lose a response path" not in page  # the impact says only what happens
    detail.show("partner:2")  # its channels, where used
    assert {"channel:7", "profile:P1", "profile:P3"} <= set(linked(detail.content.value))


def test_secrets_never_reach_the_details(pane_explorer: Explorer) -> None:
    for node in ("profile:P1", "profile:P3", "channel:7", "partner:2"):
        pane_explorer.detail.show(node)
        assert SECRET not in pane_explorer.detail.content.value, node


# -- clicking and going back ------------------------------------------------------------


def test_a_clicked_link_opens_its_details_and_back_returns(pane_explorer: Explorer) -> None:
    x = pane_explorer
    detail = x.detail
    assert detail.back_button.disabled
    x.show_detail("channel:5")
    assert x.tabs.selected_index == 2
    assert detail.kind.value == "channel"
    click(detail.content, "partner:1")  # the channel's partner
    assert detail.node == "partner:1" and detail.kind.value == "partner"
    assert "Partner Acme" in detail.content.value
    click(detail.content, "channel:6")  # one of the partner's channels
    assert detail.node == "channel:6"
    assert detail.history == ["channel:5", "partner:1"]
    assert not detail.back_button.disabled
    assert detail.back_button.tooltip == "back to Acme"
    detail.back_button.click()
    assert detail.node == "partner:1" and "Partner Acme" in detail.content.value
    detail.back()
    assert detail.node == "channel:5" and detail.kind.value == "channel"
    assert detail.back_button.disabled and detail.history == []


def test_an_agent_or_response_unit_opens_its_profile(pane_explorer: Explorer) -> None:
    pane_explorer.show_detail("agent:P2")  # a topology view may name one
    assert pane_explorer.detail.node == "profile:P2"
    pane_explorer.show_detail("response:P1:0")
    assert pane_explorer.detail.node == "profile:P1"
    assert pane_explorer.detail.kind.value == "profile"


def test_the_same_link_clicked_twice_opens_twice() -> None:
    opened: list[str] = []
    widget = LinkedHTML("<a data-node='partner:1'>Acme</a>", on_open=opened.append)
    click(widget, "partner:1")
    click(widget, "partner:1")
    widget._handle_custom_msg({"event": "hover", "node": "partner:1"}, [])  # not ours
    widget._handle_custom_msg({"event": "open", "node": 7}, [])
    widget._handle_custom_msg(["open"], [])
    assert opened == ["partner:1", "partner:1"]
    widget.close()


def test_history_keeps_the_latest_items(pane_explorer: Explorer) -> None:
    detail = pane_explorer.detail
    for _ in range(HISTORY):
        detail.show("channel:5")
        detail.show("channel:6")
    assert len(detail.history) == HISTORY
    assert detail.history[-2:] == ["channel:6", "channel:5"]


# -- typing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "typed", "node"),
    [
        ("partner", "globex", "partner:2"),  # a name, any case
        ("partner", "partner:1", "partner:1"),  # a node id
        ("channel", "7", "channel:7"),  # a bare id
        ("channel", "ACME as2", "channel:6"),
        ("profile", "P3", "profile:P3"),
        ("profile", "old INVOICES", "profile:P3"),  # a profile's name when only one has it
        ("profile", "P2 · Orders in", "profile:P2"),  # the label a suggestion shows
    ],
)
def test_a_typed_name_of_one_item_opens_it(
    pane_explorer: Explorer, kind: str, typed: str, node: str
) -> None:
    detail = pane_explorer.detail
    detail.kind.value = kind
    detail.search.value = typed
    assert detail.node == node
    assert linked(detail.content.value)  # its details, not a list of candidates


def test_a_name_several_items_share_lists_them_as_links(pane_explorer: Explorer) -> None:
    detail = pane_explorer.detail
    detail.kind.value = "profile"
    detail.search.value = "orders in"
    assert detail.node is None
    page = detail.content.value
    assert "names 2 items" in page
    assert linked(page) == ["profile:P1", "profile:P2"]
    click(detail.content, "profile:P2")
    assert detail.node == "profile:P2"


def test_typing_an_id_key_by_key_leaves_no_trail_in_the_history(
    pane_explorer: Explorer,
) -> None:
    detail = pane_explorer.detail
    detail.show("partner:1")
    detail.kind.value = "channel"
    for typed in ("5", "6", "7"):  # each opens a channel: only the last one counts
        detail.search.value = typed
    assert detail.node == "channel:7"
    assert detail.history == ["partner:1"]


def test_lookup_covers_the_whole_estate_and_marks_what_is_outside(
    pane_explorer: Explorer,
) -> None:
    x = pane_explorer
    x.filter = Filter(active=True)  # P3 is inactive: outside
    detail = x.detail
    detail.kind.value = "profile"
    detail.search.value = "invoices"
    assert detail.search.options == ("P3 · Old invoices [not in the current selection]",)
    detail.search.value = detail.search.options[0]  # picked from the suggestions
    assert detail.node == "profile:P3"
    assert "This profile is not in the current selection" in detail.content.value
    detail.show("partner:2")  # used by P1 (inside) and P3 (outside)
    page = detail.content.value
    assert "2 in the whole estate" not in page  # the note says how many are inside
    assert "1 in the current selection" in page
    assert "data-node='profile:P3' href='#' title='profile:P3, not in" in page


def test_switching_the_kind_clears_the_pane_and_the_search(pane_explorer: Explorer) -> None:
    detail = pane_explorer.detail
    detail.kind.value = "partner"
    detail.search.value = "Globex"
    assert detail.node == "partner:2"
    detail.kind.value = "channel"
    assert detail.node is None and detail.search.value == ""
    assert "data-node" not in detail.content.value
    assert detail.history == ["partner:2"]  # back returns to it


def test_suggestions_stay_capped(demo: Estate) -> None:
    big = demo_estate(n_profiles=400, seed=3)
    x = Explorer(big, diagram=False)
    try:
        detail = x.detail
        detail.search.value = "in"  # hundreds of profiles match
        assert len(detail.search.options) == SUGGESTIONS
        x.filter = Filter(active=False)
        detail.search.value = "i"
        options = detail.search.options
        assert len(options) == SUGGESTIONS
        inside = [o for o in options if "not in the current selection" not in o]
        assert inside and options[: len(inside)] == tuple(inside)  # the selection's first
    finally:
        x.close()


def test_a_pane_on_its_own_opens_clicked_links(demo: Estate) -> None:
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    model = ExplorerModel(demo)
    selection = model.select(Filter())
    pane = DetailPane(model, lambda: selection)
    channel_id = next(iter(demo.channels))
    pane.show(f"channel:{channel_id}")
    partner_node = next(n for n in linked(pane.content.value) if n.startswith("partner:"))
    click(pane.content, partner_node)
    assert pane.node == partner_node
    assert partner_node in build_graph(demo)


def test_an_unresolved_channel_id_is_named_so() -> None:
    named = profile("P1", agent=agent("SFTP", channelIds=[99]))
    x = Explorer(estate_of(named), diagram=False)
    try:
        x.detail.show("profile:P1")
        assert "channel id 99 (held by no profile)</a>" in x.detail.content.value
        click(x.detail.content, "channel:99")
        assert "no: named by id, held by no profile" in x.detail.content.value
    finally:
        x.close()


def test_items_without_ids_or_names_have_details() -> None:
    nameless = channel(None, partner=partner(None, "Initech"))
    x = Explorer(estate_of(profile("P1", agent=agent("SFTP", channels=[nameless]))), diagram=False)
    try:
        x.detail.show("profile:P1")
        nodes = linked(x.detail.content.value)
        assert nodes
        for node in nodes:
            click(x.detail.content, node)
            assert x.detail.node == node and "not in this estate" not in x.detail.content.value
    finally:
        x.close()


def test_a_name_of_another_kind_opens_it_and_an_unknown_one_is_said(
    pane_explorer: Explorer,
) -> None:
    detail = pane_explorer.detail
    detail.kind.value = "profile"
    detail.search.value = "Globex"  # a partner's name, typed in Profile mode
    assert detail.node is not None and detail.node.startswith("partner:")
    assert detail.kind.value == "partner"  # the switch follows what was opened
    detail.clear()
    detail.search.value = "zzz nothing like it"
    assert detail.node is None and "No profile, channel or partner" in detail.content.value


def test_every_list_says_how_many_more_and_shows_them_on_a_click() -> None:
    items = [f"item {n}" for n in range(25)]
    page = list_html("Where used", items)
    assert "Where used (25)" in page and "<summary>and 15 more</summary>" in page
    assert all(f">item {n}<" in page for n in range(25))  # all of them, 15 behind a click
    many = list_html("Where used", [f"item {n}" for n in range(80)], limit=50)
    assert "<summary>and 70 more</summary>" in many and "… and 30 more" in many
    assert ">item 49<" in many and ">item 50<" not in many


def test_details_say_active_or_inactive_as_people_read_it(tmp_path: Path) -> None:
    """Not `active True`: the one rule (`is_active`) in words, and why a flag that is
    missing or not a boolean reads as inactive."""
    estate = estate_of(
        profile("P1", name="On"),
        profile("P2", name="Off", active=False),
        profile("P3", name="Unsaid", active=None),
        profile("P4", name="Text", active="true"),  # type: ignore[arg-type]  # not a boolean
    )
    x = Explorer(estate, folder=tmp_path / "out", diagram=False)
    try:
        said = {}
        for key in ("P1", "P2", "P3", "P4"):
            x.detail.show(f"profile:{key}")
            page = x.detail.content.value
            said[key] = page.split("<th>active</th><td>", 1)[1].split("</td>", 1)[0]
            assert "<td>True</td>" not in page and "<td>False</td>" not in page
    finally:
        x.close()
    assert said == {
        "P1": "active",
        "P2": "inactive",
        "P3": "inactive (no active flag)",
        "P4": "inactive (its active flag is &#x27;true&#x27;, not true)",
    }


def test_a_subsets_profile_shows_its_own_fields() -> None:
    """The graph of a subset numbers its profiles in the whole estate: the details read the
    node's own record (they showed another profile's fields, or failed past the end)."""
    from iptoolkit.viewmodel.explorer_model import ExplorerModel
    from iptoolkit.viewmodel.item_html import detail_sections

    selected = demo_estate(300).subset(Filter(groups=["Finance"]))
    model = ExplorerModel(selected)
    for record in selected.records:
        fields = detail_sections(model, record.node, frozenset())[1].fields
        assert fields is not None and fields["id"] == record.id, record.node
