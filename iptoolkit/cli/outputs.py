"""Where a command writes, checked before any work: no output onto one of its inputs, and
each output's folder there (or made with `-p`).

A slip in a docs pipeline must cost neither a file nor a tidy tree: `export snap.json -o
snap.json --group X` replaced the snapshot with a part of it, and `-o new/x.csv -p` made
`new/` even when the snapshot could not be read. Every command that writes a file states
its outputs and inputs to `check_outputs`, the one check of them all.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

__all__ = [
    "check_outputs",
    "check_snapshot_suffix",
    "config_input",
    "output_folder_option",
    "folder_option",
    "remember_input",
]

F = TypeVar("F", bound=Callable[..., Any])

_INPUTS_KEY = "iptoolkit.inputs"


def folder_option(what: str) -> Callable[[F], F]:
    """`-p/--mkdirs`: create the folder of the file named `what` (the output, the archive)
    when it does not exist."""
    return click.option(
        "-p",
        "--mkdirs",
        is_flag=True,
        help=f"Create the {what}'s folder if it does not exist (otherwise an error).",
    )


output_folder_option = folder_option("output")
"""`-p/--mkdirs` of a command writing an output file."""


def remember_input(name: str, path: Path | None) -> None:
    """Note a file a shared option reads (`--filter-file`), which the command itself never
    sees, so that `check_outputs` keeps the command's outputs off it too."""
    context = click.get_current_context(silent=True)
    if context is not None and path is not None:
        context.meta.setdefault(_INPUTS_KEY, {})[name] = path


def config_input(given: Path | None, table: str) -> dict[str, Path | None]:
    """The configuration a command reads, as an input for `check_outputs`: `--config` as
    given, else the file found upward from here (`find_config`), named as found."""
    if given is not None:
        return {"--config": given}
    from ..auditing.config import find_config

    return {"the configuration found": find_config(table=table)}


def check_outputs(
    mkdirs: bool,
    outputs: Mapping[str, Path | None],
    inputs: Mapping[str, Path | None] | None = None,
) -> None:
    """Before any work, a usage error (exit 2) naming the option and the file when an
    output (option -> path, None when not given) is one of the command's inputs (name ->
    path, and what `remember_input` noted) or another output: one file under two names (a
    link, `d/../a.json`) is one file. Then each output's folder must exist, or is made
    with `mkdirs` (and removed again if the command ends leaving it empty)."""
    given = {option: path for option, path in outputs.items() if path is not None}
    context = click.get_current_context(silent=True)
    read = {**(context.meta.get(_INPUTS_KEY, {}) if context else {}), **(inputs or {})}
    for option, path in given.items():
        for name, source in read.items():
            if source is not None and _same_file(path, source):
                raise click.BadParameter(
                    f"{path} is also {name}, which the command reads: writing it would destroy it",
                    param_hint=option,
                )
    named = list(given.items())
    for at, (option, path) in enumerate(named):
        for other, earlier in named[:at]:
            if _same_file(path, earlier):
                raise click.BadParameter(
                    f"{path} is also the file of {other}: one would overwrite the other",
                    param_hint=option,
                )
    for option, path in given.items():
        _check_folder(path, mkdirs, option)


def check_snapshot_suffix(path: Path, option: str = "--output") -> None:
    """`option` names a snapshot file (.json or .json.gz), checked before any work
    (`fetch -o`, `archive export -o`): another suffix would fail after a fetch, or hold
    JSON under a name that says otherwise (`x.csv`)."""
    name = path.name.lower()
    if not (name.endswith(".json") or name.endswith(".json.gz")):
        raise click.BadParameter(
            f"{str(path)!r}: a snapshot is written as .json or .json.gz "
            "(other formats: iptoolkit export)",
            param_hint=option,
        )


def _same_file(written: Path, other: Path) -> bool:
    """Whether writing `written` would replace `other`: one file under two names (hard and
    symbolic links too), or, not there yet, the same path once resolved. A device
    (`/dev/null`, `/dev/stdout`) holds nothing to lose."""
    try:
        found = os.stat(written)
    except OSError:  # not there yet: the same file only by its name
        return os.path.realpath(written) == os.path.realpath(other)
    try:
        return stat.S_ISREG(found.st_mode) and os.path.samestat(found, os.stat(other))
    except OSError:  # `other` is not there: not the file that is
        return False


def _check_folder(path: Path, mkdirs: bool, option: str) -> None:
    """A folder that does not exist is an error unless `mkdirs`: a typo in a docs
    pipeline's path must not scatter files into new folders."""
    folder = path.parent
    if folder.is_dir():
        return
    if folder.exists():
        raise click.BadParameter(f"{str(folder)!r} is not a folder", param_hint=option)
    if not mkdirs:
        raise click.BadParameter(
            f"folder {str(folder)!r} does not exist (-p/--mkdirs creates it)", param_hint=option
        )
    _make_folder(folder)


def _make_folder(folder: Path) -> None:
    """Make `folder` and its missing parents, and remove those still empty when the command
    ends: a command that failed before writing (a snapshot it could not read) leaves no
    folder behind, nor does a dated one the clock turned over from (`fetch -o {date}/`)."""
    made = list(itertools.takewhile(lambda part: not part.exists(), [folder, *folder.parents]))
    folder.mkdir(parents=True, exist_ok=True)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(lambda: _remove_empty(made))


def _remove_empty(folders: list[Path]) -> None:
    """Remove each folder (deepest first) that is empty; one that holds a file stays."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()
