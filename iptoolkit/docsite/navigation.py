"""mkdocs.yml: the site's name and its navigation (overview, partners, the group tree,
channel types, findings, changes), written as YAML by hand (every string a JSON string,
which YAML reads as it is) so that writing the site needs no YAML library."""

from __future__ import annotations

import json

from ..names import type_label
from ..redact import redact_text
from .context import CHANGES_PAGE, FINDINGS_PAGE, INDEX_PAGE
from .sitemap import SiteMap

__all__ = ["mkdocs_yml", "DOCS_DIR"]

DOCS_DIR = "docs"
"""The pages' folder beside mkdocs.yml (MkDocs refuses the config's own folder)."""


def _q(text: str) -> str:
    return json.dumps(" ".join(redact_text(str(text)).split()), ensure_ascii=False)


def mkdocs_yml(
    title: str, site: SiteMap, partner_names: dict[object, str], *, has_changes: bool
) -> str:
    lines = [
        f"site_name: {_q(title)}",
        f"docs_dir: {DOCS_DIR}",
        "markdown_extensions:",
        "  - tables",
        "  - md_in_html  # the folded Mermaid charts",
        "  - toc",
        "validation:  # a link to a missing page or anchor fails `mkdocs build --strict`",
        "  links:",
        "    not_found: warn",
        "    anchors: warn",
        "    unrecognized_links: warn",
        "nav:",
        f"  - Overview: {INDEX_PAGE}",
    ]
    if site.partners:
        lines.append("  - Partners:")
        lines += [f"      - {_q(partner_names[p])}: {page}" for p, page in site.partners.items()]
    if site.groups:
        lines.append("  - Groups:")
        lines += _group_nav(site, "", 3)
    if site.channel_types:
        lines.append("  - Channel types:")
        lines += [f"      - {_q(type_label(t))}: {page}" for t, page in site.channel_types.items()]
    lines.append(f"  - Findings: {FINDINGS_PAGE}")
    if has_changes:
        lines.append(f"  - Changes: {CHANGES_PAGE}")
    return "\n".join(lines) + "\n"


def _group_nav(site: SiteMap, parent: str, depth: int) -> list[str]:
    """The group tree as nested sections: a group with subgroups is a section whose first
    entry is its own page."""
    pad = "  " * depth
    lines = []
    children = sorted(g for g in site.groups if g.rpartition("/")[0] == parent and g != parent)
    for group in children:
        name = _q(group.rpartition("/")[2] or group)
        below = _group_nav(site, group, depth + 2)
        if below:
            lines.append(f"{pad}- {name}:")
            lines.append(f"{pad}    - {_q(group)}: {site.groups[group]}")
            lines += below
        else:
            lines.append(f"{pad}- {name}: {site.groups[group]}")
    return lines
