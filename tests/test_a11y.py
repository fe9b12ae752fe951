"""Pages everyone can use (issue 44, items 17 and 18), what can be held without a browser:
the filter lists are named, the topology's search offers items and groups and never a
port, a port picked stands for its node, the docs site's link colour reaches 4.5:1 and its
theme templates are replaced, the HTML file has its main landmark. The browser half, with
axe-core, the Nu checker and the keyboard: tests/browser/test_a11y_*_browser.py."""

from __future__ import annotations

import re
from collections.abc import Hashable
from pathlib import Path

import pytest
import yaml

import iptoolkit as ipt
from iptoolkit.core.estate import Estate
from iptoolkit.demo import demo_estate
from iptoolkit.viewmodel.topology_data import PORT_SUFFIX
from iptoolkit.viewmodel.topology_search import picked_key, search_items

from .view_helpers import data_of, sigma_of

pytest.importorskip("ipysigma")

from iptoolkit.widgets import Explorer, show_topology  # noqa: E402
from iptoolkit.widgets.css import EXPLORER_CSS  # noqa: E402


@pytest.fixture(scope="module")
def big() -> Estate:
    return demo_estate(n_profiles=300, seed=7)


def _contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two colours written `#rrggbb`."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_is_wcags() -> None:
    assert round(_contrast("#949494", "#eeeeee"), 2) == 2.61  # the figure
    assert round(_contrast("#000000", "#ffffff"), 1) == 21.0


# -- the app ------------------------------------------------------------------------------


def test_every_filter_list_and_field_has_a_name(big: Estate) -> None:
    panel = Explorer(big, static_copy=False).panel
    named = {
        "agent_types": "Input agent types",
        "channel_types": "Channel types",
        "partners": "Partners",
        "groups": "Groups",
        "text": "Search",
        "partner_search": "Narrow the partners",
    }
    for field, name in named.items():
        assert getattr(panel, field).description == name, field
    # the labels stay for screen readers (not display: none, which hides them from them too)
    rule = re.search(
        r"\.ipt-filters \.widget-inline-hbox > \.widget-label \{([^}]*)\}", EXPLORER_CSS
    )
    assert rule is not None and "position: absolute" in rule[1] and "display" not in rule[1]


def test_the_topology_search_offers_items_and_groups_never_a_port(big: Estate) -> None:
    view = show_topology(big)
    data = data_of(view)
    ports = [key for key in data.graph if data.graph.nodes[key].get("kind") == "port"]
    assert ports, "a fitted view has ports: the test would prove nothing"
    answers = search_items(data)
    assert answers and all(not a.key.endswith(PORT_SUFFIX) for a in answers)
    assert {a.key for a in answers} == set(data.members)  # every item and group, once
    finance = next(a for a in answers if a.name == "Finance")
    assert finance.key == "group:profile:Finance" and finance.what.startswith("group of ")
    assert view._controls.search.items == [list(a) for a in answers]  # what the field offers


def test_a_search_pick_and_a_port_pick_do_what_a_click_does(big: Estate) -> None:
    picked: list[Hashable] = []
    view = show_topology(big, on_select=picked.append)
    search = view._controls.search
    search._handle_custom_msg({"pick": "group:profile:Finance"}, [])  # as the browser sends it
    assert view.expanded and view.drill_path == ("Finance",)
    item = next(key for key in data_of(view).members if data_of(view).item(key) is not None)
    port = item + PORT_SUFFIX
    assert picked_key(data_of(view), port) == item
    if port in data_of(view).graph:  # a click that lands on the port: the item's
        sigma_of(view).selected_node = port
        assert view.selected == data_of(view).item(item)
    search._handle_custom_msg({"pick": port}, [])
    assert picked and picked[-1] == data_of(view).item(item)


# -- the docs site and the HTML file ----------------------------------------------------


def test_the_docs_link_colour_reaches_4_5_to_1_on_the_themes_backgrounds() -> None:
    from iptoolkit.docsite.writer import _STYLE

    link = re.search(r"--bs-link-color: (#[0-9a-f]{6})", _STYLE)
    assert link is not None
    for background in ("#ffffff", "#f8f9fa"):  # the page, the table of contents
        assert _contrast(link[1], background) >= 4.5, background
    assert _contrast("#2fa4e7", "#ffffff") < 3  # the theme's own, which this replaces


def test_the_docs_site_replaces_the_theme_templates_that_failed_the_nu_checker(
    tmp_path: Path,
) -> None:
    ipt.write_docs(demo_estate(20, seed=1), tmp_path, workers=1)
    config = yaml.safe_load((tmp_path / "mkdocs.yml").read_text(encoding="utf-8"))
    folder = tmp_path / config["theme"]["custom_dir"]
    for modal in ("search-modal.html", "keyboard-modal.html"):
        text = (folder / modal).read_text(encoding="utf-8")
        assert "<h4" not in text and '<h2 class="modal-title h4"' in text, modal
    main = (folder / "main.html").read_text(encoding="utf-8")
    assert '{% extends "base.html" %}' in main and 'class="nav-link disabled" aria-disabled' in main
    assert not re.search(r"<a rel=\"(prev|next)\" class", main)  # no rel without an address


def test_the_html_file_has_one_main_landmark(tmp_path: Path) -> None:
    text = ipt.export(demo_estate(20, seed=1), tmp_path / "x.html").read_text(encoding="utf-8")
    assert text.count("<main") == 1 and text.count("</main>") == 1
