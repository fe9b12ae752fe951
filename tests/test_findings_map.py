"""Findings on the map: the interactive view's toggle and the printed diagram's rings mark
exactly the items the audit names, each by its worst severity, with a legend line."""

from __future__ import annotations

import pytest

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.topology.finding_marks import SEVERITY_COLOURS, finding_label, worst_by_node

from .plot_helpers import offsets
from .test_graph import hand_estate
from .view_helpers import data_of, graph_of

pytest.importorskip("ipysigma")


def _expected(found) -> dict[str, str]:
    """Node -> the worst severity of the findings naming it, worked out here by hand."""
    order = {"error": 0, "warning": 1, "info": 2}
    worst: dict[str, str] = {}
    for finding in found:
        for node in finding.nodes:
            if node not in worst or order[finding.severity] < order[worst[node]]:
                worst[node] = finding.severity
    return worst


def test_the_toggle_marks_exactly_the_items_the_audit_names_at_each_severity(tmp_path):
    from iptoolkit.widgets import Explorer

    estate = hand_estate()
    found = ipt.findings(estate)
    expected = _expected(found)
    assert set(expected.values()) == {"error", "warning", "info"}, "every severity is met"
    explorer = Explorer(estate, folder=tmp_path, debounce=0, static_copy=False)
    view = explorer.topology
    assert not view.findings.on and "finding" not in str(data_of(view).legend)
    view._controls.findings.value = True  # the toggle
    marked = view.findings.marked(data_of(view))
    drawn = {k: a for k, a in marked.graph.nodes(data=True) if a.get("kind") != "port"}
    got = {key: a["finding"] for key, a in drawn.items() if "finding" in a}
    assert got == {node: sev for node, sev in expected.items() if node in drawn}
    assert set(got) == set(expected) & set(drawn) and len(got) >= 8
    for key, severity in got.items():
        assert drawn[key]["border"] == SEVERITY_COLOURS[severity]
    labels = [item.label for item in marked.legend]
    assert [finding_label(s) for s in ("error", "warning", "info")] == labels[-3:]
    # a click on a marked item lists its findings with their codes
    info = view.findings.listed(data_of(view), "channel:99")
    assert "DAT004" in info and "warning" in info
    assert view.findings.listed(data_of(view), "partner:2") == ""
    # the grouped overview: a group takes the worst of its members
    from iptoolkit.viewmodel.topology_data import view_data

    grouped = view_data(graph_of(view), group_by="group")
    for key, attributes in view.findings.marked(grouped).graph.nodes(data=True):
        members = grouped.members.get(key, ())
        worst = [expected[m] for m in members if m in expected]
        assert attributes.get("finding") == (
            min(worst, key=["error", "warning", "info"].index) if worst else None
        ), key
    explorer.close()


def test_plot_findings_rings_the_named_items_with_a_legend(runner, tmp_path):
    estate = hand_estate()
    worst = worst_by_node(ipt.findings(estate))
    figure = ipt.plot_topology(estate, findings=True, group_by=False)
    rings = {c.get_gid(): len(offsets(c)) for c in figure.axes[0].collections}
    for severity in ("error", "warning", "info"):
        named = [n for n, s in worst.items() if s == severity]
        assert rings[f"findings-{severity}"] == len(named) > 0, severity
    legend = [t.get_text() for t in figure.legends[0].get_texts()]
    assert all(finding_label(s) in legend for s in ("error", "warning", "info"))
    plain = ipt.plot_topology(estate, group_by=False)
    assert not any((c.get_gid() or "").startswith("findings") for c in plain.axes[0].collections)
    assert not any("findings" in t.get_text() for t in plain.legends[0].get_texts())
    with pytest.raises(ValueError, match="findings=True needs an estate"):
        ipt.plot_topology(ipt.build_graph(estate), findings=True)
    # the command line
    snapshot = tmp_path / "hand.json"
    estate.save(snapshot)
    result = runner.invoke(
        main, ["plot", str(snapshot), "-o", str(tmp_path / "f.png"), "--findings"]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "f.png").read_bytes().startswith(b"\x89PNG")
