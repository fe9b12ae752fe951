"""The watch against the reference server on loopback, posting to a local HTTP receiver."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

pytest.importorskip("duckdb")
pytest.importorskip("fastapi")
from iptoolkit.archive import Archive, notify, watch  # noqa: E402
from iptoolkit.server import RunningServer, running  # noqa: E402
from iptoolkit.server.catalogue import Catalogue  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_waits")  # tests/conftest.py: no back-off waited


@pytest.fixture(scope="module")
def estates() -> tuple[ipt.Estate, ipt.Estate]:
    week = ipt.demo_estate(40, seed=5)
    return week, ipt.demo_changes(week, seed=2)


@pytest.fixture
def server(estates: tuple[ipt.Estate, ipt.Estate]) -> Iterator[RunningServer]:
    with running(estates[0]) as srv:
        yield srv


class Receiver:
    """A webhook on loopback: records what is POSTed, answers `status`."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.status = 200
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                length = int(self.headers["Content-Length"])
                outer.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(outer.status)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hooks/T000/SECRETPATH"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _fetcher(srv: RunningServer) -> Callable[[], ipt.Estate]:
    client_id, secret = srv.client_id, srv.client_secret
    assert client_id is not None and secret is not None, "the server has no client to fetch as"

    def fetch() -> ipt.Estate:
        auth = ipt.ClientCredentials(client_id, secret)
        with ipt.Client(srv.base_url, auth=auth) as client:
            return client.fetch_estate(progress=False)

    return fetch


def _serve(srv: RunningServer, estate: ipt.Estate) -> None:
    srv.app.state.server.catalogue = Catalogue(estate.raw_profiles)


def test_a_breaking_change_is_fetched_stored_and_posted(
    server: RunningServer, estates: tuple[ipt.Estate, ipt.Estate], tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "estate.duckdb")
    lines: list[str] = []
    with Receiver() as receiver:
        first = watch.watch_once(
            archive, _fetcher(server), notify=[receiver.url], echo=lines.append
        )
        assert (first.snapshot_id, first.exit_code, receiver.bodies) == (1, 0, [])
        _serve(server, estates[1])
        second = watch.watch_once(
            archive, _fetcher(server), notify=[receiver.url], echo=lines.append
        )
    assert second.snapshot_id == 2 and second.alert and second.exit_code == 1
    assert archive.estate(2).raw_profiles == estates[1].raw_profiles
    [body] = receiver.bodies
    expected = ipt.diff(estates[0], estates[1])
    counts = {k: v for k, v in expected.to_dict()["summary"].items() if k not in ("old", "new")}
    assert {k: v for k, v in body["summary"].items() if k not in ("old", "new")} == counts
    fetched_at = archive.estate(2).info.fetched_at
    assert fetched_at is not None and body["summary"]["new"]["fetched_at"] == fetched_at.isoformat()
    assert body["text"].startswith("**iptoolkit watch**: snapshot 2")
    assert expected.summary().split("\n")[0] in body["text"]
    assert {c["severity"] for c in body["changes"]} == {"breaking"}
    assert any(expected.summary().split("\n")[0] in line for line in lines)
    assert not any("SECRETPATH" in line for line in lines)  # a webhook's path is its secret


def test_an_unreachable_receiver_does_not_lose_the_snapshot(
    server: RunningServer,
    estates: tuple[ipt.Estate, ipt.Estate],
    tmp_path: Path,
    no_waits: list[float],
) -> None:
    archive = Archive(tmp_path / "estate.duckdb")
    watch.watch_once(archive, _fetcher(server), echo=lambda _: None)
    _serve(server, estates[1])
    with Receiver() as receiver:
        receiver.status = 503
        lines: list[str] = []
        result = watch.watch_once(
            archive, _fetcher(server), notify=[receiver.url], echo=lines.append
        )
    assert len(receiver.bodies) == notify.ATTEMPTS  # tried again, then given up
    assert no_waits == [1.0, 2.0, 4.0]
    [delivery] = result.deliveries
    assert not delivery.ok and delivery.error == "HTTP 503"
    assert any("FAILED after 4 attempts" in line for line in lines)
    assert len(archive) == 2 and archive.estate(2).raw_profiles == estates[1].raw_profiles


def test_a_failing_server_is_retried_reported_and_nothing_stored(
    tmp_path: Path, estates: tuple[ipt.Estate, ipt.Estate], no_waits: list[float]
) -> None:
    archive = Archive(tmp_path / "estate.duckdb")
    with running(estates[0]) as srv:
        fetch = _fetcher(srv)
    lines: list[str] = []
    result = watch.watch_once(archive, fetch, echo=lines.append)  # the server is gone
    assert result.exit_code == 2 and result.snapshot_id is None
    assert "the fetch failed 3 times" in result.error
    assert sum("fetch failed (attempt" in line for line in lines) == 3
    assert no_waits[:2] == [5.0, 10.0]
    assert not archive.path.exists()


def test_watch_once_on_the_command_line(
    server: RunningServer,
    estates: tuple[ipt.Estate, ipt.Estate],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from click.testing import CliRunner

    from iptoolkit.cli import main

    monkeypatch.setenv("IPTOOLKIT_CLIENT_SECRET", server.client_secret or "")
    path = tmp_path / "estate.duckdb"
    args = [
        "watch",
        "--archive",
        str(path),
        "--once",
        "--base-url",
        server.base_url,
        "--client-id",
        server.client_id or "",
    ]
    runner = CliRunner()
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    _serve(server, estates[1])
    changelog = tmp_path / "changelog.md"
    second = runner.invoke(main, [*args, "--exec", f"tee {changelog}"])
    assert second.exit_code == 1, second.output
    assert "breaking" in second.output
    assert changelog.read_text() == Archive(path).diff(1, 2).to_markdown()
    log = runner.invoke(
        main, ["archive", "log", next(iter(estates[1].channels)).__str__(), "--archive", str(path)]
    )
    assert log.exit_code == 0 and "appeared" in log.output
    broken = tmp_path / "broken.duckdb"
    broken.write_bytes(b"not a database")  # trouble is 2, never 1 ("a change landed")
    troubled = runner.invoke(main, [*args[:2], str(broken), *args[3:]])
    assert troubled.exit_code == 2, troubled.output
    assert troubled.output.count("\n") <= 2 and "Traceback" not in troubled.output
    assert "not a DuckDB file" in troubled.output
    quiet = runner.invoke(main, args, env={"IPTOOLKIT_NOTIFY": "https://ok.example/a ftp://x/b"})
    assert quiet.exit_code == 2, quiet.output  # the variable read, each URL checked
    assert "IPTOOLKIT_NOTIFY" in quiet.output and "not an http(s) URL" in quiet.output
    assert not Path(f"{broken}.pending").exists()  # told before fetching, nothing kept aside
    for every, said in (("abc", "--every 'abc'"), ("0s", "--every '0s'"), ("1h", "exclude")):
        wrong = runner.invoke(main, [*args, "--every", every])  # with --once: both given
        if every != "1h":
            wrong = runner.invoke(main, [*args[:3], "--every", every, *args[4:]])
        assert wrong.exit_code == 2 and said in wrong.output, wrong.output


def _holder(path: Path) -> subprocess.Popen[str]:
    """Another process holding the archive as an analyst does (a read-only connection)
    until its standard input closes."""
    code = (
        "import sys, duckdb\n"
        f"con = duckdb.connect({str(path)!r}, read_only=True)\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def _lines(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """The lines a process prints, as they come."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return lines


def _until(lines: queue.Queue[str], seen: list[str], done: Callable[[], bool]) -> None:
    """Read `lines` into `seen` until `done()` (at most a minute)."""
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, seen
        with contextlib.suppress(queue.Empty):
            seen.append(lines.get(timeout=0.2))


def test_a_busy_archive_keeps_the_snapshot_and_every_goes_on(
    server: RunningServer, estates: tuple[ipt.Estate, ipt.Estate], tmp_path: Path
) -> None:
    """An analyst's read-only connection held open: the round keeps its snapshot beside
    the archive and exits 2; `--every` says so each round and goes on; once the archive
    is free, the kept snapshots are added (and diffed) before the new one."""
    path = tmp_path / "estate.duckdb"
    pending = path.with_name("estate.duckdb.pending")
    env = {**os.environ, "IPTOOLKIT_CLIENT_SECRET": server.client_secret or ""}
    watch_args = [sys.executable, "-m", "iptoolkit.cli", "watch", "--archive", str(path)]
    watch_args += ["--base-url", server.base_url, "--client-id", server.client_id or ""]
    watch_args += ["--lock-timeout", "0.3"]
    first = subprocess.run([*watch_args, "--once"], env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    _serve(server, estates[1])
    holder = _holder(path)
    every: subprocess.Popen[str] | None = None
    try:
        busy = subprocess.run([*watch_args, "--once"], env=env, capture_output=True, text=True)
        assert busy.returncode == 2, (busy.stdout, busy.stderr)  # trouble, not "a change"
        assert busy.stderr.count("\n") == 1 and "Traceback" not in busy.stderr, busy.stderr
        assert "the archive is in use by another process" in busy.stderr
        [kept] = pending.iterdir()
        assert f"the snapshot is kept in {kept} and added next round" in busy.stderr
        kept_estate = ipt.load(kept)
        assert kept_estate.raw_profiles == estates[1].raw_profiles
        every = subprocess.Popen(
            [*watch_args, "--every", "1s"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines, seen = _lines(every), [busy.stderr]
        _until(lines, seen, lambda: sum("added next round" in line for line in seen) >= 3)
        holder.communicate("")  # the analyst is done

        def caught_up() -> bool:  # every snapshot kept aside stored, then a fresh one
            stored = [n for n, line in enumerate(seen) if line.endswith("now stored")]
            if not stored or len(stored) != sum("added next round" in line for line in seen):
                return False
            return seen[-1].startswith("snapshot ") and len(seen) - 1 > stored[-1]

        _until(lines, seen, caught_up)
        assert every.poll() is None, seen  # --every went on through the busy rounds
    finally:
        holder.kill()
        if every is not None:
            every.terminate()
            every.wait(timeout=30)
    assert not pending.exists()
    stored = Archive(path)
    assert len(stored) == 1 + sum(line.startswith("snapshot ") for line in seen)
    for snapshot_id in range(2, len(stored) + 1):
        assert stored.estate(snapshot_id).raw_profiles == estates[1].raw_profiles
    added_late = stored.snapshots.set_index("snapshot_id").loc[2]
    assert added_late.fetched_at.to_pydatetime() == kept_estate.info.fetched_at  # its own time
    last = stored.last_diff(2)
    assert last is not None and any(change.severity == "breaking" for change in last.changes)


def test_every_goes_on_when_a_round_fails_outright(server: RunningServer, tmp_path: Path) -> None:
    """The archive's folder removed under a running watch: no add, nowhere to keep the
    snapshot; each round says so in one line and the next comes all the same. (A folder
    missing at the start is refused before any fetch: tests/test_cli_guard.py.)"""
    path = tmp_path / "gone" / "estate.duckdb"
    path.parent.mkdir()
    env = {**os.environ, "IPTOOLKIT_CLIENT_SECRET": server.client_secret or ""}
    every = subprocess.Popen(
        [sys.executable, "-m", "iptoolkit.cli", "watch", "--archive", str(path), "--every", "1s"]
        + ["--base-url", server.base_url, "--client-id", server.client_id or ""],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = _lines(every)
        seen: list[str] = []
        first = ("snapshot 1 ", "snapshot 1:")
        _until(lines, seen, lambda: any(line.startswith(first) for line in seen))
        shutil.rmtree(path.parent)  # between rounds: the round ends once it said so
        del seen[:]
        _until(lines, seen, lambda: sum("nor could the snapshot" in line for line in seen) >= 2)
        assert every.poll() is None, seen
    finally:
        every.terminate()
        every.wait(timeout=30)
    assert all(line.startswith("error: ") for line in seen), seen
    assert "Traceback" not in "\n".join(seen) and not path.parent.exists()


def test_fetch_into_a_busy_archive_keeps_the_snapshot(
    server: RunningServer,
    estates: tuple[ipt.Estate, ipt.Estate],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`fetch --archive` into an archive another process holds past the lock timeout
    loses no fetch: it is kept where the watch keeps one, named, and added later."""
    from click.testing import CliRunner

    from iptoolkit.cli import main

    path = tmp_path / "estate.duckdb"
    Archive(path).add(ipt.demo_estate(5, seed=1))
    defaults = Archive.__init__.__kwdefaults__  # fetch takes no --lock-timeout: 10 s
    assert defaults is not None
    monkeypatch.setitem(defaults, "lock_timeout", 0.2)
    monkeypatch.setenv("IPTOOLKIT_CLIENT_SECRET", server.client_secret or "")
    args = ["fetch", "--archive", str(path), "--base-url", server.base_url]
    holder = _holder(path)
    try:
        busy = CliRunner().invoke(main, [*args, "--client-id", server.client_id or ""])
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    assert busy.exit_code == 1, busy.output
    assert "in use by another process" in busy.stderr and "Traceback" not in busy.output
    [kept] = watch.pending_folder(Archive(path)).glob("*.json.gz")
    assert f"the snapshot is kept in {kept}" in busy.stderr
    assert ipt.load(kept).raw_profiles == estates[0].raw_profiles
    watch.watch_once(Archive(path), _fetcher(server), echo=lambda _: None)
    assert not kept.exists() and len(Archive(path)) == 3  # the kept one, then the round's
