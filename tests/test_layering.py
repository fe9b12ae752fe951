"""The package's layering: every module imports, and no two modules import each other in a
circle, not even for type checking.

Imports inside function bodies are lazy by design (a facade method such as `Estate.subset`
reaches a view only when called) and are left out; module-level imports, those under
`if TYPE_CHECKING:` included, are the layering. The package root (`iptoolkit/__init__`) is
the facade: its exports are lazy, and its `TYPE_CHECKING` re-exports are for type checkers.
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
    graph = nx.DiGraph()
    for name in module_names():
        tree = ast.parse(module_file(name).read_text(), filename=str(module_file(name)))
        graph.add_node(name)
        for node in module_level_imports(tree):
            for target in targets(name, node):
                if target != ROOT and target != name:
                    graph.add_edge(name, target)
    return graph


def test_every_module_imports() -> None:
    for name in module_names():
        importlib.import_module(name)


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert graph.number_of_edges() > 50, "the import graph looks empty: is the parser right?"
    cycles = [cycle for cycle in nx.simple_cycles(graph) if len(cycle) > 1]
    shortest = sorted(cycles, key=len)[:5]
    assert not cycles, "import cycles: " + "; ".join(" -> ".join([*c, c[0]]) for c in shortest)


def test_the_check_sees_a_cycle_under_type_checking(tmp_path: Path) -> None:
    """The parser follows `if TYPE_CHECKING:` and relative imports (a check that can fail)."""
    code = "from __future__ import annotations\nif TYPE_CHECKING:\n    from .filters import F\n"
    node = module_level_imports(ast.parse(code))[0]
    assert targets("iptoolkit.estate", node) == {"iptoolkit.filters"}
    graph = import_graph()
    graph.add_edge("iptoolkit.nodes", "iptoolkit.records")  # records imports nodes
    assert any(len(cycle) > 1 for cycle in nx.simple_cycles(graph))


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
