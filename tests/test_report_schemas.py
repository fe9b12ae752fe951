"""The JSON of `compare`, `diff` and `audit` carries a `schema_version` and is described by
its JSON Schema (Draft 2020-12) in docs/schemas/, checked with `jsonschema` against the
commands' real output, an empty and a large case; a field the schema does not describe
fails the check, and the docs that describe each JSON link its schema."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from iptoolkit.cli import main

from .report_estates import report_files

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schemas"
REPORTS = ("compare", "diff", "audit")
LINKED_FROM = {"compare": ROOT / "docs" / "compare.md", "diff": ROOT / "README.md",
               "audit": ROOT / "README.md"}  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return report_files(tmp_path_factory.mktemp("estates"), with_empty_cases=True)


def validator(report: str) -> Any:
    import jsonschema

    schema = json.loads((SCHEMAS / f"{report}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def output(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


CASES = {
    ("compare", "empty"): ("compare", "prod", "same"),
    ("compare", "large"): ("compare", "prod", "test"),
    ("diff", "empty"): ("diff", "prod", "prod"),
    ("diff", "large"): ("diff", "prod", "week"),
    ("audit", "empty"): ("audit", "empty", "--isolated"),
    ("audit", "large"): ("audit", "prod", "--isolated"),
}
LISTS = {"compare": "differences", "diff": "changes", "audit": "findings"}


@pytest.mark.parametrize("case", list(CASES), ids="-".join)
def test_real_output_is_valid_and_an_undescribed_field_is_not(
    files: dict[str, Path], case: tuple[str, str]
) -> None:
    report, size = case
    command, *args = CASES[case]
    document = output(command, *(str(files[a]) if a in files else a for a in args))
    assert document["schema_version"] == 1
    items = document[LISTS[report]]
    assert (not items) if size == "empty" else len(items) > 100
    check = validator(report)
    errors = [f"{list(e.path)}: {e.message}" for e in check.iter_errors(document)]
    assert not errors, errors[:5]
    places: list[tuple[str | int, ...]] = [(), ("summary",)]
    places += [(LISTS[report], 0)] if items else []
    for where in places:
        grown = copy.deepcopy(document)
        target: Any = grown
        for step in where:
            target = target[step]
        target["surprise"] = True
        assert list(check.iter_errors(grown)), f"a new field under {where} passed"


@pytest.mark.parametrize("report", REPORTS)
def test_each_schema_is_linked_from_the_docs_that_describe_the_json(report: str) -> None:
    page = LINKED_FROM[report]
    targets = re.findall(r"\]\(([^)\s]+\.schema\.json)\)", page.read_text(encoding="utf-8"))
    linked = {(page.parent / target).resolve() for target in targets}
    assert (SCHEMAS / f"{report}.schema.json").resolve() in linked, targets
    assert all(path.is_file() for path in linked)
