"""`python -m iptoolkit.cli`: the `iptoolkit` command where no console script is installed."""

from __future__ import annotations

from .host import main

if __name__ == "__main__":  # pragma: no cover - run as a script
    main(prog_name="iptoolkit")
