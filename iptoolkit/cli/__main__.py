"""`python -m iptoolkit.cli`: the `iptoolkit` command where no console script is installed."""

from __future__ import annotations

from .host import run

if __name__ == "__main__":  # pragma: no cover - run as a script
    run()
