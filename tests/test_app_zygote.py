"""The app's zygote (`app.zygote`): one process reads the snapshot, and every kernel is a
fork of it that finds the estate held (`app.held`) instead of reading it again.

A kernel is started as Voila starts one, through jupyter_client's kernel manager with the
app's provisioner (`app.fork_provisioner`), and asked over its channels what it holds;
shutting it down, killing it, and the zygote's own death each end the kernel process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from iptoolkit.app import held as held_module
from iptoolkit.app import zygote
from iptoolkit.app.fork_provisioner import ForkedKernel, ForkProvisioner, kernel_args
from iptoolkit.support import env

pytestmark = pytest.mark.timeout(300)

STARTED = 120.0  # s: a kernel's start on a shared machine


def _gone(pid: int, within: float) -> bool:
    """True once process `pid` has ended (a zombie counts as ended) within `within` s."""
    deadline = time.monotonic() + within
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@pytest.fixture
def running(snapshot: Path) -> Iterator[zygote.Zygote]:
    started = zygote.start({**os.environ, env.APP_SNAPSHOT: str(snapshot)})
    try:
        assert zygote.verdict(started, STARTED) == 60
        yield started
    finally:
        zygote.stop(started)


def _kernel(tmp_path: Path, address: str, snapshot: Path, name: str) -> Any:
    """A kernel manager whose kernel the zygote at `address` forks, as Voila's would."""
    from jupyter_client.manager import KernelManager

    manager = KernelManager(transport="ipc", connection_file=str(tmp_path / f"kernel-{name}.json"))
    manager.provisioner = ForkProvisioner(
        kernel_id=name, kernel_spec=manager.kernel_spec, parent=manager, zygote_address=address
    )
    manager.start_kernel(env={**os.environ, env.APP_SNAPSHOT: str(snapshot)}, cwd=str(tmp_path))
    return manager


def _run(manager: Any, code: str) -> str:
    """What `code` printed in the kernel."""
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=STARTED)
        printed: list[str] = []

        def hook(message: dict[str, Any]) -> None:
            if message["msg_type"] == "stream":
                printed.append(message["content"]["text"])
            elif message["msg_type"] == "error":
                printed.append("\n".join(message["content"]["traceback"]))

        client.execute_interactive(code, output_hook=hook, timeout=STARTED)
    finally:
        client.stop_channels()
    return "".join(printed)


HOLDS = """
import os
from iptoolkit.app import held, page
kept = held.held(os.environ["IPTOOLKIT_APP_SNAPSHOT"])
explorer = page.show()
print(kept is not None, kept.pid if kept else None, len(kept.estate) if kept else None,
      explorer.model is kept.model if kept and explorer else None, os.getpid())
"""


def test_a_kernel_forked_for_a_tab_finds_the_estate_held(
    tmp_path: Path, snapshot: Path, running: zygote.Zygote
) -> None:
    manager = _kernel(tmp_path, running.address, snapshot, "one")
    try:
        pid = manager.provisioner.pid
        assert _parent(pid) == running.process.pid, "forked by the zygote"
        said = _run(manager, HOLDS).split()
        # the estate and the Explorer's model the zygote built, not read again
        assert said == ["True", str(running.process.pid), "60", "True", str(pid)], said
        interrupted = manager.is_alive()
        manager.interrupt_kernel()  # a signal to the kernel's own group: it lives on
        assert interrupted and manager.is_alive()
    finally:
        manager.shutdown_kernel(now=False)
    assert _gone(pid, 30), "a kernel shut down ends its process"


def test_a_forked_kernel_registers_the_widget_comm_targets(
    tmp_path: Path, snapshot: Path, running: zygote.Zygote
) -> None:
    """ipywidgets was imported in the zygote, outside IPython, where it registers no comm
    target: without `jupyter.widget.control` a page asks each widget's state apart (some
    300 round trips), so a forked kernel registers them as it starts."""
    manager = _kernel(tmp_path, running.address, snapshot, "widgets")
    try:
        said = _run(manager, "import comm\nprint(*sorted(comm.get_comm_manager().targets))")
    finally:
        manager.shutdown_kernel(now=False)
    assert {"jupyter.widget", "jupyter.widget.control"} <= set(said.split()), said


def test_a_kernel_killed_or_orphaned_ends(
    tmp_path: Path, snapshot: Path, running: zygote.Zygote
) -> None:
    killed = _kernel(tmp_path, running.address, snapshot, "killed")
    orphan = _kernel(tmp_path, running.address, snapshot, "orphan")
    pids = killed.provisioner.pid, orphan.provisioner.pid
    try:
        killed.shutdown_kernel(now=True)  # what the culler's and Voila's kill come to
        assert _gone(pids[0], 30) and not killed.is_alive()
        assert orphan.is_alive()
        running.process.kill()  # a zygote that dies takes its kernels with it
        assert _gone(pids[1], 30), "a kernel outlived its zygote"
    finally:
        for pid in pids:
            if not _gone(pid, 0):
                os.kill(pid, signal.SIGKILL)


def test_a_bad_snapshot_is_said_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("not json at all")
    started = zygote.start({**os.environ, env.APP_SNAPSHOT: str(path)})
    try:
        with pytest.raises(zygote.SnapshotError) as raised:
            zygote.verdict(started, STARTED)
        assert "broken.json" in str(raised.value) and "\n" not in str(raised.value)
        assert started.ending
    finally:
        zygote.stop(started)  # let end, not signalled in its exit (its own code, not -15)
    assert started.process.returncode == 1
    assert not started.folder.exists(), "its socket's folder is removed"


def test_a_bad_older_snapshot_is_said_in_one_line(tmp_path: Path, snapshot: Path) -> None:
    """`explore --since`: the zygote reads the older snapshot too, and refuses a bad one
    before the app starts, as it refuses the snapshot (every kernel failed on it)."""
    path = tmp_path / "older.json"
    path.write_text("not json at all")
    environ = {**os.environ, env.APP_SNAPSHOT: str(snapshot), env.APP_SINCE: str(path)}
    started = zygote.start(environ)
    try:
        with pytest.raises(zygote.SnapshotError) as raised:
            zygote.verdict(started, STARTED)
        said = str(raised.value)
        assert said.startswith("--since: ") and "older.json" in said and "\n" not in said
    finally:
        zygote.stop(started)
    assert started.process.returncode == 1


def test_the_zygote_draws_the_first_view(running: zygote.Zygote) -> None:
    answer = zygote.request(running.address, {"first_view": True}, STARTED)
    assert '<div id="ipt-first-view"' in answer["html"] and "60 of 60 profiles" in answer["html"]
    assert "error" in zygote.request(running.address, {"what": True}, STARTED)


def test_the_zygote_draws_a_filters_first_view_in_a_fork(
    running: zygote.Zygote, snapshot: Path
) -> None:
    """A filtered address's drawing: the overview of what the filter keeps, counted as the
    Explorer counts it; drawn by a fork, so the zygote answers the next request at once."""
    import iptoolkit as ipt
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    estate = ipt.load(snapshot)
    group = sorted({record.group for record in estate.records if record.group})[0]
    chosen = ipt.Filter(groups=[group])
    counts = ExplorerModel(estate).select(chosen).counts_text()
    assert not counts.startswith("60 of"), counts
    answer = zygote.request(
        running.address, {"first_view": True, "filter": chosen.to_json()}, STARTED
    )
    assert f"<div class='ipt-fv-counts'>{counts}</div>" in answer["html"]
    assert f"filter: group {group}" in answer["html"]
    assert "drawn for this address" in answer["html"]
    whole = zygote.request(running.address, {"first_view": True}, STARTED)["html"]
    assert "60 of 60 profiles" in whole  # the overview's drawing is not the filter's
    bad = zygote.request(running.address, {"first_view": True, "filter": "[1"}, STARTED)
    assert bad["html"] is None and "JSON" in bad["error"], bad
    assert zygote.request(running.address, {"first_view": True}, STARTED)["html"] == whole


def test_an_estate_is_held_for_its_snapshot_as_it_was(tmp_path: Path, snapshot: Path) -> None:
    import pandas

    import iptoolkit as ipt
    from iptoolkit.viewmodel.explorer_model import ExplorerModel

    copy = tmp_path / "estate.json"
    copy.write_bytes(snapshot.read_bytes())
    estate = ipt.load(copy)
    try:
        kept = held_module.hold(estate, held_module.snapshot_key(copy))
        assert held_module.held(copy) is kept and held_module.held(str(copy)) is kept
        assert held_module.held(snapshot) is None and held_module.held(None) is None
        built = kept.model.__dict__  # the table kept as the model's own (cached properties)
        fresh = ExplorerModel(estate)
        pandas.testing.assert_frame_equal(built["frame"], fresh.frame)
        assert built["profile_labels"] == fresh.profile_labels
        os.utime(copy, ns=(1, 1))  # rewritten since: read again, not taken for the one held
        assert held_module.held(copy) is None
        copy.unlink()
        assert held_module.held(copy) is None
    finally:
        held_module._held = None


def test_the_older_snapshot_is_held_for_its_file_as_it_was(tmp_path: Path, snapshot: Path) -> None:
    import iptoolkit as ipt

    older = tmp_path / "older.json"
    older.write_bytes(snapshot.read_bytes())
    estate, before = ipt.load(snapshot), ipt.load(older)
    try:
        key = held_module.snapshot_key(older)
        assert key is not None
        kept = held_module.hold(estate, held_module.snapshot_key(snapshot), (key, before))
        assert kept.since_for(older) is before and kept.since_for(str(older)) is before
        assert kept.since_for(snapshot) is None and kept.since_for(None) is None
        os.utime(older, ns=(1, 1))  # rewritten since: the kernel reads it again
        assert kept.since_for(older) is None
    finally:
        held_module._held = None


def test_a_forked_kernel_is_followed_by_its_pidfd() -> None:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        kernel = ForkedKernel(process.pid)
        assert kernel.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            kernel.wait(0.1)
        kernel.terminate()
        assert kernel.wait(30) == 0 and kernel.poll() == 0
        kernel.kill()  # ended: nothing to signal, and no error
    finally:
        process.kill()
        process.wait()
    assert process.returncode == -signal.SIGTERM


def test_only_ipykernel_is_forked() -> None:
    command = [sys.executable, "-m", "ipykernel_launcher", "-f", "/run/kernel-1.json"]
    assert kernel_args(command) == ["-f", "/run/kernel-1.json"]
    assert kernel_args(["R", "--slave", "-f", "/run/kernel-1.json"]) is None


def test_a_fork_that_fails_is_answered_and_the_zygote_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Out of memory or processes, the fork drawing a filter's first view fails: the page
    is told (no drawing, the reason), and the zygote is not ended by it."""
    import errno
    import json
    import socket

    def no_fork() -> int:
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", no_fork)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    asking, answering = socket.socketpair()
    try:
        zygote._draw_apart(lambda chosen: "<div/>", "{}", listener, answering)
        answering.close()
        said = json.loads(asking.makefile("rb").readline())
    finally:
        listener.close()
        asking.close()
    assert said["html"] is None and "Cannot allocate memory" in said["error"], said
