"""`python -m iptoolkit`: the `iptoolkit` command, as `python -m iptoolkit.cli` runs it."""

from __future__ import annotations

from .cli.host import run

if __name__ == "__main__":  # pragma: no cover - run as a script
    run()
