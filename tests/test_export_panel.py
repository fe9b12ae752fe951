"""The Explorer's export tab: every format `ipt.export` writes, each file opens, and the file
name follows the filter until the analyst types one."""

from __future__ import annotations

import csv
import gzip
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from iptoolkit.core.estate import Estate, load
from iptoolkit.demo import demo_estate
from iptoolkit.exporters import ALIASES, FAMILIES
from iptoolkit.exporters import FORMATS as EXPORTER_FORMATS
from iptoolkit.query.filters import Filter

pytest.importorskip("ipywidgets")

from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.exporter import FORMATS, suggested_name, write_selection  # noqa: E402


@pytest.fixture(scope="module")
def estate() -> Estate:
    return demo_estate(n_profiles=60, seed=7)


@pytest.fixture()
def explorer(estate: Estate, tmp_path: Path) -> Iterator[Explorer]:
    x = Explorer(estate, folder=tmp_path / "out", diagram=False)
    yield x
    x.close()


def _opened(fmt: str, path: Path) -> int:
    """Open the file as its readers do; how many items it holds (profiles, nodes, lines)."""
    import networkx as nx

    if fmt in ("json", "json.gz"):
        if fmt == "json.gz":
            assert path.read_bytes()[:2] == b"\x1f\x8b"
            json.loads(gzip.decompress(path.read_bytes()))
        return len(load(path))
    if fmt == "csv":
        with path.open(newline="", encoding="utf-8") as handle:
            return len(list(csv.DictReader(handle)))
    if fmt == "xlsx":
        from openpyxl import load_workbook

        book = load_workbook(path, read_only=True)
        return book[book.sheetnames[0]].max_row - 1
    if fmt == "graphml":
        return nx.read_graphml(path).number_of_nodes()
    if fmt == "gexf":
        return nx.read_gexf(path).number_of_nodes()
    text_or_image = path.read_bytes()
    if fmt == "png":
        assert text_or_image.startswith(b"\x89PNG\r\n\x1a\n")
    elif fmt == "pdf":
        assert text_or_image.startswith(b"%PDF-")
    elif fmt == "svg":
        assert ET.fromstring(text_or_image).tag.endswith("svg")
    elif fmt == "dot":
        assert text_or_image.lstrip().startswith(b"digraph")
    elif fmt == "mmd":
        assert text_or_image.startswith(b"flowchart") or b"\nflowchart" in text_or_image
    elif fmt == "md":
        assert b"```mermaid" in text_or_image
    elif fmt == "html":
        from .test_offline import payload_of

        return sum(1 for row in payload_of(path)["items"] if row[1] == "profile")
    else:
        raise AssertionError(f"no check for .{fmt}: add one")
    return len(text_or_image)


def test_the_panel_offers_every_format_the_exporters_write() -> None:
    assert set(FORMATS) == set(EXPORTER_FORMATS) - set(ALIASES)
    assert list(FORMATS) == [name for names in FAMILIES.values() for name in names]
    assert {"xlsx", "png", "pdf", "svg", "gexf", "dot", "json.gz"} <= set(FORMATS)


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_is_written_and_opens(explorer: Explorer, fmt: str, tmp_path: Path) -> None:
    explorer.filter = Filter(active=True)
    path = explorer.exporter.write(fmt)
    assert path is not None, explorer.exporter.log.value
    assert path == tmp_path / "out" / f"active.{fmt}"
    held = _opened(fmt, path)
    assert held > 0
    if fmt in ("json", "json.gz", "csv", "xlsx"):  # one row or profile per selected profile
        assert held == len(explorer.selection)
    assert f"active.{fmt}</code>" in explorer.exporter.log.value
    assert "download" in explorer.exporter.log.value


@pytest.mark.parametrize("fmt", ["XLSX", ".pdf", "snapshot", "mermaid", "gexf"])
def test_explorer_export_accepts_every_format(explorer: Explorer, fmt: str) -> None:
    path = explorer.export(fmt, name="picked")
    assert path.exists() and path.stat().st_size > 0
    assert path.name.startswith("picked.")


def test_an_unknown_format_names_the_formats_offered(explorer: Explorer) -> None:
    with pytest.raises(ValueError, match=r"unknown export format 'docx'.*xlsx.*pdf"):
        explorer.export("docx")
    assert explorer.exporter.write("pdf") is not None  # the panel still works


def test_the_log_outlives_a_deleted_file_and_an_error_keeps_the_newest_link(
    explorer: Explorer,
) -> None:
    first = explorer.exporter.write("csv")
    assert first is not None
    first.unlink()  # deleted since: the log must not read it again
    assert explorer.exporter.write("json") is not None
    explorer.exporter.name.value = "../outside"
    assert explorer.exporter.write("csv") is None  # an error entry, on top
    log = explorer.exporter.log.value
    assert "ipt-error" in log and log.count("download=") == 1  # the json's, still offered
    assert log.count("<li") == 3


def test_the_dot_alias_gv_is_accepted(explorer: Explorer) -> None:
    assert explorer.export("gv").suffix == ".dot"


@pytest.mark.parametrize("name", ["../outside", "sub/inner", "..", "/tmp/abs"])
def test_a_typed_name_stays_in_the_folder(estate: Estate, tmp_path: Path, name: str) -> None:
    folder = tmp_path / "out"
    with pytest.raises(ValueError, match="a name only, without folders"):
        write_selection(estate, "csv", folder, name)
    assert not any(tmp_path.rglob("*.csv"))


def test_write_selection_keeps_a_typed_suffix(estate: Estate, tmp_path: Path) -> None:
    assert write_selection(estate, "json.gz", tmp_path, "all.json.gz").name == "all.json.gz"
    assert write_selection(estate, "xlsx", tmp_path, "all.XLSX").name == "all.xlsx"


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        (Filter(), "estate"),
        (Filter(partners=["Acme Ltd"], channel_types=["Kafka"]), "partner-acme-ltd-kafka"),
        (
            Filter(groups=["Finance/AP"], agent_types=["SFTPAgentSettings"], active=True),
            "finance-ap-sftp-active",
        ),
        (Filter(channel_types=["IntegrationPartnerChannelAS2"], active=False), "as2-inactive"),
        (Filter(text="Überweisung **"), "uberweisung"),
        (Filter(text="https://user:hunter2@sftp.example.com"), "https-user-sftp-example-com"),
        (Filter(text="%%%"), "selection"),
        (Filter(channels=["channel:40003"]), "channel-40003"),
        (
            Filter(partners=["A very long partner name GmbH & Co. KG", "Another Ltd"]),
            "partner-a-very-long-partner-name-gmbh-co-kg",
        ),
    ],
)
def test_suggested_names_are_short_safe_slugs(selection: Filter, expected: str) -> None:
    assert suggested_name(selection) == expected
    assert len(expected) <= 48


def test_the_file_name_follows_the_filter_until_one_is_typed(
    explorer: Explorer, tmp_path: Path
) -> None:
    name = explorer.exporter.name
    assert name.value == "estate"
    explorer.filter = Filter(active=False)
    assert name.value == "inactive"
    name.value = "for-the-auditors"  # the analyst types a name: it stays
    explorer.filter = Filter(active=True)
    assert name.value == "for-the-auditors"
    assert explorer.export("csv") == tmp_path / "out" / "for-the-auditors.csv"
    name.value = ""  # cleared: the suggestions take over again
    assert explorer.export("csv") == tmp_path / "out" / "active.csv"
    explorer.filter = Filter(active=False)
    assert name.value == "inactive"


def test_a_file_too_big_for_a_link_says_so_and_where_it_is(tmp_path: Path, monkeypatch) -> None:
    from iptoolkit.widgets import exporter

    monkeypatch.setattr(exporter, "DOWNLOAD_LIMIT", 10)
    big = tmp_path / "selection.xlsx"
    big.write_bytes(b"x" * 100)
    said = exporter._download(big)
    assert "download=" not in said and "too big for a download link" in said
    assert "folder" in said


def test_the_export_tab_draws_no_bar_of_its_own_where_one_is_watched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HTML file and the workbook report their steps to a bar of their own in Jupyter;
    from the Export tab (a widget's callback, the app's output) they draw none: a tqdm
    widget closed there left "model not found" behind (see `widgets.progress_bar`)."""
    from iptoolkit.support import progress

    monkeypatch.setattr(progress, "watched", lambda: True)
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "0")
    estate = demo_estate(n_profiles=40, seed=2)
    write_selection(estate, "html", tmp_path, "x")
    assert (tmp_path / "x.html").is_file()
    assert capsys.readouterr().err == ""
