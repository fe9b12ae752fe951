"""The interactive topology in one HTML file (`ipt.export(estate, "x.html")`, `iptoolkit
export SNAP -o x.html`): one file, nothing it would fetch, the Explorer's own levels and
details, hostile names and secrets as every output treats them, the same bytes twice.
What the file does in a browser is tests/browser/test_offline_browser.py's."""

from __future__ import annotations

import base64
import gzip
import html
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main as cli
from iptoolkit.offline.page import html_document, script_json
from iptoolkit.query.graph import build_graph
from iptoolkit.viewmodel.drill import auto_view, drill_view
from iptoolkit.viewmodel.topology_fit import Canvas

from .hostile_estate import NAMES, SCRIPT, SECRETS, hostile_estate


def payload_of(path: Path) -> dict[str, Any]:
    """The view's data, read back from the page as the browser reads it."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r"class='ipt-view-data' data-encoding='gzip'>(.*?)</script>", text, re.S)
    assert found, "no payload in the page"
    payload = json.loads(gzip.decompress(base64.b64decode(found.group(1))))
    assert isinstance(payload, dict), "the payload is no JSON object"
    return payload


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.demo_estate(300)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, estate: ipt.Estate) -> Path:
    return ipt.export(estate, tmp_path_factory.mktemp("html") / "topology.html")


def test_the_file_holds_the_explorers_levels_and_fetches_nothing(
    exported: Path, estate: ipt.Estate
) -> None:
    text = exported.read_text(encoding="utf-8")
    assert "default-src 'none'" in text  # the page may make no request at all
    assert not re.search(r"\b(src|href)\s*=", text.split("<script>", 1)[0])
    data = payload_of(exported)
    from iptoolkit.offline.view import FILE_CANVAS

    overview = auto_view(build_graph(estate), canvas=FILE_CANVAS)  # as the Explorer draws it
    first = data["levels"][0]
    strings = data["strings"]
    assert [strings[node[6]] for node in first["nodes"]] == [
        str(a["label"]) for a in overview.graph.nodes.values()
    ]
    assert data["lines"][0].startswith("300 of 300 profiles, ")
    # every profile group of the overview opens the level the Explorer opens for it
    graph = build_graph(estate)
    keys = list(overview.graph.nodes)
    opened = 0
    for number, (count, _, _, level) in first["groups"].items():
        key = keys[int(number)]
        if not key.startswith("group:profile:"):
            assert level == -1
            continue
        members = overview.members[key]
        assert count == overview.graph.nodes[key]["count"]
        drilled = drill_view(graph, members, canvas=FILE_CANVAS)
        assert [strings[n[6]] for n in data["levels"][level]["nodes"]] == [
            str(a["label"]) for a in drilled.graph.nodes.values()
        ]
        assert strings[data["levels"][level]["title"]] == overview.graph.nodes[key]["crumb"]
        opened += 1
    assert opened >= 5
    # a single node's item is the estate item whose details a click shows
    items = data["items"]
    profiles = {row[0] for row in items if row[1] == "profile"}
    assert len(profiles) == 300
    first_profile = items.index(next(row for row in items if row[1] == "profile"))
    titles = [strings[section["t"]] for section in data["details"][first_profile]]
    assert (
        titles[:3]
        == [
            "Profile " + items[first_profile][0].split(":", 1)[1],
            "Input agent settings",
            "Channels it uses",
        ][: len(titles[:3])]
    )


def test_the_cli_writes_it_with_filters_and_grouping(tmp_path: Path, estate: ipt.Estate) -> None:
    snapshot = tmp_path / "snap.json"
    estate.save(snapshot)
    out = tmp_path / "finance.html"
    result = CliRunner().invoke(
        cli,
        ["export", str(snapshot), "--group", "Finance", "--group-by", "agent_type", "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    data = payload_of(out)
    selected = estate.subset(ipt.Filter(groups=["Finance"]))
    assert data["lines"][0].startswith(f"{len(selected):,} of {len(selected):,} profiles")
    assert data["levels"][0]["by"] == "agent_type"
    assert {row[0] for row in data["items"] if row[1] == "profile"} == {
        f"profile:{record.key}" for record in selected.records
    }
    again = tmp_path / "again.html"
    CliRunner().invoke(
        cli,
        [
            "export",
            str(snapshot),
            "--group",
            "Finance",
            "--group-by",
            "agent_type",
            "-o",
            str(again),
        ],
    )
    assert again.read_bytes() == out.read_bytes()  # the same snapshot, the same bytes
    wrong = CliRunner().invoke(
        cli, ["export", str(snapshot), "--group-by", "group", "-o", str(tmp_path / "x.csv")]
    )
    assert wrong.exit_code == 2 and ".html" in wrong.output


def test_hostile_names_and_secrets(tmp_path: Path) -> None:
    """No name ends the script element or reads as markup; every name comes back whole
    from the JSON; no secret is in the file."""
    path = ipt.export(hostile_estate(), tmp_path / "hostile.html", group_by=False)
    text = path.read_text(encoding="utf-8")
    for secret in SECRETS:
        assert secret not in text
    assert SCRIPT not in text and "<script>alert(1)" not in text
    assert text.count("</script>") == 2  # the payload's and the script's own
    assert text.count("<script") == 2
    page = html_document({"title": SCRIPT, "names": NAMES})  # whatever the payload holds
    assert SCRIPT not in page and page.count("<script") == 2
    data = payload_of(path)
    unpacked = json.dumps(data, ensure_ascii=False)
    for secret in SECRETS:  # nor in the packed payload, findings' texts and all
        assert secret not in unpacked
    names = {row[2] for row in data["items"]}
    printable = [name for name in NAMES if name.isprintable() and len(name) < 200]
    for name in printable:
        assert any(name in shown for shown in names), name
    assert html.escape(SCRIPT) not in text  # in the packed JSON, not as HTML text


def test_script_json_escapes_what_would_end_the_element() -> None:
    text = script_json({"name": "</script><b>&\u2028\u2029"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"name": "</script><b>&\u2028\u2029"}


def test_script_json_writes_what_the_standard_library_writes() -> None:
    """Written fast (orjson), read back the same: text, numbers (`1e-05` may be written
    `0.00001`), and an id past 64 bits."""
    words = {"a": ["Zürich \u00e9\u4e2d", 'x\ty\n"z\\'], "b": {"c": [12, -3, True, None]}}
    numbers = {"n": [0.1, 1e-05, -2.5, 1e16, 12.0]}
    for payload in (words, numbers, {**words, "id": 2**70}):
        text = script_json(payload)
        assert json.loads(text) == payload
    assert script_json(words) == json.dumps(words, ensure_ascii=False, separators=(",", ":"))


def test_levels_stop_at_their_budget() -> None:
    """Past `max_nodes` a profile group is drawn but does not open, and the file says so."""
    from iptoolkit.offline.levels import CUT, drill_levels

    graph = build_graph(ipt.demo_estate(300))
    levels, opens = drill_levels(graph, Canvas.of(860, 620), max_nodes=1)
    assert len(levels) == 1 and not opens
    from iptoolkit.offline.view import view_payload
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    model = ExplorerModel(ipt.demo_estate(300))
    data = view_payload(model.graph, model, title="t", lines=[], max_nodes=1)
    assert data["cut"] and any(g[3] == CUT for g in data["levels"][0]["groups"].values())


def test_the_file_carries_findings_and_the_graph_its_paths_walk(
    exported: Path, estate: ipt.Estate
) -> None:
    """Only items with findings carry them (code, severity, text), each level says the
    worst severity of its nodes and what each node stands for, and the graph is the
    estate's: every node and linked pair, with its relation."""
    from iptoolkit.topology.finding_marks import worst_by_node
    from iptoolkit.viewmodel.topology_data import detail_node

    data = payload_of(exported)
    strings, items = data["strings"], data["items"]
    graph = build_graph(estate)
    found = ipt.findings(estate)
    severities = [row[0] for row in data["findings"]["severities"]]
    assert severities == ["error", "warning", "info"]
    expected: dict[str, set[tuple[str, str, str]]] = {}
    for f in found:
        for node in f.nodes:
            expected.setdefault(str(detail_node(graph, node)), set()).add(
                (f.code, f.severity, f.text)
            )
    carried = {
        items[int(item)][0]: {(strings[c], severities[s], strings[t]) for c, s, t in listed}
        for item, listed in data["findings"]["items"].items()
    }
    assert carried == expected and len(carried) < len(items)  # items without: nothing
    # the graph: kind, item and unit per node; each linked pair once, with its relations
    nodes, edges = data["graph"]["nodes"], data["graph"]["edges"]
    order = list(graph.nodes)
    assert len(nodes) == 3 * len(order)
    for number, node in enumerate(order):
        kind, item, _ = nodes[3 * number : 3 * number + 3]
        assert data["kinds"][kind] == graph.nodes[node]["kind"]
        assert items[item][0] == str(detail_node(graph, node))
    pairs = {
        (order[edges[k]], order[edges[k + 1]]): strings[edges[k + 2]]
        for k in range(0, len(edges), 3)
    }
    assert len(pairs) == len(edges) // 3 == len(set(graph.edges()))
    for (u, v), relation in pairs.items():
        assert set(relation.split("/")) == {
            a["relation"] for _, t, a in graph.edges(u, data=True) if t == v
        }
    # each level node: the worst severity of what it stands for, and what that is
    from iptoolkit.offline.levels import drill_levels
    from iptoolkit.offline.view import FILE_CANVAS

    worst = worst_by_node(found)
    rank = ["error", "warning", "info"]
    levels = drill_levels(graph, FILE_CANVAS)[0]
    for level, shown in zip(levels, data["levels"], strict=True):
        stands = []
        for entry in shown["g"]:
            numbers = [entry] if isinstance(entry, int) else list(itertools.accumulate(entry))
            stands.append({order[n] for n in numbers if n >= 0})
        keys = list(level.data.graph.nodes)
        for key, members in zip(keys, stands, strict=True):
            assert members == set(level.data.members.get(key.removesuffix(" \u2192"), ())), key
        marks = dict(shown["marks"])
        for number, members in enumerate(stands):
            named = [
                worst[m] for m in members if m in worst and not keys[number].endswith("\u2192")
            ]
            want = min(named, key=rank.index) if named else None
            assert (rank[marks[number]] if number in marks else None) == want, keys[number]


def test_graph_order_gives_the_same_answers(estate: ipt.Estate) -> None:
    """Answers sorted by the table `graph_order` makes (what an HTML file's details ask)
    are the answers a walk of the graph gives; another graph is walked as before."""
    from iptoolkit.query.reach import graph_order, impact, where_used

    graph = build_graph(estate)
    items = [n for n, a in graph.nodes(data=True) if a["kind"] in ("channel", "partner", "profile")]
    plain = [(where_used(graph, n), impact(graph, n)) for n in items]
    other = build_graph(estate)
    with graph_order(graph):
        assert [(where_used(graph, n), impact(graph, n)) for n in items] == plain
        assert where_used(other, items[-1]) == plain[-1][0]
    assert sum(len(used) > 1 for used, _ in plain) > 20  # orders that could differ
