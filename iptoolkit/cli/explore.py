"""The `explore` command: the Explorer as a web app (Voila) on 127.0.0.1, no code shown.

Everything that can fail is checked before Voila starts, each as one line: the `app`
extra, the port, the saved views' file (a file it cannot read is a wrong `--views` or
SNAPSHOT, exit 2), the snapshot and the older one of `--since` (read once, by the app's
zygote, which holds them for every kernel: `app.zygote`; a bad file is named here in its
words, not in the browser).
"""

from __future__ import annotations

import os
import signal
import stat
import tempfile
import webbrowser
import zlib
from pathlib import Path
from types import FrameType
from typing import Any

import click

from ..app import runner
from ..support import env
from ..support.names import plural
from .host import short_help
from .options import chosen_max_size, snapshot_argument

__all__ = ["explore_command"]


class _Stop(Exception):
    """SIGINT, SIGTERM or SIGHUP reached the command: stop Voila in order."""


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Signals that stop the app. Installed explicitly: a command started in the background
by a script inherits SIGINT ignored, and Python then never raises KeyboardInterrupt."""


@click.command("explore", short_help=short_help("explore"))
@snapshot_argument(required=False)
@click.option(
    "--port",
    default=runner.DEFAULT_PORT,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port on 127.0.0.1 (0: any free port).",
)
@click.option("--no-browser", is_flag=True, help="Print the address; open no browser.")
@click.option(
    "--folder",
    default="iptoolkit-export",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the Export tab writes (made when the first file is written).",
)
@click.option(
    "--max-sessions",
    default=runner.MAX_SESSIONS,
    show_default=True,
    type=click.IntRange(0),
    help="Pages served at once (each one a kernel); past it a page says all are in use. 0: no cap.",
)
@click.option(
    "--free-after",
    default=runner.FREE_AFTER,
    show_default=True,
    type=click.IntRange(3),
    metavar="SECONDS",
    help="A tab that dies without closing (a crashed browser) frees its kernel within this "
    "many seconds. A tab left open keeps its kernel however long it sits idle.",
)
@click.option(
    "--unmasked-downloads",
    is_flag=True,
    help="Export files as the platform holds them: the .json snapshot unmasked. Without "
    "it every file the app writes masks credentials, as every other export does.",
)
@click.option(
    "--since",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An older snapshot: the map shows what changed from it to SNAPSHOT, each item "
    "coloured by what happened to it, the filter applied to both.",
)
@click.option(
    "--archive",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An archive (iptoolkit archive add): the map gets a timeline over its snapshots, "
    "the newest shown first, each with what changed since the one before. Instead of "
    "SNAPSHOT.",
)
@click.option(
    "--views",
    "views",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of the saved views (iptoolkit-views.json); default: beside the snapshot.",
)
def explore_command(
    snapshot: Path | None,
    port: int,
    no_browser: bool,
    folder: Path,
    max_sessions: int,
    free_after: int,
    unmasked_downloads: bool,
    since: Path | None,
    archive: Path | None,
    views: Path | None,
) -> None:
    """Open the Explorer as a web app: filters, counts, table, topology, details, export.

    Serves SNAPSHOT (a demo estate when none is given; a pipe is read once, its saved
    views kept in the current folder) with Voila on 127.0.0.1, no code shown, until
    Ctrl-C. Needs the 'app' extra: pip install -e '.[app]'.
    """
    from ..support.extras import require_installed

    require_installed("app")
    try:
        port = runner.check_port(port)
    except runner.PortInUseError as exc:
        raise click.ClickException(exc.strerror or str(exc)) from None
    if archive is not None:
        _check_archive(snapshot, since)
    if views is None and _is_stream(snapshot):  # nothing beside a pipe keeps them
        views = Path.cwd()
        click.echo(f"SNAPSHOT is a stream: saved views are kept in {views}", err=True)
    _check_views(archive or snapshot, views)
    with tempfile.TemporaryDirectory(prefix="iptoolkit-explore-") as folder_for_newest:
        kept = Path(folder_for_newest)
        shown = archive if archive is not None else snapshot
        if archive is not None:  # its newest snapshot, for the zygote to hold
            snapshot = _newest_of(archive, kept)
        snapshot = _read_again(snapshot, kept / "snapshot.json", "'SNAPSHOT'")
        since = _read_again(since, kept / "since.json", "'--since'")
        environ = _app_environ(snapshot, folder, unmasked_downloads, since, archive, views)
        _start_and_serve(environ, port, no_browser, folder, max_sessions, free_after, shown)


def _app_environ(
    snapshot: Path | None,
    folder: Path,
    unmasked_downloads: bool,
    since: Path | None,
    archive: Path | None,
    views: Path | None,
) -> dict[str, str]:
    """The environment Voila and its kernels get: what the app shows and where it writes."""
    environ = dict(os.environ)
    environ[env.APP_FOLDER] = str(folder.resolve())
    environ[env.APP_UNMASKED] = "1" if unmasked_downloads else ""
    environ.pop(env.APP_SNAPSHOT, None)
    environ.pop(env.APP_VIEWS, None)
    environ.pop(env.APP_SINCE, None)
    environ.pop(env.APP_ARCHIVE, None)
    if since is not None:
        environ[env.APP_SINCE] = str(since.resolve())
    if archive is not None:
        environ[env.APP_ARCHIVE] = str(archive.resolve())
    if views is not None:
        environ[env.APP_VIEWS] = str(views.resolve())
    if snapshot is not None:
        environ[env.APP_SNAPSHOT] = str(snapshot.resolve())
    if chosen_max_size() is not None:
        environ[env.MAX_LOAD_SIZE] = str(chosen_max_size())
    return environ


def _start_and_serve(
    environ: dict[str, str],
    port: int,
    no_browser: bool,
    folder: Path,
    max_sessions: int,
    free_after: int,
    source: Path | None,
) -> None:
    """Start the app, say where it is (showing `source`), serve it until stopped."""
    try:
        app = runner.start(port, environ, max_sessions=max_sessions, free_after=free_after)
    except (RuntimeError, TimeoutError, runner.SnapshotError) as exc:  # stopped at start,
        raise click.ClickException(str(exc)) from None  # never answered, or a bad snapshot
    profiles = plural(app.profiles, "profile") if app.profiles is not None else "an estate"
    what = f"{profiles} from {source}" if source is not None else "a demo estate"
    click.echo(f"The Explorer app shows {what} at {app.url}  (Ctrl-C stops it)", err=True)
    click.echo(f"Its Export tab writes into {folder.resolve()}", err=True)
    click.echo(
        "To share a view, send the page's Copy link: it holds the token, which lets whoever "
        "has it use the app until it stops",
        err=True,
    )
    if not no_browser:
        webbrowser.open(app.url)
    _serve_until_stopped(app)


def _is_stream(path: Path | None) -> bool:
    """Whether `path` is read once only (a pipe, `<(gunzip -c a.json.gz)`): not a file."""
    return path is not None and not stat.S_ISREG(path.stat().st_mode)


def _read_again(path: Path | None, copy: Path, hint: str) -> Path | None:
    """`path`, or when it is a stream, its JSON copied to `copy` (no more than
    `--max-size`): the app reads a snapshot in its own process, where the command's pipe
    is neither open nor readable a second time."""
    if path is None or not _is_stream(path):
        return path
    from ..support.reading import load_limit, read_bounded

    try:
        copy.write_bytes(read_bounded(path, load_limit(chosen_max_size()))[0])
    except (OSError, ValueError, EOFError, zlib.error) as exc:
        raise click.BadParameter(" ".join(str(exc).split()), param_hint=hint) from None
    return copy


def _check_archive(snapshot: Path | None, since: Path | None) -> None:
    """`--archive` stands instead of SNAPSHOT and `--since` (its timeline picks both)."""
    if snapshot is not None:
        raise click.BadParameter("give SNAPSHOT or --archive, not both", param_hint="'--archive'")
    if since is not None:
        raise click.BadParameter(
            "--since with --archive: the timeline's 'Changes since' list, or ?since= in the "
            "page's address, picks the older snapshot",
            param_hint="'--since'",
        )


def _newest_of(archive: Path, folder: Path) -> Path:
    """The archive's newest snapshot written into `folder`: what the app's zygote reads and
    holds for every kernel, as it holds a SNAPSHOT (the timeline reads the rest)."""
    from ..archive.lookup import NoSnapshotError
    from ..archive.opening import ArchiveDamagedError, ArchiveLockedError
    from ..archive.store import Archive

    stem = archive.name.removesuffix(".duckdb")
    try:
        return Archive(archive).export(folder / f"{stem}.json")
    except (NoSnapshotError, ArchiveDamagedError, ArchiveLockedError, OSError) as exc:
        raise click.ClickException(" ".join(str(exc).split())) from None


def _check_views(snapshot: Path | None, folder: Path | None) -> None:
    """The saved views' file, read once before the app starts: one that cannot be read
    (bad JSON, a key given twice, an unknown version) is named here, not in a page."""
    from ..viewmodel.saved_views import SavedViews, views_file

    path = views_file(snapshot, folder)
    if path is None:
        return
    try:
        SavedViews(path).names()
    except (OSError, ValueError) as exc:
        hint = "'--views'" if folder is not None else "'SNAPSHOT' (its views file)"
        raise click.BadParameter(" ".join(str(exc).split()), param_hint=hint) from None


def _serve_until_stopped(app: runner.App) -> None:
    """Wait for Voila; on Ctrl-C, SIGTERM or SIGHUP stop it (and so its kernels) before
    returning."""
    previous = _install_stop_handlers()
    try:
        code = app.process.wait()
    except (KeyboardInterrupt, _Stop):
        click.echo("Stopping the Explorer app...", err=True)
        return  # stopped in `finally`
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        runner.stop(app)
    if code != 0:
        raise click.ClickException(f"Voila stopped with exit code {code}")


def _install_stop_handlers() -> dict[int, Any]:
    """Make each of `STOP_SIGNALS` raise `_Stop`; return the handlers they had."""

    def on_signal(signum: int, frame: FrameType | None) -> None:
        raise _Stop

    return {signum: signal.signal(signum, on_signal) for signum in STOP_SIGNALS}
