"""`iptoolkit fetch`: every profile the credentials may view, saved as a snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..support import env
from ..support.names import plural
from .host import one_line_errors, short_help
from .options import auth_from_options, check_connection
from .outputs import check_outputs, check_snapshot_suffix, output_folder_option
from .progress import command_progress, end_progress, fetch_progress_option

if TYPE_CHECKING:
    from ..archive import Archive
    from ..core.estate import Estate

__all__ = ["fetch"]


@click.command("fetch", short_help=short_help("fetch"))
@click.option(
    "--base-url",
    envvar=env.BASE_URL,
    show_envvar=True,
    help="The platform's base URL (required unless --env names it).",
)
@click.option(
    "--env",
    "environment",
    metavar="NAME",
    help="Fetch the environment NAME of the configuration ([tool.iptoolkit.environments."
    "NAME]: its base URL, and the variables holding its credentials).",
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
@click.option(
    "--archive",
    "archive_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also add the snapshot to this archive (DuckDB; the `archive` extra). Without "
    "-o, only to the archive.",
)
@click.option("--strict", is_flag=True, help="Fail on a faulty profile instead of keeping it.")
@fetch_progress_option
@click.pass_context
def fetch(
    ctx: click.Context,
    base_url: str | None,
    environment: str | None,
    auth_kind: str | None,
    client_id: str | None,
    secret_stdin: bool,
    profiles_path: str | None,
    output: str,
    mkdirs: bool,
    archive_path: Path | None,
    strict: bool,
) -> None:
    """Fetch every profile the credentials may view and save a snapshot.

    A nightly job keeps a history with a dated name, no script needed:

    \b
      iptoolkit fetch -p -o 'snapshots/{date}.json.gz'
    """
    from ..client import Client
    from ..core.snapshot import dated_path

    write_file = archive_path is None or _given(ctx, "output")
    if archive_path is not None:
        from ..archive import Archive  # the extra is checked before anything is fetched
    named = dated_path(output, None) if write_file else None  # the file as named now
    check_outputs(mkdirs, {"--output": named, "--archive": archive_path})
    if named is not None:
        check_snapshot_suffix(named)  # a wrong suffix costs no fetch
    if archive_path is not None:
        _check_archive(archive_path)  # nor does a file that is no archive

    if environment is not None:
        from ..comparing.config import environment as configured

        if secret_stdin:
            raise click.UsageError(
                f"--secret-stdin and --env {environment}: the environment's entry in the "
                "config says where its secret comes from; give one or the other"
            )

        with one_line_errors():
            found = configured(environment)
            auth = found.credentials()
        base_url, profiles_path = found.base_url, profiles_path or found.profiles_path
        check_connection(base_url, profiles_path)
    elif base_url is None:
        raise click.UsageError(f"--base-url (or {env.BASE_URL}, or --env NAME) is required")
    else:
        check_connection(base_url, profiles_path)
        auth = auth_from_options(auth_kind, client_id, secret_stdin)
    with Client(base_url, auth=auth, profiles_path=profiles_path) as client:
        estate = client.fetch_estate(progress=command_progress(), strict=strict)
    from ..exporters import export

    end_progress()

    problems = f", {len(estate.problems):,} with problems" if estate.problems else ""
    click.echo(f"Fetched {plural(len(estate), 'profile')}{problems} from {estate.info.source_url}")
    if write_file:
        path = dated_path(output, estate.info.fetched_at)
        if mkdirs:  # a dated folder ({date}/...) may have turned over during the fetch
            path.parent.mkdir(parents=True, exist_ok=True)
        command_progress().stage(f"Writing {path.name}")
        export(estate, path)
        end_progress()
        click.echo(f"Wrote {path}")
    if archive_path is not None:
        command_progress().stage(f"Adding to {archive_path.name}")
        snapshot_id = _add_or_keep(Archive(archive_path), estate, path if write_file else None)
        end_progress()
        click.echo(f"Added to {archive_path} as snapshot {snapshot_id}")


def _add_or_keep(archive: Archive, estate: Estate, written: Path | None) -> int:
    """Add the fetched estate to the archive; when the archive cannot take it (another
    process holds it past the lock timeout, a full disk), the fetch is not lost: without
    -o it is kept where the watch keeps one (`ARCHIVE.pending/`, added by its next round),
    and the error names the file that holds it."""
    try:
        return archive.add(estate)
    except Exception as exc:  # noqa: BLE001 - whatever stopped the add, keep the snapshot
        from ..archive.watch import keep_pending
        from ..support.error_line import one_line
        from ..support.redact import redact_text

        end_progress()
        reason = redact_text(one_line(exc))  # as the command line says an error, masked
        later = ""
        if written is None:
            try:
                written = keep_pending(archive, estate)
            except OSError as kept:
                raise click.ClickException(
                    f"{reason}; nor could the snapshot be kept aside ({kept})"
                ) from None
            later = ", or the watch's next round adds it"
        raise click.ClickException(
            f"{reason}; the snapshot is kept in {written}: `iptoolkit archive add {written} "
            f"--archive {archive.path}` adds it{later}"
        ) from None


def _check_archive(path: Path) -> None:
    """--archive names a DuckDB file or none yet, checked before fetching: without -o the
    fetch would be lost when the archive refuses it."""
    from ..archive.opening import check_archive_file

    try:
        check_archive_file(path)
    except OSError as exc:
        raise click.BadParameter(str(exc), param_hint="--archive") from None


def _given(ctx: click.Context, name: str) -> bool:
    """True when the option was given on the command line (not its default)."""
    return ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT


def _name_template(value: str) -> str:
    """The output name checked before fetching: a wrong {field} costs no fetch."""
    from ..core.snapshot import check_name_template

    try:
        return check_name_template(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
