"""One JSON serialiser (`iptoolkit.support.jsonio`) for snapshots and the server's catalogue."""

from __future__ import annotations

import json

import orjson
from hypothesis import given
from hypothesis import strategies as st

from iptoolkit.core import snapshot
from iptoolkit.server import catalogue
from iptoolkit.support import jsonio


def test_big_integers_and_non_ascii_text_round_trip_exactly() -> None:
    value = {"id": 2**70, "n": -(2**64), "name": "Äß✓", "ok": [1, 2.5, None, True]}
    data = jsonio.dumps_json(value)
    assert json.loads(data) == value
    assert b"\\u" not in data and b" " not in data  # UTF-8 as is, compact


def test_small_documents_are_what_orjson_writes() -> None:
    value = {"id": 7, "name": "Acme"}
    assert jsonio.dumps_json(value) == orjson.dumps(value)


def test_snapshot_and_catalogue_share_the_serialiser() -> None:
    # the name each module calls (an import of theirs, not a name they export)
    assert vars(snapshot)["dumps_json"] is jsonio.dumps_json
    assert vars(catalogue)["dumps_json"] is jsonio.dumps_json
    assert not hasattr(catalogue, "dump_profile")
    big = {"id": 2**70, "group": "g"}
    assert catalogue.Catalogue([big])._parts == (jsonio.dumps_json(big),)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )
)
def test_indented_json_is_what_the_standard_library_writes(value: object) -> None:
    """Reports (SARIF, JSON) are written in C, exactly as `json.dumps(indent=2)` wrote them;
    a lone surrogate or an integer beyond 64 bits takes the standard library."""
    assert jsonio.indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_indented_json_falls_back_for_what_orjson_refuses() -> None:
    for value in ({"id": 2**70}, ["\ud800 lone"]):
        assert jsonio.indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


class _Opaque:
    def __str__(self) -> str:
        return "opaque <value>"


def test_report_json_is_the_standard_librarys_layout_at_any_indent() -> None:
    """The diff and compare JSON: in C at two spaces, the stdlib's layout at any other
    indent, and what JSON cannot hold written through `default` either way."""
    document = {"changes": [{"old": "Ä", "new": [1, None, True]}], "odd": _Opaque()}
    for indent in (2, None, 4):
        assert jsonio.report_json(document, indent, default=str) == json.dumps(
            document, indent=indent, ensure_ascii=False, default=str
        )
    assert jsonio.report_json({"id": 2**70}, 2) == json.dumps({"id": 2**70}, indent=2)
