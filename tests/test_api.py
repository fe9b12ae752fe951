"""The public API: the exported names stay in place, and `import iptoolkit` stays cheap."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import iptoolkit as ipt

EXPECTED = {
    "__version__", "client", "models",
    # models and the estate
    "parse_profiles", "dump_profiles", "ParseError", "IntegrationProfile", "timestamp",
    "Estate", "load", "as_estate", "demo_estate", "demo_profiles", "demo_changes",
    # the client
    "Client", "AsyncClient", "ClientCredentials", "SessionCookie", "GuestLogin", "BearerToken",
    "Secret", "ApiError", "BadRequestError", "AuthenticationError", "PermissionDeniedError",
    "NotFoundError", "RateLimitError", "InternalServerError", "PagingError",
    "ResponseParseError", "ResponseTooLargeError",
    "ApiTransportError", "ApiConnectionError", "ApiTimeoutError", "DeadlineExceededError",
    # questions, pictures, files, the Explorer
    "build_graph", "where_used", "impact", "neighbourhood", "Impact", "Filter", "findings",
    "paths", "Paths",
    "resolve_node", "UnknownItemError", "AmbiguousItemError",
    "Finding", "audit", "AuditConfig",
    "plot_topology", "plot_summary", "export", "write_docs", "Explorer",
    "show_topology", "TopologyView",
    "schema_report", "SchemaReport",
    # change over time
    "diff", "EstateDiff", "Change", "plot_diff", "history", "History",
    # two installations compared
    "compare", "Comparison", "plot_comparison", "demo_environment",
}  # fmt: skip


def test_public_names_are_pinned():
    """The one test of the exported names: `__all__`, the lazy table and the names that
    type checkers see (the `TYPE_CHECKING` imports) are the same list."""
    assert set(ipt.__all__) == EXPECTED
    assert len(ipt.__all__) == len(set(ipt.__all__))
    for name in ipt.__all__:
        assert getattr(ipt, name) is not None, name
    typed: dict[str, str] = {}
    tree = ast.parse(Path(ipt.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.dump(n))
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names:
            typed[alias.asname or alias.name] = f"iptoolkit.{node.module}" if node.module else ""
    assert {n: m for n, m in typed.items() if m} == ipt._EXPORTS
    assert set(typed) == (EXPECTED | NEED_AN_EXTRA) - {"__version__"}
    assert set(dir(ipt)) == EXPECTED | NEED_AN_EXTRA


NEED_AN_EXTRA = {"server", "Archive"}
"""Public names left out of `__all__`: their modules need an extra."""

EXTRAS_MISSING = """
import sys
from iptoolkit.support.extras import EXTRAS, MissingExtraError
for _, modules in EXTRAS.values():
    for module in modules:
        sys.modules[module] = None  # as if no extra were installed
import iptoolkit as ipt
from iptoolkit import *
print(sorted(name for name in ipt.__all__ if name not in globals()))
needing = []
for name in dir(ipt):
    try:
        getattr(ipt, name)
    except MissingExtraError:
        needing.append(name)
print(sorted(needing))
"""


def test_a_star_import_works_without_extras() -> None:
    """`from iptoolkit import *` on a plain install: every name of `__all__` comes without
    an extra, and the names that need one are the ones left out of it."""
    out = subprocess.run(
        [sys.executable, "-c", EXTRAS_MISSING], capture_output=True, text=True, timeout=240
    )
    assert out.returncode == 0, out.stderr
    missing, needing = out.stdout.splitlines()
    assert missing == "[]"
    assert set(ast.literal_eval(needing)) == NEED_AN_EXTRA


def test_error_classes_form_one_tree():
    for name in [
        "BadRequestError",
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
        "RateLimitError",
        "InternalServerError",
    ]:
        assert issubclass(getattr(ipt, name), ipt.ApiError)  # fmt: skip
    assert issubclass(ipt.ParseError, ValueError)


def test_unknown_attribute_is_an_attribute_error():
    try:
        ipt.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_import_is_cheap():
    heavy = ["matplotlib", "pandas", "ipywidgets", "fastapi", "uvicorn", "networkx", "httpx"]
    code = f"import sys, iptoolkit; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


NOTEBOOK_CODE = """
import sys
sys.modules["fastapi"] = sys.modules["uvicorn"] = None  # as if the extra were not installed
import iptoolkit as ipt

estate = ipt.demo_estate(n_profiles=40, seed=1)
estate = ipt.load(estate.save(sys.argv[1] + "/snap.json"))
G = ipt.build_graph(estate)
partner = next(n for n in G if n.startswith("partner:"))
ipt.where_used(G, partner), ipt.impact(G, partner), ipt.findings(estate).to_frame()
ipt.audit(estate, ipt.AuditConfig(select=("SEC",)))
estate.subset(ipt.Filter(active=True)).to_frame("profiles")
ipt.plot_topology(estate), ipt.plot_summary(estate)
for suffix in ("csv", "graphml", "mmd", "svg"):
    ipt.export(estate, sys.argv[1] + "/estate." + suffix)
ipt.Explorer(estate).close()
ipt.show_topology(estate).close()
ipt.Client, ipt.AsyncClient, ipt.ClientCredentials
try:
    ipt.server
except ModuleNotFoundError as exc:
    print(exc)
"""


def test_the_notebook_api_needs_no_server_packages(tmp_path: Path) -> None:
    """What an analyst does in a notebook works with fastapi and uvicorn absent, and only
    `ipt.server` asks for them, naming the extra."""
    env = {**os.environ, "MPLBACKEND": "Agg"}
    out = subprocess.run(
        [sys.executable, "-c", NOTEBOOK_CODE, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr
    assert "pip install -e '.[server]'" in out.stdout
    assert (tmp_path / "estate.graphml").is_file()
