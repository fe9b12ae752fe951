"""docs/architecture.md: its package layout lists every module of the package, and only those."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
ENTRY = re.compile(r"^( *)(\S+?)(/)?(?:\s{2,}(\S.*))?$")


def layout(text: str) -> dict[str, str]:
    """Path -> what the line says it owns, from the code block under "## Package layout"."""
    section = text.split("## Package layout", 1)[1]
    block = section.split("```", 2)[1]
    entries: dict[str, str] = {}
    folders: list[str] = []
    for line in block.splitlines()[1:]:
        match = ENTRY.match(line)
        assert match, f"docs/architecture.md layout: cannot read {line!r}"
        indent, name, folder, says = match.groups()
        depth = len(indent) // 2
        folders = folders[:depth]
        if folder:
            folders.append(name)
            continue
        entries["/".join([*folders, name])] = says or ""
    return entries


def test_the_layout_lists_every_module_with_what_it_owns() -> None:
    listed = layout(DOC.read_text(encoding="utf-8"))
    modules = {str(path.relative_to(ROOT)) for path in (ROOT / "iptoolkit").rglob("*.py")}
    assert len(modules) > 80
    missing, gone = sorted(modules - listed.keys()), sorted(listed.keys() - modules)
    assert not missing and not gone, (
        f"docs/architecture.md's package layout is out of date: add {missing}, remove {gone}"
    )
    assert all(listed.values()), [path for path, says in listed.items() if not says]


def test_the_layout_reader_sees_folders_and_files() -> None:
    text = "## Package layout\n\n```\npkg/\n  a.py     owns a\n  sub/\n    b.py   owns b\n"
    text += "  c.py  owns c\n```\n"
    assert layout(text) == {"pkg/a.py": "owns a", "pkg/sub/b.py": "owns b", "pkg/c.py": "owns c"}
