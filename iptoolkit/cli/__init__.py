"""The `iptoolkit` command line: the host (`host.py`) and one module per command family.

`iptoolkit.cli:run` is the console entry point (`main`, the command group, and its exit); see
`host.py` for the command table, the error policy and the exit codes, and `options.py` for
the options commands share.
"""

from __future__ import annotations

from .host import main, run

__all__ = ["main", "run"]
