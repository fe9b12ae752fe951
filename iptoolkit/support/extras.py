"""Optional parts of iptoolkit and the message that names the extra when one is missing.

Installing iptoolkit brings what an analyst uses in a notebook; the reference server
(FastAPI, uvicorn) is the `server` extra, the MCP server for AI assistants (the `mcp` SDK)
the `mcp` extra, and `all` brings every extra. The modules of an optional part call
`require` before importing its packages, so a missing package says which extra to install
instead of only which import failed.
"""

from __future__ import annotations

import importlib
import importlib.util

__all__ = ["EXTRAS", "MissingExtraError", "require", "require_installed"]

EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "server": ("the reference server", ("fastapi", "uvicorn", "limits", "python_multipart")),
    "mcp": ("the MCP server", ("mcp", "uvicorn")),
    "docs": ("building the documentation site (mkdocs build)", ("mkdocs",)),
    "app": (
        "the standalone Explorer app (iptoolkit explore)",
        ("voila", "uvicorn", "ipykernel", "jupyter_server", "tornado", "jupyter_client"),
    ),
    "archive": ("the snapshot archive (ipt.Archive, iptoolkit archive, watch)", ("duckdb",)),
    "excel": ("writing .xlsx (the Excel export)", ("openpyxl",)),
}
"""Extra -> (what needs it, the modules it brings), as declared in pyproject.toml."""


class MissingExtraError(ModuleNotFoundError):
    """An optional part was used without its extra installed; the message says which."""


def require(extra: str) -> None:
    """Import the modules `extra` brings; raise `MissingExtraError` naming it if one lacks.

    >>> require("server")  # doctest: +SKIP
    MissingExtraError: the reference server needs the 'server' extra, which is not
    installed (no module named 'fastapi'): pip install -e '.[server]'
    """
    for module in EXTRAS[extra][1]:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise _missing(extra, exc.name or module) from exc


def require_installed(extra: str) -> None:
    """`require`'s check without importing: whether each module of `extra` is there at
    all, not whether it imports (a dependency of it missing shows only when the process
    that imports it starts). For a command that only starts such processes (`iptoolkit
    explore` starts Voila; importing Voila in the command itself took 1.5-5 s before the
    app's zygote could start reading)."""
    for module in EXTRAS[extra][1]:
        if importlib.util.find_spec(module) is None:
            raise _missing(extra, module)


def _missing(extra: str, module: str) -> MissingExtraError:
    what = EXTRAS[extra][0]
    return MissingExtraError(
        f"{what} needs the '{extra}' extra, which is not installed "
        f"(no module named {module!r}): pip install -e '.[{extra}]'",
        name=module,
    )
