"""`iptoolkit archive ...` and `iptoolkit watch`: the archive from the command line.

    iptoolkit archive import snapshots/ --archive estate.duckdb
    iptoolkit archive add today.json.gz --archive estate.duckdb
    iptoolkit archive export --archive estate.duckdb --at 2026-10-01 -o snapshot.json
    iptoolkit archive log "Fjord AS2" --archive estate.duckdb
    iptoolkit watch --archive estate.duckdb --once --fail-on breaking --notify URL

Loaded on first use (see `COMMANDS` in `host.py`); needs the `archive` extra.

Exit codes: every error of an `archive` command is one line and `EXIT_TROUBLE` (2), the code
`watch` gives an archive or fetch it cannot use (its 1 says a change landed): a missing or
foreign file, an `--at` that names no snapshot (ids are ASCII digits), a query DuckDB
refuses. The archive commands never exit 1, so a script running them beside `watch --once`
reads one code for "the archive could not be used".
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

import click

from ..support import env
from ..support.progress import NO_PROGRESS, reporting_to
from .host import EXIT_TROUBLE, expected, one_line, one_line_errors, short_help
from .options import Seconds, max_size_option
from .outputs import check_outputs, check_snapshot_suffix, folder_option, output_folder_option
from .progress import command_progress, end_progress, progress_option

if TYPE_CHECKING:
    import httpx

    from ..archive import Archive
    from ..core.estate import Estate

__all__ = ["archive_group", "watch_command"]

_ARCHIVE = click.option(
    "--archive",
    "archive_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The archive file (DuckDB); the first add or import makes it.",
)
_ARCHIVE_FOLDER = folder_option("archive")
_AT = click.option(
    "--at",
    help="A snapshot id, or a date or date-time (ISO): the snapshot fetched at or before it "
    "(a date: by the end of that day, UTC). Default: the newest.",
)


def _open(path: Path) -> Archive:
    from ..archive import Archive

    return Archive(path)


class _ArchiveGroup(click.Group):
    """The `archive` group: each command runs in the host's policy with `EXIT_TROUBLE`."""

    def invoke(self, ctx: click.Context) -> Any:
        with one_line_errors(EXIT_TROUBLE):
            return super().invoke(ctx)


@click.group("archive", cls=_ArchiveGroup, short_help=short_help("archive"))
def archive_group() -> None:
    """Keep every snapshot of an estate in one DuckDB file (each profile's JSON once) and
    ask it: the estate at a date, an item's log, the timeline, SQL. Needs the `archive`
    extra: pip install -e '.[archive]'. Exit codes: 0 done, 2 an error (one line)."""


@archive_group.command("add")
@click.argument(
    "snapshots",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@_ARCHIVE
@_ARCHIVE_FOLDER
@max_size_option
@progress_option
def add_command(snapshots: tuple[Path, ...], archive_path: Path, mkdirs: bool) -> None:
    """Add snapshot files (a snapshot stored already is not stored twice)."""
    inputs = {f"SNAPSHOT {path}": path for path in snapshots}
    check_outputs(mkdirs, {"--archive": archive_path}, inputs)
    archive = _open(archive_path)
    for number, path in enumerate(snapshots, 1):
        before = len(archive) if archive_path.exists() else 0
        command_progress().stage(f"Adding {path.name} ({number} of {len(snapshots)})")
        with reporting_to(NO_PROGRESS):  # its load: one bar, the add's
            snapshot_id = archive.add(path)
        end_progress()
        state = "added" if len(archive) > before else "stored already"
        click.echo(f"{path}: snapshot {snapshot_id} ({state})")


@archive_group.command("import")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_ARCHIVE
@_ARCHIVE_FOLDER
@max_size_option
@progress_option
def import_command(folder: Path, archive_path: Path, mkdirs: bool) -> None:
    """Add every snapshot of a folder (*.json, *.json.gz), oldest first."""
    check_outputs(mkdirs, {"--archive": archive_path})
    from ..estate_history import SNAPSHOT_PATTERNS, load_for_history, snapshot_of

    paths = sorted({p for pattern in SNAPSHOT_PATTERNS for p in folder.glob(pattern)})
    if not paths:
        raise click.ClickException(f"{folder}: no snapshot ({', '.join(SNAPSHOT_PATTERNS)}) there")
    timed = []
    progress = command_progress()
    progress.stage("Reading the snapshots' dates", total=len(paths))
    for path in paths:
        with reporting_to(NO_PROGRESS):  # one bar: this count, not each load's
            estate = load_for_history(path)
        timed.append((snapshot_of(path, estate).fetched_at, path.name, path))
        del estate
        progress.advance()
    end_progress()
    archive = _open(archive_path)
    with archive:
        added = 0
        for number, (_, _, path) in enumerate(sorted(timed), 1):
            before = len(archive)
            progress.stage(f"Adding {path.name} ({number} of {len(timed)})")
            with reporting_to(NO_PROGRESS):
                snapshot_id = archive.add(path)
            end_progress()
            added += len(archive) > before
            click.echo(f"{path.name}: snapshot {snapshot_id}")
    progress.stage(f"Compacting {archive_path.name}")
    archive.compact(if_mostly_free=True)  # one transaction held the file: no add did
    end_progress()
    click.echo(f"{added} of {len(paths)} snapshots added to {archive_path}")


@archive_group.command("export")
@_ARCHIVE
@_AT
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Snapshot file to write (.json or .json.gz).",
)
@output_folder_option
def export_command(archive_path: Path, at: str | None, output: Path, mkdirs: bool) -> None:
    """Write one stored snapshot back as a snapshot file, byte for byte as it was saved."""
    check_outputs(mkdirs, {"--output": output}, {"--archive": archive_path})
    check_snapshot_suffix(output)  # after: -o onto the archive is the worse mistake to name
    archive = _open(archive_path)
    snapshot_id = archive.snapshot_id(at)
    archive.export(output, snapshot_id)
    click.echo(f"Wrote {output} (snapshot {snapshot_id})")


@archive_group.command("snapshots")
@_ARCHIVE
def snapshots_command(archive_path: Path) -> None:
    """List the stored snapshots with their counts."""
    frame = _open(archive_path).snapshots
    click.echo(frame.drop(columns=["added_at"]).to_string(index=False))


@archive_group.command("timeline")
@_ARCHIVE
@click.option("--csv", "as_csv", is_flag=True, help="CSV instead of a table.")
def timeline_command(archive_path: Path, as_csv: bool) -> None:
    """The counts of every snapshot (ipt.history's timeline)."""
    frame = _open(archive_path).timeline()
    click.echo(
        _csv(frame) if as_csv else frame.iloc[:, :9].to_string(index=False),
        nl=not as_csv,
    )


@archive_group.command("log")
@click.argument("item")
@_ARCHIVE
def log_command(item: str, archive_path: Path) -> None:
    """When ITEM (a profile, channel or partner: node id, id or name) appeared, changed
    (which JSON paths) or disappeared."""
    frame = _open(archive_path).log(item)
    click.echo(f"{frame.attrs['item']}:")
    if frame.empty:
        click.echo("  no event stored")
    shown = frame[["snapshot", "fetched_at", "event", "severity", "paths"]]
    for snapshot, fetched_at, event, severity, paths in shown.itertuples(index=False, name=None):
        marked = f" [{severity}]" if severity else ""
        click.echo(f"  snapshot {snapshot} {fetched_at:%Y-%m-%d %H:%M} {event}{marked}")
        for path in paths:
            click.echo(f"      {path}")


@archive_group.command("compact")
@_ARCHIVE
@progress_option
def compact_command(archive_path: Path) -> None:
    """Rewrite the file without the space that updates freed."""
    command_progress().stage(f"Compacting {archive_path.name}")
    before, after = _open(archive_path).compact()
    end_progress()
    click.echo(f"{archive_path}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")


SQL_MAX_WIDTH = 40
"""The characters `archive sql` shows of a cell in its table, the cut marked by `…`."""


@archive_group.command("sql")
@click.argument("query")
@_ARCHIVE
@click.option("--csv", "as_csv", is_flag=True, help="CSV instead of a table, every value whole.")
@click.option(
    "--json", "as_json", is_flag=True, help="JSON (an array of rows) instead of a table, every "
    "value whole.",
)  # fmt: skip
@click.option(
    "--max-width",
    type=click.IntRange(min=0),
    default=SQL_MAX_WIDTH,
    show_default=True,
    help="Cut the table's cells to this many characters, marking the cut with …; 0: whole.",
)
def sql_command(
    query: str, archive_path: Path, as_csv: bool, as_json: bool, max_width: int
) -> None:
    """Run a SQL query over the archive's tables and views (docs/archive.md). The table
    shows at most --max-width characters of a cell, as the duckdb shell cuts wide cells
    (a change's `old` and `new` hold a whole profile's JSON); --csv and --json write every
    value whole."""
    if as_csv and as_json:
        raise click.UsageError("give --csv or --json, not both")
    frame = _open(archive_path).sql(query)
    if as_csv:
        click.echo(_csv(frame), nl=False)
    elif as_json:
        click.echo(_json(frame))
    else:
        click.echo(_table(frame, max_width))


def _table(frame: Any, max_width: int) -> str:
    """The rows as a table people read: every cell that is not a number on one line, its
    control characters escaped (`\\n`, `\\x1b`: a name cannot drive the terminal) and cut
    to `max_width` characters (0: whole). Uncut, one breaking change of the README's query
    was a line of 7,163 characters (a removed profile's JSON), and the query 68 MB."""
    import numbers

    from ..support.printable import escape_unprintable, shorten

    def cell(value: Any) -> Any:
        if value is None or isinstance(value, numbers.Number):
            return value
        text = escape_unprintable(str(value))
        return shorten(text, max_width) if max_width else text

    return str(frame.map(cell).to_string(index=False))


def _json(frame: Any) -> str:
    """`--json`: the rows as an array of objects, every value whole: dates in ISO 8601,
    a missing value null."""
    import json

    from ..support.jsonio import indented_json

    rows = frame.to_json(orient="records", date_format="iso", date_unit="us", force_ascii=False)
    return indented_json(json.loads(rows))


def _csv(frame: Any) -> str:
    """`--csv`: names from the estate as text a spreadsheet runs nothing of, a cell
    holding a line break quoted (`exporters.table_files`)."""
    from ..exporters.table_files import csv_safe_frame, frame_csv

    return frame_csv(csv_safe_frame(frame))


def _command_words(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`--exec` as given, once it splits into words as a shell would (`shlex.split`, as
    `notify.run_command` splits it): a quote left open is refused now, not after a change
    landed."""
    import shlex

    if value is None:
        return None
    try:
        words = shlex.split(value)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r}: {exc}") from None
    if not words:
        raise click.BadParameter("an empty command")
    return value


def _webhook_urls(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    """Each `--notify` URL, checked now (`notify.check_webhook`: a pasted line break, a port
    out of range): refused at the start, not when the first change lands."""
    from ..archive.notify import check_webhook

    try:
        return tuple(check_webhook(url) for url in value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command("watch", short_help=short_help("watch"))
@_ARCHIVE
@click.option(
    "--every",
    help="Fetch again after this long (90s, 15m, 1h, 1d; from 1s to 7d) until stopped.",
)
@click.option("--once", is_flag=True, help="One round, then exit (cron, systemd timers, CI).")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "notable", "any"]),
    default="breaking",
    show_default=True,
    help="Alert (and with --once exit 1) on a change at or above this severity.",
)
@click.option(
    "--notify",
    "urls",
    multiple=True,
    envvar=env.NOTIFY,
    show_envvar=True,
    callback=_webhook_urls,
    help="POST a JSON message (Markdown `text`, Slack and Teams webhooks read it) to this "
    "URL; repeatable (the variable: URLs separated by spaces, which keeps a webhook's "
    "secret path out of the process list). Checked at the start; each POST ends within "
    "10 s, follows 307 and 308 redirects (never to plain http) and is tried 4 times before "
    "it is reported.",
)
@click.option(
    "--exec",
    "command",
    callback=_command_words,
    help="Run this command with the changelog (Markdown) on its standard input. It is split "
    "into words as a shell would (quotes kept together) but not run by one: no pipes, "
    "redirections or $VARIABLES (for those: --exec 'sh -c \"...\"').",
)
@click.option(
    "--lock-timeout",
    type=Seconds(zero=True),
    default=60.0,
    show_default=True,
    help="Seconds to wait for an archive another process holds (an analyst's query) before "
    "keeping the snapshot beside it, in ARCHIVE.pending/, for the next round to add.",
)
@_ARCHIVE_FOLDER
@progress_option
@click.pass_context
def watch_command(
    ctx: click.Context,
    archive_path: Path,
    every: str | None,
    once: bool,
    fail_on: str,
    urls: tuple[str, ...],
    command: str | None,
    lock_timeout: float,
    mkdirs: bool,
    **fetch_options: Unpack[_FetchOptions],
) -> None:
    """Fetch the estate, add it to the archive, diff it against the snapshot before and
    print the summary; when a change at or above --fail-on lands, POST to each --notify URL
    and run --exec. Exit codes with --once: 0 nothing at or above --fail-on, 1 something,
    2 the fetch failed (retried first, unless the platform refused it: a wrong secret is
    told at once; nothing stored) or the archive could not take the snapshot (it is kept
    in ARCHIVE.pending/ and added by the next round). With --every, a round's trouble is
    printed and the next round comes all the same.

    \b
      IPTOOLKIT_NOTIFY="$SLACK_WEBHOOK" iptoolkit watch --archive estate.duckdb --once
      iptoolkit watch --archive estate.duckdb --every 1h --fail-on notable
    """
    from ..archive.watch import parse_every
    from .options import auth_from_options, check_connection

    if once and every is not None:
        raise click.UsageError("--once and --every exclude each other: give one of them")
    if not once and every is None:
        raise click.UsageError("give --once or --every DURATION")
    try:  # a usage error (2): 1 would say "a change landed"
        period = parse_every(every) if every is not None else 0.0
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    check_outputs(mkdirs, {"--archive": archive_path})  # before a fetch it could not store
    check_connection(str(fetch_options["base_url"]), fetch_options["profiles_path"])
    auth = auth_from_options(
        fetch_options["auth_kind"], fetch_options["client_id"], bool(fetch_options["secret_stdin"])
    )
    from ..archive import Archive
    from ..archive.opening import check_archive_file

    archive = Archive(archive_path, lock_timeout=lock_timeout)
    with one_line_errors(EXIT_TROUBLE):  # 1 means "a change landed": trouble is 2
        check_archive_file(archive.path)  # before a fetch it could not store
        _watch(archive, fetch_options, auth, once, period, fail_on, urls, command)


def _watch(
    archive: Archive,
    fetch_options: _FetchOptions,
    auth: httpx.Auth,
    once: bool,
    period: float,
    fail_on: str,
    urls: tuple[str, ...],
    command: str | None,
) -> None:
    """Watch until stopped, or once (exiting with the diff's code)."""
    from ..archive.watch import sleep, watch_once

    def fetch() -> Estate:
        from ..client import Client

        with Client(
            str(fetch_options["base_url"]), auth=auth, profiles_path=fetch_options["profiles_path"]
        ) as client:
            estate = client.fetch_estate(progress=command_progress())
        command_progress().stage("Adding to the archive")  # what the round does next
        return estate

    def echo(text: str) -> None:
        end_progress()  # a round says what it did once its step is over
        click.echo(text, err=text.startswith(("error", "fetch failed")))

    while True:
        if once:
            result = watch_once(
                archive, fetch, fail_on=fail_on, notify=urls, command=command, echo=echo
            )
            sys.exit(result.exit_code)
        try:
            watch_once(archive, fetch, fail_on=fail_on, notify=urls, command=command, echo=echo)
        except Exception as exc:  # noqa: BLE001 - a round's trouble never ends --every
            if not expected(exc):
                raise
            echo(f"error: {one_line(exc)}; trying again in {period:g} s")
        sleep(period)


class _FetchOptions(TypedDict):
    """The options `_fetch_options` adds, as click passes them."""

    base_url: str
    auth_kind: str | None
    client_id: str | None
    secret_stdin: bool
    profiles_path: str | None


def _fetch_options(command: click.Command) -> click.Command:
    """The connection options of `iptoolkit fetch`, the same names and variables."""
    options = [
        click.Option(
            ["--base-url"],
            envvar=env.BASE_URL,
            show_envvar=True,
            required=True,
            help="The platform's base URL.",
        ),
        click.Option(
            ["--auth", "auth_kind"],
            type=click.Choice(["client", "guest", "session", "bearer"]),
            help="Auth flow, as for iptoolkit fetch.",
        ),
        click.Option(["--client-id"], envvar=env.CLIENT_ID, show_envvar=True, help="Client id."),
        click.Option(
            ["--secret-stdin"], is_flag=True, help="Read the secret from standard input (once)."
        ),
        click.Option(
            ["--profiles-path"],
            envvar=env.PROFILES_PATH,
            show_envvar=True,
            help="Path of the profile listing, if not the default.",
        ),
    ]
    command.params[:0] = options
    return command


_fetch_options(watch_command)
