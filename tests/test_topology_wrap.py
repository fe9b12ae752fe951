"""Labels on two lines in a narrow pane (`viewmodel/topology_wrap.py`): the overview of
issue 42's estate laid out for the 528 px JupyterLab leaves beside its file browser at a
1,000 px window, no wider than that, its labels keeping most of their characters."""

from __future__ import annotations

import pytest

import iptoolkit as ipt
from iptoolkit.query.graph import build_graph
from iptoolkit.support.printable import LABEL_COUNT
from iptoolkit.viewmodel.drill import auto_view
from iptoolkit.viewmodel.topology_data import ViewData
from iptoolkit.viewmodel.topology_fit import Canvas, label_px
from iptoolkit.viewmodel.topology_wrap import (
    LINE_PX,
    LINE_SUFFIX,
    WRAPPED_ROW_PX,
    wrap_px,
    wrap_to_px,
)

PANE = 528  # the view's width in a 1,000 px window beside the file browser


@pytest.fixture(scope="module")
def graph() -> object:
    return build_graph(ipt.demo_estate(n_profiles=300, seed=7))


def _lines(data: ViewData) -> dict[str, str]:
    """Each label as read: its first line and, when wrapped, its second after a space."""
    nodes = data.graph.nodes
    out = {}
    for key, attributes in nodes(data=True):
        if attributes.get("kind") == "port":
            continue
        second = nodes[key + LINE_SUFFIX]["label"] if key + LINE_SUFFIX in nodes else ""
        out[key] = f"{attributes['label']} {second}".strip()
    return out


def test_a_label_breaks_after_a_word_and_never_in_its_count() -> None:
    text = "Finance (2,367, 243 inactive)"
    first, second = wrap_to_px(text, label_px("Finance (2,36"))
    assert (first, second) == ("Finance", "(2,367)")  # its first number whole, never "(2,3…"
    room = label_px("(2,367, 243 inactive)")
    assert wrap_to_px(text, room) == ("Finance", "(2,367, 243 inactive)")
    first, second = wrap_to_px("Danube Chemicals GmbH & Co. KG", label_px("Danube Chemicals G"))
    assert first == "Danube Chemicals" and second == "GmbH & Co. KG"
    assert wrap_to_px("Sales (55)", 500.0) == ("Sales (55)", "")
    # too narrow for the first word: it is cut, its count whole on the second line
    assert wrap_to_px("Procurement (23)", label_px("Procu\u2026")) == ("Procu\u2026", "(23)")
    assert wrap_px("Elbe Electronics S.A.") < label_px("Elbe Electronics S.A.")


def test_the_overview_in_a_narrow_pane_is_no_wider_than_it(graph: object) -> None:
    wrapped = auto_view(graph, canvas=Canvas.of(PANE, 600, lines=2))  # type: ignore[arg-type]
    one_line = auto_view(graph, canvas=Canvas.of(PANE, 600))  # type: ignore[arg-type]
    whole = _lines(auto_view(graph, canvas=Canvas.of(6000, 600)))  # type: ignore[arg-type]
    assert wrapped.size is not None and one_line.size is not None
    assert one_line.size[0] > PANE  # one line: a canvas wider than the pane, scrolling
    assert wrapped.size[0] <= PANE
    read = _lines(wrapped)
    assert set(read) == set(whole)
    kept = sum(len(text) - text.count("\u2026") for text in read.values())
    assert kept / sum(len(text) for text in whole.values()) >= 0.65
    for key, text in read.items():  # no count cut
        count = LABEL_COUNT.search(whole[key])
        assert count is None or text.endswith(count.group().strip()), (text, whole[key])
    seconds = [k for k in wrapped.graph.nodes if k.endswith(LINE_SUFFIX)]
    assert seconds  # some labels take two lines
    nodes = wrapped.graph.nodes
    for key in seconds:
        node = nodes[key.removesuffix(LINE_SUFFIX)]
        assert nodes[key]["y"] == pytest.approx(node["y"] - LINE_PX)
        assert nodes[key]["x"] > node["x"]  # under the name, after the node and glyph
    columns: dict[float, list[float]] = {}  # rows a label's two lines apart, or more
    for _, attributes in nodes(data=True):
        if attributes.get("kind") != "port":
            columns.setdefault(attributes["x"], []).append(attributes["y"])
    for ys in columns.values():
        ys.sort()
        assert all(b - a >= WRAPPED_ROW_PX - 1e-6 for a, b in zip(ys, ys[1:], strict=False))


def test_a_wide_canvas_keeps_one_line(graph: object) -> None:
    data = auto_view(graph, canvas=Canvas.of(1000, 600, lines=2))  # type: ignore[arg-type]
    assert not any(key.endswith(LINE_SUFFIX) for key in data.graph.nodes)


def test_labels_on_two_lines_are_told_apart() -> None:
    """Eight SFTP profiles "Inbound customer payments from ..." in a narrow pane: each read
    differs from every other whose whole label differs (cut in the middle, as on one line)."""
    estate = ipt.demo_estate(n_profiles=300, seed=7).subset(ipt.Filter(agent_types=["SFTP"]))
    graph = build_graph(estate)
    data = auto_view(graph, canvas=Canvas.of(568, 560, lines=2))
    assert data.size is not None and data.size[0] <= 568
    assert any(key.endswith(LINE_SUFFIX) for key in data.graph.nodes)
    read = _lines(data)
    whole = _lines(auto_view(graph, canvas=Canvas.of(6000, 560)))
    profiles = sorted(key for key in read if key.startswith("profile:"))
    same = [
        (read[a], whole[a], whole[b])
        for i, a in enumerate(profiles)
        for b in profiles[i + 1 :]
        if read[a] == read[b] and whole[a] != whole[b]
    ]
    assert same == []
