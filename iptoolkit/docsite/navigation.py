"""mkdocs.yml: the site's name and its navigation (overview, partners, the group tree,
channel types, findings, changes).

Written by a YAML emitter (PyYAML's `safe_dump`), never by hand: a name of any length or
with any character must give valid YAML that reads back as the same text. Titles are
HTML-escaped as well, because MkDocs themes put nav titles into the page as HTML (a
partner named `<img src=x onerror=...>` would otherwise run on every page), and cut to
`NAV_TITLE` characters (the page itself carries the whole name).
"""

from __future__ import annotations

import html
from typing import Any

from ..support.names import type_label
from ..support.printable import drop_unprintable, shorten
from ..support.redact import redact_text
from .context import CHANGES_PAGE, COMPARE_PAGE, FINDINGS_PAGE, INDEX_PAGE
from .sitemap import SiteMap, group_name, group_order, part_name

__all__ = [
    "mkdocs_yml",
    "nav_title",
    "DOCS_DIR",
    "THEME_DIR",
    "EXTRA_CSS",
    "ASSETS_DIR",
    "NAV_TITLE",
]

DOCS_DIR = "docs"
"""The pages' folder beside mkdocs.yml (MkDocs refuses the config's own folder)."""
THEME_DIR = "overrides"
"""Beside `DOCS_DIR`: the templates that replace some of the MkDocs theme's (`custom_dir`;
the package's `docsite/theme/`), so that every page passes the W3C Nu checker."""
EXTRA_CSS = "extra.css"
"""The site's own style sheet, in the docs folder (ids that do not wrap mid-word)."""
ASSETS_DIR = "assets"
"""The interactive views' script and style (`iptoolkit.offline`), once for every page."""
NAV_TITLE = 80
"""Characters of a name shown in the navigation."""


def nav_title(text: object, limit: int = NAV_TITLE) -> str:
    """A name as a nav entry: masked, printable, on one line, cut short, HTML-escaped."""
    return html.escape(shorten(drop_unprintable(redact_text(str(text))), limit), quote=True)


def mkdocs_yml(
    title: str,
    site: SiteMap,
    partner_names: dict[str, str],
    *,
    has_changes: bool,
    has_compare: bool = False,
) -> str:
    import yaml

    nav: list[Any] = [{"Overview": INDEX_PAGE}]
    if site.partners:
        entries = [{nav_title(partner_names[p]): page} for p, page in site.partners.items()]
        nav.append({"Partners": entries})
    if site.groups:
        nav.append({"Groups": _group_nav(site, "")})
    if site.channel_types:
        nav.append({"Channel types": _channel_type_nav(site)})
    nav.append({"Findings": FINDINGS_PAGE})
    if has_changes:
        nav.append({"Changes": CHANGES_PAGE})
    if has_compare:
        nav.append({"Compared": COMPARE_PAGE})
    config = {
        "site_name": nav_title(title, 200),
        "docs_dir": DOCS_DIR,
        # highlight.js comes from a CDN: a site read offline (an intranet) makes no request
        # off the machine, and our pages hold no code to highlight
        "theme": {"name": "mkdocs", "highlightjs": False, "custom_dir": THEME_DIR},
        "extra_css": [EXTRA_CSS, f"{ASSETS_DIR}/ipt-topology.css"],
        # the diagrams' interactive views: one script of ours, nothing from the internet
        "extra_javascript": [f"{ASSETS_DIR}/ipt-topology.js"],
        "markdown_extensions": ["tables", "md_in_html", "toc"],  # md_in_html: folded charts
        # a link to a missing page or anchor fails `mkdocs build --strict`
        "validation": {
            "links": {"not_found": "warn", "anchors": "warn", "unrecognized_links": "warn"}
        },
        "nav": nav,
    }
    return yaml.safe_dump(
        config, allow_unicode=True, sort_keys=False, width=1_000_000, default_flow_style=False
    )


def _channel_type_nav(site: SiteMap) -> list[dict[str, Any]]:
    """A type's page, or a section of its pages when its channels fill several."""
    entries: list[dict[str, Any]] = []
    for kind, pages in site.channel_type_pages.items():
        name = nav_title(type_label(kind))
        if len(pages) == 1:
            entries.append({name: pages[0]})
            continue
        own = [{name: pages[0]}]
        own += [
            {f"{name}, page {n} of {len(pages)}": page} for n, page in enumerate(pages[1:], start=2)
        ]
        entries.append({name: own})
    return entries


def _group_nav(site: SiteMap, parent: str) -> list[dict[str, Any]]:
    """The group tree as nested sections: a group with subgroups (or with its profiles on
    several pages) is a section whose first entries are its own pages."""
    entries: list[dict[str, Any]] = []
    children = sorted(
        (g for g in site.groups if g.rpartition("/")[0] == parent and g != parent), key=group_order
    )
    for group in children:
        name = nav_title(part_name(group))
        pages = site.group_pages[group]
        own = [{nav_title(group_name(group)): pages[0]}]
        own += [
            {f"{nav_title(group_name(group), NAV_TITLE - 20)}, page {n} of {len(pages)}": page}
            for n, page in enumerate(pages[1:], start=2)
        ]
        below = _group_nav(site, group)
        if below or len(own) > 1:
            entries.append({name: [*own, *below]})
        else:
            entries.append({name: pages[0]})
    return entries
