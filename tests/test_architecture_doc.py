"""docs/architecture.md stays short and true: its map of packages and docs/modules.md are
generated from the code's docstrings, and every module or path it names exists."""

from __future__ import annotations

import re

from .architecture_map import (
    ARCHITECTURE,
    BEGIN,
    MODULES,
    PACKAGE,
    ROOT,
    first_sentence,
    module_map,
    package_map,
    with_package_map,
)

MAX_LINES = 399
"""Under 400 lines: read in ten minutes."""
PATH = re.compile(r"`((?:[a-z_]+/)*[a-z_]+\.py)(?::\d+)?`")
DOTTED = re.compile(r"`(iptoolkit(?:\.[a-z_]+)+)`")
NOT_MODULES = {"iptoolkit.toml", "iptoolkit.rules"}
"""Dotted names the doc uses that are no modules: a configuration file, an entry point group."""


def doc() -> str:
    return ARCHITECTURE.read_text(encoding="utf-8")


def test_the_package_map_is_generated_from_the_code() -> None:
    assert doc() == with_package_map(doc()), (
        "docs/architecture.md's package map is stale: run `make docs-reference`"
    )
    assert "| `core/` |" in package_map() and "| `support/` |" in package_map()


def test_the_module_map_is_generated_from_the_code() -> None:
    assert MODULES.read_text(encoding="utf-8") == module_map(), (
        "docs/modules.md is stale: run `make docs-reference`"
    )
    modules = [p for p in PACKAGE.rglob("*.py")]
    assert len(modules) > 80
    assert all(first_sentence(p) for p in modules), "a module without a docstring"


def test_a_stale_map_is_written_anew() -> None:
    stale = f"# Doc\n\n{BEGIN}\n| `gone/` | old | |\n<!-- end of package map -->\nafter\n"
    fresh = with_package_map(stale)
    assert "`gone/`" not in fresh and "| `query/` |" in fresh and fresh.endswith("after\n")


def test_the_doc_reads_in_ten_minutes() -> None:
    assert len(doc().splitlines()) <= MAX_LINES


def known_paths() -> set[str]:
    """Every module path of the repository's package and tests, in every suffix form a
    doc may use (`core/estate.py`, `estate.py`, `iptoolkit/core/estate.py`)."""
    paths: set[str] = set()
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        parts = path.relative_to(ROOT).parts
        paths.update("/".join(parts[i:]) for i in range(len(parts)))
    return paths


def test_every_module_the_doc_names_exists() -> None:
    """A renamed or split module leaves no stale name behind in the doc."""
    paths = known_paths()
    named = set(PATH.findall(doc()))
    assert len(named) > 10
    assert not named - paths, f"docs/architecture.md names missing modules: {named - paths}"
    dotted = set(DOTTED.findall(doc())) - NOT_MODULES
    gone = {
        d
        for d in dotted
        if not (ROOT / (d.replace(".", "/") + ".py")).exists()
        and not (ROOT / d.replace(".", "/") / "__init__.py").exists()
    }
    assert not gone, f"docs/architecture.md names missing modules: {gone}"
    assert "`store.py`" not in doc() or "store.py" in paths
