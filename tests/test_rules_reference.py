"""docs/rules.md: generated from the rules, every rule in it, and never stale."""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from iptoolkit.auditing import BUILTIN_RULES, reference

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"


def test_the_committed_reference_is_what_the_rules_give() -> None:
    fresh = reference.render()
    committed = DOC.read_text(encoding="utf-8")
    if committed != fresh:
        diff = difflib.unified_diff(
            committed.splitlines(), fresh.splitlines(), "committed", "rules", lineterm="", n=1
        )
        shown = "\n".join(list(diff)[:30])
        pytest.fail(f"docs/rules.md is stale: regenerate it with {reference.REGENERATE}\n{shown}")


def test_every_rule_has_a_section_with_its_explanation() -> None:
    text = reference.render()
    for one in BUILTIN_RULES:
        section = text.split(f"### {one.code}\n", 1)[1].split("\n### ", 1)[0]
        assert one.title in section and one.rationale in section and one.remedy in section
        assert f"[{one.code}](#{one.code.lower()})" in text
        for name in one.options:
            assert f"`{name}`" in section


def test_codes_are_unique_and_stable_in_form() -> None:
    codes = [one.code for one in BUILTIN_RULES]
    names = [one.name for one in BUILTIN_RULES]
    assert len(set(codes)) == len(codes) and len(set(names)) == len(names)
    assert all(re.fullmatch(r"(SEC|OPS|DAT|HYG|CFG)\d{3}", code) for code in codes)


def test_the_command_writes_the_file_it_is_given(tmp_path: Path) -> None:
    out = tmp_path / "rules.md"
    subprocess.run(
        [sys.executable, "-m", "iptoolkit.auditing.reference", str(out)], check=True, cwd=ROOT
    )
    assert out.read_text(encoding="utf-8") == reference.render()
