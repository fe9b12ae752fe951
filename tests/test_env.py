"""The environment variables: one table (`iptoolkit.support.env`), for the client, CLI, server."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click

from iptoolkit.cli import main
from iptoolkit.support import env

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"IPTOOLKIT_[A-Z][A-Z_]*")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            found.add(id(body[0].value))
    return found


def test_only_the_table_spells_a_variable_name_in_code() -> None:
    spelt = []
    for path in sorted((ROOT / "iptoolkit").rglob("*.py")):
        if path.name == "env.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in skip and NAME.search(node.value):
                    spelt.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert spelt == []


def test_every_variable_the_project_mentions_is_in_the_table() -> None:
    texts = [p.read_text(encoding="utf-8") for p in (ROOT / "iptoolkit").rglob("*.py")]
    texts += [(ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in (ROOT / "notebooks").glob("*.ipynb")]
    mentioned = {name for text in texts for name in NAME.findall(text)}
    assert mentioned - set(env.ENV_VARS) == set()
    assert set(env.SECRET_VARIABLES.values()) <= set(env.ENV_VARS)


def test_the_fetch_command_reads_the_table() -> None:
    ctx = click.Context(main)  # the command table loads each command when first named
    fetch = main.get_command(ctx, "fetch")
    assert fetch is not None
    envvars = {p.envvar for p in fetch.params if isinstance(p, click.Option) and p.envvar}
    read = envvars | set(env.SECRET_VARIABLES.values()) | {env.DEBUG}
    # --max-size of the loading commands; watch's webhooks; what `explore` hands its app;
    # `mcp --http`'s token;
    # the delay of every command's progress bars (`support/progress.py`)
    app = {
        env.PROGRESS_DELAY,
        env.APP_SNAPSHOT,
        env.APP_FOLDER,
        env.APP_UNMASKED,
        env.APP_TOKEN,
        env.APP_VIEWS,
        env.APP_SINCE,
        env.APP_ARCHIVE,
        env.MCP_TOKEN,
    }
    watch = main.get_command(ctx, "watch")
    assert watch is not None
    notify = {p.envvar for p in watch.params if isinstance(p, click.Option) and p.envvar}
    assert env.NOTIFY in notify  # the webhook, kept off the command line
    assert read | {env.MAX_LOAD_SIZE, env.NOTIFY} | app == set(env.ENV_VARS)
    for name in ("summary", "findings", "plot", "export"):
        command = main.get_command(ctx, name)
        assert command is not None, name
        params = command.params
        assert env.MAX_LOAD_SIZE in {p.envvar for p in params if isinstance(p, click.Option)}
