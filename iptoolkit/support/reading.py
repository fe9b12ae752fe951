"""Reading a file into memory, never more than a limit: /dev/zero and gzip bombs stop early.

The limit is on the bytes of JSON a file holds (decompressed, for `.json.gz`). The default,
1 GiB, is about ten times the largest estate iptoolkit is built for (100,000 demo
profiles are about 350 MB), and loading takes four to six times the JSON in memory, so a
file past it would not fit a laptop anyway. Raise it with `max_size=` (`ipt.load`,
`read_snapshot`), `--max-size` on the command line, or `IPTOOLKIT_MAX_LOAD_SIZE`.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import stat
from decimal import Decimal
from pathlib import Path
from typing import BinaryIO, Protocol

from . import env

__all__ = [
    "DEFAULT_MAX_SIZE",
    "TooLargeError",
    "load_limit",
    "choose_limit",
    "parse_size",
    "format_size",
    "read_bounded",
]

DEFAULT_MAX_SIZE = 1 << 30
"""1 GiB of JSON: see the module's docstring for why."""

_CHUNK = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"
_UNITS = {
    "": 1,
    "B": 1,
    "KB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
    "KIB": 1 << 10,
    "MIB": 1 << 20,
    "GIB": 1 << 30,
    "TIB": 1 << 40,
}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*")


class _Stream(Protocol):
    """What reading needs of a stream (a file, a gzip stream, a `_Prefixed`), and gzip of
    the stream it decompresses."""

    def read(self, size: int = -1, /) -> bytes: ...
    def seek(self, offset: int, whence: int = 0, /) -> int: ...


class TooLargeError(ValueError):
    """A file holding more than the limit; the message says how to raise it."""


def parse_size(text: str | int) -> int:
    """Bytes from `4GiB`, `500MB`, `1.5 GB` or a plain number.

    >>> parse_size("4GiB"), parse_size("500 MB"), parse_size(1024)
    (4294967296, 500000000, 1024)
    """
    if isinstance(text, int):
        size = text
    else:
        match = _SIZE.fullmatch(text)
        unit = match.group(2).upper() if match else ""
        if match is None or unit not in _UNITS:
            raise ValueError(f"not a size: {text!r} (write e.g. 4GiB, 500MB or 1000000)")
        size = int(Decimal(match.group(1)) * _UNITS[unit])  # a float of 400 digits is inf
    if size <= 0:
        raise ValueError(f"a size must be positive, not {text!r}")
    return size


def format_size(size: int) -> str:
    """`1 GiB`, `350.2 MB`: a size as people read it (binary units for round ones)."""
    for unit in ("TiB", "GiB", "MiB", "KiB"):
        if size >= _UNITS[unit.upper()] and size % _UNITS[unit.upper()] == 0:
            return f"{size // _UNITS[unit.upper()]} {unit}"
    for unit in ("TB", "GB", "MB", "kB"):
        if size >= _UNITS[unit.upper()]:
            return f"{size / _UNITS[unit.upper()]:.1f} {unit}"
    return f"{size} bytes"


_chosen_limit: int | None = None
"""The command line's `--max-size` for the command running (`choose_limit`)."""


def choose_limit(size: int | None) -> None:
    """Set the limit of every load that names none (None: back to the variable's or the
    default): the command line's `--max-size`, so that it holds however a command loads
    (`ipt.load`, an archive's add, the MCP server's store, the reference server)."""
    global _chosen_limit
    _chosen_limit = size


def load_limit(max_size: int | str | None = None) -> int:
    """The limit in bytes: `max_size` if given, else the one chosen (`choose_limit`), else
    `IPTOOLKIT_MAX_LOAD_SIZE`, else 1 GiB."""
    if max_size is not None:
        return parse_size(max_size)
    if _chosen_limit is not None:
        return _chosen_limit
    configured = os.environ.get(env.MAX_LOAD_SIZE, "").strip()
    if not configured:
        return DEFAULT_MAX_SIZE
    try:
        return parse_size(configured)
    except ValueError as exc:
        raise ValueError(f"{env.MAX_LOAD_SIZE}: {exc}") from None


def read_bounded(path: Path, limit: int) -> tuple[bytes, bool]:
    """The file's bytes, gunzipped when they start with gzip's magic (then True); at most
    `limit` of them.

    A regular file larger than the limit is refused before reading; anything else (a
    fifo, /dev/zero, a gzip stream) is read a chunk at a time and stopped past the limit.
    Raises `TooLargeError`, `OSError`, or `zlib.error`/`EOFError` for damaged gzip data.
    """
    with path.open("rb") as handle:
        info = os.fstat(handle.fileno())
        regular = stat.S_ISREG(info.st_mode)
        head = handle.read(2)
        if head == _GZIP_MAGIC:
            source: _Stream = handle if regular else _Prefixed(head, handle)
            if regular:
                handle.seek(0)
            gunzipped = gzip.GzipFile(fileobj=source)
            return _read_chunks(gunzipped, limit, path, "decompresses to", b""), True
        if not regular:
            return _read_chunks(handle, limit, path, "holds", head), False
        if info.st_size > limit:
            raise _too_large(path, limit, f"is {format_size(info.st_size)}")
        handle.seek(0)
        data = handle.read(info.st_size + 1)  # one copy in memory, as Path.read_bytes makes
        if len(data) > limit:  # it grew since
            raise _too_large(path, limit, f"holds more than {format_size(limit)}")
        return data, False


def _read_chunks(handle: _Stream, limit: int, path: Path, verb: str, head: bytes) -> bytes:
    """`head` and the rest of `handle`, a chunk at a time, stopping one byte past `limit`.

    Gathered in a BytesIO, whose `getvalue` hands over its buffer without copying it.
    """
    gathered = io.BytesIO(head)
    gathered.seek(0, io.SEEK_END)
    total = len(head)
    while total <= limit and (chunk := handle.read(min(_CHUNK, limit - total + 1))):
        gathered.write(chunk)
        total += len(chunk)
    if total > limit:
        raise _too_large(path, limit, f"{verb} more than {format_size(limit)}")
    return gathered.getvalue()


def _too_large(path: Path, limit: int, what: str) -> TooLargeError:
    return TooLargeError(
        f"{path}: the file {what}, past the limit of {format_size(limit)} of JSON a load "
        f"reads; to read more, raise it: ipt.load(path, max_size='4GiB'), "
        f"--max-size 4GiB, or {env.MAX_LOAD_SIZE}=4GiB"
    )


class _Prefixed:
    """A stream whose first bytes were already read (to look for gzip's magic)."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = head
        self._rest = rest

    def read(self, size: int = -1) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head if size < 0 else head + self._rest.read(max(size - len(head), 0))
        return self._rest.read(size)

    def seek(self, offset: int, whence: int = 0, /) -> int:
        """Never: gzip seeks only to rewind, which reading forward does not do."""
        raise io.UnsupportedOperation("a stream read once cannot seek")
