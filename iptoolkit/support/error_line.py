"""An error said in one line: the rule the command line and the app's zygote share.

The command line prints an expected error as one line (`cli/host.py`); the app's zygote
(`app/zygote.py`), which reads the snapshot for `iptoolkit explore`, says the same error
in the same words over a pipe, so that a bad snapshot reads alike either way.
"""

from __future__ import annotations

__all__ = ["one_line"]


def one_line(exc: BaseException) -> str:
    """An error as one line: an OS error as `file: reason`, any other its message on one line."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text
