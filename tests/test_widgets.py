"""The Explorer without a browser: filters drive counts, selection, table, diagram, export."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.support.debounce import Debouncer
from iptoolkit.viewmodel.explorer_html import fallback_html

pytest.importorskip("ipywidgets")

from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.exporter import FORMATS  # noqa: E402


def _table(explorer: Explorer) -> pd.DataFrame:
    """The rows the Explorer's table shows (it shows the selection from the start)."""
    frame = explorer.table.frame
    assert frame is not None, "the table has shown nothing"
    return frame


@pytest.fixture(scope="module")
def estate() -> Estate:
    return demo_estate(n_profiles=120, seed=3)


@pytest.fixture()
def explorer(estate: Estate, tmp_path: Path) -> Iterator[Explorer]:
    x = Explorer(estate, folder=tmp_path / "out")
    yield x
    x.close()


def _first_agent_type(estate: Estate) -> str:
    return sorted({p.agent_type for p in estate.profiles if p.agent_type})[0]


def test_importing_the_package_does_not_load_ipywidgets() -> None:
    code = "import sys, iptoolkit.widgets; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_starts_on_everything(explorer: Explorer, estate: Estate) -> None:
    assert explorer.filter == Filter()
    assert len(explorer.selection) == len(estate)
    assert explorer.counts.startswith(f"{len(estate)} of {len(estate)} profiles, ")
    unresolved = len(estate.unresolved)
    assert explorer.counts.endswith(
        f"{len(estate.channels)} channels"
        + (
            f" (and {unresolved} unresolved channel id{'s' * (unresolved != 1)})"
            if unresolved
            else ""
        )
    )
    assert len(_table(explorer)) == len(estate)
    assert explorer.diagram_png and explorer.diagram_png.startswith(b"\x89PNG")


def test_setting_the_filter_updates_counts_selection_table_and_diagram(
    explorer: Explorer, estate: Estate
) -> None:
    before_png = explorer.diagram_png
    agent = _first_agent_type(estate)
    explorer.filter = Filter(agent_types=[agent])
    chosen = [p for p in estate.profiles if p.agent_type == agent]
    assert len(explorer.selection) == len(chosen)
    assert explorer.counts.startswith(f"{len(chosen)} of {len(estate)} profiles")
    assert list(_table(explorer)["id"]) == [p.id for p in chosen]
    assert explorer.diagram_png != before_png
    assert f"{len(chosen)} of {len(estate)}" in explorer.header.value
    assert "updating" not in explorer.header.value
    assert explorer.panel.agent_types.value == (agent,)


def test_front_end_changes_go_through_the_panel(explorer: Explorer, estate: Estate) -> None:
    explorer.panel.active.value = False  # what a click on "inactive" does
    inactive = [p for p in estate.profiles if p.active is not True]
    assert explorer.filter == Filter(active=False)
    assert len(explorer.selection) == len(inactive)
    explorer.panel.text.value = "zzz-nothing-matches"
    assert explorer.counts.startswith(f"0 of {len(estate)} profiles, 0 partners, 0 channels")
    assert len(_table(explorer)) == 0
    explorer.panel.reset.click()
    assert explorer.filter == Filter()


def test_filter_round_trip_keeps_fields_without_a_control(explorer: Explorer) -> None:
    saved = Filter(tags=["orders"], channels=[12345], partners=["Nobody GmbH"], active=True)
    explorer.filter = saved
    assert explorer.filter == saved
    assert Filter.from_json(explorer.filter.to_json()) == saved
    assert "Also filtered by" in explorer.panel.note.value
    assert explorer.counts.startswith("0 of")


def test_partner_and_group_controls(explorer: Explorer, estate: Estate) -> None:
    partner = sorted(explorer.model.facets.partners)[0]
    explorer.panel.partners.value = [partner]
    assert explorer.filter.partners == [partner]
    assert 0 < len(explorer.selection) == explorer.model.facets.partners[partner]
    group = next(iter(explorer.model.facets.groups))
    explorer.panel.partners.value = []
    explorer.panel.groups.value = (group,)
    assert len(explorer.selection) == explorer.model.facets.groups[group]


def test_picking_a_table_row_opens_its_details(explorer: Explorer) -> None:
    explorer.filter = Filter(active=True)
    row = _table(explorer).iloc[2]
    explorer._picked_row(2)  # what a click on the third row sends back
    assert explorer.detail.node == f"profile:{row['id']}"
    assert explorer.tabs.selected_index == 2
    assert str(row["id"]) in explorer.detail.content.value


def test_detail_search_and_where_used(explorer: Explorer, estate: Estate) -> None:
    explorer.detail.kind.value = "partner"
    choices = explorer.detail.choices
    assert len(choices) == len(estate.partners)
    label = next(iter(choices))
    explorer.detail.search.value = label.split(" (")[0][:5]  # typing narrows the options
    assert label in explorer.detail.search.options
    explorer.detail.search.value = label  # picking one shows it
    body = explorer.detail.content.value
    assert explorer.detail.node == choices[label]
    assert "Where used" in body and "Impact if it goes away" in body


def test_export_buttons_write_every_format(explorer: Explorer, tmp_path: Path) -> None:
    explorer.filter = Filter(active=True)
    for fmt in FORMATS:
        path = explorer.exporter.write(fmt)
        assert path is not None, explorer.exporter.log.value
        assert path.exists() and path.stat().st_size > 0
        assert path.parent == tmp_path / "out"
    log = explorer.exporter.log.value
    assert f"active.{FORMATS[-1]}" in log and "download" in log  # named after the filter
    assert "ipt-error" not in log


def test_the_export_log_keeps_only_the_latest_entries(explorer: Explorer) -> None:
    from iptoolkit.widgets.exporter import LOG_ENTRIES

    for index in range(LOG_ENTRIES + 3):
        explorer.exporter.name.value = f"export-{index}"
        assert explorer.exporter.write("csv") is not None
    log = explorer.exporter.log.value
    assert log.count("<li") == LOG_ENTRIES
    assert f"export-{LOG_ENTRIES + 2}.csv" in log and "export-0.csv" not in log
    # only the newest carries its file: the log is sent again with every export
    assert log.count("download=") == 1
    assert log.index("download=") < log.index(f"export-{LOG_ENTRIES + 1}.csv")


def test_a_file_name_typed_with_its_suffix_is_not_doubled(
    explorer: Explorer, tmp_path: Path
) -> None:
    explorer.exporter.name.value = "acme.csv"
    assert explorer.exporter.write("csv") == tmp_path / "out" / "acme.csv"
    explorer.exporter.name.value = "acme.json"  # another format's suffix stays in the name
    assert explorer.exporter.write("graphml") == tmp_path / "out" / "acme.json.graphml"


def test_no_figure_is_left_open(explorer: Explorer) -> None:
    import matplotlib.pyplot as plt

    explorer.filter = Filter(active=False)
    explorer.filter = Filter(active=True)
    assert plt.get_fignums() == []


def test_fallback_html_reads_without_a_kernel() -> None:
    page = fallback_html("3 of 9 profiles", "active", {"SFTPAgentSettings": 3}, b"\x89PNG")
    assert "3 of 9 profiles" in page and "<td>SFTP</td>" in page  # as the filter says it
    assert "data:image/png;base64," in page
    assert "iptoolkit-explorer-static" in page
    many = {f"Cron{n}AgentSettings": 20 - n for n in range(15)} | {"(none)": 1}
    page = fallback_html("9 of 9 profiles", "everything", many, None)
    assert "<td>Cron0</td>" in page and "Cron12" not in page and "AgentSettings" not in page
    assert "<td>4 other agent types</td><td style='text-align:right'>22</td>" in page


def test_debouncer_calls_once_after_a_pause() -> None:
    calls: list[int] = []

    async def burst() -> None:
        debouncer = Debouncer(lambda: calls.append(1), delay=0.05)
        for _ in range(5):
            debouncer.trigger()
        assert calls == [] and debouncer.pending
        await asyncio.sleep(0.15)

    asyncio.run(burst())
    assert calls == [1]
    Debouncer(lambda: calls.append(2), delay=0.05).trigger()  # no loop: at once
    assert calls == [1, 2]


def test_a_click_applies_at_once_and_typing_waits_for_a_pause() -> None:
    explorer = Explorer(demo_estate(n_profiles=60, seed=2), debounce=0.2, diagram=False)
    everything = explorer._selection.profiles

    async def in_a_kernel() -> tuple[int, int, int]:
        explorer.panel.active.value = True  # a click: no pause
        clicked = explorer._selection.profiles
        explorer.panel.text.value = "orders"  # typing: the selection waits
        typed = explorer._selection.profiles
        await asyncio.sleep(0.4)
        return clicked, typed, explorer._selection.profiles

    clicked, typed, paused = asyncio.run(in_a_kernel())
    explorer.close()
    assert clicked < everything
    assert typed == clicked
    assert paused < clicked


def test_the_filter_panel_and_header_mask_credentials_in_names() -> None:
    """A partner or group named with a URL's password or a bearer token: the map, table
    and details masked it; the filter panel's lists and notes, the header's filter line
    and the repr showed it. The lists' values stay the names: picking one still filters."""
    from .factories import agent, channel, estate_of, partner, profile

    url = "https://user:pw-in-a-name-5e1@edi.example/x"
    token = "Bearer eyJhbGciOiJIUzI1NiJ9.token-in-a-name-9a2.sig"
    uses = agent("SFTP", channels=[channel(5, partner=partner(7, url))])
    estate = estate_of(
        profile("P1", group=f"Ops/{url}", agent=uses), profile("P2", group=f"Ops/{token}")
    )
    x = Explorer(estate, diagram=False, debounce=0)
    try:
        panel = x.panel
        shown = [label for label, _ in (*panel.partners.options, *panel.groups.options)]
        assert url in [value for _, value in panel.partners.options]
        panel.partners.value = (url,)
        assert x.filter.partners == [url] and len(x.selection) == 1
        shown += [x.header.value, repr(x)]
        panel.groups.value = (f"Ops/{token}",)  # counted 0 beside that partner: refused
        assert panel.refusals["groups"].value and len(x.selection) == 1
        shown += [panel.refusals["groups"].value]
        x.filter = Filter(channels=[url], tags=[token])  # no control: said in the note
        shown += [panel.note.value, x.header.value, repr(x)]
        for secret in ("pw-in-a-name-5e1", "token-in-a-name-9a2"):
            assert not [text for text in shown if secret in text], secret
        assert "user:**" in panel.note.value and "Bearer **" in x.header.value
    finally:
        x.close()
