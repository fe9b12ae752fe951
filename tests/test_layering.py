"""The package's layering: every module imports, no two modules import each other in a
circle, and the data core reaches no view.

Module-level imports, those under `if TYPE_CHECKING:` included, are the layering: no
circle at all. Imports inside function bodies are lazy (a facade method such as
`Estate.subset` reaches a view only when called), so they may run against the layers, but
they hide a design choice just the same: with them counted too, there is no circle
between modules, nor between packages (each subpackage and top-level module one unit),
except the few in `ALLOWED_PACKAGE_CYCLES`, each with its reason (also in
docs/architecture.md). The package root (`iptoolkit/__init__`) counts like any module: its
`TYPE_CHECKING` re-exports name every module, so no module may import from it (the version
lives in `_version.py` for that). A package's `__init__` is not an edge merely because
Python runs it before its modules; only what a module names is.
"""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

import iptoolkit
from iptoolkit.support.extras import MissingExtraError

PACKAGE = Path(iptoolkit.__file__).parent
ROOT = "iptoolkit"

LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("support", frozenset({"support", "_version"})),
    ("models", frozenset({"models"})),
    ("core", frozenset({"core"})),
    ("query", frozenset({"query"})),
)
"""The lower layers, bottom up, each by its packages: a module reaches (lazy imports
included, the core's facades aside) only its own layer and those below. Everything else
is a view or an application above them; a module added to a package needs no edit here."""
TOP_LEVEL_MODULES = frozenset({"__init__", "__main__", "_version", "estate_history"})
"""The modules that belong to no package (at most six): `estate_history` reads `change/`,
counts with `auditing` and draws with `plot`, so it sits above all three; `__main__` is
`python -m iptoolkit`."""
FACADES = {
    ("iptoolkit.core.estate", "iptoolkit.query.filters"): "Estate.subset",
    ("iptoolkit.core.estate", "iptoolkit.query.tables"): "Estate.to_frame",
}
"""The lazy imports by which the core offers a view as a method; the views name no Estate."""
ALLOWED_PACKAGE_CYCLES = {
    frozenset({"iptoolkit.demo", "iptoolkit.server"}): (
        "the reference server serves the demo estate when given none, and the demo run "
        "(`make demo`) drives that server: demo data below the server and an application "
        "above it share the demo package"
    ),
}
"""Circles between packages kept on purpose, each with the reason docs/architecture.md gives."""


@functools.cache
def module_names() -> tuple[str, ...]:
    """Every module of the package (`walk_packages` imports each package: once a run)."""
    return tuple(
        sorted(info.name for info in pkgutil.walk_packages(iptoolkit.__path__, prefix=f"{ROOT}."))
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


def all_imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import of a module, each with whether it is lazy (inside a function or class)."""
    eager = {id(node) for node in module_level_imports(tree)}
    return [
        (node, id(node) not in eager)
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]


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


def import_graph(*, lazy: bool = False) -> nx.DiGraph[str]:
    """Module -> module it imports at module level (with `lazy`, in functions too); each
    edge knows the importing line, and whether that import is lazy. A copy of the graph
    parsed once a run (a test adds edges to its own)."""
    return _parsed_import_graph(lazy).copy()


@functools.cache
def _parsed_import_graph(lazy: bool) -> nx.DiGraph[str]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for name in [ROOT, *module_names()]:
        path = module_file(name) if name != ROOT else PACKAGE / "__init__.py"
        tree = ast.parse(path.read_text(), filename=str(path))
        graph.add_node(name)
        for node, is_lazy in all_imports(tree):
            if is_lazy and not lazy:
                continue
            for target in targets(name, node):
                if target == name or (graph.has_edge(name, target) and is_lazy):
                    continue  # a module-level import of the same module says more
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                graph.add_edge(name, target, where=where + (" (lazy)" if is_lazy else ""))
    return graph


def unit(name: str) -> str:
    """The package or top-level module a module belongs to; a `__main__` is a script of
    its own (run by `python -m`, imported by nothing), not a part of its package."""
    parts = name.split(".")
    return name if parts[-1] == "__main__" else ".".join(parts[:2])


def package_graph(graph: nx.DiGraph[str]) -> nx.DiGraph[str]:
    """The import graph between packages and top-level modules (the root left out: it
    names every module, for type checking, and nothing may import it)."""
    packages: nx.DiGraph[str] = nx.DiGraph()
    for source, target, data in graph.edges(data=True):
        u, v = unit(source), unit(target)
        if u != v and ROOT not in (u, v) and not packages.has_edge(u, v):
            packages.add_edge(u, v, where=f"{source} {data['where']}")
    return packages


def cycles_text(
    graph: nx.DiGraph[str], limit: int = 5, allowed: frozenset[frozenset[str]] = frozenset()
) -> str:
    """The shortest cycles, each module with the line that imports the next: where to cut."""
    found = (c for c in nx.simple_cycles(graph) if len(c) > 1 and frozenset(c) not in allowed)
    cycles = sorted(found, key=len)[:limit]
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
    code = (
        "from __future__ import annotations\nif TYPE_CHECKING:\n    from ..query.filters import F\n"
    )
    node = module_level_imports(ast.parse(code))[0]
    assert targets("iptoolkit.core.estate", node) == {"iptoolkit.query.filters"}
    graph = import_graph()
    graph.add_edge(
        "iptoolkit.core.nodes", "iptoolkit.core.records", where="here:1"
    )  # records imports nodes
    found = cycles_text(graph)  # each module with the line that imports the next
    assert "iptoolkit.core.nodes (here:1) -> iptoolkit.core.records" in found
    assert "iptoolkit.core.records (iptoolkit/core/records.py:" in found
    lazy = "def view():\n    from .tables import to_frame\n"
    assert module_level_imports(ast.parse(lazy)) == []  # a function's import is no edge


def test_the_root_counts_like_any_module() -> None:
    """A module importing a name from the package root closes a circle through the root's
    TYPE_CHECKING imports: the check sees it (the version is read from `_version`)."""
    graph = import_graph()
    assert graph.has_edge(ROOT, "iptoolkit.core.estate")  # under TYPE_CHECKING
    node = module_level_imports(ast.parse("from .. import __version__\n"))[0]
    assert targets("iptoolkit.core.estate", node) == {ROOT}
    graph.add_edge("iptoolkit.core.estate", ROOT, where="estate.py:1")
    assert "iptoolkit.core.estate (estate.py:1) -> iptoolkit" in cycles_text(graph)


def test_no_module_imports_the_package_root() -> None:
    """Modules read the version from `_version`, never from the root: most modules (the
    command line, MCP, the app) are not reached by the root's imports, so a cycle check
    alone would not see `from .. import __version__` there."""
    graph = import_graph(lazy=True)
    found = sorted(
        f"{source} {data['where']}" for source, _, data in graph.in_edges(ROOT, data=True)
    )
    assert not found, "modules importing the package root:\n" + "\n".join(found)
    node = module_level_imports(ast.parse("from .. import __version__\n"))[0]
    assert targets("iptoolkit.cli.summary", node) == {ROOT}  # the check sees the root


def test_no_import_cycle_through_a_lazy_import() -> None:
    """With the imports inside functions counted: no circle between modules, none between
    packages but the allowed ones."""
    graph = import_graph(lazy=True)
    assert any("(lazy)" in data["where"] for *_, data in graph.edges(data=True))
    found = cycles_text(graph)
    assert not found, "import cycles through a lazy import:\n" + found
    packages = package_graph(without_facades(graph.copy()))  # the facades: methods, not layers
    for cycle in ALLOWED_PACKAGE_CYCLES:  # an allowance that is no longer needed goes
        assert any(frozenset(c) == cycle for c in nx.simple_cycles(packages)), cycle
    found = cycles_text(packages, allowed=frozenset(ALLOWED_PACKAGE_CYCLES))
    assert not found, "import cycles between packages:\n" + found


def test_every_allowed_cycle_is_explained_in_the_architecture_doc() -> None:
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    text = " ".join(doc.split())
    missing = [r for r in ALLOWED_PACKAGE_CYCLES.values() if " ".join(r.split()) not in text]
    assert not missing, f"docs/architecture.md does not give these reasons: {missing}"


def test_the_lazy_checks_see_a_cycle() -> None:
    """A lazy import closing a circle is seen between modules and between packages, and
    one between packages only (two modules that do not import each other) too."""
    code = "def view():\n    from ..core.estate import Estate\n"
    ((node, is_lazy),) = all_imports(ast.parse(code))
    assert is_lazy and targets("iptoolkit.query.filters", node) == {"iptoolkit.core.estate"}
    graph = import_graph(lazy=True)
    assert graph.has_edge("iptoolkit.core.estate", "iptoolkit.query.filters")  # Estate.subset, lazy
    graph.add_edge("iptoolkit.query.filters", "iptoolkit.core.estate", where="here:1 (lazy)")
    assert "iptoolkit.query.filters (here:1 (lazy)) -> iptoolkit.core.estate" in cycles_text(graph)
    graph = import_graph(lazy=True)
    assert graph.has_edge("iptoolkit.plot.diff_diagram", "iptoolkit.change.estate_diff")
    graph.add_edge("iptoolkit.change.diff", "iptoolkit.plot.topology", where="here:2 (lazy)")
    assert not cycles_text(graph)  # no module imports another back ...
    assert "iptoolkit.change (iptoolkit.change.diff here:2 (lazy)) -> iptoolkit.plot" in (
        cycles_text(package_graph(graph))  # ... but the packages do
    )
    assert unit("iptoolkit.server.__main__") == "iptoolkit.server.__main__"
    assert unit("iptoolkit.server.app") == "iptoolkit.server"


def without_facades(graph: nx.DiGraph[str]) -> nx.DiGraph[str]:
    """The lazy import graph less the core's facades (each is lazy, and only that)."""
    for source, target in FACADES:
        assert graph.edges[source, target]["where"].endswith("(lazy)"), (source, target)
    graph.remove_edges_from(FACADES)
    return graph


def beyond(graph: nx.DiGraph[str], modules: list[str], allowed: set[str]) -> dict[str, list[str]]:
    """For each module, the packages and top-level modules it reaches outside `allowed`."""
    found = {}
    for name in modules:
        reached = {m.split(".")[1] for m in nx.descendants(graph, name) if m != ROOT} - allowed
        if reached:
            found[name] = sorted(reached)
    return found


def layer_of(name: str) -> str | None:
    """The lower layer a module belongs to, by its package; None for a view."""
    if name == ROOT:
        return None
    top = name.split(".")[1]
    return next((layer for layer, units in LAYERS if top in units), None)


def below(layer: str) -> frozenset[str]:
    """The packages a module of `layer` may reach: its own layer's and those below."""
    names = [name for name, _ in LAYERS]
    return frozenset().union(*(units for _, units in LAYERS[: names.index(layer) + 1]))


def layers_beyond(graph: nx.DiGraph[str]) -> dict[str, list[str]]:
    """Each module of a lower layer with what it reaches above its layer."""
    found: dict[str, list[str]] = {}
    for name in sorted(graph):
        layer = layer_of(name)
        if layer is not None:
            found.update(beyond(graph, [name], set(below(layer))))
    return found


def change_beyond(graph: nx.DiGraph[str]) -> dict[str, list[str]]:
    modules = sorted(m for m in graph if m.split(".")[:2] == [ROOT, "change"])
    return beyond(graph, modules, set(below("core")) | {"change"})


def test_the_top_level_holds_packages_and_few_modules() -> None:
    """The folder tree says where a module goes: only the few in `TOP_LEVEL_MODULES` sit
    beside the packages."""
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top == TOP_LEVEL_MODULES, "a new module belongs in a package: which layer is it?"
    assert len(top) <= 6


def test_each_layer_reaches_only_itself_and_below() -> None:
    """support < models < core < query, lazy imports included but for the core's facades
    (`FACADES`); a lazy import upward is seen."""
    graph = without_facades(import_graph(lazy=True))
    for layer, _units in LAYERS:
        assert any(layer_of(m) == layer for m in graph), f"layer {layer} has no module"
    assert not layers_beyond(graph), layers_beyond(graph)
    graph.add_edge("iptoolkit.core.records", "iptoolkit.query.tables", where="here:1 (lazy)")
    assert layers_beyond(graph)["iptoolkit.core.records"] == ["query"]
    graph.add_edge("iptoolkit.models.base", "iptoolkit.core.nodes", where="here:2")
    assert "core" in layers_beyond(graph)["iptoolkit.models.base"]


def test_private_modules_stay_in_their_package() -> None:
    """A module named `_x` is its package's own: nothing outside the package imports it."""
    graph = import_graph(lazy=True)
    outside = sorted(
        f"{source} -> {target} ({data['where']})"
        for source, target, data in graph.edges(data=True)
        if target.rsplit(".", 1)[-1].startswith("_")
        and target.rsplit(".", 1)[-1] not in {"__init__", "__main__", "_version"}
        and not source.startswith(target.rsplit(".", 1)[0] + ".")
    )
    assert not outside, "private modules imported from outside their package:\n" + "\n".join(
        outside
    )


def _private_names_imported() -> list[str]:
    """`module: from target import _name` for each private name imported from a module
    whose package (the module itself, at the top level) the importer is not part of."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        here = parts[:-1] if parts[-1] == "__init__" else parts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:  # relative to the module's package, parts[:-1] (an __init__'s too)
                base = parts[: len(parts) - node.level]
                target = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.split(".")[0] == ROOT:
                target = node.module.split(".")
            else:
                continue
            is_package = PACKAGE.parent.joinpath(*target, "__init__.py").exists()
            owner = target if is_package or len(target) == 2 else target[:-1]
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and here[: len(owner)] != owner:
                    found.append(f"{'.'.join(here)}: from {'.'.join(target)} import {alias.name}")
    return sorted(found)


def test_private_names_stay_in_their_package() -> None:
    """A function, class or constant named `_x` is its package's own (a top-level
    module's, its own): one another package needs is public, named in `__all__`."""
    assert _private_names_imported() == []


def test_the_client_and_the_server_never_import_each_other() -> None:
    """The client is tested against the reference server over a socket: neither reaches
    the other's package, lazy imports included (`python -m iptoolkit.server`, which runs
    the whole command line, is a script of its own)."""
    graph = import_graph(lazy=True)
    for one, other in (("client", "server"), ("server", "client")):
        modules = sorted(m for m in graph if unit(m) == f"{ROOT}.{one}")
        assert modules and not beyond(graph, modules, {other} ^ set(_every_unit(graph))), one
    graph.add_edge("iptoolkit.client.auth", "iptoolkit.server.app", where="here:1 (lazy)")
    client = sorted(m for m in graph if m.split(".")[:2] == [ROOT, "client"])
    assert beyond(graph, client, {"server"} ^ set(_every_unit(graph))) != {}


def _every_unit(graph: nx.DiGraph[str]) -> set[str]:
    """The top-level packages and modules of the graph, by their short names."""
    return {m.split(".")[1] for m in graph if m != ROOT}


def test_change_uses_no_view() -> None:
    """`change/` reads the core (records, nodes, references, the estate) and no view, lazy
    imports included: a diff builds no graph, draws nothing, audits nothing."""
    graph = without_facades(import_graph(lazy=True))
    assert len([m for m in graph if m.startswith(f"{ROOT}.change.")]) > 10
    assert not change_beyond(graph), change_beyond(graph)
    graph.add_edge("iptoolkit.change.diff", "iptoolkit.auditing", where="here:1 (lazy)")
    assert change_beyond(graph) == {"iptoolkit.change.diff": ["auditing"]}


MATPLOTLIB_DOOR = "iptoolkit.plot.backend"
"""The one module that imports matplotlib at run time (it chooses a backend that works
without a display); every other module asks it (`pyplot`, `matplotlib_module`)."""


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_matplotlib_imports(tree: ast.Module) -> list[int]:
    """The lines that import matplotlib when they run: `import`, `from ... import`, or
    `importlib.import_module` / `__import__` of a literal name, wherever they are (in a
    function too), except under `if TYPE_CHECKING:`."""
    found: list[int] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and is_type_checking(node):
            pending.extend(node.orelse)  # the body only serves the type checker
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and node.args:
            func, first = node.func, node.args[0]
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and isinstance(first, ast.Constant):
                names = [str(first.value)]
        if any(name.split(".")[0] == "matplotlib" for name in names):
            found.append(getattr(node, "lineno", 0))
        pending.extend(ast.iter_child_nodes(node))
    return sorted(found)


def test_matplotlib_is_imported_only_through_its_door() -> None:
    """No module but `plot/backend.py` imports matplotlib at run time, so that a backend
    is always chosen the same safe way (imports for type checking are free)."""
    outside = []
    for name in module_names():
        if name == MATPLOTLIB_DOOR:
            continue
        path = module_file(name)
        tree = ast.parse(path.read_text(), filename=str(path))
        outside += [
            f"{path.relative_to(PACKAGE.parent)}:{line}"
            for line in runtime_matplotlib_imports(tree)
        ]
    assert not outside, f"import matplotlib through {MATPLOTLIB_DOOR}: {outside}"
    door = module_file(MATPLOTLIB_DOOR)
    assert runtime_matplotlib_imports(ast.parse(door.read_text())), "the door imports it"


def test_the_matplotlib_check_sees_every_way_in() -> None:
    code = (
        "from typing import TYPE_CHECKING\n"
        "import matplotlib\n"
        "if TYPE_CHECKING:\n"
        "    from matplotlib.figure import Figure\n"
        "def f():\n"
        "    from matplotlib.lines import Line2D\n"
        "    import importlib\n"
        "    importlib.import_module('matplotlib.dates')\n"
        "    from .matplotlib import nothing\n"
    )
    assert runtime_matplotlib_imports(ast.parse(code)) == [2, 6, 8]


@pytest.mark.parametrize("module", ["iptoolkit.exporters", "iptoolkit.topology.view"])
def test_text_exports_do_not_load_matplotlib(module: str) -> None:
    code = (
        f"import sys, {module}, iptoolkit.exporters.dot, iptoolkit.exporters.mermaid, "
        "iptoolkit.exporters.graphfiles\n"
        "assert 'matplotlib' not in sys.modules, sorted(m for m in sys.modules if 'matplot' in m)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _loaded_while(writing: str, tmp_path: Path, loaded: str) -> list[str]:
    """The modules matching the expression `loaded` (of `m`) that a fresh process has
    imported once it ran `writing` (with `estate` and `folder` given)."""
    code = (
        "import sys\n"
        "import iptoolkit as ipt\n"
        "folder = sys.argv[1]\n"
        f"{writing}\n"
        f"print(sorted(m for m in sys.modules if {loaded}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return list(ast.literal_eval(result.stdout.strip()))


def test_exporting_text_formats_loads_neither_matplotlib_nor_plot(tmp_path: Path) -> None:
    """Not just importing the writers: writing every text format, lazy imports included."""
    writing = (
        "estate = ipt.demo_estate(n_profiles=30, seed=2)\n"
        "for suffix in ('dot', 'mmd', 'md', 'graphml', 'gexf', 'csv', 'json'):\n"
        "    ipt.export(estate, folder + '/estate.' + suffix)"
    )
    loaded = "m.split('.')[0] == 'matplotlib' or m.startswith('iptoolkit.plot')"
    assert _loaded_while(writing, tmp_path, loaded) == []
    assert len(list(tmp_path.iterdir())) == 7


def test_the_html_file_is_written_without_matplotlib(tmp_path: Path) -> None:
    """Its labels are measured by the font's table (`label_glyphs`), not the font."""
    writing = "ipt.export(ipt.demo_estate(n_profiles=60, seed=2), folder + '/estate.html')"
    assert _loaded_while(writing, tmp_path, "m.split('.')[0] == 'matplotlib'") == []
    assert (tmp_path / "estate.html").stat().st_size > 10_000


WIDGET_LIBRARIES = frozenset({"ipywidgets", "ipysigma", "anywidget", "IPython", "traitlets"})
"""What makes a module widget code: it builds, subclasses or displays a widget."""
VIEW_READERS = ("iptoolkit.offline", "iptoolkit.docsite", "iptoolkit.app")
"""The front ends beside the Explorer: they read `viewmodel/`, never `widgets/`."""
SHOWS_THE_EXPLORER = frozenset({"iptoolkit.app.page"})
"""The app's notebook cell, run in its kernel: it displays the Explorer itself."""


def imported_names(tree: ast.Module, *, lazy: bool) -> set[str]:
    """The top-level names of what a module imports (absolute imports only)."""
    found = set()
    for node, is_lazy in all_imports(tree):
        if is_lazy and not lazy:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def widget_modules() -> list[str]:
    return [n for n in module_names() if n.startswith("iptoolkit.widgets.")]


def is_widget_code(name: str, graph: nx.DiGraph[str]) -> bool:
    """Imports a widget library at module level, or a widget of ours that does."""
    tree = ast.parse(module_file(name).read_text())
    if imported_names(tree, lazy=False) & WIDGET_LIBRARIES:
        return True
    return any(
        t.startswith("iptoolkit.widgets.") and t != name and is_widget_code(t, graph)
        for t in graph.successors(name)
    )


def test_every_module_of_widgets_is_widget_code() -> None:
    """`widgets/` holds widgets; what they show is computed in `viewmodel/` (packages'
    `__init__` aside: they only name what their modules hold, lazily)."""
    graph = import_graph()
    not_widgets = [
        name
        for name in widget_modules()
        if not module_file(name).name == "__init__.py" and not is_widget_code(name, graph)
    ]
    assert len(widget_modules()) > 10
    assert not not_widgets, f"modules of widgets/ that import no widget: {not_widgets}"


def test_the_view_model_imports_no_widget() -> None:
    """`viewmodel/` is below every front end: no widget library, no front end of ours,
    lazily or not."""
    graph = import_graph(lazy=True)
    names = [n for n in module_names() if n.startswith("iptoolkit.viewmodel.")]
    assert len(names) > 10
    fronts = {"widgets", "offline", "docsite", "app", "cli", "mcp"}
    found = {}
    for name in names:
        libraries = imported_names(ast.parse(module_file(name).read_text()), lazy=True)
        ours = {t.split(".")[1] for t in graph.successors(name) if t != ROOT} & fronts
        if libraries & WIDGET_LIBRARIES or ours:
            found[name] = sorted((libraries & WIDGET_LIBRARIES) | ours)
    assert not found, f"the view model reaches a front end: {found}"


def test_the_other_front_ends_read_the_view_model_not_widgets() -> None:
    graph = import_graph(lazy=True)
    found = [
        f"{source} {data['where']}"
        for source, target, data in graph.edges(data=True)
        if source.startswith(VIEW_READERS)
        and target.startswith("iptoolkit.widgets")
        and source not in SHOWS_THE_EXPLORER
    ]
    assert not found, "front ends reading widgets/ instead of viewmodel/:\n" + "\n".join(found)
    readers = {s.split(".")[1] for s, t in graph.edges if t.startswith("iptoolkit.viewmodel")}
    assert {"offline", "docsite", "app", "widgets"} <= readers


def test_the_widget_checks_can_fail() -> None:
    """A module of widgets/ with no widget import is seen; one importing a widget of ours is
    widget code."""
    graph = import_graph()
    assert is_widget_code("iptoolkit.widgets.topology.picture", graph)  # through SigmaBox
    assert not is_widget_code("iptoolkit.viewmodel.topology_data", graph)  # were it there
    tree = ast.parse("import json\ndef f():\n    import ipywidgets\n")
    assert imported_names(tree, lazy=False) == {"json"}
    assert imported_names(tree, lazy=True) == {"json", "ipywidgets"}
