"""`iptoolkit plot` and `iptoolkit export`: a snapshot, or a filtered part, as a diagram or file."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..exporters import ALIASES, DIAGRAM_FORMATS, FORMATS, diagram_suffixes
from ..support.names import plural
from .host import keep_until_exit, short_help
from .options import filter_options, load_estate, snapshot_argument
from .outputs import check_outputs, output_folder_option
from .progress import command_progress, end_progress

if TYPE_CHECKING:
    from ..query.filters import Filter

__all__ = ["plot", "export_command"]


def _output_option(**settings: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`-o/--output FILE` of `plot` and `export` (the file's suffix picks its format)."""
    return click.option(
        "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), **settings
    )


@click.command("plot", short_help=short_help("plot"))
@snapshot_argument
@filter_options
@_output_option(
    default=Path("topology.png"),
    show_default=True,
    help=f"Diagram file: {diagram_suffixes(' or ')}.",
)
@output_folder_option
@click.option(
    "--group-by",
    type=click.Choice(["auto", "group", "agent_type", "partner", "none"]),
    default="auto",
    show_default=True,
    help="Draw groups with counts (auto: when the graph has more than 300 nodes).",
)
@click.option(
    "--highlight",
    help="An item to emphasise with its paths: node id (partner:17), id, or a partner's "
    "or channel's name.",
)
@click.option(
    "--labels",
    type=click.Choice(["auto", "ids", "none"]),
    default="auto",
    show_default=True,
    help="Node labels: names, node ids, or none.",
)
@click.option("--title", help="Title (default: counts of what is drawn).")
@click.option(
    "--findings",
    "rings",
    is_flag=True,
    help="Ring each item the audit's findings name, coloured by the worst severity "
    "(the whole snapshot is audited, also with a filter).",
)
def plot(
    snapshot: Path,
    selection: Filter,
    output: Path,
    mkdirs: bool,
    group_by: str,
    highlight: str | None,
    labels: str,
    title: str | None,
    rings: bool,
) -> None:
    """Draw the topology: profiles, agents and responses, channels, partners; with
    --findings, the audit's findings on it."""
    from ..exporters import export, format_of

    try:
        name = format_of(output)
    except ValueError:
        name = output.suffix
    if name not in DIAGRAM_FORMATS:
        raise click.BadParameter(
            f"a diagram is {diagram_suffixes(' or ')} (other formats: iptoolkit export)",
            param_hint="--output",
        )
    check_outputs(mkdirs, {"--output": output}, {"SNAPSHOT": snapshot})
    grouping: Any = {"auto": None, "none": False}.get(group_by, group_by)
    estate = load_estate(snapshot, selection)
    from ..query.resolve import UnknownItemError

    options: dict[str, Any] = {}
    if rings:  # the whole snapshot's findings: a filter must not hide what a rule sees
        from ..auditing import findings

        whole = None if selection.is_empty() else load_estate(snapshot)
        progress = command_progress()
        options["findings"] = True if whole is None else findings(whole, progress=progress)
    command_progress().stage(f"Drawing {output.name}")
    with _warnings_on_stderr():
        try:
            export(
                estate,
                output,
                group_by=grouping,
                highlight=highlight,
                labels=labels,
                title=title,
                **options,
            )
        except UnknownItemError:
            if highlight is not None and not selection.is_empty():
                _highlight_outside(snapshot, selection, highlight)
            raise
        end_progress()  # before the warnings said once the file is written
    keep_until_exit(estate)  # the process ends without freeing it (3 s at 100k)
    click.echo(f"Wrote {output}")


def _highlight_outside(snapshot: Path, selection: Filter, highlight: str) -> None:
    """An item the filter left out is not "nothing of that name": say so (an error)."""
    from ..query.graph import build_graph
    from ..query.resolve import UnknownItemError, resolve_node

    try:
        node = resolve_node(build_graph(load_estate(snapshot)), highlight, what="--highlight")
    except (UnknownItemError, ValueError):
        return
    raise click.ClickException(
        f"--highlight: {node} is not in the diagram of this filter ({selection.describe()})"
    )


@click.command("export", short_help=short_help("export"))
@snapshot_argument
@filter_options
@_output_option(required=True, help="File to write; its suffix picks the format (see below).")
@output_folder_option
@click.option(
    "--format",
    "output_format",
    callback=lambda ctx, param, value: _format_name(value),
    help="Format, when the suffix does not say it: " + ", ".join(FORMATS) + ".",
)
@click.option("--title", help="Title of a DOT, Mermaid, diagram or HTML export.")
@click.option(
    "--group-by",
    type=click.Choice(["auto", "group", "agent_type", "partner", "none"]),
    help="Mermaid, diagrams and HTML: groups of items with counts. Default auto: Mermaid "
    "groups by profile group when the chart of every item passes GitHub's limits (500 "
    "edges, 50,000 characters), a diagram when the graph has more than 300 nodes, the "
    "HTML view as the Explorer does (node by node when it fits, else grouped, drilled in).",
)
def export_command(
    snapshot: Path,
    selection: Filter,
    output: Path,
    mkdirs: bool,
    output_format: str | None,
    title: str | None,
    group_by: str | None,
) -> None:
    """Write the estate (or the filtered part) as a snapshot, table, graph or diagram.

    \b
    .json .json.gz    snapshot, loadable again
    .csv .xlsx        tables
    .graphml .gexf    graph for yEd, Gephi, networkx
    .dot .gv          Graphviz
    .mmd .md          Mermaid (GitHub renders .md; grouped when too big for it)
    .png .svg .pdf    topology diagram
    .html             interactive topology in one file (opens offline)
    """
    from ..exporters import export, format_of

    name = format_of(output, output_format)
    _check_suffix_agrees(output, output_format)
    options: dict[str, Any] = {}
    if title:  # the format's record says what it takes (GraphML takes no title)
        if FORMATS[name].takes({"title": title}):
            raise click.BadParameter(f"a .{name} export has no title", param_hint="--title")
        options["title"] = title
    mermaid = name in ("mmd", "md")
    if group_by is not None:
        if FORMATS[name].takes({"group_by": group_by}):
            raise click.BadParameter(
                f"a .{name} export is not grouped: --group-by is for .mmd, .md, .html and "
                f"{diagram_suffixes(', ')}",
                param_hint="--group-by",
            )
        options["group_by"] = {"auto": None, "none": False}.get(group_by, group_by)
    check_outputs(mkdirs, {"--output": output}, {"SNAPSHOT": snapshot})
    estate = load_estate(snapshot, selection)
    what: Any = estate
    note = ""
    if mermaid and options.get("group_by") is None:
        from ..exporters.mermaid import auto_grouping, grouping_name
        from ..query.graph import build_graph

        what = build_graph(estate)  # built once: to tell what the chart shows, and to write it
        chart_title = None if output.suffix.lower() == ".md" else options.get("title")
        key = auto_grouping(what, title=chart_title)
        if key is not None:
            note = (
                f", grouped by {grouping_name(key)}: the chart of every item passes "
                "GitHub's limits; --group-by none writes it"
            )
    command_progress().stage(f"Writing {output.name}")
    with _warnings_on_stderr():
        export(what, output, format=output_format, **options)
        end_progress()  # before the warnings said once the file is written
    keep_until_exit(estate, what)  # the process ends without freeing them (3 s at 100k)
    click.echo(f"Wrote {output} ({plural(len(estate), 'profile')}){note}")


def _format_name(value: str | None) -> str | None:
    """--format as a format's name (`csv`, `.csv`, `CSV`); another is a wrong option (2)."""
    if value is None:
        return None
    name = value.lower().lstrip(".")
    if name not in FORMATS:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}")
    return name


def _check_suffix_agrees(output: Path, output_format: str | None) -> None:
    """--format against a suffix that names another format is a wrong option: GraphML
    written into `out.csv` opens as a broken table. A suffix naming no format (`out`,
    `out.txt`) is what --format is for; an alias (`.gv` for dot) agrees."""
    from ..exporters import format_of

    if output_format is None:
        return
    try:
        by_suffix = format_of(output)
    except ValueError:
        return
    if ALIASES.get(by_suffix, by_suffix) != ALIASES.get(output_format, output_format):
        raise click.BadParameter(
            f"{output_format} does not agree with the suffix of {output.name} "
            f"({by_suffix}): give a matching suffix, or leave out --format",
            param_hint="--format",
        )


@contextlib.contextmanager
def _warnings_on_stderr() -> Iterator[None]:
    """What an export warns of (a diagram too big to read, a Mermaid file past GitHub's
    limits), each as one `warning:` line on stderr once the file is written."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for warning in caught:
        click.echo(f"warning: {warning.message}", err=True)
