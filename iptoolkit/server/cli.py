"""Click commands of the reference server: `serve` and `hash-secret`.

The `iptoolkit` command attaches them with `add_commands(group)`; `python -m
iptoolkit.server` runs `serve` on its own. `hash-secret` reads the secret from a hidden
prompt or from standard input, never from the command line (which `ps` and shell history
would show).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .principals import DEFAULT_ITERATIONS
from .runner import DEFAULT_PORT
from .tokens import DEFAULT_TOKEN_TTL

__all__ = ["serve_command", "hash_secret_command", "add_commands"]


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=DEFAULT_PORT,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--snapshot",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Estate to serve: a snapshot file, or a JSON array of profiles (.json or .json.gz). "
    "Default: a demo estate.",
)
@click.option(
    "--principals",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Principals file (roles, clients, users, guests). Default: demo principals with "
    "fresh secrets, printed once at start.",
)
@click.option(
    "--token-ttl",
    default=DEFAULT_TOKEN_TTL,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Bearer token lifetime, in seconds.",
)
def serve_command(
    host: str, port: int, snapshot: Path | None, principals: Path | None, token_ttl: float
) -> None:
    """Run the reference server of the integration platform API in the foreground."""
    from pydantic import ValidationError

    from ..models import ParseError
    from .principals import Principals
    from .runner import serve

    try:
        loaded = Principals.load(principals) if principals is not None else None
    except (OSError, ValueError, ValidationError) as exc:
        raise click.ClickException(f"cannot read the principals file {principals}: {exc}") from None
    try:
        estate = _load_snapshot(snapshot) if snapshot is not None else None
    except (OSError, ParseError) as exc:
        raise click.ClickException(f"cannot read the snapshot {snapshot}: {exc}") from None
    try:
        serve(estate, loaded, host=host, port=port, token_ttl=token_ttl)
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}"
        ) from None


def _load_snapshot(path: Path) -> object:
    from ..estate import load

    return load(path)


@click.command("hash-secret")
@click.option(
    "--iterations",
    default=DEFAULT_ITERATIONS,
    show_default=True,
    type=click.IntRange(min=1),
    help="PBKDF2 iterations.",
)
def hash_secret_command(iterations: int) -> None:
    """Hash a secret for a principals file (client_secret, password or login_token).

    The secret is read from a hidden prompt, or from standard input when it is not a
    terminal (one line; the line break is dropped).
    """
    from .principals import hash_secret

    if sys.stdin.isatty():
        secret = click.prompt("Secret", hide_input=True, confirmation_prompt=True, err=True)
    else:
        secret = sys.stdin.readline().rstrip("\r\n")
    if not secret:
        raise click.ClickException("the secret is empty")
    click.echo(hash_secret(secret, iterations=iterations))


def add_commands(group: click.Group) -> None:
    """Attach `serve` and `hash-secret` to a click group (the `iptoolkit` command)."""
    group.add_command(serve_command)
    group.add_command(hash_secret_command)
