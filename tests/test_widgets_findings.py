"""The Findings tab: the selection's audit, grouped and counted, items linked to their
details, computed only while shown and kept per filter, long lists cut, secrets masked."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import iptoolkit.auditing as audit
from iptoolkit.auditing import Finding, Findings
from iptoolkit.core.estate import Estate
from iptoolkit.query.filters import Filter
from iptoolkit.query.graph import build_graph

from .factories import ACME, GLOBEX, agent, channel, estate_of, profile

pytest.importorskip("ipywidgets")

from iptoolkit.viewmodel.explorer_model import TABS  # noqa: E402
from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.findings import FINDINGS_SHOWN, ITEMS_SHOWN, findings_html  # noqa: E402

SECRET = "s3cret-in-a-url"
FINDINGS_TAB = TABS.index("Findings")


def audited() -> Estate:
    """Findings of several kinds: an active profile on an inactive channel, an inactive
    profile holding an active one, two agents on one URL (with a password in it), a partner
    with no active channel."""
    url = f"https://bob:{SECRET}@in.example/orders"
    return estate_of(
        profile("P1", name="Orders", agent=agent("SFTP", channels=[channel(5, partner=ACME)])),
        profile(
            "P2",
            name="Dead end",
            agent=agent("SFTP", channels=[channel(6, partner=GLOBEX, active=False)]),
        ),
        profile("P3", name="Old", active=False, agent=agent("SFTP", channels=[channel(5)])),
        profile("P4", name="Web A", agent=agent("HttpServer", url=url)),
        profile("P5", name="Web B", agent=agent("HttpServer", url=url)),
    )


@pytest.fixture()
def explorer() -> Iterator[Explorer]:
    x = Explorer(audited(), diagram=False)
    yield x
    x.close()


def linked(page: str) -> list[str]:
    return re.findall(r"data-node='([^']+)'", page)


def kinds_shown(page: str) -> dict[str, int]:
    """Kind -> the count its heading shows (summed over severities)."""
    shown: dict[str, int] = {}
    for kind, count in re.findall(r"data-kind='(\w+)'.*?\((\d+)\)</summary>", page):
        shown[kind] = shown.get(kind, 0) + int(count)
    return shown


def test_the_tab_lists_the_selections_findings(explorer: Explorer) -> None:
    assert TABS == ("Topology", "Table", "Details", "Findings", "Export")
    explorer.tabs.selected_index = FINDINGS_TAB
    page = explorer.findings.content.value
    expected = audit.findings(explorer.selection)
    assert len(expected.counts()) >= 4
    assert kinds_shown(page) == expected.counts()
    assert f"{len(expected)} findings" in page
    explorer.filter = Filter(active=True)  # shown: follows the selection at once
    page = explorer.findings.content.value
    assert kinds_shown(page) == audit.findings(explorer.selection).counts()
    assert "inactive_profile_active_channel" not in page


def test_a_findings_item_opens_its_details(explorer: Explorer) -> None:
    explorer.tabs.selected_index = FINDINGS_TAB
    page = explorer.findings.content.value
    assert "profile:P2" in linked(page) and "channel:6" in linked(page)
    explorer.findings.content._handle_custom_msg({"event": "open", "node": "channel:6"}, [])
    assert explorer.tabs.selected_index == TABS.index("Details")
    assert explorer.detail.node == "channel:6"
    assert "Channel SFTP 6" in explorer.detail.content.value


def test_agents_are_named_by_their_profiles() -> None:
    estate = audited()
    page = findings_html(audit.findings(estate).of(kind="duplicate_endpoint"), build_graph(estate))
    assert linked(page) == ["profile:P4", "profile:P5"]


def test_computed_only_while_shown_and_kept_per_filter(
    explorer: Explorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = audit.findings

    def counted(estate: Estate) -> Findings:
        calls.append(len(estate))
        return real(estate)

    monkeypatch.setattr(audit, "findings", counted)
    explorer.filter = Filter(active=True)
    explorer.filter = Filter()
    explorer.tabs.selected_index = TABS.index("Table")
    assert calls == []  # the tab is hidden: filter changes never wait for the audit
    explorer.tabs.selected_index = FINDINGS_TAB
    assert calls == [5]
    explorer.filter = Filter(active=True)  # shown: recomputed for the new selection
    assert calls == [5, 4]
    explorer.filter = Filter()  # seen before: from the cache
    explorer.tabs.selected_index = 0
    explorer.tabs.selected_index = FINDINGS_TAB
    assert calls == [5, 4]


def test_long_lists_are_cut_with_a_count() -> None:
    estate = audited()
    graph = build_graph(estate)
    nodes = tuple(n for n in graph if n.startswith(("profile:", "channel:", "partner:")))
    many = Findings(
        Finding("no_response_path", "warning", f"finding {n}", nodes)
        for n in range(FINDINGS_SHOWN + 7)
    )
    page = findings_html(many, graph)
    assert f"findings ({FINDINGS_SHOWN + 7} warnings)" in page  # never "24 warning"
    assert page.count("<li>finding ") == FINDINGS_SHOWN
    assert "… and 7 more" in page
    assert len(nodes) > ITEMS_SHOWN
    assert f"… and {len(nodes) - ITEMS_SHOWN} more" in page
    assert len(linked(page)) == FINDINGS_SHOWN * ITEMS_SHOWN
    assert "data-kind='no_response_path'" in page and "' open>" not in page  # folded
    assert "open a rule to see its findings" in page


def test_a_few_findings_show_unfolded() -> None:
    estate = audited()
    page = findings_html(audit.findings(estate), build_graph(estate))
    assert page.count("<details") == page.count("' open>") > 1


def test_nothing_found_says_so() -> None:
    estate = estate_of(profile("P1", active=False))
    assert "finds nothing" in findings_html(Findings(), build_graph(estate))


def test_secrets_never_reach_the_findings(explorer: Explorer) -> None:
    explorer.tabs.selected_index = FINDINGS_TAB
    page = explorer.findings.content.value
    assert "duplicate_endpoint" in page  # the finding naming the URL is there...
    assert SECRET not in page  # ...without its password


def test_rules_show_their_code_title_and_explanation(explorer: Explorer) -> None:
    explorer.tabs.selected_index = FINDINGS_TAB
    page = explorer.findings.content.value
    assert "data-code='SEC008'" in page  # the SFTP channels pin no host key
    assert "<code class='ipt-code' title='Without a host key fingerprint" in page
    assert "SFTP channel without a pinned host key" in page
    assert "<p class='ipt-rule-help'>Without a host key fingerprint" in page
    assert "<b>Remedy:</b> Pin the partner" in page


def test_the_rule_menu_filters_by_code(explorer: Explorer) -> None:
    explorer.tabs.selected_index = FINDINGS_TAB
    menu = explorer.findings.codes
    expected = audit.findings(explorer.selection)
    labels = dict((value, label) for label, value in menu.options)
    assert set(labels) == {"", *expected.by_code()}
    assert labels["SEC008"].startswith("SEC008 SFTP channel without a pinned host key (")
    menu.value = "HYG005"
    page = explorer.findings.content.value
    assert re.findall(r"data-code='(\w+)'", page) == ["HYG005"]
    assert f"{len(expected.of(code='HYG005'))} finding" in page
    explorer.filter = Filter(active=True)  # the code stays chosen while it has findings
    assert "HYG005" in audit.findings(explorer.selection).by_code()  # P4 and P5 are active
    assert menu.value == "HYG005"
    menu.value = ""
    assert len(re.findall(r"data-code='(\w+)'", explorer.findings.content.value)) > 2
