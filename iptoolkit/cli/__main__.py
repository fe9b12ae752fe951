"""`python -m iptoolkit.cli`: the `iptoolkit` command, as before the command line became a
package (tests and scripts start the command this way with a chosen interpreter)."""

from __future__ import annotations

from .host import main

if __name__ == "__main__":  # pragma: no cover
    main()
