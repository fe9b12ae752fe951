"""Files written whole beside their place, then renamed into it.

A reader (a notebook reloading a snapshot, a spreadsheet open on a report) sees the old
file or the new one, never half of one, and an error while writing leaves the old file as
it was. A file written anew gets the permissions an ordinary `open()` would give it (0666
less the umask), not `mkstemp`'s 0600; one rewritten keeps its own; a symbolic link is
written through, as `open()` would. The part being written ends in `.tmp` (a folder's
`*.json` never lists a snapshot half written).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["replaced_when_written"]


@contextmanager
def replaced_when_written(
    path: Path, suffix: str = ".tmp", *, prefix: str | None = None, durable: bool = False
) -> Iterator[Path]:
    """A temporary path beside `path` to write to; renamed to `path` when the block ends
    without an error, removed when it raises. It is named `prefix` (`.NAME.` unless given:
    a writer that cleans up after killed ones names its own), a random part and `suffix` (a
    writer that goes by the name, as pandas' for `.xlsx`, says which); `durable`: on disk
    before the rename (`fsync`), for a file a crash must not leave empty."""
    target = path.resolve() if path.is_symlink() else path
    if not target.parent.is_dir():
        raise FileNotFoundError(f"{path}: the folder {target.parent} does not exist")
    mode = _mode_of(target)
    try:
        fd, part = tempfile.mkstemp(
            dir=target.parent, prefix=prefix or f".{target.name}.", suffix=suffix
        )
    except OSError as exc:
        raise _of_path(exc, path) from None
    os.close(fd)
    try:
        yield Path(part)
        os.chmod(part, mode)
        if durable:
            _sync(part)
        os.replace(part, target)
    except OSError as exc:
        if exc.filename != part:
            raise
        raise _of_path(exc, path) from exc
    finally:
        Path(part).unlink(missing_ok=True)


def _of_path(exc: OSError, path: Path) -> OSError:
    """`exc` naming `path`, the file the caller asked for, not the part written beside it
    (`/proc/.x.csv.jd1bg3w7.tmp: No such file...` named a file nobody knew of)."""
    if exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, str(path))


def _sync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _mode_of(path: Path) -> int:
    """The permissions `path` has, or an ordinary new file's."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read where Linux shows it; elsewhere set and set back (a moment
    in which another thread's new file would get no umask)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0)
    os.umask(mask)
    return mask
