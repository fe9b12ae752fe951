"""The `iptoolkit` command: fetch, summarise, audit, draw and export an estate.

Every command that reads a snapshot takes the same filter options (see `cli_options`), so
`iptoolkit export snap.json -o acme.graphml --partner Acme` writes exactly the profiles a
notebook would get from `estate.subset(ipt.Filter(partners=["Acme"]))`.

Errors end the command with one line on stderr and exit code 1 (2 for a wrong option);
`iptoolkit --debug ...` shows the traceback instead. A docs pipeline can trust the result:
a filter that selects nothing is an error naming the value that matched nothing (unless
`--allow-empty`), `-o` into a missing folder is one (unless `-p`), and items are named one
way everywhere (`resolve.py`: node id, bare id, or a partner's or channel's name).

Commands of other modules (the reference server's `serve` and `hash-secret`, the schema
`drift`) load on first use (`_LAZY`), so `iptoolkit --help` stays quick.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import env
from ._version import __version__
from .cli_options import (
    auth_from_options,
    check_output_folder,
    filter_options,
    load_estate,
    output_folder_option,
    snapshot_argument,
)
from .names import NO_TYPE, type_label, unresolved_note

if TYPE_CHECKING:
    from .filters import Filter

__all__ = ["main"]

_LAZY: dict[str, tuple[str, str]] = {
    "serve": ("iptoolkit.server.cli", "Run the reference server of the platform's API."),
    "hash-secret": ("iptoolkit.server.cli", "Hash a secret for a principals file."),
    "drift": (
        "iptoolkit.change.drift_command",
        "What a snapshot holds that the spec does not describe.",
    ),
    "diff": ("iptoolkit.change.diff_command", "What changed between two snapshots."),
    "mcp": ("iptoolkit.mcp.cli", "Serve snapshots to AI assistants (Model Context Protocol)."),
    "explore": ("iptoolkit.app.cli", "Open the Explorer as a web app (Voila), no code shown."),
    "audit": ("iptoolkit.cli_audit", "Judge the estate: security and operational risk rules."),
    "findings": ("iptoolkit.cli_audit", "The audit's findings (an alias of audit)."),
    "docs": (
        "iptoolkit.docsite.command",
        "Write a documentation site (MkDocs, GitHub) of a snapshot.",
    ),
}
"""Commands whose module loads on first use (name -> module, short help shown before it
loads), so that `iptoolkit --help` stays quick and an extra's command works only with it.
Each module has `add_commands(group)`, which adds its commands to the group."""


class _Main(click.Group):
    """The top-level group: loads lazy commands on first use, turns errors into one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_LAZY})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _LAZY and name not in self.commands:
            module = importlib.import_module(_LAZY[name][0])
            module.add_commands(self)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(name) for name in names), default=0)
        for name in names:
            if name in _LAZY and name not in self.commands:
                rows.append((name, _LAZY[name][1]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """As click's, but a wrong option or argument is one line too, with a pointer."""
        try:
            return super().main(*args, **{**kwargs, "standalone_mode": False})
        except click.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {exc.format_message()}{where}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # the reader went away (`iptoolkit findings ... | head`): stop quietly, as cat does
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(141) from None
        except Exception as exc:  # noqa: BLE001 - sorted below: known ones become one line
            if ctx.meta.get("iptoolkit.debug") or not _expected(exc):
                raise
            raise click.ClickException(_one_line(exc)) from None


def _expected(exc: BaseException) -> bool:
    """Errors a user causes or meets (bad file, network, API refusal): no traceback."""
    import networkx as nx

    from .models import ParseError

    if isinstance(exc, OSError | ValueError | ImportError | ParseError | nx.NodeNotFound):
        return True
    if "iptoolkit.client" in sys.modules:
        from .client import ApiError

        return isinstance(exc, ApiError)
    return False


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="iptoolkit")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """Explore an integration platform's profiles, partners and channels.

    Fetch a snapshot once, then summarise, audit, draw and export it offline:

    \b
      iptoolkit fetch --client-id my-client -o snapshot.json
      iptoolkit summary snapshot.json
      iptoolkit plot snapshot.json -o topology.svg --partner "Mosel Retail"
      iptoolkit export snapshot.json -o out/finance.graphml -p --group Finance

    Items are named by node id (partner:1003), id (1003) or, for partners and
    channels, name. A filter that selects nothing is an error (see --allow-empty).
    Credentials come from IPTOOLKIT_* environment variables or a hidden prompt.
    """
    ctx.meta["iptoolkit.debug"] = debug or os.environ.get(env.DEBUG) == "1"


# -- fetch ----------------------------------------------------------------------------------


@main.command(short_help="Fetch all profiles and save a snapshot.")
@click.option(
    "--base-url",
    envvar=env.BASE_URL,
    show_envvar=True,
    required=True,
    help="The platform's base URL.",
)
@click.option(
    "--auth",
    "auth_kind",
    type=click.Choice(["client", "guest", "session", "bearer"]),
    help="Auth flow. Default: client credentials with --client-id, else the first of "
    f"{env.GUEST_TOKEN}, {env.SESSION_COOKIE}, {env.BEARER_TOKEN} set.",
)
@click.option("--client-id", envvar=env.CLIENT_ID, show_envvar=True, help="Client id.")
@click.option(
    "--secret-stdin",
    is_flag=True,
    help="Read the secret (client secret, token or cookie) from standard input; otherwise "
    "it comes from its IPTOOLKIT_* variable or a hidden prompt.",
)
@click.option(
    "--profiles-path",
    envvar=env.PROFILES_PATH,
    show_envvar=True,
    help="Path of the profile listing under the base URL, if not the default.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default="snapshot.json",
    show_default=True,
    callback=lambda ctx, param, value: _name_template(value),
    help="Snapshot file to write (.json or .json.gz). The name may hold the fetch time "
    "(UTC): {date} 2026-11-23, {time} 061500, {datetime} 2026-11-23T061500Z, so "
    "'snapshots/{date}.json.gz' keeps one snapshot a day.",
)
@output_folder_option
@click.option("--strict", is_flag=True, help="Fail on a faulty profile instead of keeping it.")
@click.option("--progress/--no-progress", default=None, help="Show a progress bar.")
def fetch(
    base_url: str,
    auth_kind: str | None,
    client_id: str | None,
    secret_stdin: bool,
    profiles_path: str | None,
    output: str,
    mkdirs: bool,
    strict: bool,
    progress: bool | None,
) -> None:
    """Fetch every profile the credentials may view and save a snapshot.

    A nightly job keeps a history with a dated name, no script needed:

    \b
      iptoolkit fetch -p -o 'snapshots/{date}.json.gz'
    """
    from .client import Client
    from .snapshot import dated_path

    check_output_folder(dated_path(output, None), mkdirs)  # the folder as named now

    auth = auth_from_options(auth_kind, client_id, secret_stdin)
    with Client(base_url, auth=auth, profiles_path=profiles_path) as client:
        estate = client.fetch_estate(progress=progress, strict=strict)
    from .exporters import export

    path = dated_path(output, estate.info.fetched_at)
    if mkdirs:  # a dated folder ({date}/...) may have turned over during the fetch
        path.parent.mkdir(parents=True, exist_ok=True)
    export(estate, path)
    problems = f", {len(estate.problems):,} with problems" if estate.problems else ""
    click.echo(f"Fetched {len(estate):,} profiles{problems} from {estate.info.source_url}")
    click.echo(f"Wrote {path}")


def _name_template(value: str) -> str:
    """The output name checked before fetching: a wrong {field} costs no fetch."""
    from .snapshot import check_name_template

    try:
        return check_name_template(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


# -- summary and findings -------------------------------------------------------------------


@main.command(short_help="Count profiles, channels, partners, types and findings.")
@snapshot_argument
@filter_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
def summary(snapshot: Path, selection: Filter, as_json: bool) -> None:
    """Counts of profiles, channels, partners and types, and the findings per kind."""
    from .auditing import findings

    estate = load_estate(snapshot, selection)
    counts = estate.summary()
    audited = findings(estate)
    found = {f"{f.code} {f.kind}": 0 for f in sorted(audited, key=lambda f: f.code)}
    for finding in audited:
        found[f"{finding.code} {finding.kind}"] += 1
    if as_json:
        document = {"snapshot": str(snapshot), "filter": selection.describe(), **counts}
        document["findings"] = audited.counts()
        document["findings_by_code"] = audited.by_code()
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    click.echo(_summary_text(snapshot, counts, found))


def _type_named(name: str) -> str:
    """`Cron Cloud Storage (CronCloudStorageAgentSettings)`: as people say it, and the name
    that filters and the JSON output use."""
    return name if name == NO_TYPE else f"{type_label(name)} ({name})"


def _summary_text(snapshot: Path, counts: dict[str, Any], found: dict[str, int]) -> str:
    lines = [f"{snapshot}" + (f" (from {counts['source_url']})" if counts["source_url"] else "")]
    lines.append(
        f"  {counts['profiles']:>7,}  profiles ({counts['active_profiles']:,} active, "
        f"{counts['problems']:,} with problems)"
    )
    unresolved = counts["unresolved_channels"]
    lines.append(f"  {counts['channels']:>7,}  channels" + unresolved_note(unresolved))
    lines.append(f"  {counts['partners']:>7,}  partners")
    if counts["conflicts"]:
        lines.append(f"  {counts['conflicts']:>7,}  conflicting copies of a channel or partner")
    for title, key in (("Input agent types", "agent_types"), ("Channel types", "channel_types")):
        if counts[key]:
            lines.append(f"{title}:")
            lines.extend(f"  {n:>7,}  {_type_named(name)}" for name, n in counts[key].items())
    lines.append("Findings:" if found else "Findings: none")
    lines.extend(f"  {n:>7,}  {code_kind}" for code_kind, n in found.items())
    return "\n".join(lines)


# -- plot and export ------------------------------------------------------------------------


@main.command(short_help="Draw the topology diagram (.png, .svg, .pdf).")
@snapshot_argument
@filter_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("topology.png"),
    show_default=True,
    help="Diagram file: .png, .svg or .pdf.",
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
def plot(
    snapshot: Path,
    selection: Filter,
    output: Path,
    mkdirs: bool,
    group_by: str,
    highlight: str | None,
    labels: str,
    title: str | None,
) -> None:
    """Draw the topology: profiles, agents and responses, channels, partners."""
    from .exporters import export, format_of

    try:
        name = format_of(output)
    except ValueError:
        name = output.suffix
    if name not in ("png", "svg", "pdf"):
        raise click.BadParameter(
            "a diagram is .png, .svg or .pdf (other formats: iptoolkit export)",
            param_hint="--output",
        )
    check_output_folder(output, mkdirs)
    grouping: Any = {"auto": None, "none": False}.get(group_by, group_by)
    estate = load_estate(snapshot, selection)
    from .resolve import UnknownItemError

    with _warnings_on_stderr():
        try:
            export(
                estate, output, group_by=grouping, highlight=highlight, labels=labels, title=title
            )
        except UnknownItemError:
            if highlight is not None and not selection.is_empty():
                _highlight_outside(snapshot, selection, highlight)
            raise
    click.echo(f"Wrote {output}")


def _highlight_outside(snapshot: Path, selection: Filter, highlight: str) -> None:
    """An item the filter left out is not "nothing of that name": say so (an error)."""
    from .graph import build_graph
    from .resolve import UnknownItemError, resolve_node

    try:
        node = resolve_node(build_graph(load_estate(snapshot)), highlight, what="--highlight")
    except (UnknownItemError, ValueError):
        return
    raise click.ClickException(
        f"--highlight: {node} is not in the diagram of this filter ({selection.describe()})"
    )


@main.command("export", short_help="Write a snapshot, table, graph or diagram file.")
@snapshot_argument
@filter_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="File to write; its suffix picks the format (see below).",
)
@output_folder_option
@click.option("--format", "output_format", help="Format, when the suffix does not say it.")
@click.option("--title", help="Title of a DOT, Mermaid or diagram export.")
def export_command(
    snapshot: Path,
    selection: Filter,
    output: Path,
    mkdirs: bool,
    output_format: str | None,
    title: str | None,
) -> None:
    """Write the estate (or the filtered part) as a snapshot, table, graph or diagram.

    \b
    .json .json.gz    snapshot, loadable again
    .csv .xlsx        tables
    .graphml .gexf    graph for yEd, Gephi, networkx
    .dot .gv          Graphviz
    .mmd .md          Mermaid (GitHub renders .md)
    .png .svg .pdf    topology diagram
    """
    from .exporters import export, format_of

    name = format_of(output, output_format)
    options = {"title": title} if title and name not in ("json", "json.gz", "csv", "xlsx") else {}
    if title and not options:
        raise click.BadParameter(f"a .{name} export has no title", param_hint="--title")
    check_output_folder(output, mkdirs)
    estate = load_estate(snapshot, selection)
    with _warnings_on_stderr():
        export(estate, output, format=output_format, **options)
    click.echo(f"Wrote {output} ({len(estate):,} profiles)")


@contextlib.contextmanager
def _warnings_on_stderr() -> Iterator[None]:
    """What an export warns of (a diagram too big to read, a Mermaid file past GitHub's
    limits), each as one `warning:` line on stderr once the file is written."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for warning in caught:
        click.echo(f"warning: {warning.message}", err=True)


# -- demo -----------------------------------------------------------------------------------


@main.command(short_help="Run it all against the embedded reference server.")
@click.option(
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("demo-output"),
    show_default=True,
    help="Folder for the snapshot, diagrams and exports.",
)
@click.option(
    "--profiles",
    type=click.IntRange(min=1),
    default=300,
    show_default=True,
    help="Size of the demo estate.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Demo estate seed.")
def demo(output: Path, profiles: int, seed: int) -> None:
    """Run the whole toolkit against the embedded reference server (what `make demo` does)."""
    from .demo_run import run_demo

    run_demo(output, n_profiles=profiles, seed=seed, echo=click.echo)


if __name__ == "__main__":  # pragma: no cover
    main()
