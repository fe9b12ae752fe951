"""The `iptoolkit` command: fetch, summarise, audit, draw and export an estate.

Every command that reads a snapshot takes the same filter options (see `cli_options`), so
`iptoolkit export snap.json -o acme.graphml --partner Acme` writes exactly the profiles a
notebook would get from `estate.subset(ipt.Filter(partners=["Acme"]))`.

Errors end the command with one line on stderr and exit code 1 (2 for a wrong option);
`iptoolkit --debug ...` shows the traceback instead. A docs pipeline can trust the result:
a filter that selects nothing is an error naming the value that matched nothing (unless
`--allow-empty`), `-o` into a missing folder is one (unless `-p`), and items are named one
way everywhere (`resolve.py`: node id, bare id, or a partner's or channel's name).

This module is the host: the command table (`COMMANDS`), the one error policy and the exit
codes. Each command lives in a module of this package, one per family, loaded on first use,
so that `iptoolkit --help` stays quick and an extra's command works only with it. A command's
short help is written once, in the table, and the command reads it from there
(`short_help(name)`).
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any

import click

from .._version import __version__
from ..support import env

__all__ = [
    "COMMANDS",
    "Command",
    "EXIT_FINDINGS",
    "EXIT_TROUBLE",
    "expected",
    "main",
    "one_line",
    "short_help",
]

EXIT_FINDINGS = 1
"""Exit code when a command ran and found what it was asked to fail on (a change, a finding)
or failed with an expected error."""
EXIT_TROUBLE = 2
"""Exit code when the input could not be used at all: a wrong option, or (diff, audit)
snapshots that could not be read or compared."""


@dataclass(frozen=True)
class Command:
    """Where a command lives and the one line `iptoolkit --help` shows for it."""

    module: str
    attribute: str
    short_help: str


COMMANDS: dict[str, Command] = {
    "fetch": Command("iptoolkit.cli.fetch", "fetch", "Fetch all profiles and save a snapshot."),
    "summary": Command(
        "iptoolkit.cli.summary",
        "summary",
        "Count profiles, channels, partners, types and findings.",
    ),
    "audit": Command(
        "iptoolkit.cli.audit",
        "audit_command",
        "Judge the estate: security and operational risk rules.",
    ),
    "findings": Command(
        "iptoolkit.cli.audit",
        "findings_command",
        "The audit's findings (an alias of audit that never fails).",
    ),
    "plot": Command("iptoolkit.cli.draw", "plot", "Draw the topology diagram into an image file."),
    "export": Command(
        "iptoolkit.cli.draw",
        "export_command",
        "Write a snapshot, table, graph or diagram file.",
    ),
    "demo": Command(
        "iptoolkit.cli.demo", "demo", "Run it all against the embedded reference server."
    ),
    "diff": Command("iptoolkit.cli.diff", "diff_command", "What changed between two snapshots."),
    "impact": Command(
        "iptoolkit.cli.impact",
        "impact_command",
        "What stops if items (one or several together) go away.",
    ),
    "drift": Command(
        "iptoolkit.cli.drift",
        "drift_command",
        "What a snapshot holds that the spec does not describe.",
    ),
    "serve": Command(
        "iptoolkit.cli.serve", "serve_command", "Run the reference server of the platform's API."
    ),
    "hash-secret": Command(
        "iptoolkit.cli.serve", "hash_secret_command", "Hash a secret for a principals file."
    ),
    "mcp": Command(
        "iptoolkit.cli.mcp",
        "mcp_command",
        "Serve snapshots to AI assistants (Model Context Protocol).",
    ),
    "explore": Command(
        "iptoolkit.cli.explore",
        "explore_command",
        "Open the Explorer as a web app (Voila), no code shown.",
    ),
    "archive": Command(
        "iptoolkit.cli.archive",
        "archive_group",
        "Keep every snapshot in one DuckDB file; ask it.",
    ),
    "watch": Command(
        "iptoolkit.cli.archive",
        "watch_command",
        "Fetch into an archive, diff, alert on breaking changes.",
    ),
    "docs": Command(
        "iptoolkit.cli.docs",
        "docs_command",
        "Write a documentation site (MkDocs, GitHub) of a snapshot.",
    ),
}
"""Every command: name -> where it lives and its short help. A module loads when its command
is first named (or listed with its help), so an extra's module loads only when used."""


def short_help(name: str) -> str:
    """The short help of command `name`, as the table writes it (the one place it is written)."""
    return COMMANDS[name].short_help


class _Main(click.Group):
    """The top-level group: loads commands on first use, turns errors into one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            where = COMMANDS[name]
            command = getattr(importlib.import_module(where.module), where.attribute)
            self.add_command(command, name)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(name) for name in names), default=0)
        for name in names:
            if name in COMMANDS and name not in self.commands:
                rows.append((name, COMMANDS[name].short_help))
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
            sys.exit(EXIT_FINDINGS)
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
            if ctx.meta.get("iptoolkit.debug") or not expected(exc):
                raise
            raise click.ClickException(one_line(exc)) from None


def expected(exc: BaseException) -> bool:
    """Errors a user causes or meets (bad file, network, API refusal): no traceback."""
    import networkx as nx

    from ..models import ParseError

    if isinstance(exc, OSError | ValueError | ImportError | ParseError | nx.NodeNotFound):
        return True
    if "iptoolkit.client" in sys.modules:
        from ..client import ApiError

        return isinstance(exc, ApiError)
    return False


def one_line(exc: BaseException) -> str:
    """An error as one line: an OS error as `file: reason`, any other its message on one line."""
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
