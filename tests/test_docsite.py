"""The documentation site (`ipt.write_docs`, `iptoolkit docs`): its pages, links, diagrams,
determinism, secrets, and that MkDocs builds it strictly."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.docsite import full_lists
from iptoolkit.docsite.sitemap import anchor
from iptoolkit.support.redact import MASK

from .factories import ACME, GLOBEX, agent, channel, profile, unit

SECRET = "s3cr3tV4lue"
ROOT = Path(__file__).resolve().parents[1]
_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]*)\)")
_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def built_site(
    folder: Path, into: Path, *, strict: bool = True
) -> subprocess.CompletedProcess[str]:
    """`mkdocs build` of the site written to `folder`, into `into` (`--strict`: every
    warning an error), its output kept for the assertion that reads it."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    mode = "--strict" if strict else "-q"
    command = [str(mkdocs), "build", mode, "-f", str(folder / "mkdocs.yml"), "-d", str(into)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def _awkward_profiles() -> list[dict[str, Any]]:
    """Demo profiles with secrets in URLs and secret-named fields, odd names, a faulty
    profile and a channel named by an id no profile holds."""
    raw = copy.deepcopy(ipt.demo_profiles(60, seed=5))
    raw[0]["inputAgentSettings"]["password"] = SECRET
    raw[0]["inputAgentSettings"]["url"] = f"https://svc:{SECRET}@in.example.com/x?token={SECRET}"
    raw[1]["description"] = f"see https://h.example.com/?access_token={SECRET}"
    leaky = channel(
        777,
        "HTTP",
        partner=ACME,
        name="Acme | API <v2> [beta] *star*",
        url=f"https://u:{SECRET}@api.example.com/in?apiKey={SECRET}",
    )
    raw += [
        profile(
            "X1",
            name="end | `tick` <b>bold</b>",
            group="Odd/Names & Co",
            agent=agent("SFTP", channels=[channel(778, partner=ACME)]),
            units=[unit("Http", channel=leaky)],
        ),
        profile("X2", name="Names a lost channel", agent=agent("Fax", channelIds=[999999])),
        {
            "class": "core:IntegrationProfile",
            "id": "BAD",
            "name": "Broken",
            "inputAgentSettings": 5,
        },
    ]
    return raw


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    return ipt.Estate.from_raw(_awkward_profiles())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, estate: ipt.Estate) -> Path:
    folder = tmp_path_factory.mktemp("site")
    previous = estate.take(list(range(50)))
    ipt.write_docs(estate, folder, previous=previous, title="Test estate", workers=2)
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _pages(folder: Path) -> dict[str, str]:
    docs = folder / "docs"
    return {
        path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(docs.rglob("*.md"))
    }


# -- what the site holds -----------------------------------------------------------------


def test_every_partner_group_and_channel_type_has_its_page(site, estate) -> None:
    pages = _pages(site)
    graph = ipt.build_graph(estate)
    partners = [n for n, a in graph.nodes(data=True) if a["kind"] == "partner"]
    titled = [text.splitlines()[0] for name, text in pages.items() if name.startswith("partners/")]
    assert sorted(titled) == sorted(f"# Partner {graph.nodes[p]['name']}" for p in partners)
    assert "groups/odd.md" in pages and "groups/odd-names-co.md" in pages  # the tree
    assert "[Odd](odd.md)" in pages["groups/odd-names-co.md"]  # the trail up the tree
    assert {"index.md", "findings.md", "changes.md", "channels/http.md"} <= set(pages)
    index = pages["index.md"]
    assert index.startswith("# Test estate\n")
    assert "63 profiles" in index and "1 faulty" in index
    assert "](findings.md)" in index and "](changes.md)" in index
    assert "([`profile:X1`](groups/odd-names-co.md#profile-x1-" in pages["changes.md"]
    assert (
        '<div class="ipt-view" markdown="1">\n\n![The changes](changes.svg)' in pages["changes.md"]
    )  # drawn over, live: the map of both snapshots, coloured by what happened
    view = (site / "docs" / "changes.view.js").read_text(encoding="utf-8")
    payload = json.loads(view.removeprefix("IptTopology.receive(").removesuffix(");\n"))
    assert payload["changes"]["statuses"][0][0] == "added"
    assert any(entry[1] == 0 for entry in payload["levels"][0]["changes"])  # 13 added
    script = (site / "docs" / "assets" / "ipt-topology.js").read_text(encoding="utf-8")
    assert "ipt-changes-toggle" in script  # the site's script draws the marks
    for text in pages.values():  # no page is headed just "Integration topology"
        assert not text.startswith("# Integration topology")


def test_a_group_page_shows_its_diagram_before_its_tables(site) -> None:
    """An 811-profile group's page was 90,702 px tall with its diagram at the very end."""
    drawn = 0
    for name, text in _pages(site).items():
        if not name.startswith("groups/") or "## Diagram" not in text:
            continue
        drawn += 1
        diagram = text.index("## Diagram")
        assert diagram < text.index("## Profiles"), name
        assert "## Subgroups" not in text or diagram < text.index("## Subgroups"), name
    assert drawn > 3


def test_partner_page_lists_channels_users_impact_and_findings(site) -> None:
    text = _pages(site)["partners/acme.md"]
    assert "## Channels" in text and "Acme \\| API &lt;v2\\> \\[beta\\] \\*star\\*" in text
    inputs, responses = text.split("(inputs)")[1].split("(response paths)")
    assert "end \\| \\`tick\\`" in inputs and "end \\| \\`tick\\`" in responses
    assert "1 active profile lose their input" in text
    assert "![Partner Acme: its channels and the profiles on them](acme.svg)" in text
    assert "```mermaid" in text  # a small diagram: GitHub draws its chart


def test_profiles_are_anchors_on_their_group_page_once(site, estate) -> None:
    anchors: dict[str, list[str]] = {}
    for name, text in _pages(site).items():
        for found in _ANCHOR.findall(text):
            anchors.setdefault(found, []).append(name)
    for record in estate.records:
        assert len(anchors[anchor(record.node)]) == 1, record.node
    broken = anchors[anchor("profile:BAD")][0]
    assert "faulty: " in _pages(site)[broken]  # reported, not dropped


def test_every_relative_link_and_image_resolves(site) -> None:
    docs = site / "docs"
    pages = _pages(site)
    anchors = {name: set(_ANCHOR.findall(text)) for name, text in pages.items()}
    checked = 0
    for name, text in pages.items():
        for target in _LINK.findall(text):
            assert target, (name, "a link to nowhere: []()")
            assert "://" not in target, (name, target)  # the site links only to itself
            path, _, fragment = target.partition("#")
            resolved = (docs / name).parent / path if path else docs / name
            assert resolved.is_file(), (name, target)
            if fragment:
                key = resolved.resolve().relative_to(docs.resolve()).as_posix()
                assert fragment in anchors[key], (name, target)
            checked += 1
    assert checked > 500


def test_mkdocs_builds_the_site_strictly(site, tmp_path) -> None:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "-f", str(site / "mkdocs.yml"), "-d", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "partners" / "acme" / "index.html").is_file()
    assert (tmp_path / "partners" / "acme.svg").is_file()


@pytest.mark.browser
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian's chromium")
def test_tables_keep_to_the_content_column_in_a_browser(site, tmp_path) -> None:
    """Long URLs and paths in a group's table wrap in their cells: the table never runs
    past the page's content column (issue 34: at 1,000 px the page scrolled sideways)."""
    from .browser.lab import chromium_page

    built = tmp_path / "built"
    built_site(site, built, strict=False).check_returncode()
    pages = [built / "partners" / "acme" / "index.html"]
    pages += sorted((built / "groups").glob("*/index.html"))
    measure = """() => {
        const main = document.querySelector('div[role=main]').getBoundingClientRect();
        const tables = [...document.querySelectorAll('table')];
        return [main.right, document.documentElement.scrollWidth,
                ...tables.map(t => t.getBoundingClientRect().right)];
    }"""
    checked = 0
    with chromium_page({"width": 1000, "height": 900}) as (page, _):
        for path in pages:
            page.goto(path.as_uri())
            right, scrolled, *tables = page.evaluate(measure)
            assert scrolled <= 1000, path  # no sideways scrolling
            assert all(table <= right + 1 for table in tables), (path, right, tables)
            checked += len(tables)
    assert checked > 10


def test_secrets_are_masked_on_every_page_and_diagram(site) -> None:
    files = _files(site)
    assert len(files) > 40
    for name, data in files.items():
        assert SECRET.encode() not in data, name
    assert MASK.replace("*", "\\*") in _pages(site)["channels/http.md"]


def test_a_password_in_a_name_or_source_is_masked_in_pages_diagrams_and_file_names(
    tmp_path,
) -> None:
    """Names hold URLs with passwords at times (a profile's, a channel's, a partner's), and
    a snapshot's source URL may: the pages, the diagrams, the changelog and the file names
    made from names show none of it."""
    creds = f"sftp://edi:{SECRET}@sftp.example.com/in"
    leaky = {"class": "core:IntegrationPartner", "id": 9, "name": f"Partner at {creds}"}
    raw = [
        profile(
            "N1",
            name=f"Orders from {creds}",
            group="Finance/EDI",
            agent=agent("SFTP", channels=[channel(5, partner=leaky, name=f"Gateway {creds}")]),
            units=[unit("Http", url=f"https://u:{SECRET}@out.example.com/hook")],
        ),
        profile("N2", name="Plain", agent=agent("SFTP", channels=[channel(6, partner=ACME)])),
    ]
    estate = ipt.Estate.from_raw(raw, source_url=f"https://api:{SECRET}@platform.example.com/")
    previous = ipt.Estate.from_raw(raw[1:], source_url=f"https://api:{SECRET}@old.example.com/")
    ipt.write_docs(estate, tmp_path, previous=previous, workers=1)
    files = _files(tmp_path)
    assert "docs/changes.md" in files and "docs/changes.view.js" in files
    for name, data in files.items():
        assert SECRET.lower() not in name.lower()
        assert SECRET.encode() not in data, name


# -- the same estate gives the same bytes ------------------------------------------------


def test_two_runs_give_identical_files(site, estate, tmp_path) -> None:
    """Serial in this process, and by the command in a process with another hash seed."""
    again = tmp_path / "again"
    ipt.write_docs(
        estate, again, previous=estate.take(list(range(50))), title="Test estate", workers=1
    )
    assert _files(again) == _files(site)
    snapshot, old = tmp_path / "estate.json", tmp_path / "old.json"
    estate.save(snapshot)
    estate.take(list(range(50))).save(old)
    by_command = tmp_path / "by-command"
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("iptoolkit")),
            "docs",
            str(snapshot),
            "-o",
            str(by_command),
        ]
        + ["--previous", str(old), "--title", "Test estate"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONHASHSEED": "12345", "MPLBACKEND": "Agg"},
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    ours, theirs = _files(site), _files(by_command)
    # the snapshots say where they came from; the pages that quote it differ only there
    for name in ("docs/index.md", "docs/changes.md"):
        ours.pop(name), theirs.pop(name)
    assert theirs == ours


def test_command_writes_and_removes_what_the_site_no_longer_has(tmp_path) -> None:
    runner = CliRunner()
    snapshot, small = tmp_path / "estate.json", tmp_path / "small.json"
    estate = ipt.demo_estate(40, seed=2)
    estate.save(snapshot)
    estate.take([0]).save(small)
    out = tmp_path / "site"
    result = runner.invoke(main, ["docs", str(snapshot), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "build with mkdocs build -f" in result.output
    before = set(_pages(out))
    (out / "docs" / "notes.md").write_text("kept\n")  # not the site's: left alone
    result = runner.invoke(main, ["docs", str(small), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    after = set(_pages(out))
    assert after < before | {"notes.md"} and "notes.md" in after
    assert not any(
        p.suffix == ".svg" and not p.with_suffix(".md").exists() for p in out.rglob("*.svg")
    )
    assert "changes.md" not in after


def test_findings_page_is_by_rule_with_its_explanation_and_codes_link_to_it(site, estate) -> None:
    pages = _pages(site)
    text = pages["findings.md"]
    found = ipt.findings(estate)
    codes = found.by_code()
    assert len(codes) >= 3
    for code, n in codes.items():
        anchor_name = f"rule-{code.lower()}"
        assert f'<a id="{anchor_name}"></a>' in text  # each rule's section has its anchor...
        assert f"[`{code}`](#{anchor_name})" in text  # ...the table of codes links to it
        assert f"## {code}: " in text and f"({n:,})\n" in text
    assert "**Remedy:**" in text
    partner_lines = [line for line in pages["partners/acme.md"].splitlines() if "**" in line]
    linked = [line for line in partner_lines if "](../findings.md#rule-" in line]
    assert linked, partner_lines  # a partner's findings link their code to its rule


@pytest.mark.slow
def test_a_big_site_with_a_changelog_builds_strictly(tmp_path, monkeypatch) -> None:
    """Every link of a big site lands: the changelog, findings, channel and partner pages
    link to profiles of groups with more rows than a page holds (issue 34: 599 warnings at
    10,000 profiles). A page holds 75 rows here, so 1,500 profiles spread groups over
    up to four pages, as 10,000 do over two at the real 1,000 (at a sixth of the time)."""
    monkeypatch.setattr(full_lists, "MAX_ROWS", 75)
    base = ipt.demo_estate(n_profiles=1_500, seed=3)
    folder = tmp_path / "site"
    ipt.write_docs(ipt.demo_changes(base, seed=3), folder, previous=base, workers=2)
    pages = _pages(folder)
    later = [text for name, text in pages.items() if "--page-3.md" in name]
    assert later  # some group is on several pages; the diagram is on its first, said first
    assert all(
        text.index("diagram is on [its first page]") < text.index("## Profiles") for text in later
    )
    result = built_site(folder, tmp_path / "built")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr


def test_every_channel_keeps_its_anchor_when_a_type_has_more_channels_than_a_page(
    tmp_path, monkeypatch, estate
) -> None:
    """A channel type with more channels than a page holds (`MAX_ROWS`) spreads its rows
    over several pages, as a group's profiles do: every channel keeps its row and anchor,
    which every page links to (its page was cut, the rest left without an anchor: broken
    links, `mkdocs build --strict` failing, for more than 1,000 channels of one type)."""
    monkeypatch.setattr(full_lists, "MAX_ROWS", 2)
    folder = tmp_path / "site"
    ipt.write_docs(estate, folder, workers=1)
    pages = _pages(folder)
    anchors = {name: set(_ANCHOR.findall(text)) for name, text in pages.items()}
    graph = ipt.build_graph(estate)
    held = [n for n, a in graph.nodes(data=True) if a["kind"] == "channel" and a.get("resolved")]
    for held_channel in held:
        assert sum(anchor(held_channel) in found for found in anchors.values()) == 1, held_channel
    assert any("--page-2.md" in name for name in pages if name.startswith("channels/"))
    for name, text in pages.items():
        for target in _LINK.findall(text):
            path, _, fragment = target.partition("#")
            resolved = (folder / "docs" / name).parent / path if path else folder / "docs" / name
            assert resolved.is_file(), (name, target)
            if fragment and resolved.suffix == ".md":
                key = resolved.resolve().relative_to((folder / "docs").resolve()).as_posix()
                assert fragment in anchors[key], (name, target)
    result = built_site(folder, tmp_path / "built")
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_overview_names_rules_as_the_findings_page_and_orders_groups_case_aside(
    tmp_path,
) -> None:
    """Its problems by code and title (linked to their section), not the rules' inner
    names (`active profile inactive channel`); groups listed as partners are, case aside
    (`index` among the i's, not after `ZZZ`); a snapshot with no address is a local one,
    not `Read from –`."""
    sftp = channel(5, partner=ACME, active=False)
    raw = [
        profile(f"P{n}", name=f"P {n}", group=group, agent=agent("SFTP", channels=[sftp]))
        for n, group in enumerate(["ZZZ", "index", "Alpha"])
    ]
    ipt.write_docs(ipt.Estate.from_raw(raw), tmp_path, workers=1)
    text = (tmp_path / "docs" / "index.md").read_text(encoding="utf-8")
    assert "Read from a local snapshot, with no fetch time recorded." in text
    assert "[`OPS001`](findings.md#rule-ops001) Active profile using inactive channels: 3" in text
    tree = [line for line in text.splitlines() if line.startswith("- [") and "groups/" in line]
    assert [line.split("[")[1].split("]")[0] for line in tree] == ["Alpha", "index", "ZZZ"]
    mkdocs = (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")
    assert mkdocs.index("- Alpha:") < mkdocs.index("- index:") < mkdocs.index("- ZZZ:")


def test_a_blank_part_of_a_group_path_is_named_in_the_menu_tree_and_pages(tmp_path) -> None:
    """`Finance/ /AP` and a group of white space alone: no menu entry, tree link or
    heading without words (a link needs a name); the blank part is called `(blank)`."""
    sftp = channel(5, partner=ACME)
    raw = [
        profile(f"P{n}", name=f"P {n}", group=group, agent=agent("SFTP", channels=[sftp]))
        for n, group in enumerate(["Finance/ /AP", "   ", "Finance"])
    ]
    ipt.write_docs(ipt.Estate.from_raw(raw), tmp_path, workers=1)
    nav = (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")
    assert not re.search(r"^\s*- :", nav, re.MULTILINE), nav
    assert "- (blank): groups/" in nav and "- Finance/(blank): groups/" in nav
    pages = _pages(tmp_path)
    index = pages["index.md"]
    assert "[ ]" not in index and "[]" not in index
    assert "[(blank)](groups/" in index
    headings = [
        line for page in pages.values() for line in page.splitlines() if line.startswith("# ")
    ]
    assert "# Group Finance/(blank)/AP" in headings
    assert all(line.strip("# ").strip() not in ("Group", "") for line in headings), headings
    assert built_site(tmp_path, tmp_path / "html").returncode == 0


def test_a_partner_page_counts_as_the_overview_and_marks_a_conflicting_copy(tmp_path) -> None:
    """Channel 5 is Acme's as the estate keeps it and Globex's in another profile's copy
    (DAT002): Globex's page lists it, marked, but counts it apart, so its headline agrees
    with the overview's partner table."""
    raw = [
        profile("P1", name="P 1", agent=agent("SFTP", channels=[channel(5, partner=ACME)])),
        profile("P2", name="P 2", agent=agent("SFTP", channels=[channel(5, partner=GLOBEX)])),
        profile("P3", name="P 3", agent=agent("SFTP", channels=[channel(6, partner=GLOBEX)])),
    ]
    ipt.write_docs(ipt.Estate.from_raw(raw), tmp_path, workers=1)
    pages = _pages(tmp_path)
    globex = pages["partners/globex.md"]
    assert "1 channel, 1 active, and 1 more that a conflicting copy links here" in globex
    assert "[`DAT002`](../findings.md#rule-dat002)" in globex
    table = globex.split("## Channels")[1].split("## ")[0]
    rows = [line for line in table.splitlines() if line.startswith("|")]
    assert len(rows) == 4  # header, rule, channel 6, channel 5
    assert sum("conflicting copy" in row for row in rows) == 1
    overview = [line for line in pages["index.md"].splitlines() if "partners/globex.md" in line]
    assert overview and "| 1 | 1 |" in overview[0], overview
    assert built_site(tmp_path, tmp_path / "html").returncode == 0


def test_the_site_reports_its_pages_and_diagrams_counted(tmp_path) -> None:
    """A long site (67 s at 100k profiles) shows how far it is and how long is left, not
    only a clock: its pages, then its diagrams, each counted to its total."""
    from .progress_helpers import Recorder

    estate = ipt.demo_estate(n_profiles=40, seed=3)
    shown = Recorder()
    ipt.write_docs(estate, tmp_path, workers=1, progress=shown)
    log = shown.log
    for step in ("Writing the pages", "Drawing the diagrams"):
        at = next(n for n, entry in enumerate(log) if entry[:2] == ("stage", step))
        assert log[at][2] and log[at + 1] == ("advance", log[at][2]), (step, log)
