"""The `iptoolkit` process's exit (`host.run`): a command that kept what it built
(`keep_until_exit`) ends without freeing it, with the same output and exit code as the
command run in a test, and any doubt takes Python's own exit."""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import host


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("exit")
    old = ipt.demo_estate(120, seed=2)
    paths = {name: folder / f"{name}.json" for name in ("old", "new", "test")}
    paths["site"] = folder / "site"
    old.save(paths["old"])
    ipt.demo_changes(old, seed=1).save(paths["new"])
    ipt.demo_environment(old, plant=True).save(paths["test"])
    return paths


_BUFFERED = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
"""The environment of a process whose stdout a pipe buffers, as a shell's is."""


def _process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "iptoolkit.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**_BUFFERED, "COLUMNS": "200"},
    )


@pytest.mark.parametrize(
    "args",
    [
        ("diff", "{old}", "{new}", "--exit-code"),
        ("diff", "{old}", "{old}", "--exit-code", "--format", "json"),
        ("diff", "{old}", "{new}", "--format", "csv"),
        ("compare", "{old}", "{test}", "--format", "json"),
        ("compare", "{old}", "{old}"),
        ("docs", "{new}", "-o", "{site}", "--previous", "{old}"),
    ],
)
def test_the_process_says_what_the_command_says(
    files: dict[str, Path], args: tuple[str, ...]
) -> None:
    given = [arg.format(**{name: str(path) for name, path in files.items()}) for arg in args]
    ran = _process(*given)
    tested = CliRunner().invoke(host.main, given, env={"COLUMNS": "200"})
    assert ran.returncode == tested.exit_code, ran.stderr
    assert ran.stdout == tested.stdout and ran.stdout  # flushed whole before the exit
    assert host._kept is None  # a test's command keeps nothing


def test_the_docs_command_keeps_its_estates_until_the_exit(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host, "_kept", [])  # as when `run` is the process
    args = ["docs", str(files["new"]), "-o", str(files["site"]), "--previous", str(files["old"])]
    result = CliRunner().invoke(host.main, args)
    assert result.exit_code == 0, result.output
    kept = [thing for thing in host._kept or [] if isinstance(thing, ipt.Estate)]
    assert len(kept) == 2  # the snapshot and the previous one


@pytest.mark.parametrize(
    "args", [("export", "{old}", "-o", "{out}.dot"), ("plot", "{old}", "-o", "{out}.svg")]
)
def test_export_and_plot_keep_their_estate_until_the_exit(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """Freeing a 100k estate took 3 s after 'Wrote ...': a prompt late for nothing."""
    monkeypatch.setattr(host, "_kept", [])
    given = [arg.format(old=files["old"], out=tmp_path / "out") for arg in args]
    result = CliRunner().invoke(host.main, given)
    assert result.exit_code == 0, result.output
    assert any(isinstance(thing, ipt.Estate) for thing in host._kept or [])


def test_an_error_still_ends_the_process_with_one_line(files: dict[str, Path]) -> None:
    ran = _process("compare", str(files["old"]), str(files["old"].with_name("gone.json")))
    assert ran.returncode == 2 and ran.stdout == ""
    assert ran.stderr.count("\n") == 1 and ran.stderr.startswith("Error: ")


class _Ended(Exception):
    """Stands for `os._exit` in a test."""


@pytest.fixture
def process(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """`run` with a stand-in command, `os._exit` and exit handlers, to see which exit it
    takes."""
    seen: dict[str, Any] = {"handlers": 0, "keep": True, "code": 3, "threads": []}

    def command(prog_name: str) -> None:
        if seen["keep"]:
            host.keep_until_exit(object())
        sys.exit(seen["code"])

    def ended(code: int) -> None:
        raise _Ended(code)

    def handlers() -> None:
        seen["handlers"] += 1

    monkeypatch.setattr(host, "main", command)
    monkeypatch.setattr(os, "_exit", ended)
    monkeypatch.setattr(atexit, "_run_exitfuncs", handlers)
    # the threads besides the main one (daemon or not) stand for the suite's own
    others = lambda: [SimpleNamespace(daemon=daemon) for daemon in seen["threads"]]  # noqa: E731
    monkeypatch.setattr(threading, "enumerate", lambda: [threading.main_thread(), *others()])
    monkeypatch.setattr(threading, "active_count", lambda: 1 + len(seen["threads"]))
    monkeypatch.setattr(host, "_kept", None)
    return seen


def test_a_kept_result_ends_the_process_unfreed_after_the_handlers(
    process: dict[str, Any],
) -> None:
    with pytest.raises(_Ended) as ended:
        host.run()
    assert ended.value.args == (3,) and process["handlers"] == 1


def test_nothing_kept_is_python_s_own_exit(process: dict[str, Any]) -> None:
    process["keep"] = False
    with pytest.raises(SystemExit) as ended:
        host.run()
    assert ended.value.code == 3 and process["handlers"] == 0


def test_another_thread_running_is_python_s_own_exit(process: dict[str, Any]) -> None:
    process["threads"] = [True, False]
    with pytest.raises(SystemExit) as ended:
        host.run()
    assert ended.value.code == 3 and process["handlers"] == 0
    assert host._kept is None  # freed before Python's teardown, where it costs seconds


def test_a_daemon_thread_is_no_doubt(process: dict[str, Any]) -> None:
    """tqdm's monitor lives on once a bar was shown: on a terminal, the exit stays quick."""
    process["threads"] = [True, True]
    with pytest.raises(_Ended) as ended:
        host.run()
    assert ended.value.args == (3,) and process["handlers"] == 1


def test_a_message_as_exit_code_is_python_s_own_exit(process: dict[str, Any]) -> None:
    process["code"] = "a message"
    with pytest.raises(SystemExit) as ended:
        host.run()
    assert ended.value.code == "a message"


def test_a_flush_that_fails_is_python_s_own_exit(
    process: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Gone:
        def flush(self) -> None:
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", Gone())
    with pytest.raises(SystemExit) as ended:
        host.run()
    assert ended.value.code == 3


def test_what_a_command_wrote_unflushed_is_flushed_before_the_exit() -> None:
    script = (
        "import sys\n"
        "from iptoolkit.cli import host\n"
        "def command(prog_name):\n"
        "    sys.stdout.write('written, not flushed')\n"
        "    sys.stderr.write('said')\n"
        "    host.keep_until_exit(object())\n"
        "    sys.exit(1)\n"
        "host.main = command\n"
        "host.run()\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=_BUFFERED
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (1, "written, not flushed", "said")
