"""The docs site's SVG writer (`plot/topology_svg.py`): it draws what `plot_topology` and
`plot_diff` draw (every node and edge of the view, the same labels, headers, legend entries
and title, the rings of breaking changes), its documents are SVG an XML parser reads, the
same graph gives the same bytes, and hostile names stay text."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import iptoolkit as ipt  # noqa: E402
from iptoolkit.plot.diff_diagram import diff_svg, diff_view  # noqa: E402
from iptoolkit.plot.topology import grouping  # noqa: E402
from iptoolkit.plot.topology_svg import topology_svg  # noqa: E402
from iptoolkit.topology.legend import legend_items  # noqa: E402
from iptoolkit.topology.view import detail_view, grouped_view  # noqa: E402

from .change_cases import dated, next_week  # noqa: E402
from .factories import estate_of, tiny_estate  # noqa: E402
from .hostile_estate import NAMES, SCRIPT, SECRETS, hostile_estate  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
SHAPES = {f"{SVG}{tag}" for tag in ("rect", "circle", "polygon")}
ALLOWED = {f"{SVG}{tag}" for tag in ("svg", "title", "rect", "g", "path", "polygon", "circle")}
ALLOWED |= {f"{SVG}{tag}" for tag in ("text", "line")}


@pytest.fixture(scope="module")
def tiny() -> ipt.Estate:
    """Two partners, an inactive profile, a channel named by an id nobody holds."""
    return tiny_estate()


def _groups(root: ET.Element, name: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == name]


def _texts(root: ET.Element, name: str) -> list[str]:
    return [text.text or "" for g in _groups(root, name) for text in g.iter(f"{SVG}text")]


def _drawn_by_matplotlib(figure: Figure) -> dict[str, object]:
    """What a diagram of matplotlib draws: its texts, legend entries, title, curves."""
    ax = figure.axes[0]
    curves = sum(len(c.get_segments()) for c in ax.collections if isinstance(c, LineCollection))
    drawn = {
        "texts": Counter(text.get_text() for text in ax.texts),
        "legend": [text.get_text() for text in figure.legends[0].get_texts()],
        "title": [text.get_text() for text in figure.texts],
        "curves": curves,
    }
    plt.close(figure)
    return drawn


@pytest.mark.parametrize("group_by", [None, "group", "agent_type"])
def test_the_svg_shows_what_plot_topology_shows(tiny: ipt.Estate, group_by: str | None) -> None:
    estate = ipt.demo_estate(60, seed=3) if group_by else tiny
    graph = ipt.build_graph(estate)
    key = grouping(graph, group_by)
    view = grouped_view(graph, key, None) if key else detail_view(graph, None)
    root = ET.fromstring(topology_svg(graph, group_by=group_by, title="The title").encode())

    shapes = [shape for g in _groups(root, "nodes") for shape in g if shape.tag in SHAPES]
    assert len(shapes) == view.number_of_nodes() > 0  # every node, once
    curves = [path for g in _groups(root, "edges") for path in g.iter(f"{SVG}path")]
    assert len(curves) == view.number_of_edges() > 0  # every edge, once

    drawn = _drawn_by_matplotlib(ipt.plot_topology(graph, group_by=group_by, title="The title"))
    assert Counter(_texts(root, "labels") + _texts(root, "headers")) == drawn["texts"]
    legend = [item.label for item in legend_items(view, grouped=key is not None, focused=False)]
    assert _texts(root, "legend") == legend == drawn["legend"]
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "title"] == drawn["title"]
    assert len(curves) == drawn["curves"]
    assert root.findtext(f"{SVG}title") == "The title"  # what a screen reader says of it


@pytest.mark.parametrize("only_changed", [False, True])
def test_the_diff_svg_shows_what_plot_diff_shows(only_changed: bool) -> None:
    week = next_week(dated(ipt.demo_estate(n_profiles=300, seed=0)))
    view, _, _ = diff_view(week, group_by=None, only_changed=only_changed)
    root = ET.fromstring(diff_svg(week, only_changed=only_changed).encode())

    shapes = [shape for g in _groups(root, "nodes") for shape in g if shape.tag in SHAPES]
    assert len(shapes) == view.number_of_nodes() > 0
    breaking = [node for node, data in view.nodes(data=True) if data.get("breaking")]
    assert len([c for g in _groups(root, "rings") for c in g]) == len(breaking) > 0
    drawn = _drawn_by_matplotlib(ipt.plot_diff(week, only_changed=only_changed))
    assert Counter(_texts(root, "labels") + _texts(root, "headers")) == drawn["texts"]
    assert _texts(root, "legend") == drawn["legend"]
    assert "breaking" in drawn["legend"]
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "title"] == drawn["title"]
    curves = [path for g in _groups(root, "edges") for path in g.iter(f"{SVG}path")]
    assert len(curves) == view.number_of_edges() == drawn["curves"]


def test_the_same_graph_gives_the_same_bytes() -> None:
    graph = ipt.build_graph(ipt.demo_estate(80, seed=5))
    assert topology_svg(graph, title="x") == topology_svg(graph.copy(), title="x")


def test_an_empty_selection_says_so() -> None:
    root = ET.fromstring(topology_svg(estate_of(), title="").encode())
    assert "Nothing to draw: no profiles in this selection" in {t.text for t in root.iter()}
    assert root.find(f"{SVG}title") is None  # no title given, none written


def test_hostile_names_stay_text_and_secrets_stay_masked() -> None:
    estate = hostile_estate()
    for group_by in (None, "group", "partner"):
        text = topology_svg(estate, group_by=group_by, title=f"Partner {SCRIPT} {NAMES[5]}")
        root = ET.fromstring(text.encode())  # an XML parser reads it: every name escaped
        assert {element.tag for element in root.iter()} <= ALLOWED  # no script, no <img>
        attributes = {name for element in root.iter() for name in element.attrib}
        assert not {name for name in attributes if name.lower().startswith("on")}
        assert "<img" not in text and "<script" not in text and "\x00" not in text
        assert not any(secret in text for secret in SECRETS)
        drawn = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert SCRIPT in drawn  # the name is there, as text
        assert "NUL DEL" in drawn  # control characters dropped, the name kept
