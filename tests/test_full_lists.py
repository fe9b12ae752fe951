"""Long lists on a docs page are cut, with the whole list as CSV (issue 22, finding 10)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import iptoolkit.docsite.full_lists as full_lists
from iptoolkit.docsite import write_docs

from .factories import estate_of, profile

SHOWN = 5


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 empty profiles in one group (each a finding), pages cut at 5 rows."""
    folder = tmp_path_factory.mktemp("full-lists")
    estate = estate_of(*(profile(f"P{n:02d}", name=f"=Empty {n}", group="Bulk") for n in range(40)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(full_lists, "MAX_ROWS", SHOWN)
        write_docs(estate, folder, workers=1)
    return folder / "docs"


def test_a_long_group_page_shows_the_first_rows_and_links_the_whole_list(site: Path) -> None:
    page = (site / "groups" / "bulk.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and "P" in line]
    assert len(rows) == SHOWN + 1  # the header and five profiles
    assert (
        f"The first {SHOWN} of 40 are shown; 35 more are in [profiles.csv](../data/profiles.csv)"
        in page
    )
    with (site / "data" / "profiles.csv").open(encoding="utf-8", newline="") as file:
        table = list(csv.DictReader(file))
    assert len(table) == 40
    assert all(row["name"].startswith("'=Empty") for row in table)  # inert in a spreadsheet


def test_the_findings_page_is_cut_per_kind_with_the_findings_as_csv(site: Path) -> None:
    page = (site / "findings.md").read_text(encoding="utf-8")
    assert page.count("\n- **") <= 3 * SHOWN
    assert "[findings.csv](data/findings.csv)" in page
    with (site / "data" / "findings.csv").open(encoding="utf-8", newline="") as file:
        assert len(list(csv.DictReader(file))) >= 40


def test_a_short_site_writes_no_csv(tmp_path: Path) -> None:
    write_docs(estate_of(profile("P1", name="One", group="G")), tmp_path, workers=1)
    assert not (tmp_path / "docs" / "data").exists()
