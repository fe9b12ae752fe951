"""Every format `ipt.export` writes, one record each: `FORMATS` (an estate or a graph) and
`DIFF_FORMATS` (a diff).

A record holds all a format is: its suffix, what the file holds, the menu family it is
offered in, the writer, the options that writer takes and whether it needs the estate.
`export()` and the Explorer's export tab read these records and nothing else, so adding a
format is adding one record (a test holds it). The writers import their module when called:
a notebook that never writes Excel never imports openpyxl.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .figures import DIAGRAM_FORMATS, save_figure

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..comparing.comparison import Comparison
    from ..core.estate import Estate
    from ..topology.view import EstateOrGraph

__all__ = [
    "ExportFormat",
    "FORMATS",
    "DIFF_FORMATS",
    "COMPARISON_FORMATS",
    "ALIASES",
    "FAMILIES",
    "ANY_OPTION",
]

Subject = TypeVar("Subject")

ANY_OPTION = None
"""`ExportFormat.options` for a writer that passes every option on (the diagrams: to
`plot_topology` or `plot_diff`, which name a wrong one themselves)."""


@dataclass(frozen=True)
class ExportFormat(Generic[Subject]):
    """One format: the suffix (without its dot), what the file holds, the writer, the options
    it takes (`ANY_OPTION`: all go to the writer), whether it needs an estate rather than a
    graph, and the family an export menu offers it in (None: an alias, not offered)."""

    suffix: str
    what: str
    write: Callable[[Subject, Path, Mapping[str, Any]], Path]
    options: frozenset[str] | None = frozenset()
    needs_estate: bool = False
    family: str | None = None
    alias_of: str | None = None

    def takes(self, options: Mapping[str, Any]) -> list[str]:
        """The options in `options` this format does not take, sorted (empty: all taken)."""
        if self.options is ANY_OPTION:
            return []
        return sorted(set(options) - self.options)


# -- the writers of an estate or a graph ----------------------------------------------------


def _snapshot(estate: Estate, path: Path, options: Mapping[str, Any]) -> Path:
    """`estate.save`, with credentials masked in the recorded source URL."""
    from ..core.snapshot import write_snapshot
    from .attributes import redact_text

    source = estate.info.source_url
    if isinstance(source, str) and redact_text(source) != source:
        info = dataclasses.replace(estate.info, source_url=redact_text(source))
        return write_snapshot(path, estate.raw_profiles, info)
    return Path(estate.save(path))


def _csv(estate: Estate, path: Path, options: Mapping[str, Any]) -> Path:
    from .table_files import write_csv

    return write_csv(estate, path, **options)


def _xlsx(estate: Estate, path: Path, options: Mapping[str, Any]) -> Path:
    from .table_files import write_xlsx

    return write_xlsx(estate, path)


def _graphml(subject: EstateOrGraph, path: Path, options: Mapping[str, Any]) -> Path:
    from ..topology.view import graph_of
    from .graphfiles import write_graphml

    return write_graphml(graph_of(subject)[0], path)


def _gexf(subject: EstateOrGraph, path: Path, options: Mapping[str, Any]) -> Path:
    from ..topology.view import graph_of
    from .graphfiles import write_gexf

    return write_gexf(graph_of(subject)[0], path)


def _dot(subject: EstateOrGraph, path: Path, options: Mapping[str, Any]) -> Path:
    from ..topology.view import graph_of
    from .dot import write_dot

    return write_dot(graph_of(subject)[0], path, **options)


def _mermaid(subject: EstateOrGraph, path: Path, options: Mapping[str, Any]) -> Path:
    from ..topology.view import graph_of
    from .mermaid import write_mermaid

    return write_mermaid(graph_of(subject)[0], path, **options)


def _mermaid_markdown(subject: EstateOrGraph, path: Path, options: Mapping[str, Any]) -> Path:
    if path.suffix.lower() != ".md":
        raise ValueError(f"a Markdown export needs a file name ending in .md, not {path.name}")
    return _mermaid(subject, path, options)


def _diagram(name: str) -> Callable[[EstateOrGraph, Path, Mapping[str, Any]], Path]:
    """The writer of the topology diagram as `name`, saved with fixed metadata: same
    estate, same file."""

    def write(subject: EstateOrGraph, path: Path, options: Mapping[str, Any]) -> Path:
        from ..plot import plot_topology

        return save_figure(plot_topology(subject, **options), path, name)

    return write


def _html(estate: Estate, path: Path, options: Mapping[str, Any]) -> Path:
    from ..offline.page import write_html

    return write_html(estate, path, **options)


_ESTATE_FILES = "snapshot and tables"
_GRAPH_FILES = "graph files"
_DIAGRAMS = "diagrams"
_TITLE = frozenset({"title"})
_CHART = frozenset({"title", "group_by"})

_ROWS: tuple[ExportFormat[Any], ...] = (
    ExportFormat("json", "snapshot (JSON)", _snapshot, needs_estate=True, family=_ESTATE_FILES),
    ExportFormat(
        "json.gz",
        "snapshot (gzip-compressed JSON)",
        _snapshot,
        needs_estate=True,
        family=_ESTATE_FILES,
    ),
    ExportFormat(
        "csv",
        "profiles table (CSV)",
        _csv,
        frozenset({"csv_safe"}),
        needs_estate=True,
        family=_ESTATE_FILES,
    ),
    ExportFormat("xlsx", "tables (Excel workbook)", _xlsx, needs_estate=True, family=_ESTATE_FILES),
    ExportFormat("graphml", "graph (GraphML: yEd, Gephi, networkx)", _graphml, family=_GRAPH_FILES),
    ExportFormat("gexf", "graph (GEXF: Gephi)", _gexf, family=_GRAPH_FILES),
    ExportFormat("dot", "graph (Graphviz DOT)", _dot, _TITLE, family=_GRAPH_FILES),
    ExportFormat("gv", "graph (Graphviz DOT)", _dot, _TITLE, alias_of="dot"),
    ExportFormat("mmd", "Mermaid flowchart", _mermaid, _CHART, family=_GRAPH_FILES),
    ExportFormat(
        "md", "Mermaid flowchart in Markdown", _mermaid_markdown, _CHART, family=_GRAPH_FILES
    ),
    *(
        ExportFormat(
            name,
            f"topology diagram ({name.upper()})",
            _diagram(name),
            ANY_OPTION,
            family=_DIAGRAMS,
        )
        for name in DIAGRAM_FORMATS
    ),
    ExportFormat(
        "html",
        "interactive topology (one HTML file, opens offline)",
        _html,
        _CHART,
        needs_estate=True,
        family=_DIAGRAMS,
    ),
)

FORMATS: dict[str, ExportFormat[Any]] = {row.suffix: row for row in _ROWS}
"""Format name (the file suffix without its dot) -> its record, in the order menus list them."""

ALIASES: dict[str, str] = {row.suffix: row.alias_of for row in _ROWS if row.alias_of}
"""Format names that write the very same file as another one."""

FAMILIES: dict[str, tuple[str, ...]] = {
    family: tuple(row.suffix for row in _ROWS if row.family == family)
    for family in dict.fromkeys(row.family for row in _ROWS if row.family)
}
"""Every format an estate exports to, aliases left out, by what the files hold: what an
export menu offers (the Explorer's export tab)."""


# -- the writers of a diff -----------------------------------------------------------------


def _changelog(diff: EstateDiff, path: Path, options: Mapping[str, Any]) -> Path:
    return _write_text(path, diff.to_markdown())


def _changes_json(diff: EstateDiff, path: Path, options: Mapping[str, Any]) -> Path:
    return _write_text(path, diff.to_json())


def _changes_csv(diff: EstateDiff, path: Path, options: Mapping[str, Any]) -> Path:
    from .table_files import diff_csv_frame, write_frame_csv

    return write_frame_csv(diff_csv_frame(diff, csv_safe=options.get("csv_safe", True)), path)


def _diff_diagram(name: str) -> Callable[[EstateDiff, Path, Mapping[str, Any]], Path]:
    """The writer of the diff's diagram (`plot_diff`) as `name`."""

    def write(diff: EstateDiff, path: Path, options: Mapping[str, Any]) -> Path:
        from ..plot.diff_diagram import plot_diff

        return save_figure(plot_diff(diff, **options), path, name)

    return write


def _diff_html(diff: EstateDiff, path: Path, options: Mapping[str, Any]) -> Path:
    from ..offline.page import write_diff_html

    return write_diff_html(diff, path, **options)


def _write_text(path: Path, text: str) -> Path:
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return path


DIFF_FORMATS: dict[str, ExportFormat[EstateDiff]] = {
    row.suffix: row
    for row in (
        ExportFormat("md", "changelog (Markdown)", _changelog),
        ExportFormat("json", "changes (JSON)", _changes_json),
        ExportFormat("csv", "one row per change (CSV)", _changes_csv, frozenset({"csv_safe"})),
        ExportFormat("html", "changes on the interactive map (HTML)", _diff_html, _CHART),
        *(
            ExportFormat(name, f"diff diagram ({name.upper()})", _diff_diagram(name), ANY_OPTION)
            for name in DIAGRAM_FORMATS
        ),
    )
}
"""Format name -> its record, for a diff (`ipt.export(ipt.diff(a, b), "changes.md")`)."""


# -- the writers of a comparison -------------------------------------------------------------


def _comparison_html(comparison: Comparison, path: Path, options: Mapping[str, Any]) -> Path:
    from ..offline.page import write_comparison_html

    return write_comparison_html(comparison, path, **options)


def _comparison_diagram(name: str) -> Callable[[Comparison, Path, Mapping[str, Any]], Path]:
    """The writer of the comparison's side-by-side diagram (`plot_comparison`) as `name`."""

    def write(comparison: Comparison, path: Path, options: Mapping[str, Any]) -> Path:
        from ..plot.compare_diagram import plot_comparison

        return save_figure(plot_comparison(comparison, **options), path, name)

    return write


def _comparison_text(
    render: Callable[[Comparison], str],
) -> Callable[[Comparison, Path, Mapping[str, Any]], Path]:
    """The writer of one of the comparison's reports (`Comparison.to_markdown`...)."""
    return lambda comparison, path, options: _write_text(path, render(comparison))


COMPARISON_FORMATS: dict[str, ExportFormat[Comparison]] = {
    row.suffix: row
    for row in (
        ExportFormat("md", "differences (Markdown)", _comparison_text(lambda c: c.to_markdown())),
        ExportFormat("json", "differences (JSON)", _comparison_text(lambda c: c.to_json())),
        ExportFormat("csv", "one row per field (CSV)", _comparison_text(lambda c: c.to_csv())),
        ExportFormat("html", "differences on the interactive map (HTML)", _comparison_html, _CHART),
        *(
            ExportFormat(
                name,
                f"comparison diagram ({name.upper()})",
                _comparison_diagram(name),
                frozenset({"limit"}),
            )
            for name in DIAGRAM_FORMATS
        ),
    )
}
"""Format name -> its record, for a comparison (`ipt.export(ipt.compare(a, b), "x.html")`)."""
