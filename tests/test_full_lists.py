"""Long lists on a docs page are cut, with the whole list as CSV (issue 22, finding 10)."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
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


def test_a_long_group_has_every_row_on_one_of_its_pages_which_link_each_other(
    site: Path,
) -> None:
    """A group's rows are the anchors other pages link to: none is cut (issue 34)."""
    names = {n: "bulk.md" if n == 1 else f"bulk--page-{n}.md" for n in range(1, 9)}
    pages = {n: site / "groups" / name for n, name in names.items()}
    assert not (site / "groups" / "bulk--page-9.md").exists()  # 40 rows, 5 a page: 8 pages
    seen: list[str] = []
    for number, path in pages.items():
        page = path.read_text(encoding="utf-8")
        rows = [line for line in page.splitlines() if line.startswith("| <a id=")]
        assert len(rows) == SHOWN, number
        seen += [row.split('"')[1] for row in rows]
        first = (number - 1) * SHOWN + 1
        assert f"Profiles {first} to {first + SHOWN - 1} of 40; pages " in page
        assert f"**{number}**" in page  # this page, not linked
        other = 2 if number == 1 else 1
        target = f"bulk--page-{other}.md" if other > 1 else "bulk.md"
        assert f"[{other}]({target})" in page
        assert "[profiles.csv](../data/profiles.csv)" in page
        assert (f"page {number} of 8" in page.splitlines()[0]) == (number > 1)
    assert len(seen) == len(set(seen)) == 40
    mkdocs = (site.parent / "mkdocs.yml").read_text(encoding="utf-8")
    assert "Bulk, page 8 of 8: groups/bulk--page-8.md" in mkdocs  # in the navigation
    with (site / "data" / "profiles.csv").open(encoding="utf-8", newline="") as file:
        table = list(csv.DictReader(file))
    assert len(table) == 40
    assert all(row["name"].startswith("'=Empty") for row in table)  # inert in a spreadsheet


def test_links_to_profiles_land_on_the_page_that_holds_their_row(site: Path) -> None:
    findings = (site / "findings.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((groups/[^)#]+)#(profile-[^)]+)\)", findings)
    assert links
    for target, fragment in links:
        assert f'<a id="{fragment}">' in (site / target).read_text(encoding="utf-8")


def test_the_findings_page_is_cut_per_kind_with_the_findings_as_csv(site: Path) -> None:
    page = (site / "findings.md").read_text(encoding="utf-8")
    assert page.count("\n- **") <= 3 * SHOWN
    assert "[findings.csv](data/findings.csv)" in page
    with (site / "data" / "findings.csv").open(encoding="utf-8", newline="") as file:
        assert len(list(csv.DictReader(file))) >= 40


def test_a_short_site_writes_no_csv(tmp_path: Path) -> None:
    write_docs(estate_of(profile("P1", name="One", group="G")), tmp_path, workers=1)
    assert not (tmp_path / "docs" / "data").exists()


def test_mkdocs_builds_a_site_of_paged_groups_strictly(site: Path, tmp_path: Path) -> None:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "-f", str(site.parent / "mkdocs.yml")]
        + ["-d", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "groups" / "bulk--page-8" / "index.html").is_file()


def test_pages_a_shrunk_group_no_longer_has_are_removed(tmp_path: Path) -> None:
    def bulk(count: int):  # noqa: ANN202
        return estate_of(*(profile(f"P{n:02d}", name=f"P {n}", group="Bulk") for n in range(count)))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(full_lists, "MAX_ROWS", SHOWN)
        write_docs(bulk(4 * SHOWN), tmp_path, workers=1)
        assert (tmp_path / "docs" / "groups" / "bulk--page-4.md").is_file()
        write_docs(bulk(2 * SHOWN - 1), tmp_path, workers=1)
    pages = sorted(path.name for path in (tmp_path / "docs" / "groups").glob("*.md"))
    assert pages == ["bulk--page-2.md", "bulk.md"]
