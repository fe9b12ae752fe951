"""Click commands of the reference server: `serve` and `hash-secret`.

The `iptoolkit` command loads them on first use; `python -m iptoolkit.server` runs `serve`
on its own. `hash-secret` reads the secret from a hidden
prompt or from standard input, never from the command line (which `ps` and shell history
would show).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..server.hashing import DEFAULT_ITERATIONS, MAX_ITERATIONS
from ..server.runner import DEFAULT_PORT
from ..server.settings import ServerLimits
from ..server.tokens import DEFAULT_TOKEN_TTL
from .host import one_line_errors, short_help
from .options import Seconds, max_size_option
from .progress import command_progress, end_progress, progress_option

_DEFAULTS = ServerLimits()
F = TypeVar("F", bound=Callable[..., Any])


def _limit_option(
    flag: str, field: str, kind: click.ParamType[Any] | None = None, *, help: str
) -> Callable[[F], F]:
    """An option for one of `ServerLimits`' fields, its default shown from the dataclass."""
    return click.option(
        flag, default=getattr(_DEFAULTS, field), show_default=True, type=kind, help=help
    )


__all__ = ["serve_command", "hash_secret_command"]


@click.command("serve", short_help=short_help("serve"))
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
    type=Seconds(),
    help="Bearer token lifetime, in seconds.",
)
@click.option(
    "--secure-cookies/--no-secure-cookies",
    default=None,
    help="Mark the session cookie Secure. Default: on a non-loopback --host, and on requests "
    "that came over HTTPS (X-Forwarded-Proto from a trusted proxy).",
)
@_limit_option(
    "--login-limit",
    "login_limit_principal",
    help="Failed logins and token requests per client id or user name, e.g. '10 per 5 "
    "minutes'; then 429 with Retry-After. 'off': no limit.",
)
@_limit_option(
    "--address-login-limit",
    "login_limit_address",
    help="Failed logins and token requests per client address ('off': no limit).",
)
@_limit_option(
    "--max-tokens-per-principal",
    "max_tokens_per_principal",
    click.IntRange(min=1),
    help="Live bearer tokens (and sessions) per principal; a new one replaces its oldest.",
)
@_limit_option(
    "--header-timeout",
    "header_timeout",
    Seconds(),
    help="Seconds a client has to send a request's line and headers.",
)
@_limit_option(
    "--send-timeout",
    "send_timeout",
    Seconds(),
    help="Seconds a client may read nothing of a response before it is disconnected.",
)
@_limit_option(
    "--body-timeout",
    "body_timeout",
    Seconds(),
    help="Seconds a client has, after the headers, to send the body (then 408).",
)
@_limit_option(
    "--max-connections",
    "max_connections",
    click.IntRange(min=1),
    help="Open connections at most; beyond it the oldest stalled or idle one is closed "
    "(lowered, and logged, if the open-file limit cannot hold it).",
)
@_limit_option(
    "--max-header-bytes",
    "max_header_bytes",
    click.IntRange(min=1),
    help="Bytes of request line and headers at most (more: 400).",
)
@max_size_option
@progress_option
def serve_command(
    host: str,
    port: int,
    snapshot: Path | None,
    principals: Path | None,
    token_ttl: float,
    secure_cookies: bool | None,
    login_limit: str,
    address_login_limit: str,
    max_tokens_per_principal: int,
    header_timeout: float,
    send_timeout: float,
    body_timeout: float,
    max_connections: int,
    max_header_bytes: int,
) -> None:
    """Run the reference server of the integration platform API in the foreground.

    Failed logins are limited per name and per address, half-sent requests time out, and
    open connections are capped: see the options, and docs/server.md.
    """
    from ..server.principals import Principals
    from ..server.runner import serve

    try:
        limits = ServerLimits(
            login_limit_principal=login_limit,
            login_limit_address=address_login_limit,
            max_tokens_per_principal=max_tokens_per_principal,
            header_timeout=header_timeout,
            send_timeout=send_timeout,
            body_timeout=body_timeout,
            max_connections=max_connections,
            max_header_bytes=max_header_bytes,
        )
    except ValueError as exc:
        raise click.BadParameter(
            str(exc), param_hint="'--login-limit' or '--address-login-limit'"
        ) from None
    with one_line_errors(prefix=f"cannot read the principals file {principals}: "):
        loaded = Principals.load(principals) if principals is not None else None
    with one_line_errors(prefix="cannot read the snapshot: "):  # the error names the file
        estate = _load_snapshot(snapshot) if snapshot is not None else None
    end_progress(last=True)  # served until stopped: no bar stays open
    with one_line_errors(prefix=f"cannot listen on {host}:{port}: "):
        serve(
            estate,
            loaded,
            host=host,
            port=port,
            token_ttl=token_ttl,
            secure_cookies=secure_cookies,
            limits=limits,
        )


def _load_snapshot(path: Path) -> object:
    from ..core.estate import load

    return load(path, progress=command_progress())


@click.command("hash-secret", short_help=short_help("hash-secret"))
@click.option(
    "--iterations",
    default=DEFAULT_ITERATIONS,
    show_default=True,
    type=click.IntRange(min=1, max=MAX_ITERATIONS),
    help="PBKDF2 iterations.",
)
@click.option(
    "--login-token",
    is_flag=True,
    help="The secret is a guest's login_token: add the lookup tag the server indexes it by.",
)
def hash_secret_command(iterations: int, login_token: bool) -> None:
    """Hash a secret for a principals file (client_secret, password or login_token).

    The secret is read from a hidden prompt, or from standard input when it is not a
    terminal (one line; the line break is dropped). Hash a login_token with --login-token.
    """
    from ..server.hashing import hash_secret

    if sys.stdin.isatty():
        secret = click.prompt("Secret", hide_input=True, confirmation_prompt=True, err=True)
    else:
        secret = sys.stdin.readline().rstrip("\r\n")
    if not secret:
        raise click.ClickException("the secret is empty")
    click.echo(hash_secret(secret, iterations=iterations, lookup=login_token))
