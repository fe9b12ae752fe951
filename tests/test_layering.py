"""The package's layering: every module imports, and no two modules import each other in a
circle, not even for type checking.

Imports inside function bodies are lazy by design (a facade method such as `Estate.subset`
reaches a view only when called) and are left out; module-level imports, those under
`if TYPE_CHECKING:` included, are the layering. The package root (`iptoolkit/__init__`)
counts like any module: its `TYPE_CHECKING` re-exports name every module, so no module may
import from it (the version lives in `_version.py` for that). A package's `__init__` is not
an edge merely because Python runs it before its modules; only what a module names is.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

import iptoolkit
from iptoolkit.extras import MissingExtraError

PACKAGE = Path(iptoolkit.__file__).parent
ROOT = "iptoolkit"


def module_names() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages(iptoolkit.__path__, prefix=f"{ROOT}.")
    )


def module_file(name: str) -> Path:
    relative = Path(*name.split(".")[1:])
    package = PACKAGE / relative / "__init__.py"
    return package if package.exists() else PACKAGE / relative.with_suffix(".py")


def is_module(name: str) -> bool:
    return name == ROOT or module_file(name).exists()


def module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports at module level, including inside `if`/`try` blocks, not inside functions
    or classes."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try):
            pending.extend(node.body)
            pending.extend(node.orelse)
            pending.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
    return found


def targets(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's modules that one import statement of module `name` loads."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name.startswith(ROOT)}
    if node.level:
        is_package = module_file(name).name == "__init__.py"
        parts = name.split(".")
        base = parts if is_package else parts[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    if not source.startswith(ROOT):
        return set()
    found = set()
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        found.add(submodule if is_module(submodule) else source)
    return found


def import_graph() -> nx.DiGraph:
    """Module -> module it imports at module level; each edge knows the importing line."""
    graph = nx.DiGraph()
    for name in [ROOT, *module_names()]:
        path = module_file(name) if name != ROOT else PACKAGE / "__init__.py"
        tree = ast.parse(path.read_text(), filename=str(path))
        graph.add_node(name)
        for node in module_level_imports(tree):
            for target in targets(name, node):
                if target != name:
                    where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                    graph.add_edge(name, target, where=where)
    return graph


def cycles_text(graph: nx.DiGraph, limit: int = 5) -> str:
    """The shortest cycles, each module with the line that imports the next: where to cut."""
    cycles = sorted((c for c in nx.simple_cycles(graph) if len(c) > 1), key=len)[:limit]
    lines = []
    for cycle in cycles:
        steps = zip(cycle, [*cycle[1:], cycle[0]], strict=True)
        lines.append(
            " -> ".join(f"{u} ({graph.edges[u, v]['where']})" for u, v in steps) + f" -> {cycle[0]}"
        )
    return "\n".join(lines)


def test_every_module_imports() -> None:
    failed = []
    for name in module_names():
        try:
            importlib.import_module(name)
        except MissingExtraError:
            continue  # an optional part whose extra is not installed says so, by design
        except Exception as exc:  # noqa: BLE001 - every failure is listed
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
    assert not failed, "modules that do not import:\n" + "\n".join(failed)


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert graph.number_of_edges() > 50, "the import graph looks empty: is the parser right?"
    found = cycles_text(graph)
    assert not found, "import cycles:\n" + found


def test_the_check_sees_a_cycle_under_type_checking(tmp_path: Path) -> None:
    """The parser follows `if TYPE_CHECKING:` and relative imports (a check that can fail)."""
    code = "from __future__ import annotations\nif TYPE_CHECKING:\n    from .filters import F\n"
    node = module_level_imports(ast.parse(code))[0]
    assert targets("iptoolkit.estate", node) == {"iptoolkit.filters"}
    graph = import_graph()
    graph.add_edge("iptoolkit.nodes", "iptoolkit.records", where="here:1")  # records imports nodes
    found = cycles_text(graph)  # each module with the line that imports the next
    assert "iptoolkit.nodes (here:1) -> iptoolkit.records" in found
    assert "iptoolkit.records (iptoolkit/records.py:" in found
    lazy = "def view():\n    from .tables import to_frame\n"
    assert module_level_imports(ast.parse(lazy)) == []  # a function's import is no edge


def test_the_root_counts_like_any_module() -> None:
    """A module importing a name from the package root closes a circle through the root's
    TYPE_CHECKING imports: the check sees it (the version is read from `_version`)."""
    graph = import_graph()
    assert graph.has_edge(ROOT, "iptoolkit.estate")  # under TYPE_CHECKING
    node = module_level_imports(ast.parse("from . import __version__\n"))[0]
    assert targets("iptoolkit.estate", node) == {ROOT}
    graph.add_edge("iptoolkit.estate", ROOT, where="estate.py:1")
    assert "iptoolkit.estate (estate.py:1) -> iptoolkit" in cycles_text(graph)


def test_the_data_core_stands_alone() -> None:
    """estate, records, filters, nodes and tables reach no view at module level."""
    graph = import_graph()
    core = ["estate", "records", "references", "nodes", "names", "selection", "filters"]
    views = {"plot", "topology", "exporters", "widgets", "cli", "server", "audit", "tables"}
    for name in core:
        reached = nx.descendants(graph, f"{ROOT}.{name}")
        assert not {m for m in reached if m.split(".")[1] in views}, name


@pytest.mark.parametrize("module", ["iptoolkit.exporters", "iptoolkit.topology.view"])
def test_text_exports_do_not_load_matplotlib(module: str) -> None:
    code = (
        f"import sys, {module}, iptoolkit.exporters.dot, iptoolkit.exporters.mermaid, "
        "iptoolkit.exporters.graphfiles\n"
        "assert 'matplotlib' not in sys.modules, sorted(m for m in sys.modules if 'matplot' in m)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_exporting_text_formats_loads_neither_matplotlib_nor_plot(tmp_path: Path) -> None:
    """Not just importing the writers: writing every text format, lazy imports included."""
    code = (
        "import sys\n"
        "import iptoolkit as ipt\n"
        "estate = ipt.demo_estate(n_profiles=30, seed=2)\n"
        "for suffix in ('dot', 'mmd', 'md', 'graphml', 'gexf', 'csv', 'json'):\n"
        "    ipt.export(estate, sys.argv[1] + '/estate.' + suffix)\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m.split('.')[0] == 'matplotlib' or m.startswith('iptoolkit.plot')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    assert len(list(tmp_path.iterdir())) == 7
