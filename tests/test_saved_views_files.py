"""The saved views' file under real writers (issue 44, items 3 and 9).

Two app tabs are two kernels: two processes saving at the same moment. Here 2 to 8 writer
processes save views of their own at the same moment, round after round, while a reader
reads: every view saved is there at the end and the file always parses. A writer killed
mid-write (at a random moment, or held between writing its temporary file and moving
it) loses no view and leaves no lock behind. And a file the toolkit cannot read (a
version it does not know, a key given twice, nesting too deep; TOML nested too deep in a
mapping or configuration file) is one line naming the file, through the command line.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.saved_views import FOLDER_FILE, SavedView, SavedViews

ROOT = Path(__file__).resolve().parents[1]
SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter, as a kernel is


def _view(writer: int, round_: int) -> SavedView:
    return SavedView(Filter(groups=[f"G{writer}"]), ("Finance",), f"profile:P{round_}")


def _writer(path: str, writer: int, rounds: int, barrier: Any, errors: Any) -> None:
    """Save one view a round, all writers released at the same moment."""
    views = SavedViews(path)
    for round_ in range(rounds):
        barrier.wait(timeout=120)
        try:
            views.save(f"round {round_} writer {writer}", _view(writer, round_))
        except Exception as exc:  # noqa: BLE001 - reported, and the next round goes on
            errors.put(f"writer {writer}, round {round_}: {type(exc).__name__}: {exc}")


def _reader(path: str, stop: Any, errors: Any) -> None:
    """Read the file again and again while the writers save: it always parses."""
    views = SavedViews(path)
    while not stop.is_set():
        try:
            views.names()
        except Exception as exc:  # noqa: BLE001 - reported
            errors.put(f"reader: {type(exc).__name__}: {exc}")
            return


def _drain(queue: Any) -> list[str]:
    found = []
    while True:
        try:
            found.append(queue.get(timeout=0.5))
        except Exception:  # noqa: BLE001 - queue.Empty: nothing more
            return found


@pytest.mark.parametrize(("writers", "rounds"), [(2, 40), (5, 20), (8, 15)])
def test_writers_saving_at_the_same_moment_lose_no_view(
    tmp_path: Path, writers: int, rounds: int
) -> None:
    path = tmp_path / FOLDER_FILE
    barrier, errors, stop = SPAWN.Barrier(writers), SPAWN.Queue(), SPAWN.Event()
    processes = [
        SPAWN.Process(target=_writer, args=(str(path), n, rounds, barrier, errors))
        for n in range(writers)
    ]
    reader = SPAWN.Process(target=_reader, args=(str(path), stop, errors))
    for process in [*processes, reader]:
        process.start()
    try:
        for process in processes:
            process.join(timeout=300)
    finally:
        stop.set()
        reader.join(timeout=60)
        for process in [*processes, reader]:
            if process.is_alive():
                process.kill()
    problems = _drain(errors)
    assert not problems, f"{len(problems)} failed: {problems[:5]}"
    assert [process.exitcode for process in processes] == [0] * writers
    expected = {f"round {r} writer {n}" for r in range(rounds) for n in range(writers)}
    document = json.loads(path.read_text(encoding="utf-8"))  # parses
    saved = set(document["views"])
    assert not expected - saved, (
        f"lost {len(expected - saved)} views: {sorted(expected - saved)[:5]}"
    )
    assert saved == expected
    assert SavedViews(path).get(f"round 3 writer {writers - 1}") == _view(writers - 1, 3)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [f".{FOLDER_FILE}.lock", FOLDER_FILE], left  # no temporary file left


_SAVE_IN_A_LOOP = """
import sys
from iptoolkit.viewmodel.saved_views import SavedView, SavedViews
views = SavedViews(sys.argv[1])
for n in range(100_000):
    name = f"{sys.argv[2]} {n}"
    views.save(name, SavedView(item=f"profile:P{n}"))
    print(name, flush=True)
"""

_HELD_BEFORE_THE_MOVE = """
import os, sys, time
from iptoolkit.viewmodel.saved_views import SavedView, SavedViews

def held(source, target):  # the temporary file written whole, the lock held: killed here
    print("held", flush=True)
    time.sleep(600)

os.replace = held
SavedViews(sys.argv[1]).save("never saved", SavedView())
"""


def _python(code: str, *args: str, **options: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        **options,
    )


def _save_in_a_new_process(path: Path, name: str) -> None:
    """Save one view from another process, which must not wait on a dead writer's lock."""
    code = (
        "import sys\nfrom iptoolkit.viewmodel.saved_views import SavedView, SavedViews\n"
        "SavedViews(sys.argv[1]).save(sys.argv[2], SavedView())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path), name], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_a_writer_killed_at_any_moment_loses_no_view(tmp_path: Path) -> None:
    path = tmp_path / "estate.views.json"
    confirmed: set[str] = set()
    randomly = random.Random(44)
    for kill in range(8):
        writer = _python(_SAVE_IN_A_LOOP, str(path), f"kill {kill}")
        assert writer.stdout is not None
        first = writer.stdout.readline()  # saving has begun: kill it at a random moment
        assert first, writer.stderr.read() if writer.stderr else ""
        time.sleep(randomly.uniform(0.0, 0.3))
        writer.send_signal(signal.SIGKILL)
        out, _ = writer.communicate(timeout=60)
        confirmed |= {first.strip(), *out.split("\n")} - {""}
        saved = set(SavedViews(path).names())  # parses, whatever the moment of the kill
        assert not confirmed - saved, f"lost {sorted(confirmed - saved)[:5]}"
    _save_in_a_new_process(path, "after the kills")  # no lock left held by the dead
    assert confirmed | {"after the kills"} <= set(SavedViews(path).names())
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_a_writer_killed_between_its_temporary_file_and_the_move_loses_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "estate.views.json"
    views = SavedViews(path)
    views.save("kept", SavedView(Filter(groups=["Finance"])))
    before = path.read_bytes()
    writer = _python(_HELD_BEFORE_THE_MOVE, str(path))
    assert writer.stdout is not None
    assert writer.stdout.readline() == "held\n", writer.stderr.read() if writer.stderr else ""
    [temporary] = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert "never saved" in temporary.read_text(encoding="utf-8")  # written, not yet moved
    writer.send_signal(signal.SIGKILL)
    writer.communicate(timeout=60)
    assert path.read_bytes() == before and views.names() == ["kept"]
    _save_in_a_new_process(path, "next")  # the dead writer's lock is gone
    assert views.names() == ["kept", "next"]
    assert views.get("kept") == SavedView(Filter(groups=["Finance"]))
    assert not temporary.exists(), "the next save removes a dead writer's temporary file"


def test_a_leftover_temporary_file_is_never_read_and_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "estate.views.json"
    views = SavedViews(path)
    views.save("kept", SavedView())
    leftover = tmp_path / ".estate.views.json.saving-x1y2z3w4.tmp"
    leftover.write_text('{"version": 1, "views": {"half', encoding="utf-8")
    other = tmp_path / ".other.views.json.saving-x1y2z3w4.tmp"  # another file's writer
    other.write_text("in progress", encoding="utf-8")
    assert views.names() == ["kept"]
    views.save("next", SavedView())
    assert views.names() == ["kept", "next"]
    assert not leftover.exists() and other.exists()


def test_a_save_keeps_the_files_mode(tmp_path: Path) -> None:
    path = tmp_path / "estate.views.json"
    SavedViews(path).save("one", SavedView())
    os.chmod(path, 0o640)
    SavedViews(path).save("two", SavedView())
    assert path.stat().st_mode & 0o777 == 0o640


# -- files the toolkit cannot read -----------------------------------------------------------

DEEP_JSON = '{"version": 1, "views": {"x": {"filter": ' + "[" * 5000 + "]" * 5000 + "}}}"
BAD_VIEWS = {
    "version 99": ('{"version": 99, "views": {}}', "views file of version 99"),
    "no version": ('{"views": {}}', "views file of no version"),
    "version true": ('{"version": true, "views": {}}', "views file of version true"),
    "a key twice": (
        '{"version": 1, "views": {"mine": {"item": "profile:P1"}, "mine": {}}}',
        'the key "mine" is given 2 times',
    ),
    "an unknown key": ('{"version": 1, "views": {}, "extra": 1}', "unknown key 'extra'"),
    "too deep": (DEEP_JSON, "nested too deeply"),
}


@pytest.mark.parametrize("case", BAD_VIEWS)
def test_a_views_file_it_cannot_read_is_refused_naming_the_file(tmp_path: Path, case: str) -> None:
    text, said = BAD_VIEWS[case]
    path = tmp_path / FOLDER_FILE
    path.write_text(text, encoding="utf-8")
    views = SavedViews(path)
    with pytest.raises(ValueError, match=said) as caught:
        views.names()
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(ValueError, match=said):
        views.save("new", SavedView())  # never replaced silently
    assert path.read_text(encoding="utf-8") == text


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`iptoolkit ARGS` in a process of its own; Voila's start replaced by an exit 99, so
    that a check that does not stop the command serves nothing."""
    code = (
        "import sys\nfrom iptoolkit.app import runner\n"
        "runner.start = lambda *args, **kwargs: sys.exit(99)\n"
        "from iptoolkit.cli import main\nmain(sys.argv[1:], prog_name='iptoolkit')\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)},
    )


def _one_line(done: subprocess.CompletedProcess[str], name: str, said: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("Error: ") and name in lines[0] and said in lines[0], lines[0]
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr


def test_explore_refuses_a_views_file_it_cannot_read_in_one_line(tmp_path: Path) -> None:
    """Given a folder (`--views`) or beside the snapshot: exit 2, one line, before Voila."""
    pytest.importorskip("voila")
    snapshot = tmp_path / "estate.json"
    ipt.demo_estate(20, seed=1).save(snapshot)
    folder = tmp_path / "views"
    folder.mkdir()
    explore = ("explore", str(snapshot), "--no-browser", "--port", "0")
    for case, beside in (("version 99", False), ("too deep", False), ("a key twice", True)):
        text, said = BAD_VIEWS[case]
        path = tmp_path / "estate.views.json" if beside else folder / FOLDER_FILE
        path.write_text(text, encoding="utf-8")
        done = _cli(*explore, *(() if beside else ("--views", str(folder))), cwd=tmp_path)
        _one_line(done, path.name, said)


DEEP_TOML = "a = " + "[" * 3000 + "]" * 3000 + "\n"
DEEP_INLINE = "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n"


@pytest.mark.parametrize("deep", [DEEP_TOML, DEEP_INLINE], ids=["arrays", "inline tables"])
def test_toml_nested_too_deeply_is_one_line_naming_the_file(tmp_path: Path, deep: str) -> None:
    estate = tmp_path / "estate.json"
    ipt.demo_estate(20, seed=1).save(estate)
    mapping = tmp_path / "mapping.toml"
    mapping.write_text('format = "iptoolkit.compare-mapping"\nversion = 1\n' + deep)
    done = _cli("compare", str(estate), str(estate), "--mapping", str(mapping), cwd=tmp_path)
    _one_line(done, "mapping.toml", "nested too deeply")
    config = tmp_path / "iptoolkit.toml"
    config.write_text("[audit]\n" + deep)
    done = _cli("audit", str(estate), "--config", str(config), cwd=tmp_path)
    _one_line(done, "iptoolkit.toml", "nested too deeply")
