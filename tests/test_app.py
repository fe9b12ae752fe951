"""`iptoolkit explore`: the Explorer as a Voila app.

The command's checks run in-process with CliRunner, Voila's start replaced by a recorder so
that nothing is served (bad snapshot, port in use, missing extra, what it hands the
kernel); one test starts the real command as a subprocess on a free port, reads the page
over HTTP (the Explorer's output is there, its code is not), then stops it with Ctrl-C and
checks Voila's kernel went with it. The app's notebook ships in the package and Binder's
copy (`notebooks/app.ipynb`) is the same notebook.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.app import NOTEBOOK, TITLE, page
from iptoolkit.app import runner as voila
from iptoolkit.cli import main
from iptoolkit.cli.explore import explore_command
from iptoolkit.support import env
from iptoolkit.viewmodel.change_marks import diff_map

from .app_processes import app_kernels
from .browser.lab import printed_app_url, wait_listening, wait_logged

ROOT = Path(__file__).resolve().parent.parent


class _Started(Exception):
    """Raised by the fake Voila start: the command got as far as serving."""


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, str]]]:
    """Voila's start replaced: records (port, environment) and stops the command there."""
    calls: list[tuple[int, dict[str, str]]] = []

    def fake_start(port: int, environ: dict[str, str], **_: Any) -> voila.App:
        calls.append((port, dict(environ)))
        raise _Started

    monkeypatch.setattr(voila, "start", fake_start)
    return calls


def test_explore_is_listed_and_explains_itself(runner: CliRunner) -> None:
    listed = runner.invoke(main, ["--help"])
    assert "  explore " in listed.output and "Voila" in listed.output
    result = runner.invoke(main, ["explore", "--help"])
    assert result.exit_code == 0
    for word in ("[SNAPSHOT]", "--port", "--no-browser", "--folder", "127.0.0.1", "'app'"):
        assert word in result.output, word


def test_a_missing_snapshot_is_refused_before_voila(
    runner: CliRunner, started: list[tuple[int, dict[str, str]]]
) -> None:
    result = runner.invoke(main, ["explore", "nowhere.json", "--no-browser"])
    assert result.exit_code == 2
    assert "'nowhere.json' does not exist" in result.output
    assert started == []


def test_voila_never_answering_is_one_line_not_a_traceback(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never_answers(port: int, environ: dict[str, str], **_: Any) -> voila.App:
        raise TimeoutError(f"Voila did not answer on http://127.0.0.1:{port}/ within 60 s")

    monkeypatch.setattr(voila, "start", never_answers)
    # the command itself, not only `iptoolkit`'s catch-all for OSError around it
    result = runner.invoke(explore_command, ["--no-browser", "--port", "0"])
    assert result.exit_code == 1, result.output
    assert "did not answer" in result.output and "Traceback" not in result.output
    assert not isinstance(result.exception, TimeoutError)


@pytest.mark.parametrize("content", [b"not json at all", b'[{"id": 1}, {"id": 1'])
def test_an_unreadable_snapshot_is_one_line_before_voila(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    result = _run_main(["explore", str(path), "--no-browser", "--port", "0"])
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "broken.json" in lines[0]
    assert "Voila" not in result.stderr and "Traceback" not in result.stderr


def test_an_unreadable_older_snapshot_is_one_line_before_voila(
    tmp_path: Path, snapshot: Path
) -> None:
    """`--since` is read before anything starts, as SNAPSHOT is, with its exit code."""
    path = tmp_path / "older.json"
    path.write_bytes(b"not json at all")
    args = ["explore", str(snapshot), "--since", str(path), "--no-browser", "--port", "0"]
    result = _run_main(args)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --since: "), lines
    assert "older.json" in lines[0] and "not JSON" in lines[0]
    assert "Voila" not in result.stderr and "Traceback" not in result.stderr


def test_a_port_in_use_is_a_clear_error(
    runner: CliRunner, started: list[tuple[int, dict[str, str]]]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(main, ["explore", "--no-browser", "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is in use" in result.output
    assert started == []


def test_the_kernel_is_told_the_snapshot_and_folder(
    runner: CliRunner,
    started: list[tuple[int, dict[str, str]]],
    snapshot: Path,
    tmp_path: Path,
    monkeypatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(
        main, ["explore", str(snapshot), "--port", "0", "--max-size", "5MB", "--folder", "out"]
    )
    assert isinstance(result.exception, _Started), result.output
    [(port, environ)] = started
    assert port > 0, "port 0 means any free port, chosen before Voila starts"
    assert environ[env.APP_SNAPSHOT] == str(snapshot.resolve())
    assert environ[env.APP_FOLDER] == str(tmp_path / "out")
    assert environ[env.MAX_LOAD_SIZE] == "5000000"


def test_the_kernel_is_told_the_older_snapshot_to_show_changes_since(
    runner: CliRunner, started: list[tuple[int, dict[str, str]]], snapshot: Path, monkeypatch
) -> None:
    monkeypatch.setenv(env.APP_SINCE, "/left/over/from/before.json")
    result = runner.invoke(main, ["explore", str(snapshot), "--port", "0"])
    assert isinstance(result.exception, _Started), result.output
    assert env.APP_SINCE not in started[0][1]
    since = ["--since", str(snapshot)]
    result = runner.invoke(main, ["explore", str(snapshot), "--port", "0", *since])
    assert isinstance(result.exception, _Started), result.output
    assert started[1][1][env.APP_SINCE] == str(snapshot.resolve())


def _fifo_fed(path: Path, data: bytes) -> threading.Thread:
    """A named pipe at `path` that a thread writes `data` into once (a shell's `<(...)`)."""
    os.mkfifo(path)

    def feed() -> None:
        with path.open("wb") as pipe:
            pipe.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    return writer


def test_a_snapshot_from_a_pipe_is_copied_for_the_app_and_its_views_kept_here(
    runner: CliRunner, snapshot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app reads SNAPSHOT in its own process, where `<(gunzip -c a.json.gz)` is
    neither open nor readable twice: the command hands it a copy, and keeps the saved
    views in the current folder (none beside a pipe)."""
    seen: list[tuple[bytes, dict[str, str]]] = []

    def fake_start(port: int, environ: dict[str, str], **_: Any) -> voila.App:
        seen.append((Path(environ[env.APP_SNAPSHOT]).read_bytes(), dict(environ)))
        raise _Started

    monkeypatch.setattr(voila, "start", fake_start)
    monkeypatch.chdir(tmp_path)
    pipe = tmp_path / "piped"
    writer = _fifo_fed(pipe, gzip.compress(snapshot.read_bytes()))
    result = runner.invoke(main, ["explore", str(pipe), "--port", "0"])
    writer.join(timeout=30)
    assert isinstance(result.exception, _Started), result.output
    [(copied, environ)] = seen
    assert copied == snapshot.read_bytes(), "the pipe's JSON, gunzipped, once"
    assert environ[env.APP_VIEWS] == str(tmp_path)
    assert f"saved views are kept in {tmp_path}" in result.output
    assert not Path(environ[env.APP_SNAPSHOT]).exists(), "the copy goes with the command"


def test_a_pipe_past_max_size_is_refused_before_voila(
    runner: CliRunner, started: list[tuple[int, dict[str, str]]], tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    pipe = tmp_path / "piped"
    writer = _fifo_fed(pipe, b"[" + b" " * 5000 + b"]")
    result = runner.invoke(main, ["explore", str(pipe), "--port", "0", "--max-size", "1KB"])
    writer.join(timeout=30)
    assert result.exit_code == 2, result.output
    assert "'SNAPSHOT'" in result.output and "past the limit of" in result.output
    assert started == []


def test_without_a_snapshot_the_kernel_shows_the_demo(
    runner: CliRunner, started: list[tuple[int, dict[str, str]]], monkeypatch
) -> None:
    monkeypatch.setenv(env.APP_SNAPSHOT, "/left/over/from/before.json")
    result = runner.invoke(main, ["explore", "--port", "0"])
    assert isinstance(result.exception, _Started), result.output
    assert env.APP_SNAPSHOT not in started[0][1]


def test_voila_is_asked_for_loopback_and_one_port() -> None:
    line = voila.command(8123)
    assert line[1:3] == ["-m", "iptoolkit.app.server"] and line[3] == str(NOTEBOOK)
    for part in ("--no-browser", "--port=8123", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"):
        assert part in line


def test_voila_is_told_to_refill_its_pool_after_the_page_it_served_is_live() -> None:
    """The option reaches the class Voila's pool is (a renamed class or trait would leave
    Voila's 1 s, silently); its effect is timed by `benchmarks/bench_app_100k.py`."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from traitlets.config import Application
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    parsed = Application()
    parsed.parse_command_line([part for part in voila.command(8123) if re.match(r"--\w+\.", part)])
    pool = voila_kernel_manager_factory(AsyncMappingKernelManager, True, voila.POOL_SIZE)
    trait = pool.class_traits(config=True)["fill_delay"]
    given = parsed.config[pool.__name__]["fill_delay"].get_value(trait)
    assert given == voila.REFILL_AFTER > trait.default_value


def test_without_the_extra_the_command_names_it() -> None:
    result = _run_main(["explore", "--no-browser"], blocked="voila")
    assert result.returncode == 1
    assert result.stderr == (
        "Error: the standalone Explorer app (iptoolkit explore) needs the 'app' extra, which "
        "is not installed (no module named 'voila'): pip install -e '.[app]'\n"
    )


def _run_main(args: list[str], *, blocked: str | None = None) -> subprocess.CompletedProcess[str]:
    code = "from iptoolkit.cli import main\nmain(sys.argv[1:], prog_name='iptoolkit')\n"
    if blocked:
        code = f"sys.modules[{blocked!r}] = None\n" + code
    return subprocess.run(
        [sys.executable, "-c", "import sys\n" + code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )


# -- the page the kernel shows ---------------------------------------------------------------


def test_show_titles_the_explorer_with_its_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = _capture_display(monkeypatch)
    path = tmp_path / "estate.json"
    ipt.demo_estate(n_profiles=20, seed=2).save(path)
    monkeypatch.setenv(env.APP_SNAPSHOT, str(path))
    monkeypatch.setenv(env.APP_FOLDER, str(tmp_path / "exports"))
    explorer = page.show()
    assert explorer is not None and len(explorer.selection) == 20
    assert explorer.exporter.folder.value == str(tmp_path / "exports")
    title = shown[0].data
    assert f"<h1>{TITLE}</h1>" in title and "estate.json" in title
    assert "PageAddress" in repr(shown[1].children[0])  # "Copy link", the address followed
    assert "ipt-views" in shown[2]._dom_classes  # the named views, kept beside the snapshot
    assert explorer.views is not None and explorer.views.path == tmp_path / "estate.views.json"
    assert shown[3] is explorer
    explorer.close()


def test_show_since_an_older_snapshot_maps_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _capture_display(monkeypatch)
    old = ipt.demo_estate(n_profiles=40, seed=2)
    path, older = tmp_path / "estate.json", tmp_path / "older.json"
    ipt.demo_changes(old, seed=1).save(path)
    old.save(older)
    monkeypatch.setenv(env.APP_SNAPSHOT, str(path))
    monkeypatch.setenv(env.APP_SINCE, str(older))
    explorer = page.show()
    assert explorer is not None
    explorer._topology_tab.set_visible(True)  # the Topology tab, as the page shows it
    changes = explorer.topology.changes
    expected = ipt.diff(old, explorer.selection)
    assert expected.counts()["changes"]
    assert changes is not None
    assert changes.marked_graph.counts() == diff_map(expected).marked.counts()
    explorer.close()


def test_show_without_a_snapshot_is_the_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = _capture_display(monkeypatch)
    monkeypatch.delenv(env.APP_SNAPSHOT, raising=False)
    explorer = page.show()
    assert explorer is not None and len(explorer.selection) == page.DEMO_PROFILES
    assert "a demo estate of 300 profiles" in shown[0].data
    assert explorer.diagram_png is None  # the page is live: no static copy drawn
    explorer.close()


def test_show_says_in_one_line_why_a_snapshot_cannot_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = _capture_display(monkeypatch)
    assert page.show(tmp_path / "gone.json") is None
    [message] = shown
    assert "ipt-app-error" in message.data
    said = f"Cannot read the snapshot: {tmp_path / 'gone.json'}: cannot read the file (No such"
    assert said in message.data


def test_the_title_masks_credentials_in_the_source(tmp_path: Path) -> None:
    from iptoolkit.core.snapshot import SnapshotInfo

    estate = ipt.demo_estate(n_profiles=5)
    info = SnapshotInfo(source_url="https://bob:hunter2@platform.example?token=abc")
    # from_raw takes an estate's raw_profiles, a tuple, which its annotation leaves out
    dated = ipt.Estate.from_raw(estate.raw_profiles, info=info)  # type: ignore[arg-type]
    text = page.title_html(dated, tmp_path / "s.json")
    assert "hunter2" not in text and "token=abc" not in text
    assert "platform.example" in text


def _capture_display(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import IPython.display

    shown: list[Any] = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **_: shown.append(obj))
    return shown


# -- the notebook ----------------------------------------------------------------------------


def test_binders_app_notebook_is_the_shipped_one() -> None:
    shipped = json.loads(NOTEBOOK.read_text())
    binder = json.loads((ROOT / "notebooks" / "app.ipynb").read_text())
    assert [c["source"] for c in binder["cells"]] == [c["source"] for c in shipped["cells"]]
    assert binder["metadata"]["title"] == shipped["metadata"]["title"] == TITLE
    [cell] = shipped["cells"]
    assert cell["outputs"] == [] and cell["execution_count"] is None, "ship it unexecuted"


# -- the real thing ----------------------------------------------------------------------------


def test_explore_serves_the_app_without_code_and_stops_on_ctrl_c(
    tmp_path: Path, snapshot: Path
) -> None:
    port = voila.check_port(0)
    log = tmp_path / "explore.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.cli", "explore", str(snapshot), "--no-browser",
             "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, start_new_session=True,
        )  # fmt: skip
    try:
        wait_listening(process, port, log)
        address = printed_app_url(log, port)  # printed as it listens: waited for, not raced
        wait_logged(log, "first view drawn", process)
        with urllib.request.urlopen(address, timeout=180) as response:
            assert response.status == 200
            html = response.read().decode()
        filtered = _filtered_page_head(address + "&group=Finance")
        item = _page_head(address + "&group=Finance&item=channel:40003")
        kernels = [kernel.pid for kernel in app_kernels(process.pid)]
        assert kernels, "Voila runs the notebook on a kernel (forked by the app's zygote)"
        process.send_signal(signal.SIGINT)
        process.wait(60)
    finally:
        _kill_leftovers(process)
    text = log.read_text()
    assert process.returncode == 0, text
    assert f"<title>{TITLE}</title>" in html
    assert "ipt-app-title" in html and "snapshot.json" in html
    assert "application/vnd.jupyter.widget-view+json" in html, "the Explorer's widget"
    assert "from iptoolkit.app import show" not in html, "no code is shown"
    # the first view: drawn at start, in the page of the overview's address, before the
    # cells Voila hides until its scripts ran; a filtered address's is its filter's; an
    # address opening an item in Details gets none (an overview would misstate it)
    drawing = html.find('<div id="ipt-first-view"')
    assert 0 < drawing < html.index('<div id="rendered_cells"'), html[:3000]
    assert "60 of 60 profiles" in html and "Overview of 60 profiles" in html
    assert "<svg" in html[drawing:] and "<!--ipt-first-view-->" not in html
    head = html[: html.index("</head>")]
    assert "#ipt-first-view {" in head and "<style>" not in html[drawing:], "its style in <head>"
    assert "<!--ipt-first-view-style-->" not in html
    assert '<div id="rendered_cells"' in filtered and '<div id="ipt-first-view"' in filtered
    drawn = filtered[filtered.index('<div id="ipt-first-view"') : filtered.index(CELLS)]
    assert "filter: group Finance" in drawn and "60 of 60 profiles" not in drawn
    assert re.search(r"ipt-fv-counts'>\d+ of 60 profiles", drawn), drawn[:3000]
    assert '<div id="rendered_cells"' in item and "ipt-first-view" not in item
    assert "<!--ipt-first-view-style-->" not in item
    assert "Stopping the Explorer app" in text and "Kernel shutdown" in text
    time.sleep(0.5)
    assert [pid for pid in kernels if Path(f"/proc/{pid}").exists()] == [], "kernel left"


def _page_head(address: str) -> str:
    """The page up to its cells (Voila streams the rest as the notebook runs)."""
    read = b""
    with urllib.request.urlopen(address, timeout=180) as response:
        while b'<div id="rendered_cells"' not in read:
            chunk = response.read1(65536)
            if not chunk:
                break
            read += chunk
    return read.decode()


CELLS = '<div id="rendered_cells"'


def _filtered_page_head(address: str, *, within: float = 120) -> str:
    """A filtered address's page head once it holds its first view: drawn while the page
    starts, it may miss the first page on a loaded machine (`server.FILTERED_WAIT`), and
    is kept for the next."""
    deadline = time.monotonic() + within
    while True:
        head = _page_head(address)
        if '<div id="ipt-first-view"' in head or time.monotonic() > deadline:
            return head
        time.sleep(1)


def _kill_leftovers(process: subprocess.Popen[bytes]) -> None:
    """After a failure: the command, and Voila and its kernels (sessions of their own)."""
    if process.poll() is None:
        for pid in _descendants(process.pid, ""):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _descendants(pid: int, needle: str) -> list[int]:
    """Processes under `pid` whose command line holds `needle` (read from /proc)."""
    parent: dict[int, int] = {}
    command: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        command[int(entry.name)] = line

    def under(child: int) -> bool:
        while child > 1:
            child = parent.get(child, 0)
            if child == pid:
                return True
        return False

    return [child for child in parent if needle in command[child] and under(child)]


def test_a_socket_closed_before_it_was_counted_leaves_the_kernel_to_the_culler() -> None:
    """A page that leaves while its kernel's websocket is being set up: jupyter_server
    counts the close without the open, the count goes to -1 and its culler (which frees
    only kernels with no connection) would keep that kernel for good (seen in the team
    browser test on a busy machine: a kernel still running 90 s after every page closed)."""
    pytest.importorskip("voila")
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

    from iptoolkit.app.server import connections_never_below_zero

    manager = MappingKernelManager()
    manager._kernel_connections["k"] = 0  # as a started kernel has it
    connections_never_below_zero(manager)
    manager.notify_disconnect("k")  # the close of a socket never counted
    assert manager._kernel_connections["k"] == 0  # culled when idle, as a closed tab is
    manager.notify_connect("k")
    manager.notify_connect("k")
    manager.notify_disconnect("k")
    assert manager._kernel_connections["k"] == 1  # a real close still counts


def test_a_kernel_handed_to_a_page_waits_for_it_to_connect() -> None:
    """The culler leaves a kernel just handed to a page until that page connects (or the
    grace has passed): a page slower than the idle timeout on a loaded machine once found
    its kernel culled and never drew its view (the team browser test, in CI)."""
    pytest.importorskip("voila")
    import asyncio

    culled: list[str] = []
    manager = _pool_culling_into(culled, ("slow", "lost"), grace=3600)

    async def visit() -> None:
        await manager.get_rendered_notebook("slow")
        await manager.cull_kernel_if_idle("slow")
        assert culled == []  # handed out, not connected yet: left alone
        assert manager._kernels["slow"].last_activity is not None
        manager.notify_connect("slow")
        await manager.cull_kernel_if_idle("slow")
        assert culled == ["slow"]  # connected once: the culler decides as before
        await manager.cull_kernel_if_idle("lost")
        assert culled == ["slow", "lost"]  # never handed out: as before

    asyncio.run(visit())

    late = _pool_culling_into(culled, ("k",), grace=0)

    async def grace_over() -> None:
        await late.get_rendered_notebook("k")
        await late.cull_kernel_if_idle("k")

    asyncio.run(grace_over())
    assert culled[-1] == "k"  # the grace over, a page that never came frees its kernel


def _pool_culling_into(culled: list[str], kernels: tuple[str, ...], grace: float) -> Any:
    """A kernel manager holding `kernels`, as Voila's pool has it, whose culler notes the
    kernels it would cull in `culled`, with `handed_out_kernels_wait(grace)` applied."""
    import types

    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

    from iptoolkit.app.server import handed_out_kernels_wait

    manager: Any = MappingKernelManager()  # Voila's pool adds get_rendered_notebook

    async def cull(kernel_id: str) -> None:
        culled.append(kernel_id)

    async def rendered(kernel_id: str) -> tuple[None, list[str], str]:
        return None, [], kernel_id

    for kernel_id in kernels:
        manager._kernels[kernel_id] = types.SimpleNamespace(last_activity=None)
        manager._kernel_connections[kernel_id] = 0
    manager.cull_kernel_if_idle = cull
    manager.get_rendered_notebook = rendered
    handed_out_kernels_wait(manager, grace=grace)
    return manager
