"""The spec's data model as the MCP resources read it: the contents, then one type at a time.

The text is the one `docs/data-model.md` is generated from (`models.reference.render`),
made once when first read. The whole of it is some 80,000 characters, too much for one
answer, so `iptoolkit://data-model` gives the introduction and the list of types, and
`iptoolkit://data-model/{name}` one type's fields (or one polymorphic family's members).
"""

from __future__ import annotations

import re
from functools import cache

from ..support.names import did_you_mean

__all__ = ["contents", "section", "section_names"]

_HEADING = re.compile(r"^### (.+)$", re.M)


@cache
def _sections() -> tuple[str, dict[str, str]]:
    """(the text before the first type, name -> its section), from the generated reference."""
    from ..models.reference import render

    text = render()
    found = list(_HEADING.finditer(text))
    head = text[: found[0].start()] if found else text
    head = head.split("## Polymorphic families")[0].rstrip() + "\n"
    sections = {}
    for number, match in enumerate(found):
        end = found[number + 1].start() if number + 1 < len(found) else len(text)
        body = text[match.start() : end]
        sections[match.group(1).strip()] = body.split("\n## ")[0].rstrip() + "\n"
    return head, sections


def section_names() -> list[str]:
    return list(_sections()[1])


def contents() -> str:
    """The introduction and every type, each with the resource that holds its fields."""
    head, sections = _sections()
    head = re.sub(r"\n## Contents\n.*", "", head, flags=re.S).rstrip()
    lines = [head, "", "## Types", ""]
    lines += [f"- {name}: iptoolkit://data-model/{name}" for name in sections]
    return "\n".join(lines) + "\n"


def section(name: str) -> str:
    """One type's section (case-insensitive name); unknown names suggest close ones."""
    sections = _sections()[1]
    by_lower = {key.lower(): key for key in sections}
    key = by_lower.get(name.strip().lower())
    if key is None:
        raise ValueError(f"the data model has no type {name!r}{did_you_mean(name, sections)}")
    return sections[key]
