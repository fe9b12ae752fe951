"""The Explorer's table pages and sorts in the kernel: only the page on view travels."""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import pytest

from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.support.names import type_label
from iptoolkit.viewmodel.explorer_model import ExplorerModel
from iptoolkit.viewmodel.table_pages import CELL_CHARS, PAGE_SIZES, Pager, cell_text, page_span
from iptoolkit.widgets.table import SelectionTable


@pytest.fixture(scope="module")
def big_frame() -> pd.DataFrame:
    model = ExplorerModel(demo_estate(n_profiles=10_000))
    return model.table(model.select(Filter()))


def _table(frame: pd.DataFrame, picks: list[int] | None = None) -> SelectionTable:
    table = SelectionTable((picks if picks is not None else []).append)
    table.show(frame)
    return table


def _shown(table: SelectionTable, column: str) -> list[str]:
    index = table.widget.view["columns"].index(column)
    return [row["cells"][index] for row in table.widget.view["rows"]]


# -- paging math --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "size", "page", "expected"),
    [
        (0, 25, 0, (0, 1, 0, 0, "no rows")),
        (0, 25, 5, (0, 1, 0, 0, "no rows")),
        (1, 25, 0, (0, 1, 0, 1, "row 1 of 1")),
        (1, 25, 1, (0, 1, 0, 1, "row 1 of 1")),
        (50, 25, 1, (1, 2, 25, 50, "rows 26–50 of 50")),
        (50, 25, 2, (1, 2, 25, 50, "rows 26–50 of 50")),  # past the end: the last page
        (51, 25, 2, (2, 3, 50, 51, "row 51 of 51")),
        (9_214, 25, 1, (1, 369, 25, 50, "rows 26–50 of 9,214")),
        (100, 10, -3, (0, 10, 0, 10, "rows 1–10 of 100")),  # before the start: the first
    ],
)
def test_page_span_at_the_edges(
    total: int, size: int, page: int, expected: tuple[int, int, int, int, str]
) -> None:
    span = page_span(total, size, page)
    assert (span.page, span.pages, span.start, span.stop, span.label()) == expected


def test_page_size_must_be_offered() -> None:
    with pytest.raises(ValueError, match=r"page size must be one of \[10, 25, 50, 100\], got 7"):
        Pager(7)
    with pytest.raises(ValueError, match="at least 1, got 0"):
        page_span(10, 0, 0)


@pytest.mark.parametrize("size", PAGE_SIZES)
def test_walking_every_page_shows_every_row_once(size: int) -> None:
    frame = pd.DataFrame({"n": range(237)})
    table = _table(frame)
    table.resize(size)
    seen: list[int] = []
    for page in range(math.ceil(237 / size)):
        table.go(page)
        view = table.widget.view
        assert len(view["rows"]) <= size
        seen += [row["at"] for row in view["rows"]]
    assert seen == list(range(237))


def test_an_empty_frame_is_one_empty_page() -> None:
    table = _table(pd.DataFrame({"id": [], "name": []}))
    view = table.widget.view
    assert (view["rows"], view["page"], view["pages"], view["label"]) == ([], 0, 1, "no rows")
    table.sort_by("name")  # sorting nothing is fine
    assert table.widget.view["sort"] == "name"


def test_resizing_keeps_the_first_row_on_view() -> None:
    table = _table(pd.DataFrame({"n": range(300)}))
    table.go(3)  # rows 76-100
    table.resize(50)
    assert table.widget.view["page"] == 1  # rows 51-100 hold row 76
    assert table.widget.view["label"] == "rows 51–100 of 300"


# -- sorting ------------------------------------------------------------------------------


MIXED = pd.DataFrame(
    {
        "number": pd.array([3, None, 10, 1], dtype="Int64"),
        "float": [2.5, math.nan, -1.0, 7.0],
        "text": ["banana", None, "Apple", "cherry"],
        "date": pd.to_datetime(pd.Series(["2024-05-01", None, "2023-01-31", "2025-12-24"])),
        "flag": pd.array([True, None, False, True], dtype="boolean"),
    }
)


@pytest.mark.parametrize(
    ("column", "ascending", "descending"),
    [
        ("number", ["1", "3", "10", ""], ["10", "3", "1", ""]),
        ("float", ["-1", "2.5", "7", ""], ["7", "2.5", "-1", ""]),
        ("text", ["Apple", "banana", "cherry", ""], ["cherry", "banana", "Apple", ""]),
        (
            "date",
            ["2023-01-31", "2024-05-01", "2025-12-24", ""],
            ["2025-12-24", "2024-05-01", "2023-01-31", ""],
        ),
        ("flag", ["False", "True", "True", ""], ["True", "True", "False", ""]),
    ],
)
def test_sort_each_column_type_missing_last_both_ways(
    column: str, ascending: list[str], descending: list[str]
) -> None:
    table = _table(MIXED)
    table.sort_by(column)
    assert _shown(table, column) == ascending
    assert table.widget.view["sort"] == column and table.widget.view["ascending"] is True
    table.sort_by(column)  # again: the other way, missing values still last
    assert _shown(table, column) == descending
    assert table.widget.view["ascending"] is False


def test_sort_is_stable_and_a_new_column_starts_ascending() -> None:
    frame = pd.DataFrame({"group": ["b", "a", "b", "a"], "n": [1, 2, 3, 4]})
    table = _table(frame)
    table.sort_by("n")
    table.sort_by("n")  # descending
    table.sort_by("group")  # another column: ascending again, ties keep the frame's order
    assert table.widget.view["ascending"] is True
    assert [row["at"] for row in table.widget.view["rows"]] == [1, 3, 0, 2]


def test_mixed_types_sort_as_text() -> None:
    table = _table(pd.DataFrame({"id": [10, "b", 2, None, "A"]}))
    table.sort_by("id")
    assert _shown(table, "id") == ["10", "2", "A", "b", ""]


def test_sorting_an_unknown_column_names_it() -> None:
    table = _table(MIXED)
    with pytest.raises(KeyError, match="no column 'nope' to sort by"):
        table.sort_by("nope")


def test_sort_covers_the_whole_selection_not_the_page(big_frame: pd.DataFrame) -> None:
    table = _table(big_frame)
    table.sort_by("name")
    table.sort_by("name")  # descending
    last = max(big_frame["name"], key=str.casefold)
    assert len(last) <= CELL_CHARS
    assert _shown(table, "name")[0] == last


# -- cells --------------------------------------------------------------------------------


def test_cells_are_text_and_long_ones_are_cut_with_a_title() -> None:
    long = "x" * (CELL_CHARS + 15)
    frame = pd.DataFrame(
        {
            "when": [pd.Timestamp("2024-02-03"), pd.Timestamp("2024-02-03 04:05:06")],
            "missing": [None, math.nan],
            "long": [long, "short"],
            "list": [["a", "b"], []],
            "count": [2.0, 3.5],
        }
    )
    rows = _table(frame).widget.view["rows"]
    assert rows[0]["cells"] == ["2024-02-03", "", "x" * (CELL_CHARS - 1) + "…", "a, b", "2"]
    assert rows[0]["titles"] == {"2": long}
    assert rows[1]["cells"] == ["2024-02-03 04:05:06", "", "short", "", "3.5"]
    assert "titles" not in rows[1]
    assert cell_text(pd.NaT) == "" and cell_text(pd.NA) == ""


# -- what travels -------------------------------------------------------------------------


def test_the_payload_holds_one_page_at_10k_rows(big_frame: pd.DataFrame) -> None:
    assert len(big_frame) == 10_000
    table = _table(big_frame)
    sent: list[dict[str, Any]] = []  # the JSON the front end is sent
    table.widget.observe(lambda change: sent.append(change["new"]), "view")
    table.sort_by("last modified")
    table.go(5)
    for size in PAGE_SIZES:
        table.resize(size)
        table.go(10**6)  # the last page
    table.show(big_frame.iloc[::2].reset_index(drop=True))
    assert len(sent) == 11  # one answer a request (numbered: the page waits for it)
    for view in sent:
        assert len(view["rows"]) <= view["size"] <= max(PAGE_SIZES)
        assert len(json.dumps(view)) < 40_000  # 100 short rows; the whole frame is ~2 MB
    assert sent[3]["label"] == "rows 9,991–10,000 of 10,000"


def test_a_row_click_maps_to_the_frame_row_after_sorting_and_paging(
    big_frame: pd.DataFrame,
) -> None:
    picks: list[int] = []
    table = _table(big_frame, picks)
    table.sort_by("name")
    table.sort_by("name")
    table.go(7)
    row = table.widget.view["rows"][4]
    # the front end sends the row's frame position with the frame's version
    table.widget._handle_custom_msg({"action": "pick", "at": row["at"], "version": 1}, [])
    assert picks == [row["at"]]
    assert big_frame.iloc[picks[0]]["id"] == row["cells"][0]
    expected = big_frame.sort_values("name", key=lambda s: s.str.casefold(), ascending=False)
    assert big_frame.index[picks[0]] == expected.index[7 * 25 + 4]
    assert table.widget.view["picked"] == row["at"]  # highlighted


def test_a_click_on_an_older_frame_is_ignored() -> None:
    picks: list[int] = []
    table = _table(pd.DataFrame({"n": range(30)}), picks)
    table.show(pd.DataFrame({"n": range(5, 30)}))  # version 2: the filter changed meanwhile
    table.widget._handle_custom_msg({"action": "pick", "at": 20, "version": 1}, [])
    assert picks == []
    table.widget._handle_custom_msg({"action": "pick", "at": 20, "version": 2}, [])
    assert picks == [20]
    with pytest.raises(IndexError, match="row 25 is outside the table's 25 rows"):
        table.pick(25)


def test_every_request_is_answered_with_a_change_so_the_page_stops_waiting() -> None:
    table = _table(pd.DataFrame({"n": range(30)}))
    changes: list[dict[str, Any]] = []
    table.widget.observe(lambda change: changes.append(change["new"]), "view")
    send = table.widget._handle_custom_msg
    send({"action": "pick", "at": 3, "version": 1}, [])
    send({"action": "pick", "at": 3, "version": 1}, [])  # the same row again
    send({"action": "pick", "at": 3, "version": 0}, [])  # a stale click, ignored
    send({"action": "page", "page": 0, "version": 1}, [])  # the page on view already
    assert len(changes) == 4
    assert len({view["answer"] for view in changes}) == 4


def test_messages_drive_sort_page_and_size() -> None:
    table = _table(pd.DataFrame({"n": range(120), "m": range(120, 0, -1)}))
    send = table.widget._handle_custom_msg
    send({"action": "sort", "column": "m", "version": 1}, [])
    send({"action": "size", "size": 10, "version": 1}, [])
    send({"action": "page", "page": 2, "version": 1}, [])
    view = table.widget.view
    assert (view["sort"], view["size"], view["page"]) == ("m", 10, 2)
    assert _shown(table, "m")[0] == "21"
    with pytest.raises(ValueError, match="unknown table action 'zoom'"):
        table._message(table.widget, {"action": "zoom"}, [])


def test_show_resets_to_page_one_and_keeps_the_sort() -> None:
    table = _table(pd.DataFrame({"n": range(100)}))
    table.sort_by("n")
    table.sort_by("n")  # descending
    table.go(2)
    table.pick(40)
    table.show(pd.DataFrame({"n": range(60)}))
    view = table.widget.view
    assert (view["page"], view["sort"], view["ascending"], view["picked"]) == (0, "n", False, None)
    assert _shown(table, "n")[:3] == ["59", "58", "57"]
    table.show(pd.DataFrame({"other": [1, 2]}))  # the sorted column is gone: frame order
    assert table.widget.view["sort"] is None


def test_the_explorer_maps_a_click_on_a_sorted_page_to_its_profile() -> None:
    from iptoolkit.widgets import Explorer

    explorer = Explorer(demo_estate(n_profiles=120), debounce=0, diagram=False)
    try:
        table = explorer.table
        table.sort_by("id")
        table.sort_by("id")  # descending: the last profile first
        table.go(1)
        row = table.widget.view["rows"][0]
        table.pick(row["at"], table.widget.view["version"])
        assert explorer.detail.node == f"profile:{row['cells'][0]}"
    finally:
        explorer.close()


def test_the_explorer_table_says_types_and_flags_as_the_filters_do() -> None:
    """The agent type as the filter panel lists it ("Cron Cloud Storage", not the class
    name "CronCloudStorageAgentSettings"), active as yes or no (not Python's True/False)."""
    model = ExplorerModel(demo_estate(n_profiles=60, seed=1))
    picks: list[int] = []
    table = SelectionTable(picks.append, page_size=100)
    table.show(model.table(model.select(Filter())))
    types, flags = _shown(table, "agent type"), _shown(table, "active")
    raw = model.estate.to_frame("profiles")
    assert types == [type_label(name) for name in raw["agent_type"]]
    assert not any(name.endswith("Settings") for name in types), types
    assert flags == ["yes" if flag else "no" for flag in raw["active"]]
