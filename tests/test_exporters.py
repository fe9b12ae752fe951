"""Every export format, written and read back by a reader that is not ours."""

from __future__ import annotations

import gzip
import inspect
import json
import re
import shutil
import subprocess
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

import networkx as nx
import pandas as pd
import pytest

import iptoolkit as ipt
from iptoolkit.exporters import (
    DIAGRAM_FORMATS,
    DIFF_FORMATS,
    FAMILIES,
    FORMATS,
    diagram_suffixes,
    export,
    format_of,
)
from iptoolkit.exporters.attributes import redact_text, scalar
from iptoolkit.exporters.dot import quote, to_dot
from iptoolkit.exporters.mermaid import GITHUB_MAX_EDGES, mermaid_text, to_mermaid

from .factories import ACME, GLOBEX, agent, channel, estate_of, profile, unit

SECRET = "s3cr3tV4lue"


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.demo_estate(n_profiles=80, seed=3)


@pytest.fixture(scope="module")
def awkward() -> ipt.Estate:
    """Ids and names that break naive writers: quotes, backslashes, `end`, markup, secrets."""
    http = channel(
        7,
        "HTTP",
        partner=GLOBEX,
        name='API "v2" <beta> & co # 1',
        url=f"https://svc:{SECRET}@api.example.com/in?token={SECRET}&lang=en",
    )
    return estate_of(
        profile("end", name="end", agent=agent("SFTP", channels=[channel(5, partner=ACME)])),
        profile(
            'P"2\\x',
            name='Orders "quoted" \\n back\\slash\nnew line',
            agent=agent("Http", url=f"https://u:{SECRET}@host.example.com/hook"),
            units=[unit("Http", channel=http), unit("File", fileName="C:\\out\\new.csv")],
        ),
        profile(
            "o1", name="`tick` | pipe [x] {y}", active=False, agent=agent("Fax", channelIds=[999])
        ),
    )


def _profile_nodes(graph: nx.Graph[str]) -> set[str]:
    return {str(n) for n in graph if str(n).startswith("profile:")}


# -- choosing the format ------------------------------------------------------------------


def test_format_from_suffix_and_errors(tmp_path, estate):
    assert format_of("a/b.JSON.gz") == "json.gz"
    assert format_of("x.graphml") == "graphml"
    assert format_of("whatever", "SVG") == "svg"
    with pytest.raises(ValueError, match=r"\.graphml.*\.mmd"):
        export(estate, tmp_path / "estate.xyz")
    graph = ipt.build_graph(estate)
    for suffix in ("json", "json.gz", "csv", "xlsx"):
        with pytest.raises(ValueError, match="needs the estate"):
            export(graph, tmp_path / f"estate.{suffix}")
    with pytest.raises(TypeError, match="title"):
        export(estate, tmp_path / "estate.csv", title="no")


def test_a_format_is_one_record_export_reads(tmp_path, estate, monkeypatch):
    """A format added as one record of `FORMATS` is written by `export` with its own writer,
    its options and its need of the estate: no branch elsewhere to add."""
    from iptoolkit.exporters import ExportFormat

    calls: list[tuple[object, str, dict[str, object]]] = []

    def spy(subject: object, path: Path, options: Mapping[str, object]) -> Path:
        calls.append((subject, path.name, dict(options)))
        return path

    record = ExportFormat("ipt", "a test format", spy, frozenset({"depth"}), needs_estate=True)
    monkeypatch.setitem(FORMATS, "ipt", record)
    assert export(estate, tmp_path / "a.ipt", depth=2) == tmp_path / "a.ipt"
    assert export(estate, tmp_path / "b.bin", "IPT") == tmp_path / "b.bin"
    assert calls == [(estate, "a.ipt", {"depth": 2}), (estate, "b.bin", {})]
    with pytest.raises(TypeError, match=r"export to \.ipt takes no option colour"):
        export(estate, tmp_path / "c.ipt", colour="red")
    with pytest.raises(ValueError, match=r"\.ipt \(a test format\) needs the estate"):
        export(ipt.build_graph(estate), tmp_path / "d.ipt")
    assert len(calls) == 2
    # and every format shipped is such a record: export() names none of them itself
    source = inspect.getsource(export)
    assert not [name for name in FORMATS if re.search(rf"[\"']\.?{re.escape(name)}[\"']", source)]


def test_ipt_export_is_the_function_whatever_was_imported_first(tmp_path, estate):
    import iptoolkit.exporters  # noqa: F401  a module named like the function would shadow it

    assert callable(ipt.export)  # the function, not a module shadowing it
    assert not isinstance(ipt.export, type(ipt))
    assert ipt.export(estate, tmp_path / "a.dot") == tmp_path / "a.dot"


# -- snapshots and tables -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["estate.json", "estate.json.gz"])
def test_snapshot_round_trip(tmp_path, estate, name):
    path = export(estate, tmp_path / name)
    again = ipt.load(path)
    assert again.raw_profiles == estate.raw_profiles
    if name.endswith(".gz"):
        assert json.loads(gzip.decompress(path.read_bytes()))["profiles"]


def test_snapshot_masks_credentials_in_the_source_url(tmp_path, estate):
    leaky = ipt.Estate.from_raw(
        estate.raw_profiles[:3], source_url=f"https://h/?loginToken={SECRET}"
    )
    path = export(leaky, tmp_path / "s.json")
    assert SECRET not in path.read_text()
    assert ipt.load(path).raw_profiles == leaky.raw_profiles


def test_csv_holds_the_profiles_table(tmp_path, estate):
    frame = pd.read_csv(export(estate, tmp_path / "p.csv"))
    assert len(frame) == len(estate)
    assert list(frame["id"]) == [p["id"] for p in estate.raw_profiles]
    assert list(frame.columns) == list(estate.to_frame("profiles").columns)


def test_xlsx_has_a_sheet_per_table(tmp_path, estate):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(export(estate, tmp_path / "e.xlsx"), read_only=True)
    assert book.sheetnames == ["profiles", "channels", "partners", "responses"]
    rows = list(book["profiles"].iter_rows(values_only=True))
    assert len(rows) == len(estate) + 1
    channel_ids = [row[1] for row in book["channels"].iter_rows(min_row=2, values_only=True)]
    # the column holds ids beyond 2**53, which Excel's doubles would round: text, exact
    assert all(isinstance(value, str) for value in channel_ids)
    assert set(estate.channels) <= {int(value) for value in channel_ids}
    assert str(2**62 + 11) in channel_ids


def test_xlsx_reports_its_sheets_counted_then_the_save(tmp_path, estate):
    """57 s at 100k under one clock: the bar counts the sheets, then says it saves."""
    pytest.importorskip("openpyxl")
    from iptoolkit.support.progress import reporting_to

    from .progress_helpers import Recorder

    shown = Recorder()
    with reporting_to(shown):
        export(estate, tmp_path / "e.xlsx")
    assert shown.log[-3:] == [
        ("stage", "Writing the sheets", 4),
        ("advance", 4),
        ("stage", "Saving e.xlsx", None),
    ]


@pytest.mark.parametrize("kept", [0, 1])
def test_xlsx_of_tables_left_empty_has_every_sheet_with_its_header(tmp_path, estate, kept):
    """No profile, or one with no channel (integer columns with no value: their largest
    was NA): every sheet is written, its header kept, and no temporary file left."""
    openpyxl = pytest.importorskip("openpyxl")
    lonely = [p for p in estate.raw_profiles if not p.get("inputAgentSettings", {}).get("channels")]
    chosen = ipt.Estate.from_raw(lonely[:kept])
    path = export(chosen, tmp_path / "e.xlsx")
    book = openpyxl.load_workbook(path, read_only=True)
    assert book.sheetnames == ["profiles", "channels", "partners", "responses"]
    header = next(book["channels"].iter_rows(values_only=True))
    assert list(header) == list(chosen.to_frame("channels").columns)
    rows = book["profiles"].iter_rows(values_only=True)
    assert len([row for row in rows if any(value is not None for value in row)]) == kept + 1
    assert [p.name for p in tmp_path.iterdir()] == ["e.xlsx"]


def test_xlsx_without_openpyxl_names_the_extra(tmp_path, estate, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "openpyxl", None)  # as if not installed
    with pytest.raises(ImportError, match=r"pip install -e '\.\[excel\]'"):
        export(estate, tmp_path / "e.xlsx")
    assert not (tmp_path / "e.xlsx").exists()


@pytest.mark.parametrize("name", ["e.xlsx", "p.csv", "snap.json"])
def test_table_files_and_snapshots_are_replaced_whole_with_the_umasks_mode(
    tmp_path, estate, monkeypatch, name
):
    """Written beside, then renamed: with a umask of 027 the file is 0640 (the workbook was
    0644 whatever the umask), and a failure while writing leaves the old file as it was."""
    import os
    import stat

    path = tmp_path / name
    old = os.umask(0o027)
    try:
        export(estate, path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    before = path.read_bytes()

    def refuse(*_: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", refuse)  # as `replacing` calls it
        with pytest.raises(OSError, match="disk full"):
            export(ipt.Estate.from_raw(estate.raw_profiles[:1]), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [name]
    path.chmod(0o600)  # rewritten, a file keeps its mode; through a link, the link stays
    link = tmp_path / f"link-{name}"
    link.symlink_to(path)
    export(estate, link)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and link.is_symlink()
    from iptoolkit.support.replacing import replaced_when_written

    with (  # the error names the file asked for, not the part written beside it
        pytest.raises(FileNotFoundError, match=rf"{name}: the folder .*missing does not"),
        replaced_when_written(tmp_path / "missing" / name),
    ):
        pass


# -- graph files --------------------------------------------------------------------------


def test_graphml_reads_back_in_networkx_with_yed_labels(tmp_path, estate):
    graph = ipt.build_graph(estate)
    back = nx.read_graphml(export(estate, tmp_path / "e.graphml"))
    assert set(back.nodes) == {str(n) for n in graph.nodes}
    assert back.number_of_edges() == graph.number_of_edges()
    node = back.nodes["profile:P-000001"]
    assert node["kind"] == "profile" and node["platform_id"] == "P-000001"
    assert node["label"] and node["shape_type"] == "roundrectangle"  # from the yEd graphics
    for _, data in back.nodes(data=True):
        assert all(isinstance(v, str | int | float | bool) for v in data.values())
    relations = {data["relation"] for *_, data in back.edges(data=True)}
    assert relations <= {"input", "listens_on", "references", "delivers", "via", "belongs_to"}


def test_graphml_declares_one_type_per_attribute(tmp_path, estate):
    root = ET.parse(export(estate, tmp_path / "e.graphml")).getroot()
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    keys = [k.attrib for k in root.iter(f"{ns}key") if "attr.name" in k.attrib]
    names = [(k["for"], k["attr.name"]) for k in keys]
    assert len(names) == len(set(names))
    types = {k["attr.name"]: k["attr.type"] for k in keys if k["for"] == "node"}
    assert types["platform_id"] == "string"  # strings on profiles, integers on channels
    assert types["active"] == "boolean"
    assert "model" not in types


def test_gexf_reads_back_in_networkx(tmp_path, estate):
    graph = ipt.build_graph(estate)
    back = nx.read_gexf(export(estate, tmp_path / "e.gexf"))
    assert set(back.nodes) == {str(n) for n in graph.nodes}
    assert back.number_of_edges() == graph.number_of_edges()
    node = back.nodes["profile:P-000001"]
    assert node["label"] and node["kind"] == "profile" and "viz" in node


def test_graph_files_of_awkward_names(tmp_path, awkward):
    graph = ipt.build_graph(awkward)
    for name in ("a.graphml", "a.gexf"):
        path = export(awkward, tmp_path / name)
        back = nx.read_graphml(path) if name.endswith("graphml") else nx.read_gexf(path)
        assert set(back.nodes) == {str(n) for n in graph}
        assert SECRET not in path.read_text(encoding="utf-8")


def test_graph_files_of_ids_with_control_characters(tmp_path):
    """XML 1.0 cannot hold control characters: ids and labels lose them in both formats
    (as GraphML already did), so networkx, Gephi and yEd still open the file."""
    estate = estate_of(
        profile("P\x01", name="bad\x02name", agent=agent(channels=[channel(5, partner=ACME)]))
    )
    for name in ("c.graphml", "c.gexf"):
        path = export(estate, tmp_path / name)
        back = nx.read_graphml(path) if name.endswith("graphml") else nx.read_gexf(path)
        assert "profile:P" in back and back.nodes["profile:P"]["label"] == "badname"
        assert back.has_edge("profile:P", "agent:P")


@pytest.fixture(scope="module")
def dot_program() -> str:
    program = shutil.which("dot")
    if program is None:
        pytest.skip("Graphviz `dot` is not installed (make system-deps installs it)")
    return program


def test_dot_renders_with_graphviz(tmp_path, estate, dot_program):
    path = export(estate, tmp_path / "e.dot", title="Eighty profiles")
    result = subprocess.run(
        [dot_program, "-Tsvg", str(path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    svg = ET.fromstring(result.stdout)
    titles = {t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")}
    graph = ipt.build_graph(estate)
    assert {str(n) for n in graph} <= titles  # every node, colon and all, kept whole


def test_dot_quotes_awkward_ids(tmp_path, awkward, dot_program):
    path = export(awkward, tmp_path / "a.dot")
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text
    result = subprocess.run(
        [dot_program, "-Tsvg", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    titles = {
        t.text for t in ET.fromstring(result.stdout).iter("{http://www.w3.org/2000/svg}title")
    }
    assert 'profile:P"2\\\\x' in titles or 'profile:P"2\\x' in titles
    assert "profile:end" in titles


def test_dot_quote():
    assert quote('a"b') == '"a\\"b"'
    assert quote("C:\\new") == '"C:\\\\new"'
    assert quote("two\nlines") == '"two\\nlines"'


# -- Mermaid ------------------------------------------------------------------------------

_ID = r"[a-z]+\d+"
_NODE = re.compile(rf"^\s*({_ID})(\[/|\[\\|\(\[|\{{\{{|\[)\"([^\"]*)\"(/\]|\\\]|\]\)|\}}\}}|\])$")
_EDGE = re.compile(rf"^\s*({_ID}) (-->|-\.->|---) ({_ID})$")
_KEYWORDS = {"end", "graph", "subgraph", "flowchart", "style", "class", "classDef", "click"}


def _check_mermaid(text: str) -> tuple[set[str], int]:
    """Apply the syntax rules; return the declared ids and the number of edges."""
    lines = text.splitlines()
    if lines[0] == "---":
        lines = lines[lines.index("---", 1) + 1 :]
    assert lines[0] == "flowchart LR"
    declared: set[str] = set()
    edges = 0
    depth = 0
    for line in lines[1:]:
        stripped = line.strip()
        if stripped.startswith("subgraph "):
            assert re.fullmatch(r'subgraph g\d+\["[^"]*"\]', stripped), line
            depth += 1
        elif stripped == "end":
            depth -= 1
            assert depth >= 0
        elif stripped.startswith(("classDef ", "class ", "linkStyle ", "direction ")):
            continue
        elif match := _NODE.match(line):
            node_id = match.group(1)
            assert node_id not in _KEYWORDS and not node_id.startswith(("o", "x"))
            assert node_id not in declared, f"{node_id} declared twice"
            declared.add(node_id)
        elif match := _EDGE.match(line):
            assert match.group(1) in declared and match.group(3) in declared, line
            edges += 1
        else:
            raise AssertionError(f"not Mermaid flowchart syntax: {line!r}")
    assert depth == 0
    return declared, edges


def test_mermaid_follows_the_syntax_rules(tmp_path, estate):
    graph = ipt.build_graph(estate)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 80 profiles stay within GitHub's limits
        text = export(estate, tmp_path / "e.mmd", title='The "estate"').read_text()
    declared, edges = _check_mermaid(text)
    assert len(declared) == graph.number_of_nodes()
    assert edges == graph.number_of_edges()
    assert "subgraph g1[" in text  # large: grouped by partner


def test_mermaid_escapes_awkward_labels(awkward):
    text = to_mermaid(ipt.build_graph(awkward))
    declared, _ = _check_mermaid(text)
    assert "end" not in declared
    assert "#quot;quoted#quot;" in text and "#lt;beta#gt;" in text and "#35;" in text
    assert "#96;tick#96;" in text
    assert SECRET not in text
    assert mermaid_text('a "b"\nc') == '"a #quot;b#quot; c"'


def test_markdown_wraps_mermaid_for_github(tmp_path, estate):
    text = export(estate.subset(ipt.Filter(groups=["Finance"])), tmp_path / "e.md").read_text()
    assert text.startswith("# ")
    block = re.search(r"```mermaid\n(.*?)```", text, re.S)
    assert block is not None
    _check_mermaid(block.group(1))


def test_mermaid_beyond_github_limits_warns(tmp_path):
    big = ipt.demo_estate(n_profiles=260)
    assert ipt.build_graph(big).number_of_edges() > GITHUB_MAX_EDGES
    with pytest.warns(UserWarning, match="GitHub renders"):
        export(big, tmp_path / "big.mmd", group_by=False)  # every item, as asked
    _, edges = _check_mermaid((tmp_path / "big.mmd").read_text(encoding="utf-8"))
    assert edges == ipt.build_graph(big).number_of_edges()


@pytest.fixture(scope="module")
def big_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 10,000-profile demo estate a week on, as a snapshot file."""
    path = tmp_path_factory.mktemp("big") / "big.json"
    ipt.demo_changes(ipt.demo_estate(n_profiles=10_000, seed=2), seed=2).save(path)
    return path


def _chart_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        block = re.search(r"```mermaid\n(.*?)```", text, re.S)
        assert block is not None
        return block.group(1)
    return text


@pytest.mark.no_cover  # the export command's test below measures the same code at 10,000
def test_a_mermaid_export_of_10000_profiles_is_grouped_to_fit_github(tmp_path, big_snapshot):
    """Issue 34: `export big.json -o topology.md` wrote 2.4 MB and 30,786 edges, which
    GitHub does not draw; by default it is grouped by profile group, within its limits."""
    from iptoolkit.exporters.mermaid import GITHUB_MAX_TEXT

    big = ipt.load(big_snapshot)
    assert ipt.build_graph(big).number_of_edges() > 20 * GITHUB_MAX_EDGES
    for name in ("topology.md", "topology.mmd"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # within the limits: nothing to warn of
            path = export(big, tmp_path / name, title="Our estate")
        chart = _chart_of(path)
        _, edges = _check_mermaid(chart)
        assert 0 < edges <= GITHUB_MAX_EDGES, name
        assert len(chart) <= GITHUB_MAX_TEXT and path.stat().st_size <= GITHUB_MAX_TEXT, name
        assert re.search(r'p\d+\["Finance \([\d,]+', chart), name  # a box per group
    page = (tmp_path / "topology.md").read_text(encoding="utf-8")
    assert page.startswith("# Our estate\n\nGrouped by profile group: ")
    assert "passes GitHub's limits of 500 edges and 50,000 characters" in page


def test_a_chart_of_few_edges_but_too_much_text_is_grouped_too(tmp_path):
    """GitHub's other limit: 900 faulty profiles are nodes without edges, 60 characters of
    name each, past 50,000 characters of chart."""
    from iptoolkit.exporters.mermaid import GITHUB_MAX_TEXT, auto_grouping

    broken = [
        {"class": "core:IntegrationProfile", "id": f"B{n}", "name": f"{n:03d} " + "x" * 70,
         "inputAgentSettings": 5}
        for n in range(900)
    ]  # fmt: skip
    graph = ipt.build_graph(ipt.Estate.from_raw(broken))
    assert graph.number_of_edges() == 0 and len(to_mermaid(graph)) > GITHUB_MAX_TEXT
    assert auto_grouping(graph) == "group"
    chart = export(graph, tmp_path / "b.mmd").read_text(encoding="utf-8")
    assert len(chart) < GITHUB_MAX_TEXT and "x" * 20 not in chart


def test_group_by_chooses_the_mermaid_grouping_from_python(tmp_path, estate):
    detail = export(estate, tmp_path / "d.mmd").read_text(encoding="utf-8")
    assert "subgraph g1[" in detail  # 80 profiles fit GitHub: every item by default
    charts = {}
    for key in ("group", "agent_type", "partner"):
        charts[key] = export(estate, tmp_path / f"{key}.mmd", group_by=key).read_text("utf-8")
        _, edges = _check_mermaid(charts[key])
        assert 0 < edges < ipt.build_graph(estate).number_of_edges(), key
    assert len(set(charts.values())) == 3  # three groupings, three charts
    assert re.search(r'p\d+\["Finance \(', charts["group"])
    assert not re.search(r'p\d+\["Finance \(', charts["partner"])
    page = export(estate, tmp_path / "a.md", group_by="agent_type").read_text("utf-8")
    assert "Grouped by agent type: each box counts" in page and "passes GitHub" not in page
    assert export(estate, tmp_path / "f.mmd", group_by=False).read_text("utf-8") == detail
    for bad in ("groups", "none", True, "Group"):
        with pytest.raises(ValueError, match="group_by must be one of group, agent_type, part"):
            export(estate, tmp_path / "bad.mmd", group_by=bad)
    with pytest.raises(TypeError, match="takes no option group_by"):
        export(estate, tmp_path / "x.dot", group_by="group")


def test_a_hostile_title_is_literal_text_in_a_mermaid_page(tmp_path, estate):
    title = "# <img src=x onerror=alert(1)> *bold* http://u:pw@h.example.com/"
    page = export(estate, tmp_path / "t.md", title=title).read_text(encoding="utf-8")
    heading = page.splitlines()[0]
    assert heading.startswith("# \\# &lt;img src=x") and "\\*bold\\*" in heading
    assert ":pw@" not in page


def test_export_command_groups_mermaid_by_choice_or_to_fit_github(tmp_path, big_snapshot):
    from click.testing import CliRunner

    from iptoolkit.cli import main

    runner = CliRunner()
    out = tmp_path / "topology.md"
    result = runner.invoke(main, ["export", str(big_snapshot), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "grouped by profile group: the chart of every item passes GitHub's limits" in (
        result.stdout
    )
    assert result.stderr == ""  # no warning: it fits
    _, edges = _check_mermaid(_chart_of(out))
    assert edges <= GITHUB_MAX_EDGES
    small = tmp_path / "small.json"
    ipt.load(big_snapshot).take(list(range(30))).save(small)
    result = runner.invoke(main, ["export", str(small), "-o", str(tmp_path / "s.mmd")])
    assert result.exit_code == 0 and "grouped" not in result.stdout
    for key, label in (("group", "profile group"), ("agent_type", "agent type")):
        out = tmp_path / f"{key}.md"
        result = runner.invoke(main, ["export", str(small), "-o", str(out), "--group-by", key])
        assert result.exit_code == 0, result.output
        assert f"Grouped by {label}: " in out.read_text(encoding="utf-8")
    result = runner.invoke(
        main, ["export", str(big_snapshot), "-o", str(tmp_path / "all.mmd"), "--group-by", "none"]
    )
    assert result.exit_code == 0 and result.stderr.startswith("warning: all.mmd: ")
    result = runner.invoke(
        main, ["export", str(small), "-o", str(tmp_path / "b.mmd"), "--group-by", "groups"]
    )
    assert result.exit_code == 2 and "'groups' is not one of 'auto', 'group'" in result.stderr
    result = runner.invoke(
        main, ["export", str(small), "-o", str(tmp_path / "b.csv"), "--group-by", "group"]
    )
    assert result.exit_code == 2 and "a .csv export is not grouped" in result.stderr
    assert not (tmp_path / "b.csv").exists()


@pytest.mark.parametrize(
    ("suffix", "option"),
    [(n, "--title") for n, row in FORMATS.items() if row.takes({"title": "T"})]
    + [(n, "--group-by") for n, row in FORMATS.items() if row.takes({"group_by": "group"})],
)
def test_export_command_refuses_an_option_the_format_does_not_take(
    tmp_path: Path, snapshot: Path, suffix: str, option: str
) -> None:
    """The format's record says which options it takes: a title for GraphML or GEXF is a
    wrong option (2, one line), as for CSV, not a traceback from the writer."""
    from click.testing import CliRunner

    from iptoolkit.cli import main

    out = tmp_path / f"out.{suffix}"
    value = "T" if option == "--title" else "group"
    result = CliRunner().invoke(main, ["export", str(snapshot), "-o", str(out), option, value])
    assert result.exit_code == 2, result.output
    expected = f"a .{suffix} export has no title" if option == "--title" else "is not grouped"
    assert expected in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


# -- pictures -----------------------------------------------------------------------------


def test_png_svg_pdf(tmp_path, estate):
    from PIL import Image

    png = export(estate, tmp_path / "t.png")
    with Image.open(png) as image:
        width, height = image.size
        assert image.format == "PNG" and width > 1000 and height > 500
    svg = ET.parse(export(estate, tmp_path / "t.svg")).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert export(estate, tmp_path / "t.pdf").read_bytes().startswith(b"%PDF")


def test_one_list_of_diagram_formats_serves_every_menu_and_message():
    assert DIAGRAM_FORMATS == ("png", "svg", "pdf")
    assert FAMILIES["diagrams"] == (*DIAGRAM_FORMATS, "html")
    assert [name for name in FORMATS if "diagram" in FORMATS[name].what] == list(DIAGRAM_FORMATS)
    assert [name for name in DIFF_FORMATS if "diagram" in DIFF_FORMATS[name].what] == list(
        DIAGRAM_FORMATS
    )
    assert diagram_suffixes(" or ") == ".png, .svg or .pdf"


def test_pictures_repeat_byte_for_byte(tmp_path, estate):
    for suffix in ("png", "svg"):
        first = export(estate, tmp_path / f"1.{suffix}").read_bytes()
        second = export(estate, tmp_path / f"2.{suffix}").read_bytes()
        assert first == second, suffix


def test_picture_options_go_to_plot_topology(tmp_path, estate):
    from PIL import Image

    grouped = export(estate, tmp_path / "g.png", group_by="partner", title="By partner")
    detail = export(estate, tmp_path / "d.png", group_by=False)
    with Image.open(grouped) as a, Image.open(detail) as b:
        assert a.size[1] < b.size[1]


# -- subsets and secrets ------------------------------------------------------------------


def test_a_subset_export_holds_exactly_the_subset(tmp_path, estate):
    subset = estate.subset(ipt.Filter(groups=["Finance"]))
    wanted = _profile_nodes(ipt.build_graph(subset))
    assert 0 < len(wanted) < len(estate)
    assert _profile_nodes(nx.read_graphml(export(subset, tmp_path / "s.graphml"))) == wanted
    assert _profile_nodes(nx.read_gexf(export(subset, tmp_path / "s.gexf"))) == wanted
    frame = pd.read_csv(export(subset, tmp_path / "s.csv"))
    assert set(frame["node"]) == wanted
    assert ipt.load(export(subset, tmp_path / "s.json")).raw_profiles == subset.raw_profiles
    dot = export(subset, tmp_path / "s.dot").read_text()
    assert set(re.findall(r'^  "(profile:[^"]+)" \[', dot, re.M)) == wanted


def test_no_secret_in_any_export(tmp_path, awkward):
    for name in FORMATS:
        if name in ("json", "json.gz"):
            continue  # the snapshot keeps profiles exactly as received
        path = export(awkward, tmp_path / f"a.{name}")
        data = path.read_bytes()
        if name == "xlsx":
            import zipfile

            with zipfile.ZipFile(path) as book:
                data = b"".join(book.read(n) for n in book.namelist())
        assert SECRET.encode() not in data, name


def test_attribute_conversion():
    assert scalar(None) is None and scalar(float("nan")) is None
    assert scalar([1, "a"]) == "1, a"
    assert scalar({"a": 1}) is None
    assert scalar(2**70) == str(2**70)
    assert redact_text(f"see https://u:{SECRET}@h/p?apikey={SECRET}&x=1") == (
        "see https://u:**********@h/p?apikey=**********&x=1"
    )
    assert to_dot(nx.MultiDiGraph()).startswith("digraph topology {")


def test_mermaid_grouped_view_fits_github_where_the_detail_does_not():
    """`group_by=` writes the grouped view (items with counts): 2,000 profiles in a chart
    GitHub draws, where the detailed chart is far past its limits."""
    from iptoolkit.exporters.mermaid import GITHUB_MAX_TEXT, fits_github

    graph = ipt.build_graph(ipt.demo_estate(n_profiles=2000, seed=4))
    detail = to_mermaid(graph)
    assert not fits_github(detail)
    assert detail.count(" --> ") + detail.count(" -.-> ") > GITHUB_MAX_EDGES
    for key in ("group", "agent_type", "partner"):
        chart = to_mermaid(graph, group_by=key, title="Grouped")
        assert fits_github(chart), key
        assert len(chart) < GITHUB_MAX_TEXT
        assert chart.startswith("---\ntitle: Grouped\n---\nflowchart LR\n")
    chart = to_mermaid(graph, group_by="group")
    assert re.search(r'p\d+\["Sales \([\d,]+(, [\d,]+ inactive)?\)"\]', chart), chart[:400]
    assert "classDef profile" in chart and "linkStyle" in chart
    too_many = "flowchart LR\n" + "".join(f"  a{i} --> b{i}\n" for i in range(501))
    assert not fits_github(too_many)
    assert fits_github("flowchart LR\n" + "".join(f"  a{i} --> b{i}\n" for i in range(500)))


def test_mermaid_group_with_an_active_member_is_drawn_active() -> None:
    """A group box is faded as inactive only when every item it stands for is inactive:
    one active member keeps it drawn active."""
    estate = estate_of(
        profile("S1", group="Sales"),
        profile("S2", group="Sales", active=False),
        profile("O1", group="Ops", active=False),
    )
    chart = to_mermaid(ipt.build_graph(estate), group_by="group")
    ids = {label: node for node, label in re.findall(r'^  (\w+)\["(.*)"\]$', chart, re.M)}
    assert set(ids) == {"Sales (2, 1 inactive)", "Ops (1, all inactive)"}
    [faded] = re.findall(r"^  class (\S+) inactive$", chart, re.M)
    assert faded.split(",") == [ids["Ops (1, all inactive)"]]


def _named_with_credentials() -> ipt.Estate:
    """Names that hold a URL with a password (people paste them into names): a profile's,
    a channel's, a group's, and a response unit's target URL."""
    creds = f"sftp://edi:{SECRET}@sftp.example.com/in"
    return estate_of(
        profile(
            "N1",
            name=f"Orders from {creds}",
            group=f"Finance/{creds}",
            agent=agent("SFTP", channels=[channel(5, partner=ACME, name=f"Gateway {creds}")]),
            units=[unit("Http", url=f"https://u:{SECRET}@out.example.com/hook")],
        )
    )


@pytest.mark.parametrize("group_by", [False, "group"])
def test_a_credential_in_a_name_is_masked_in_every_export_and_diagram(tmp_path, group_by):
    """Node labels (diagrams, GraphML and GEXF `label`) pass the one rule as every other
    text does: a name holding `scheme://user:password@host` shows the mask."""
    estate = _named_with_credentials()
    for name in FORMATS:
        if name in ("json", "json.gz"):
            continue  # the snapshot keeps profiles exactly as received
        options = {"group_by": group_by} if name in ("png", "svg", "pdf") else {}
        path = export(estate, tmp_path / f"n.{name}", **options)
        data = path.read_bytes()
        if name == "xlsx":
            import zipfile

            with zipfile.ZipFile(path) as book:
                data = b"".join(book.read(n) for n in book.namelist())
        assert SECRET.encode() not in data, name


@pytest.mark.parametrize("suffix", ["graphml", "gexf"])
def test_graph_files_drop_what_no_reader_sees_as_every_file_does(tmp_path, suffix):
    """A lone surrogate, a C1 control and DEL (the one rule, `drop_unprintable`): GraphML
    crashed on the surrogate (`UnicodeEncodeError`) where DOT and Mermaid dropped it."""
    odd = ipt.Estate.from_raw([{"id": "P1", "name": "bad\ud800name\x9b\x7f"}])
    path = export(odd, tmp_path / f"odd.{suffix}")
    ET.parse(path)
    assert "badname" in path.read_text(encoding="utf-8")
