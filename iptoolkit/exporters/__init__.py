"""`ipt.export`: write an estate (or a graph) in the format its file name asks for.

Each format is one record of `formats.FORMATS` (its suffix, writer, options, whether it
needs the estate); the writers live in this package, one module per family of formats:
`attributes` makes node and edge attributes fit graph file formats, `graphfiles` writes
GraphML and GEXF, `dot` Graphviz, `mermaid` Mermaid, `table_files` CSV and Excel.

| suffix               | what                                                             |
|----------------------|------------------------------------------------------------------|
| `.json`, `.json.gz`  | snapshot: every profile byte for byte, loadable with `ipt.load`  |
| `.csv`               | the profiles table                                               |
| `.xlsx`              | profiles, channels, partners, response paths (`excel` extra)     |
| `.graphml`           | the graph for yEd, Gephi, networkx (labels, colours, layout)     |
| `.gexf`              | the graph for Gephi                                              |
| `.dot`, `.gv`        | Graphviz: `dot -Tsvg estate.dot -o estate.svg`                   |
| `.mmd`, `.md`        | Mermaid (grouped past GitHub's limits); `.md` wraps it for GitHub |
| `.png`, `.svg`, `.pdf` | the topology diagram (`plot_topology`)                         |
| `.html`              | the interactive topology in one file, opened offline (`offline`) |

A diff (`ipt.diff`) exports as `.md` (a changelog), `.json` (the machine form), `.csv` (one
row per change), `.png`, `.svg`, `.pdf` (`plot_diff`) or `.html` (the map of both snapshots,
each item coloured by what happened to it: `offline.changes_data`): see `exporters.formats`.
A comparison (`ipt.compare`) exports as `.md`, `.json`, `.csv` (its reports), `.png`,
`.svg`, `.pdf` (`plot_comparison`) or `.html` (both installations on one map, each item
coloured by its kind of difference).

Snapshots and tables need the estate: a graph does not keep the profiles as received.
Export a subset by exporting `estate.subset(ipt.Filter(...))`: it holds exactly that
subset. Exports carry no secrets: URLs lose passwords and token-like query values (the
snapshot keeps the profiles exactly as the platform sent them, which by the spec hold none).

>>> ipt.export(estate, "estate.graphml")  # doctest: +SKIP
PosixPath('estate.graphml')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .figures import DIAGRAM_FORMATS, diagram_suffixes, save_figure
from .formats import ALIASES, COMPARISON_FORMATS, DIFF_FORMATS, FAMILIES, FORMATS, ExportFormat

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..comparing.comparison import Comparison
    from ..topology.view import EstateOrGraph

__all__ = [
    "export",
    "FORMATS",
    "DIFF_FORMATS",
    "COMPARISON_FORMATS",
    "ExportFormat",
    "ALIASES",
    "FAMILIES",
    "DIAGRAM_FORMATS",
    "diagram_suffixes",
    "format_of",
    "save_figure",
]


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
    estate_or_graph: EstateOrGraph | EstateDiff | Comparison,
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
    takes an estate, a subset, a diff or a comparison, not a graph). `.csv` takes `csv_safe=`
    (default True: a value a spreadsheet would run as a formula gets a leading `'`; False:
    every value as held).
    """
    from ..change.estate_diff import EstateDiff
    from ..comparing.comparison import Comparison
    from ..core.estate import Estate

    path = Path(path)
    if isinstance(estate_or_graph, EstateDiff):
        subject = "a diff"
        row: ExportFormat[Any] = _subject_format(DIFF_FORMATS, subject, path, format)
    elif isinstance(estate_or_graph, Comparison):
        subject = "a comparison"
        row = _subject_format(COMPARISON_FORMATS, subject, path, format)
    else:
        row = FORMATS[format_of(path, format)]
        subject = ""
        if row.needs_estate and not isinstance(estate_or_graph, Estate):
            raise ValueError(_needs_estate(row))
    unknown = row.takes(options)
    if unknown:
        of = f" of {subject}" if subject else ""
        raise TypeError(f"export{of} to .{row.suffix} takes no option {', '.join(unknown)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    return row.write(estate_or_graph, path, options)


def _subject_format(
    formats: dict[str, ExportFormat[Any]], subject: str, path: Path, format: str | None
) -> ExportFormat[Any]:
    """The record for writing `subject` (a diff, a comparison) to `path` as `format`
    (default: from the suffix), of its `formats`."""
    name = (format or path.suffix).lower().lstrip(".")
    if name not in formats:
        allowed = ", ".join(f".{suffix}" for suffix in formats)
        what = f"format {format!r}" if format else f"file name {path.name!r}"
        raise ValueError(f"{subject} exports as one of {allowed}; cannot write the {what}")
    return formats[name]


def _needs_estate(row: ExportFormat[Any]) -> str:
    """Why a graph cannot be written as `row`, and what it can be written as."""
    writable = [name for name, row in FORMATS.items() if not (row.needs_estate or row.alias_of)]
    others = ", ".join(f".{name}" for name in writable)
    return (
        f".{row.suffix} ({row.what}) needs the estate; a graph does not keep the profiles "
        f"as received: pass the Estate (or a subset of it), or export the graph as one of "
        f"{others}"
    )
