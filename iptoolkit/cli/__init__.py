"""The `iptoolkit` command line: the host (`host.py`) and one module per command family.

`iptoolkit.cli:main` is the console entry point; see `host.py` for the command table, the
error policy and the exit codes, and `options.py` for the options commands share.
"""

from __future__ import annotations

from .host import main

__all__ = ["main"]
