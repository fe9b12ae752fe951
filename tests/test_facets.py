"""Facets: each filter option's count follows the selection, disjunctively, and the panel
relabels its options without losing what is chosen or reporting a change of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_profiles
from iptoolkit.query.filters import Filter, select
from iptoolkit.support.names import type_label
from iptoolkit.support.printable import shorten
from iptoolkit.viewmodel.explorer_model import ExplorerModel
from iptoolkit.viewmodel.facets import FACET_FIELDS, Facets
from iptoolkit.widgets.panel import PARTNER_CHARS

FAULTY = {"id": "broken", "created": "yesterday", "group": "Finance"}
"""A profile that fails to parse: filters match it by what can be read (group, no flag)."""


def small_estate(n: int, seed: int) -> Estate:
    return Estate.from_raw([*demo_profiles(n, seed=seed), FAULTY])


def brute_force(estate: Estate, selection: Filter, field: str, value: Any) -> int:
    """What choosing `value` in `field` (instead of that field's values) would select."""
    replaced = value if field == "active" else [value]
    return len(select(estate, selection.model_copy(update={field: replaced})))


def facet_of(facets: Facets, field: str) -> dict[Any, int]:
    return facets.active if field == "active" else getattr(facets, field)


@st.composite
def estates_and_filters(draw: st.DrawFn) -> tuple[Estate, Filter]:
    estate = small_estate(draw(st.integers(3, 40)), draw(st.integers(0, 50)))
    offered = ExplorerModel(estate).facets

    def some(values: dict[str, int]) -> st.SearchStrategy[list[str]]:
        return st.lists(st.sampled_from(sorted(values)), max_size=2) if values else st.just([])

    selection = Filter(
        agent_types=draw(some(offered.agent_types)),
        channel_types=draw(some(offered.channel_types)),
        partners=draw(some(offered.partners)),
        groups=draw(some(offered.groups)),
        active=draw(st.sampled_from([None, True, False])),
        text=draw(st.sampled_from([None, None, "orders", "sftp"])),
        tags=draw(st.sampled_from([[], [], ["edi"]])),
    )
    return estate, selection


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(estates_and_filters())
def test_every_count_is_what_choosing_that_option_instead_would_select(
    case: tuple[Estate, Filter],
) -> None:
    """Disjunctive faceting, checked against `select` itself for every option of every field."""
    estate, selection = case
    facets = ExplorerModel(estate).select(selection).facets
    assert facets is not None
    for field in FACET_FIELDS:
        counts = facet_of(facets, field)
        for value, count in counts.items():
            assert count == brute_force(estate, selection, field, value), (field, value)


def test_every_option_stays_listed_with_its_zero() -> None:
    estate = small_estate(40, 1)
    model = ExplorerModel(estate)
    agent = next(iter(model.facets.agent_types))
    facets = model.select(Filter(agent_types=[agent])).facets
    assert facets is not None
    for field in FACET_FIELDS:
        assert list(facet_of(facets, field)) == list(facet_of(model.facets, field))
    assert 0 in facets.channel_types.values() or 0 in facets.partners.values()


def test_options_of_a_chosen_field_show_what_choosing_them_adds() -> None:
    estate = small_estate(60, 2)
    model = ExplorerModel(estate)
    first, second = list(model.facets.agent_types)[:2]
    facets = model.select(Filter(agent_types=[first], active=True)).facets
    assert facets is not None
    # not 0 and not the selection's size: the second type's active profiles
    assert facets.agent_types[second] == len(
        select(estate, Filter(agent_types=[second], active=True))
    )
    assert facets.agent_types[second] > 0
    # the toggle counts among the chosen agent type: all, active, inactive
    assert facets.active[None] == facets.active[True] + facets.active[False]
    assert facets.active[None] == len(select(estate, Filter(agent_types=[first])))


def test_the_empty_filter_counts_the_whole_estate_and_its_faulty_profile() -> None:
    estate = small_estate(20, 4)
    facets = ExplorerModel(estate).facets
    assert facets.active[None] == len(estate.records) == 21
    # the faulty one has no `active` flag: not active, as `summary` counts it
    assert facets.active[True] + facets.active[False] == 21


# -- the panel --------------------------------------------------------------------------


@pytest.fixture()
def explorer(tmp_path: Path) -> Iterator[Any]:
    pytest.importorskip("ipywidgets")
    from iptoolkit.widgets import Explorer

    x = Explorer(small_estate(80, 5), folder=tmp_path, diagram=False)
    yield x
    x.close()


def labels(control: Any) -> dict[Any, str]:
    return {value: label for label, value in control.options}


def _applied(panel: Any) -> list[Filter]:
    """The filters the panel applies from now on, in turn (its change handler wrapped)."""
    calls: list[Filter] = []
    wrapped = panel._on_change

    def counted() -> None:
        calls.append(panel.filter)
        wrapped()

    panel._on_change = counted
    return calls


def test_the_panel_shows_the_selection_counts(explorer: Any) -> None:
    model = explorer.model
    agent = max(model.facets.agent_types, key=model.facets.agent_types.__getitem__)
    explorer.filter = Filter(agent_types=[agent])
    facets = explorer._selection.facets
    for kind, count in facets.channel_types.items():
        assert labels(explorer.panel.channel_types)[kind].endswith(f" ({count:,})")
    assert any(label.endswith(" (0)") for label in labels(explorer.panel.channel_types).values())
    assert labels(explorer.panel.active) == {
        None: f"all ({facets.active[None]:,})",
        True: f"active ({facets.active[True]:,})",
        False: f"inactive ({facets.active[False]:,})",
    }
    partners = labels(explorer.panel.partners)
    assert list(partners) == list(model.facets.partners)  # every partner, in name order
    for name, count in facets.partners.items():
        assert partners[name] == f"{shorten(name, PARTNER_CHARS)} ({count:,})"
        assert count == brute_force(explorer.model.estate, explorer.filter, "partners", name)
    assert any(label.endswith(" (0)") for label in partners.values())
    explorer.filter = Filter(text="no such words anywhere")
    assert all(label.endswith(" (0)") for label in labels(explorer.panel.partners).values())


def test_chosen_values_survive_relabelling_without_a_second_change(explorer: Any) -> None:
    panel = explorer.panel
    model = explorer.model
    agent = next(  # an agent type with inactive profiles: no option picked below is (0)
        a
        for a in model.facets.agent_types
        if model.select(Filter(agent_types=[a], active=False)).profiles
    )
    chosen = model.select(Filter(agent_types=[agent], active=False)).facets
    assert chosen is not None
    group = next(g for g, count in chosen.groups.items() if count > 0)
    calls = _applied(panel)
    before = labels(panel.groups)

    panel.agent_types.value = (agent,)  # as the front end sets it: one change
    assert calls == [Filter(agent_types=[agent])]
    panel.active.value = False  # relabels every list, the agent type included
    panel.groups.value = (group,)
    assert len(calls) == 3  # one per change made, none from relabelling
    assert labels(panel.groups) != before  # the options were relabelled...
    assert panel.agent_types.value == (agent,)  # ...and what is chosen stayed chosen
    assert panel.groups.value == (group,)
    assert panel.active.value is False
    assert explorer.filter == Filter(agent_types=[agent], groups=[group], active=False)


def test_narrowing_the_partners_keeps_the_chosen_and_changes_no_filter(explorer: Any) -> None:
    panel = explorer.panel
    names = list(explorer.model.facets.partners)
    chosen = names[0]
    part = next(n for n in names if chosen.casefold() not in n.casefold())[1:4].upper()
    calls = _applied(panel)

    panel.partners.value = (chosen,)
    assert calls == [Filter(partners=[chosen])]
    panel.partner_search.value = part  # typed: any case, a part of the name
    shown = list(labels(panel.partners))
    assert shown == [n for n in names if part.casefold() in n.casefold() or n == chosen]
    assert chosen in shown and len(shown) < len(names)
    assert panel.partners.value == (chosen,)  # the choice stays listed and chosen
    assert len(calls) == 1  # narrowing is no filter change
    assert explorer.filter == Filter(partners=[chosen])
    panel.active.value = True  # relabelling keeps the narrowing and the choice
    assert len(calls) == 2
    assert list(labels(panel.partners)) == shown
    count = brute_force(explorer.model.estate, explorer.filter, "partners", chosen)
    assert labels(panel.partners)[chosen].endswith(f" ({count:,})")  # relabelled
    assert panel.partners.value == (chosen,)
    panel.partner_search.value = ""
    assert list(labels(panel.partners)) == names
    panel.partner_search.value = part
    explorer.filter = Filter(groups=[next(iter(explorer.model.facets.groups))])
    assert panel.partner_search.value == ""  # a filter set from code shows every partner
    assert list(labels(panel.partners)) == names and panel.partners.value == ()


def test_an_unknown_partner_stays_in_the_filter_and_the_note(explorer: Any) -> None:
    known = next(iter(explorer.model.facets.partners))
    saved = Filter(partners=[known, "Nobody Ltd"], active=True)
    explorer.filter = saved
    assert explorer.filter == saved  # nothing dropped, the order kept
    assert explorer.panel.partners.value == (known,)  # the known one shown as chosen
    assert "partners: " in explorer.panel.note.value
    assert "Nobody Ltd" in explorer.panel.note.value
    explorer.panel.partners.value = ()  # the analyst takes over the field: the note goes
    assert explorer.filter == Filter(active=True)
    assert "Nobody Ltd" not in explorer.panel.note.value


def test_a_long_partner_name_is_cut_so_that_its_count_shows(tmp_path: Path) -> None:
    pytest.importorskip("ipywidgets")
    from iptoolkit.widgets import Explorer

    estate = Estate.from_raw(demo_profiles(1000, seed=0))  # "… GmbH & Co. KG" partners
    explorer = Explorer(estate, folder=tmp_path, diagram=False)
    try:
        long = max(explorer.model.facets.partners, key=len)
        assert len(long) > PARTNER_CHARS
        count = explorer.model.facets.partners[long]
        label = labels(explorer.panel.partners)[long]
        assert label == f"{long[: PARTNER_CHARS - 1].rstrip()}… ({count:,})", label
        explorer.panel.partner_search.value = long[-8:].lower()  # the cut part still narrows
        assert long in labels(explorer.panel.partners)
    finally:
        explorer.close()


def test_an_option_counted_zero_is_listed_but_cannot_be_picked(explorer: Any) -> None:
    panel = explorer.panel
    agent = max(explorer.model.facets.agent_types, key=explorer.model.facets.agent_types.get)
    explorer.filter = Filter(agent_types=[agent])
    counts = explorer._selection.facets.channel_types
    empty = next(kind for kind, count in counts.items() if count == 0)
    full = next(kind for kind, count in counts.items() if count > 0)
    assert empty in labels(panel.channel_types)  # listed, with its (0)
    calls = _applied(panel)
    panel.channel_types.value = (empty,)  # as the front end sets it
    assert panel.channel_types.value == () and calls == []  # unpicked, nothing applied
    said = panel.refusals["channel_types"].value  # beside the click, not below the panel
    assert "not applied" in said and "no profile the other filters keep" in said
    assert f"{type_label(empty)} (0)" in said and "the the" not in said
    assert "not applied" not in panel.note.value + panel.refusals["agent_types"].value
    controls = panel.widget.children
    beside = controls.index(panel.refusals["channel_types"])
    assert controls[beside - 1] is panel.channel_types
    panel.channel_types.value = (full,)
    assert calls == [Filter(agent_types=[agent], channel_types=[full])]
    assert all(refusal.value == "" for refusal in panel.refusals.values())


def test_a_short_type_name_picks_the_listed_type(explorer: Any) -> None:
    explorer.filter = Filter(channel_types=["AS2"])
    assert explorer.panel.channel_types.value == ("IntegrationPartnerChannelAS2",)
    assert explorer.panel.note.value == ""  # no "also filtered by": the list shows it
