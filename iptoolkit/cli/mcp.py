"""The `iptoolkit mcp` command: serve snapshots (or the live platform) to AI assistants.

Over stdio by default, which is how desktop assistants start a server; with `--http PORT`
over the SDK's streamable HTTP transport on 127.0.0.1 (at `/mcp`), for the holder of the
token in the address it prints (`mcp/http.py`). In stdio mode standard output belongs to
the protocol: everything else goes to standard error.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..support import env
from ..support.names import plural
from .host import short_help
from .options import max_size_option
from .progress import command_progress, end_progress, progress_option

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["mcp_command"]


@click.command("mcp", short_help=short_help("mcp"))
@click.argument(
    "snapshots",
    nargs=-1,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@click.option(
    "--from-env",
    is_flag=True,
    help="Fetch the estate from the platform with the IPTOOLKIT_* variables (and offer a "
    "refresh tool); it is the current snapshot.",
)
@click.option(
    "--archive",
    "archive_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Serve an archive (iptoolkit archive): any stored snapshot by id or date, and a "
    "history tool (an item's log, the timeline). Needs the `archive` extra.",
)
@click.option(
    "--http",
    "port",
    type=click.IntRange(0, 65535),
    help="Serve streamable HTTP on 127.0.0.1:PORT (path /mcp; 0: a free port) instead of "
    "stdio, to callers with the token in the address it prints (or an Authorization: Bearer "
    f"header; {env.MCP_TOKEN} sets it).",
)
@max_size_option
@progress_option
def mcp_command(
    snapshots: tuple[Path, ...], from_env: bool, archive_path: Path | None, port: int | None
) -> None:
    """Serve snapshots to AI assistants over the Model Context Protocol (read-only).

    The newest snapshot (by its fetch time) is current; tools take a `snapshot` argument
    for the others. Needs the `mcp` extra: pip install -e '.[mcp]'.
    """
    from ..mcp import Store, build_server

    if not snapshots and not from_env and archive_path is None:
        raise click.UsageError("name at least one snapshot file, or use --from-env or --archive")
    archive = None
    if archive_path is not None:
        from ..archive import Archive

        archive = Archive(archive_path)
    fetch = _fetch_live if from_env else None
    from ..comparing.config import load_rules

    rules = load_rules()  # the project's [compare], as `iptoolkit compare` finds it
    command_progress()  # each snapshot's load reports to the command's bars
    store = Store.from_paths(list(snapshots), fetch=fetch, archive=archive, rules=rules)
    end_progress(last=True)  # served until stopped: no bar stays open
    current = store.current
    click.echo(
        f"iptoolkit mcp: {len(store.loaded)} snapshot(s), current {current.name} "
        f"({plural(len(current.estate), 'profile')})",
        err=True,
    )
    server = build_server(store)
    if port is None:
        server.run()
    else:
        from ..mcp.http import serve_http, token_from_env

        def announce(address: str) -> None:
            click.echo(f"iptoolkit mcp: {address}", err=True)

        serve_http(server, port, token_from_env(), announce)


def _fetch_live() -> Estate:
    """The estate as the platform has it now (a progress bar never: stdout is the protocol)."""
    from ..client import Client

    with Client.from_env() as client:
        return client.fetch_estate(progress=False)
