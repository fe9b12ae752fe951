"""The `iptoolkit` command: fetch, summarise, audit, draw and export an estate.

Every command that reads a snapshot takes the same filter options (`options.filter_options`), so
`iptoolkit export snap.json -o acme.graphml --partner Acme` writes exactly the profiles a
notebook would get from `estate.subset(ipt.Filter(partners=["Acme"]))`.

Errors end the command with one line on stderr and exit code 1 (2 for a wrong option);
`iptoolkit --debug ...` shows the traceback instead (see "The error policy" below). A docs
pipeline can trust the result:
a filter that selects nothing is an error naming the value that matched nothing (unless
`--allow-empty`), `-o` into a missing folder is one (unless `-p`), so is an output onto a
file the command reads (`outputs.py`), and items are named one way everywhere
(`query/resolve.py`: node id, bare id, or a partner's or channel's name).

This module is the host: the command table (`COMMANDS`), the one error policy and the exit
codes. Each command lives in a module of this package, one per family, loaded on first use,
so that `iptoolkit --help` stays quick and an extra's command works only with it. A command's
short help is written once, in the table, and the command reads it from there
(`short_help(name)`).

The error policy, the one every command follows:

- an error a user causes or meets (`expected`: a bad file, a network failure, the API's
  refusal, a rule that failed) is one line on stderr, `Error: <one_line(exc)>`, and
  `EXIT_ERROR`; any other error is a bug and shows its traceback, and `--debug` shows it for
  every error;
- a wrong option or argument is one line with a pointer to `--help`, and `EXIT_TROUBLE`;
- a command that must tell "could not run" from "found something" (`audit`, `diff`: 2, as
  `ruff check` and diff(1)) runs its work in `one_line_errors(EXIT_TROUBLE)`, which is this
  same policy with its own exit code (and, if it likes, a prefix saying what it was doing);
  it writes no `try`/`except` of its own; the `archive` group does so for all its commands
  (2, the code of `watch`, which shares their archive);
- Ctrl-C is `Aborted!` and `EXIT_INTERRUPTED`; a reader that goes away (`| head`) ends the
  command quietly with `EXIT_BROKEN_PIPE`, as cat does.

The process (`run`: the console script, `python -m iptoolkit.cli`) is `main` and its exit.
A command that built something large hands it to `keep_until_exit`, and the process then
ends without freeing it, once its output is flushed (see `run`).
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

import click

from .._version import __version__
from ..support import env
from ..support.error_line import one_line

__all__ = [
    "COMMANDS",
    "Command",
    "CommandError",
    "EXIT_BROKEN_PIPE",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_INTERRUPTED",
    "EXIT_TROUBLE",
    "expected",
    "keep_until_exit",
    "main",
    "one_line",
    "one_line_errors",
    "run",
    "short_help",
]

EXIT_FINDINGS = 1
"""Exit code when a command ran and found what it was asked to fail on (a change, a
finding)."""
EXIT_ERROR = 1
"""Exit code of an expected error (one line on stderr), unless the command says otherwise
(`one_line_errors`); also of an abort that is no Ctrl-C (end of input at a prompt)."""
EXIT_TROUBLE = 2
"""Exit code when the input could not be used at all: a wrong option, or (diff, audit)
snapshots that could not be read or compared."""
EXIT_INTERRUPTED = 130
"""Exit code when Ctrl-C stopped the command: 128 + SIGINT, as shells and Python itself
report it, so that an interrupted `audit` or `diff --exit-code` does not read as "found
something" (1)."""
EXIT_BROKEN_PIPE = 141
"""Exit code when the reader of the output went away (`| head`): 128 + SIGPIPE, as cat's."""


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
    "compare": Command(
        "iptoolkit.cli.compare",
        "compare_command",
        "Compare two installations (test, prod) by natural keys, not ids.",
    ),
    "impact": Command(
        "iptoolkit.cli.impact",
        "impact_command",
        "What stops if items (one or several together) go away.",
    ),
    "paths": Command(
        "iptoolkit.cli.paths",
        "paths_command",
        "How does A reach B: every path between two items.",
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
        except click.Abort as exc:
            click.echo("Aborted!", err=True)
            interrupted = isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt)
            sys.exit(EXIT_INTERRUPTED if interrupted else EXIT_ERROR)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise  # a command's own message, or one made by `one_line_errors`, is final
        except Exception as exc:  # noqa: BLE001 - sorted by the policy: known ones, one line
            ended = _ended(exc, EXIT_ERROR, "")
            if ended is None:
                raise
            raise ended from None


class CommandError(click.ClickException):
    """An error a command states itself, shown as one line, ending the command with
    `exit_code` (`EXIT_ERROR` unless given)."""

    def __init__(self, message: str, exit_code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # a ClassVar in click; main reads ours


@contextmanager
def one_line_errors(exit_code: int = EXIT_ERROR, prefix: str = "") -> Iterator[None]:
    """The error policy, for a command that ends its errors with an exit code of its own
    (`audit` and `diff`: `EXIT_TROUBLE`) or says what it was doing (`prefix`): within the
    block, an expected error is one line (`prefix` + `one_line`) and `exit_code`, and so is a
    message of the command's own (a `click.ClickException`); a usage error, an unexpected
    error, every error with `--debug`, Ctrl-C and a reader going away are as everywhere."""
    try:
        yield
    except (click.UsageError, click.exceptions.Exit, click.Abort):
        raise
    except click.ClickException as exc:
        raise CommandError(exc.format_message(), exit_code) from None
    except Exception as exc:  # noqa: BLE001 - sorted by the policy: known ones, one line
        ended = _ended(exc, exit_code, prefix)
        if ended is None:
            raise
        raise ended from None


def _ended(
    exc: Exception, exit_code: int, prefix: str
) -> click.ClickException | click.exceptions.Exit | None:
    """How the policy ends the command for `exc`: None to let it go with its traceback (a
    bug, or `--debug`), else what to raise instead."""
    if isinstance(exc, BrokenPipeError):
        # the reader went away (`iptoolkit findings ... | head`): stop quietly, as cat does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return click.exceptions.Exit(EXIT_BROKEN_PIPE)
    context = click.get_current_context(silent=True)
    if (context is not None and context.meta.get("iptoolkit.debug")) or not expected(exc):
        return None
    return CommandError(prefix + one_line(exc), exit_code)


def expected(exc: BaseException) -> bool:
    """Errors a user causes or meets (bad file, network, API refusal, a team's rule that
    failed, an archive without the snapshot asked for): one line, no traceback."""
    import networkx as nx

    from ..models import ParseError

    if isinstance(exc, OSError | ValueError | ImportError | ParseError | nx.NodeNotFound):
        return True
    if "iptoolkit.auditing" in sys.modules:
        from ..auditing import RuleError

        if isinstance(exc, RuleError):
            return True
    if "iptoolkit.archive" in sys.modules:
        from ..archive import NoSnapshotError

        if isinstance(exc, NoSnapshotError):
            return True
    if "iptoolkit.client" in sys.modules:
        from ..client import ApiError

        return isinstance(exc, ApiError)
    return False


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


_kept: list[Any] | None = None
"""What commands handed to `keep_until_exit`; None unless `main` runs as the process."""


def keep_until_exit(*built: Any) -> None:
    """Keep what a command built (estates, their comparison) until the process ends, and
    let it end without freeing them: freeing the millions of objects of two 100k-profile
    estates one by one costs a second of CPU that no one waits for (issue 45). Only when
    `main` runs as the process (`run`); called by a test (`CliRunner`), nothing is kept."""
    if _kept is not None:
        _kept.extend(built)


def run() -> NoReturn:
    """The `iptoolkit` process: `main`, then its exit.

    When a command kept what it built (`keep_until_exit`), the exit skips the teardown:
    the exit handlers run (`atexit`: logging, coverage), stdout and stderr are flushed,
    and the process ends with `os._exit` and the exit code `main` gave, unfreed. Any doubt
    takes Python's own exit: another thread (not a daemon) still running, a flush that
    fails (a reader gone), an exit code that is not a number, an error escaping `main`.
    Files a command wrote are closed by then (each is written in a `with`)."""
    global _kept
    _kept = []
    try:
        code: Any = main(prog_name="iptoolkit")  # click hands back an `Exit`'s code (141)
    except SystemExit as exc:
        code = exc.code
    code = 0 if code is None else code
    if _kept and isinstance(code, int) and not _working():
        atexit._run_exitfuncs()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - any doubt: Python's own exit, which reports it
            sys.exit(code)
        os._exit(code)
    _kept = None  # freed now, one by one: in Python's teardown they cost ten times more
    sys.exit(code)


def _working() -> bool:
    """Whether a thread the exit would wait for still runs: a daemon (tqdm's monitor, a
    progress bar's clock) is stopped by Python's own exit too, so it is no doubt."""
    main_thread = threading.main_thread()
    return any(not t.daemon and t is not main_thread for t in threading.enumerate())
