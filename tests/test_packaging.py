"""Packaging by need: `pip install iptoolkit` is the notebook library; the server an extra.

The declared dependencies are read from pyproject.toml and compared with what the code
imports, so an import nobody declared (as `anyio` once was) fails here, not on a user's
machine. A missing extra is simulated by `sys.modules[name] = None` in a subprocess.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import socket
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from iptoolkit.support.extras import EXTRAS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "iptoolkit"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SERVER_MESSAGE = (
    "the reference server needs the 'server' extra, which is not installed "
    "(no module named {name!r}): pip install -e '.[server]'"
)

COMES_WITH = {
    "pydantic_core": "pydantic (its compiled core, pinned by pydantic)",
    "numpy": "matplotlib and pandas, which both require it",
    "IPython": "ipywidgets, which requires it (display only)",
    "traitlets": "ipywidgets and anywidget, which require it (a widget's synced state)",
    "starlette": "fastapi (the server's framework underneath)",
    "h11": "uvicorn (its HTTP/1.1 parser, which hardening/h11_protocol.py extends)",
}
"""Modules imported but not declared, each with the declared package that brings it."""
OPTIONAL = {"openpyxl": "only for .xlsx: the `excel` extra (pandas imports it by name)"}


def _names(requirements: list[str]) -> set[str]:
    """Distribution names of requirement strings, normalised (`python_multipart` ->
    `python-multipart`); a self-reference such as `iptoolkit[server]` is kept whole."""
    names = set()
    for requirement in requirements:
        if requirement.startswith("iptoolkit["):
            names.add(requirement)
            continue
        match = re.match(r"[A-Za-z0-9._-]+", requirement)
        assert match, requirement
        names.add(re.sub(r"[-_.]+", "-", match.group(0)).lower())
    return names


CORE = _names(PROJECT["dependencies"])
EXTRA = {name: _names(items) for name, items in PROJECT["optional-dependencies"].items()}


def _imports() -> dict[str, set[str]]:
    """Third-party top-level module -> the package's files (relative) that import it."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top not in sys.stdlib_module_names and top != "iptoolkit":
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_the_core_install_is_the_notebook_library() -> None:
    assert {"fastapi", "uvicorn", "python-multipart", "ipykernel"}.isdisjoint(CORE)
    assert EXTRA["server"] == {"fastapi", "uvicorn", "python-multipart", "limits"}
    assert "ipykernel" in EXTRA["test"]  # the notebooks' kernel: tests and binder/ only
    assert set(EXTRAS) == set(EXTRA) - {"all", "test"}, (
        "iptoolkit/support/extras.py names each extra"
    )
    assert EXTRA["all"] == {f"iptoolkit[{name}]" for name in EXTRAS}
    assert EXTRA["excel"] == {"openpyxl"}  # `.xlsx` comes with `all` (it came with none)


def test_each_extra_checks_every_package_it_declares() -> None:
    """`require(extra)` imports the modules `EXTRAS` lists: one the extra declares and
    the list leaves out fails, when missing, in the words of whoever imports it (FastAPI's
    bare RuntimeError for python-multipart), not naming the extra."""
    distributions = packages_distributions()
    for extra, (_, modules) in EXTRAS.items():
        checked = {
            re.sub(r"[-_.]+", "-", name).lower()
            for module in modules
            for name in distributions.get(module, [module])
        }
        assert checked == EXTRA[extra], extra


def test_every_import_is_declared_where_it_is_used() -> None:
    distributions = packages_distributions()
    undeclared = {}
    for module, files in sorted(_imports().items()):
        if module in COMES_WITH or module in OPTIONAL:
            continue
        names = {re.sub(r"[-_.]+", "-", d).lower() for d in distributions.get(module, [module])}
        missing = sorted(file for file in files if not names & _declared_for(file))
        if missing:
            undeclared[module] = missing
    assert undeclared == {}


def _declared_for(file: str) -> set[str]:
    """What a module of the package may import: the core install, and its package's extra
    (a module of `iptoolkit/server/` the `server` extra too); `iptoolkit/hardening/`, which
    the reference server and `mcp --http` share, what both their extras declare."""
    for extra in ("server", "mcp", "archive", "app"):
        if file.startswith(f"iptoolkit/{extra}/"):
            return CORE | EXTRA[extra]
    if file.startswith("iptoolkit/hardening/"):
        return CORE | (EXTRA["server"] & EXTRA["mcp"])
    return CORE


def test_the_server_packages_are_imported_by_the_server_package_only() -> None:
    """The web stack stays with the reference server; `mcp --http` (mcp/http.py) serves
    the SDK's app with uvicorn, which the `mcp` extra declares, behind its token check; the
    connection guards both run (uvicorn's h11 protocol) are `iptoolkit/hardening/`."""
    shared = ("iptoolkit/server/", "iptoolkit/mcp/", "iptoolkit/hardening/")
    allowed = {"uvicorn": shared, "h11": ("iptoolkit/server/", "iptoolkit/hardening/")}
    for module in ("fastapi", "uvicorn", "starlette", "h11", "limits"):
        places = allowed.get(module, ("iptoolkit/server/",))
        outside = [f for f in _imports().get(module, ()) if not f.startswith(places)]
        assert outside == [], module


def _without(module: str, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter in which `module` cannot be imported."""
    blocked = f"import sys; sys.modules[{module!r}] = None\n"
    return subprocess.run(
        [sys.executable, "-c", blocked + code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


@pytest.mark.parametrize("module", ["fastapi", "uvicorn", "python_multipart"])
def test_ipt_server_names_the_extra(module: str) -> None:
    code = (
        "import iptoolkit as ipt\n"
        "try:\n    ipt.server\n"
        "except ModuleNotFoundError as exc:\n    print(type(exc).__name__, exc.name, exc)\n"
    )
    result = _without(module, code)
    assert result.returncode == 0, result.stderr
    expected = f"MissingExtraError {module} " + SERVER_MESSAGE.format(name=module)
    assert result.stdout.strip() == expected


@pytest.mark.parametrize(
    "command", [["serve", "--port", "0"], ["hash-secret"], ["demo", "--output", "out"]]
)
def test_the_cli_names_the_extra_in_one_line(command: list[str], tmp_path: Path) -> None:
    code = "from iptoolkit.cli import main\nmain(sys.argv[1:], prog_name='iptoolkit')\n"
    result = _without("fastapi", f"import os; os.chdir({str(tmp_path)!r})\n" + code, *command)
    assert result.returncode == 1
    assert result.stderr == "Error: " + SERVER_MESSAGE.format(name="fastapi") + "\n"
    assert not (tmp_path / "out").exists(), "the demo stops before it writes anything"


@pytest.mark.parametrize("module", ["voila", "uvicorn", "ipykernel", "jupyter_client"])
def test_the_app_server_names_its_extra(module: str) -> None:
    """The app's server (Voila's process) imports uvicorn too (the hardened h11 limits):
    either missing is `MissingExtraError` naming `app`, before Voila's own imports."""
    code = (
        "try:\n    import iptoolkit.app.server\n"
        "except ModuleNotFoundError as exc:\n    print(type(exc).__name__, exc.name, exc)\n"
    )
    result = _without(module, code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"MissingExtraError {module} "), result.stdout
    assert "[app]" in result.stdout


def test_explore_checks_the_app_extra_without_importing_voila(tmp_path: Path) -> None:
    # `require_installed`: the command only starts Voila; a port taken stops it after the
    # check (`test_app` holds the message when the extra is missing)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        code = (
            "import sys\nfrom iptoolkit.cli import main\n"
            "try:\n    main(sys.argv[1:], prog_name='iptoolkit')\n"
            "except SystemExit:\n"
            "    print(sorted(set(sys.modules) & {'voila', 'jupyter_server'}))\n"
        )
        result = _without(
            "nothing-blocked", code, "explore", "--no-browser", "--port", str(port),
            "--folder", str(tmp_path),
        )  # fmt: skip
    assert f"port {port} on 127.0.0.1 is in use" in result.stderr
    assert result.stdout.strip() == "[]"


def test_an_installed_extra_is_found_without_being_imported() -> None:
    code = (
        "import sys\nfrom iptoolkit.support.extras import require_installed\n"
        "require_installed('app')\nprint(sorted(set(sys.modules) & {'voila', 'jupyter_server'}))"
    )
    result = _without("nothing-blocked", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_cli_help_lists_the_server_commands_without_the_extra() -> None:
    result = _without("fastapi", "from iptoolkit.cli import main\nmain(['--help'])\n")
    assert result.returncode == 0, result.stderr
    assert "serve" in result.stdout and "hash-secret" in result.stdout


def test_the_mcp_command_names_its_extra_in_one_line(tmp_path: Path) -> None:
    snapshot = tmp_path / "s.json"
    snapshot.write_text("[]")
    code = "from iptoolkit.cli import main\nmain(sys.argv[1:], prog_name='iptoolkit')\n"
    result = _without("mcp", code, "mcp", str(snapshot))
    assert result.returncode == 1
    assert result.stderr == (
        "Error: the MCP server needs the 'mcp' extra, which is not installed "
        "(no module named 'mcp'): pip install -e '.[mcp]'\n"
    )


def test_python_m_iptoolkit_server_names_the_extra() -> None:
    code = "import runpy\nrunpy.run_module('iptoolkit.server', run_name='__main__')\n"
    result = _without("uvicorn", code)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].endswith(SERVER_MESSAGE.format(name="uvicorn"))


def _make_installs(target: str, venv: Path) -> list[str]:
    """The extras `make <target>` would install into a fresh `venv` (a dry run)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    result = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found = re.findall(r"pip install --quiet -e '\.\[([^\]]*)\]'", result.stdout)
    return [extra for extras in found for extra in extras.split(",")]


def test_make_demo_installs_the_server_and_make_test_everything(tmp_path: Path) -> None:
    declared = set(PROJECT["optional-dependencies"])
    demo = _make_installs("demo", tmp_path / "venv")
    assert demo == ["server"], "the demo runs the reference server, nothing more"
    test = _make_installs("test", tmp_path / "venv")
    assert set(test) == {"all", "test"} <= declared
