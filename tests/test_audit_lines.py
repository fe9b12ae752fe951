"""Where each profile starts in a snapshot file, as SARIF's physical locations say it:
the one-profile-a-line layout `write_snapshot` writes, any other JSON layout, gzip."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import iptoolkit as ipt
from iptoolkit.auditing.lines import positions_at, profile_positions

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
