"""`--progress auto|always|never`: the one progress option of every long command.

The option keeps its mode on the click context; `command_progress()` makes the command's
`Progress` from it once (`support/progress.py` decides whether bars show: auto, where
stderr is a terminal and `CI` is not set) and ends it when the command ends, so a loading
helper (`options.load_estate`) and the command itself report to the same bars.
`fetch`'s flags from before there were three modes keep working there: `--progress` alone
is `always` (`fetch_progress_option`; elsewhere the option takes its value, so that
`summary --progress never snap.json` and a snapshot after the option both read right), and
`--no-progress` is a hidden alias of `--progress never` on every command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..support import env
from ..support.progress import (
    MODES,
    BarProgress,
    NoProgress,
    Progress,
    progress_for,
    report_to,
)

__all__ = ["progress_option", "fetch_progress_option", "command_progress", "end_progress"]

F = TypeVar("F", bound=Callable[..., Any])

_MODE_KEY = "iptoolkit.progress_mode"
_MADE_KEY = "iptoolkit.progress"


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if param.name == "no_progress":
        if value:
            ctx.meta[_MODE_KEY] = "never"
    elif value is not None:
        ctx.meta[_MODE_KEY] = value


def progress_option(func: F) -> F:
    """Add `--progress MODE` (and the hidden `--no-progress`) to a command."""
    return _progress_option(func, bare=False)


def fetch_progress_option(func: F) -> F:
    """`progress_option` for `fetch`, whose `--progress` was a flag: alone, it is `always`
    (fetch takes no argument that could be read as the option's value)."""
    return _progress_option(func, bare=True)


def _progress_option(func: F, *, bare: bool) -> F:
    func = click.option(
        "--no-progress",
        "no_progress",
        is_flag=True,
        hidden=True,
        expose_value=False,
        callback=_remember,
        help="Same as --progress never.",
    )(func)
    alone: dict[str, Any] = {"is_flag": False, "flag_value": "always"} if bare else {}
    return click.option(
        "--progress",
        "progress_mode",
        type=click.Choice(MODES),
        default=None,
        expose_value=False,
        callback=_remember,
        help="Progress bars on stderr: auto shows one when stderr is a terminal, CI is not set "
        f"and the work has run 2 s ({env.PROGRESS_DELAY}).  [default: auto]",
        **alone,
    )(func)


def command_progress() -> Progress:
    """The running command's progress (auto without the option), made once, ended with
    the command; outside a command, none."""
    context = click.get_current_context(silent=True)
    if context is None:
        return progress_for("never")
    made: BarProgress | NoProgress | None = context.meta.get(_MADE_KEY)
    if made is None:
        made = progress_for(context.meta.get(_MODE_KEY, "auto"))
        context.meta[_MADE_KEY] = made
        report_to(made)  # a fetch or load it calls reports here, `never` included
        context.call_on_close(made.close)
        context.call_on_close(lambda: report_to(None))
    return made


def end_progress(*, last: bool = False) -> None:
    """End the bar of the step running, before the command writes what it found: a bar
    left open would be drawn again over those lines. A later step opens a new one.
    `last`: the command reports no more steps (a server, serving until stopped); what it
    calls later is auto again, bars of its own that end with their work."""
    context = click.get_current_context(silent=True)
    made = context.meta.get(_MADE_KEY) if context is not None else None
    if made is not None:
        made.close()
    if last:
        report_to(None)
