"""`python -m iptoolkit.server`: run the reference server (the `serve` command)."""

from __future__ import annotations

from ..cli.serve import serve_command

__all__: list[str] = []

if __name__ == "__main__":
    serve_command(prog_name="python -m iptoolkit.server")
