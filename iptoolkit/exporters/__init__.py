"""`ipt.export`: write an estate (or a graph) in the format its file name asks for.

The writers live in this package, one module per family of formats: `attributes` makes
node and edge attributes fit graph file formats, `graphfiles` writes GraphML and GEXF,
`dot` Graphviz, `mermaid` Mermaid, `table_files` CSV and Excel.

| suffix               | what                                                             |
|----------------------|------------------------------------------------------------------|
| `.json`, `.json.gz`  | snapshot: every profile byte for byte, loadable with `ipt.load`  |
| `.csv`               | the profiles table                                               |
| `.xlsx`              | profiles, channels, partners, response paths (needs openpyxl)    |
| `.graphml`           | the graph for yEd, Gephi, networkx (labels, colours, layout)     |
| `.gexf`              | the graph for Gephi                                              |
| `.dot`, `.gv`        | Graphviz: `dot -Tsvg estate.dot -o estate.svg`                   |
| `.mmd`, `.md`        | Mermaid (grouped past GitHub's limits); `.md` wraps it for GitHub |
| `.png`, `.svg`, `.pdf` | the topology diagram (`plot_topology`)                         |
| `.html`              | the interactive topology in one file, opened offline (`offline`) |

A diff (`ipt.diff`) exports as `.md` (a changelog), `.json` (the machine form), `.csv` (one
row per change) or `.png`, `.svg`, `.pdf` (`plot_diff`): see `exporters.diff_files`.

Snapshots and tables need the estate: a graph does not keep the profiles as received.
Export a subset by exporting `estate.subset(ipt.Filter(...))`: it holds exactly that
subset. Exports carry no secrets: URLs lose passwords and token-like query values (the
snapshot keeps the profiles exactly as the platform sent them, which by the spec hold none).

>>> ipt.export(estate, "estate.graphml")  # doctest: +SKIP
PosixPath('estate.graphml')
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .figures import DIAGRAM_FORMATS, diagram_suffixes, save_figure

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..topology.view import EstateOrGraph

__all__ = [
    "export",
    "FORMATS",
    "ALIASES",
    "FAMILIES",
    "DIAGRAM_FORMATS",
    "diagram_suffixes",
    "format_of",
    "save_figure",
]

FORMATS: dict[str, str] = {
    "json": "snapshot (JSON)",
    "json.gz": "snapshot (gzip-compressed JSON)",
    "csv": "profiles table (CSV)",
    "xlsx": "tables (Excel workbook)",
    "graphml": "graph (GraphML: yEd, Gephi, networkx)",
    "gexf": "graph (GEXF: Gephi)",
    "dot": "graph (Graphviz DOT)",
    "gv": "graph (Graphviz DOT)",
    "mmd": "Mermaid flowchart",
    "md": "Mermaid flowchart in Markdown",
    **{name: f"topology diagram ({name.upper()})" for name in DIAGRAM_FORMATS},
    "html": "interactive topology (one HTML file, opens offline)",
}
"""Format name (the file suffix without its dot) -> what it holds."""

_NEEDS_ESTATE = frozenset({"json", "json.gz", "csv", "xlsx", "html"})
_IMAGES = frozenset(DIAGRAM_FORMATS)

ALIASES: dict[str, str] = {"gv": "dot"}
"""Format names that write the very same file as another one."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "snapshot and tables": tuple(name for name in FORMATS if name in _NEEDS_ESTATE - {"html"}),
    "graph files": tuple(
        name for name in FORMATS if name not in _NEEDS_ESTATE | _IMAGES | ALIASES.keys()
    ),
    "diagrams": tuple(name for name in FORMATS if name in _IMAGES | {"html"}),
}
"""Every format an estate exports to, aliases left out, by what the files hold: what an
export menu offers (the Explorer's export tab)."""


def format_of(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format name for a path (from its suffix) or from an explicit `format`."""
    if format is not None:
        name = str(format).lower().lstrip(".")
    else:
        name_lower = Path(path).name.lower()
        name = "json.gz" if name_lower.endswith(".json.gz") else Path(name_lower).suffix[1:]
    if name not in FORMATS:
        known = ", ".join(f".{suffix}" for suffix in FORMATS)
        what = f"format {format!r}" if format is not None else f"file name {str(path)!r}"
        raise ValueError(f"cannot tell the export format from the {what}: use one of {known}")
    return name


def export(
    estate_or_graph: EstateOrGraph | EstateDiff,
    path: str | os.PathLike[str],
    format: str | None = None,
    **options: Any,
) -> Path:
    """Write `estate_or_graph` to `path` in `format` (default: from the suffix); return the path.

    `options` go to the writer: `title=` for DOT, Mermaid and diagrams; `group_by=` for
    Mermaid (`"group"`, `"agent_type"`, `"partner"`; False: every item; by default every
    item unless that chart is past GitHub's limits, then grouped by profile group, see
    `mermaid.github_chart`); for `.png`, `.svg`, `.pdf` any option of `plot_topology`
    (`group_by=`, `highlight=`...), or of `plot_diff` for a diff; `.html` takes `title=`
    and `group_by=` (as `show_topology`; the details need the estate's profiles, so it
    takes an estate or a subset, not a graph). `.csv` takes `csv_safe=`
    (default True: a value a spreadsheet would run as a formula gets a leading `'`; False:
    every value as held).
    """
    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from ..topology.view import graph_of

    if isinstance(estate_or_graph, EstateDiff):
        from .diff_files import write_diff

        return write_diff(estate_or_graph, Path(path), format, options)
    name = format_of(path, format)
    path = Path(path)
    is_estate = isinstance(estate_or_graph, Estate)
    if name in _NEEDS_ESTATE and not is_estate:
        raise ValueError(
            f".{name} ({FORMATS[name]}) needs the estate; a graph does not keep the profiles "
            "as received: pass the Estate (or a subset of it), or export the graph as one of "
            + ", ".join(
                f".{other}" for other in FORMATS if other not in _NEEDS_ESTATE | ALIASES.keys()
            )
        )
    allowed = _options_for(name)
    unknown = sorted(set(options) - allowed) if allowed is not None else []
    if unknown:
        raise TypeError(f"export to .{name} takes no option {', '.join(unknown)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if name in ("json", "json.gz"):
        return _snapshot(estate_or_graph, path)
    if name == "csv":
        from .table_files import write_csv

        assert isinstance(estate_or_graph, Estate)  # a format in _NEEDS_ESTATE
        return write_csv(estate_or_graph, path, **options)
    if name == "xlsx":
        from .table_files import write_xlsx

        assert isinstance(estate_or_graph, Estate)  # a format in _NEEDS_ESTATE
        return write_xlsx(estate_or_graph, path)
    if name in _IMAGES:
        return _image(estate_or_graph, path, name, options)
    if name == "html":
        from ..offline.page import write_html

        assert isinstance(estate_or_graph, Estate)  # a format in _NEEDS_ESTATE
        return write_html(estate_or_graph, path, **options)
    graph, _ = graph_of(estate_or_graph)
    if name == "graphml":
        from .graphfiles import write_graphml

        return write_graphml(graph, path)
    if name == "gexf":
        from .graphfiles import write_gexf

        return write_gexf(graph, path)
    if name in ("dot", "gv"):
        from .dot import write_dot

        return write_dot(graph, path, **options)
    from .mermaid import write_mermaid

    if name == "md" and path.suffix.lower() != ".md":
        raise ValueError(f"a Markdown export needs a file name ending in .md, not {path.name}")
    return write_mermaid(graph, path, **options)


def _options_for(name: str) -> set[str] | None:
    """The options a format's writer takes; None: any (they go to `plot_topology`)."""
    if name in _IMAGES:
        return None
    if name in ("dot", "gv"):
        return {"title"}
    if name in ("mmd", "md", "html"):
        return {"title", "group_by"}
    if name == "csv":
        return {"csv_safe"}
    return set()


def _snapshot(estate: Any, path: Path) -> Path:
    """`estate.save`, with credentials masked in the recorded source URL."""
    from ..core.snapshot import write_snapshot
    from .attributes import redact_text

    source = estate.info.source_url
    if isinstance(source, str) and redact_text(source) != source:
        info = dataclasses.replace(estate.info, source_url=redact_text(source))
        return write_snapshot(path, estate.raw_profiles, info)
    return Path(estate.save(path))


def _image(estate_or_graph: EstateOrGraph, path: Path, name: str, options: dict[str, Any]) -> Path:
    """The topology diagram, saved with fixed metadata: same estate, same file."""
    from ..plot import plot_topology

    return save_figure(plot_topology(estate_or_graph, **options), path, name)
