"""Where each profile starts in a snapshot file, as SARIF's physical locations say it:
the one-profile-a-line layout `write_snapshot` writes, any other JSON layout, gzip."""

from __future__ import annotations

import codecs
import gzip
import json
from pathlib import Path

import iptoolkit as ipt
from iptoolkit.auditing.finding import Finding, Findings
from iptoolkit.auditing.lines import positions_at, profile_positions
from iptoolkit.auditing.reports import ReportContext

from .factories import agent, estate_of, profile

ESTATE = estate_of(
    profile("P1", name='tricky "[{" name', agent=agent("SFTP")),
    profile("P2", description="line\nbreak ]}"),
    profile("P3"),
)


def test_a_snapshot_has_one_profile_a_line(tmp_path: Path) -> None:
    path = ESTATE.save(tmp_path / "s.json")
    assert profile_positions(path) == [(2, 1), (3, 1), (4, 1)]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(lines[n - 1].rstrip(","))["id"] for n, _ in profile_positions(path)] == [
        "P1",
        "P2",
        "P3",
    ]


def test_any_other_layout_is_scanned(tmp_path: Path) -> None:
    document = json.loads(ESTATE.save(tmp_path / "s.json").read_text(encoding="utf-8"))
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(document, indent=2), encoding="utf-8")
    lines = pretty.read_text(encoding="utf-8").splitlines()
    found = profile_positions(pretty)
    assert len(found) == 3
    for (line, column), pid in zip(found, ("P1", "P2", "P3"), strict=True):
        assert lines[line - 1][column - 1] == "{"
        assert f'"id": "{pid}"' in "\n".join(lines[line : line + 4])
    bare = tmp_path / "bare.json.gz"
    bare.write_bytes(gzip.compress(json.dumps(document["profiles"]).encode()))
    positions = profile_positions(bare)
    text = json.dumps(document["profiles"])
    assert [text[column - 1] for _, column in positions] == ["{", "{", "{"]
    assert [line for line, _ in positions] == [1, 1, 1]


def test_no_listing_no_positions(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"something": "else"}')
    assert profile_positions(path) == []


def test_the_offsets_reading_found_give_the_same_positions(tmp_path: Path) -> None:
    """The auditing commands take each profile's position from where reading the file
    found its text (`Estate.texts`) instead of scanning the file again: the same lines and
    columns, for a snapshot, a bare array on one line (the slow scan's case) and gzip."""
    raw = list(ESTATE.raw_profiles)
    snapshot = ESTATE.save(tmp_path / "s.json")
    bare = tmp_path / "bare.json"
    bare.write_bytes(b'[{"id":"P0"},' + json.dumps(raw, separators=(",", ":")).encode()[1:])
    zipped = tmp_path / "bare.json.gz"
    zipped.write_bytes(gzip.compress(bare.read_bytes()))
    for path in (snapshot, bare, zipped):
        texts = ipt.load(path, keep_texts=True).texts
        assert texts is not None, path
        assert positions_at(texts.text, texts.starts) == profile_positions(path), path
    assert positions_at("ab\ncd\nxé{".encode(), [0, 3, 9]) == [(1, 1), (2, 1), (3, 3)]


def test_a_byte_order_mark_has_no_column_and_any_item_keeps_its_place(tmp_path: Path) -> None:
    """A BOM takes no column whether the file is scanned or its offsets were kept, and an
    item that is no object (a faulty profile) still has a place: the ones after it keep
    theirs."""
    raw = list(ESTATE.raw_profiles)
    bare = tmp_path / "bom.json"
    bare.write_bytes(codecs.BOM_UTF8 + json.dumps(raw, separators=(",", ":")).encode())
    texts = ipt.load(bare, keep_texts=True).texts
    assert texts is not None
    assert profile_positions(bare) == positions_at(texts.text, texts.starts)
    assert profile_positions(bare)[0] == (1, 2)

    mixed = tmp_path / "mixed.json"
    items = [raw[0], 5, "text", raw[2], [], raw[1]]
    mixed.write_text("[\n  " + ",\n  ".join(json.dumps(item) for item in items) + "\n]\n")
    assert profile_positions(mixed) == [(n, 3) for n in range(2, 8)]
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"profiles": [7, raw[0]], "x": [1]}))
    assert profile_positions(wrapped) == [(1, 15), (1, 18)]
    empty = tmp_path / "empty.json"
    empty.write_text('{"profiles": [ ]}')
    assert profile_positions(empty) == []


def test_a_report_takes_positions_as_a_list_too() -> None:
    found = Findings([Finding("x", "warning", "text", ("profile:P2",), "SEC001", profile=1)])
    for positions in ([(2, 1), (3, 1)], {1: (3, 1)}):
        context = ReportContext(found, [], snapshot=Path("s.json"), positions=positions)
        assert context.position(found[0]) == (3, 1)


def test_a_utf16_file_is_placed_as_reading_decodes_it(tmp_path: Path) -> None:
    """PowerShell 5 writes UTF-16 with a BOM; reading decodes it, and so does the scan."""
    raw = list(ESTATE.raw_profiles)
    text = json.dumps(raw, indent=1, ensure_ascii=False)
    utf16 = tmp_path / "utf16.json"
    utf16.write_bytes(text.encode("utf-16"))
    utf8 = tmp_path / "utf8.json"
    utf8.write_text(text, encoding="utf-8")
    assert profile_positions(utf16) == profile_positions(utf8)
    assert [line for line, _ in profile_positions(utf16)][0] == 2
