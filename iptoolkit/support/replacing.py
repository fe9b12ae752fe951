"""Files written whole beside their place, then renamed into it.

A reader (a notebook reloading a snapshot, a spreadsheet open on a report) sees the old
file or the new one, never half of one, and an error while writing leaves the old file as
it was. The file gets the permissions an ordinary `open()` would give it (0666 less the
umask), not `mkstemp`'s 0600.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["replaced_when_written"]


@contextmanager
def replaced_when_written(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; renamed to `path` when the block ends
    without an error, removed when it raises."""
    fd, part = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        yield Path(part)
        os.chmod(part, 0o666 & ~_umask())
        os.replace(part, path)
    finally:
        Path(part).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it: set, then set back at once
    os.umask(mask)
    return mask
