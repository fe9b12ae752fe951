"""Every long command shows its progress on a terminal and nothing in a pipe or in CI.

Each command runs in this process (no interpreter to start: a few seconds for them all) with
stderr a real pseudo-terminal, or a pipe, read by a thread as a reader would. Small estates
show their bars because `IPTOOLKIT_PROGRESS_DELAY=0` (bars show at once, not after 2 s).
"""

from __future__ import annotations

import io
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.models import ChannelBase

pytest.importorskip("duckdb")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two small snapshots, a day apart."""
    path = tmp_path_factory.mktemp("progress")
    ipt.demo_estate(n_profiles=2, seed=1).save(path / "a.json")
    ipt.demo_estate(n_profiles=2, seed=2).save(path / "b.json")
    return path


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    from iptoolkit.server import running

    with running(ipt.demo_estate(n_profiles=4, seed=3)) as server:
        yield server


def _run(args: list[str], *, terminal: bool, shared: bool = False) -> tuple[int, str]:
    """Run `iptoolkit ARGS` with stderr a pseudo-terminal (or a pipe): the exit code and
    what stderr received (`shared`: stdout too, in the order a terminal shows them)."""
    read, write = os.openpty() if terminal else os.pipe()
    received = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(read, 65536)
            except OSError:  # a terminal whose other end closed
                break
            if not chunk:
                break
            received.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    code = 0
    with open(write, "w", encoding="utf-8") as stderr, pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stderr", stderr)
        patch.setattr(sys, "stdout", stderr if shared else io.StringIO())
        try:
            main.main(args, prog_name="iptoolkit")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    reader.join()
    os.close(read)
    return code, received.decode("utf-8", "replace")


def _archive(path: Path, snapshot: Path) -> Path:
    result = CliRunner().invoke(main, ["archive", "add", str(snapshot), "--archive", str(path)])
    assert result.exit_code == 0, result.output
    return path


# command -> its arguments ({tmp}: a folder of its own; an archive there is made first for
# `archive compact`), and what its progress says
COMMANDS = {
    "summary": ("summary {a}", "Indexing profiles"),
    "audit": ("audit {a}", "Auditing (rules)"),
    "diff": ("diff {a} {b}", "Comparing the snapshots"),
    "compare": ("compare {a} {b}", "Comparing the installations"),
    "export": ("export {a} -o {tmp}/x.html", "Writing each item's details"),  # counted
    "plot": ("plot {a} -o {tmp}/x.svg", "Drawing x.svg"),
    "docs": ("docs {a} -o {tmp}/site --jobs 1", "Drawing the diagrams"),  # counted
    "archive add": ("archive add {a} --archive {tmp}/x.db", "Adding a.json (1 of 1)"),
    "archive import": ("archive import {folder} --archive {tmp}/x.db", "Adding b.json (2 of 2)"),
    "archive compact": ("archive compact --archive {tmp}/x.db", "Compacting x.db"),
    "fetch": ("fetch --base-url {url} --client-id {client} -o {tmp}/x.json", "Fetching profiles"),
    "watch": (
        "watch --once --archive {tmp}/x.db --base-url {url} --client-id {client}",
        "Adding to the archive",
    ),
    "serve": ("serve --snapshot {a}", "Indexing profiles"),
    "mcp": ("mcp {a}", "Indexing profiles"),
}


class _Served:
    """What the servers serve here: nothing (they load, then would serve until stopped)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def run(self) -> None:
        pass


SERVING = {"serve": "iptoolkit.server.runner.serve", "mcp": "iptoolkit.mcp.build_server"}


@pytest.mark.parametrize("command", COMMANDS)
def test_progress_on_a_terminal_and_none_in_a_pipe_or_in_ci(
    command: str, folder: Path, server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template, said = COMMANDS[command]
    if command in SERVING:
        if command == "mcp":
            pytest.importorskip("mcp")
        monkeypatch.setattr(SERVING[command], _Served)
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "0")
    monkeypatch.setenv("IPTOOLKIT_CLIENT_SECRET", server.client_secret or "")
    runs = {}
    for condition, terminal, ci in (("terminal", True, ""), ("pipe", False, ""), ("CI", True, "1")):
        monkeypatch.setenv("CI", ci)
        workdir = tmp_path / condition
        workdir.mkdir()
        if command == "archive compact":
            _archive(workdir / "x.db", folder / "a.json")
        places = {"a": folder / "a.json", "b": folder / "b.json", "folder": folder}
        places |= {"tmp": workdir, "url": server.base_url, "client": server.client_id}
        args = [word.format(**places) for word in template.split()]
        code, runs[condition] = _run(args, terminal=terminal)
        assert code in (0, 1), (condition, code, runs[condition])
    assert said in runs["terminal"], runs["terminal"]
    assert re.search(r"\d\d:\d\d", runs["terminal"])  # how long it has run (or is left)
    for condition in ("pipe", "CI"):
        assert said not in runs[condition], (condition, runs[condition])
        assert not re.search(r"\d\d:\d\d", runs[condition]), (condition, runs[condition])


def test_never_is_silent_on_a_terminal_and_no_progress_still_says_so(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "0")
    monkeypatch.delenv("CI", raising=False)
    for flag in ("--progress=never", "--no-progress"):
        code, received = _run(["summary", str(folder / "a.json"), flag], terminal=True)
        assert code == 0 and received == "", (flag, received)
    code, received = _run(["summary", str(folder / "a.json")], terminal=True)
    assert "Indexing profiles" in received  # the same run with auto: bars


def test_always_shows_bars_even_in_a_pipe(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "1")
    monkeypatch.delenv("IPTOOLKIT_PROGRESS_DELAY", raising=False)
    args = ["diff", str(folder / "a.json"), str(folder / "b.json"), "--progress", "always"]
    code, received = _run(args, terminal=False)
    assert code == 0 and "Comparing the snapshots" in received
    code, received = _run(args[:-1], terminal=False)  # only fetch's takes no value
    assert code == 2 and "requires an argument" in received
    summary = ["summary", "--progress", "never", str(folder / "a.json")]
    code, received = _run(summary, terminal=True)  # the snapshot after it is no mode
    assert code == 0 and "Indexing profiles" not in received, received


def test_fetch_keeps_its_older_flag_progress_alone_means_always() -> None:
    import click

    fetch = main.get_command(click.Context(main), "fetch")
    assert fetch is not None
    assert fetch.make_context("fetch", ["--progress"]).meta == {"iptoolkit.progress_mode": "always"}
    assert fetch.make_context("fetch", ["--no-progress"]).meta == {
        "iptoolkit.progress_mode": "never"
    }


def test_no_progress_is_hidden_from_help() -> None:
    result = CliRunner().invoke(main, ["fetch", "--help"])
    assert "--progress [auto|always|never]" in result.output
    assert "--no-progress" not in result.output


@pytest.mark.parametrize(
    ("args", "said", "report"),
    [
        ("impact {a} {channel}", "Finding what stops", "Without "),
        ("drift {a}", "Comparing with the spec", "Schema drift"),
        ("paths {a} {channel} {partner}", "Finding the paths", " -> "),
    ],
)
def test_a_bar_ends_before_the_report_it_would_be_drawn_into(
    args: str, said: str, report: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Left open, the load's bar sat at 100 % while the command worked, the report began
    on its line, and the bar was drawn again below the report when the command ended."""
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "0")
    monkeypatch.delenv("CI", raising=False)
    estate = ipt.load(folder / "a.json", progress=False)
    channel = next(iter(estate.channels.values()))
    assert isinstance(channel, ChannelBase) and channel.partner is not None
    places = {"a": folder / "a.json", "channel": f"channel:{channel.id}"}
    places["partner"] = f"partner:{channel.partner.id}"
    code, shown = _run([w.format(**places) for w in args.split()], terminal=True, shared=True)
    assert code in (0, 1), shown
    bars, _, after = shown.partition(report)
    assert said in bars and bars.endswith("\n"), shown  # the bar's line ended first
    assert "%|" not in after and "Indexing" not in after, shown
