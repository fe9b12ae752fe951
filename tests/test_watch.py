"""The watch against the reference server on loopback, posting to a local HTTP receiver."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
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


@pytest.fixture(autouse=True)
def no_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Backoff waits become no-ops; the list records what was asked for."""
    asked: list[float] = []
    monkeypatch.setattr(watch, "sleep", asked.append)
    monkeypatch.setattr(notify, "sleep", asked.append)
    return asked


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


def _fetcher(srv: RunningServer):  # noqa: ANN202
    def fetch() -> ipt.Estate:
        auth = ipt.ClientCredentials(srv.client_id, srv.client_secret)
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
    assert body["summary"]["new"]["fetched_at"] == archive.estate(2).info.fetched_at.isoformat()
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
