"""The package's shape stays readable: small modules, classes of one job, short functions.

The limits are those docs/architecture.md states; a change that passes one splits the code
(a collaborator, a table) rather than raising the limit.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import iptoolkit

PACKAGE = Path(iptoolkit.__file__).parent
MAX_MODULE_LINES = 650
MAX_CLASS_METHODS = 25
MAX_FUNCTION_LINES = 100
DATA_MODULES = {"demo/data.py"}
"""Modules that are tables of data, not code: exempt from the module length."""


def sources() -> dict[str, ast.Module]:
    return {
        path.relative_to(PACKAGE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def too_long_modules() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES and name not in DATA_MODULES:
            found.append(f"{name}: {lines} lines")
    return found


def defined(trees: dict[str, ast.Module], kind: type | tuple[type, ...]) -> list[tuple[str, Any]]:
    """Every definition of `kind` in the modules, with the module's name."""
    return [(name, node) for name, tree in trees.items() for node in ast.walk(tree)
            if isinstance(node, kind)]  # fmt: skip


def large_classes(trees: dict[str, ast.Module]) -> list[str]:
    found = []
    for name, node in defined(trees, ast.ClassDef):
        methods = [b for b in node.body if isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef)]
        if len(methods) > MAX_CLASS_METHODS:
            found.append(f"{name}:{node.lineno} {node.name}: {len(methods)} methods")
    return found


def long_functions(trees: dict[str, ast.Module]) -> list[str]:
    found = []
    for name, node in defined(trees, (ast.FunctionDef, ast.AsyncFunctionDef)):
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length > MAX_FUNCTION_LINES:
            found.append(f"{name}:{node.lineno} {node.name}: {length} lines")
    return found


def test_modules_are_small() -> None:
    assert not too_long_modules(), too_long_modules()


def test_classes_do_one_job() -> None:
    trees = sources()
    assert not large_classes(trees), large_classes(trees)
    big = ast.parse("class Big:\n" + "".join(f"    def m{i}(self): ...\n" for i in range(26)))
    assert large_classes({"big.py": big}) == ["big.py:1 Big: 26 methods"]


def test_functions_are_short() -> None:
    trees = sources()
    assert not long_functions(trees), long_functions(trees)
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    assert long_functions({"f.py": ast.parse(f"def f():\n{body}")}) == ["f.py:1 f: 101 lines"]
