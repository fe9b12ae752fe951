"""`iptoolkit explore` is driven only by who started it, and dies with it (issue 22,
findings 2 and 13): the token and the Host allow-list over real HTTP, the export folder
fixed and exports masked in the Export panel, and the command stopping on SIGINT (even
started with SIGINT ignored), SIGTERM and SIGHUP, its Voila going with it on SIGKILL."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import iptoolkit as ipt
from iptoolkit.app import runner as voila
from iptoolkit.widgets.exporter import ExportPanel

from .browser.lab import wait_listening, wait_logged
from .test_app import _descendants, _kill_leftovers

SECRET = "app-secret-7d41"


def _explore(
    tmp_path: Path, *args: str, ignore_sigint: bool = False
) -> tuple[subprocess.Popen[bytes], int, Path]:
    port = voila.check_port(0)
    log = tmp_path / f"explore-{port}.log"

    def setup() -> None:
        if ignore_sigint:  # as a script's background job (`iptoolkit explore &`) starts it
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.cli", "explore", "--no-browser", "--port",
             str(port), *args],
            stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, start_new_session=True,
            preexec_fn=setup,
        )  # fmt: skip
    wait_listening(process, port, log)
    return process, port, log


def _url(log: Path) -> str:
    """The address the command printed (just after Voila began to listen)."""
    deadline = time.monotonic() + 30
    while not (found := re.search(r"at (http://127\.0\.0\.1:\d+/\?token=[\w-]+)", log.read_text())):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    return found.group(1)


@pytest.fixture(scope="module")
def app(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    """One app, started as a background job of a script would (SIGINT ignored)."""
    tmp_path = tmp_path_factory.mktemp("app")
    process, port, log = _explore(tmp_path, ignore_sigint=True)
    try:
        yield process, port, log
    finally:
        _kill_leftovers(process)


def test_the_app_answers_only_with_its_token_and_a_loopback_host(app) -> None:
    process, port, log = app
    url = _url(log)
    token = url.split("token=")[1]
    with httpx.Client(timeout=180) as http:
        without = http.get(f"http://127.0.0.1:{port}/")
        assert without.status_code == 403, "no redirect to Jupyter's login form"
        guessed = http.get(f"http://127.0.0.1:{port}/?token=not-{token}")
        assert guessed.status_code == 403
        rebound = http.get(url, headers={"Host": f"evil.example:{port}"})
        assert rebound.status_code == 403  # DNS rebinding: refused even with the token
        page = http.get(url, headers={"Host": f"localhost:{port}"})
        assert page.status_code == 200 and "application/vnd.jupyter.widget" in page.text
    command_line = Path(f"/proc/{process.pid}/cmdline").read_bytes()
    for pid in _descendants(process.pid, ""):
        assert token.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
    assert token.encode() not in command_line


def test_a_link_without_the_token_gets_the_apps_own_page(app) -> None:
    """A colleague given a link without the token learns what this is and whom to ask,
    not Jupyter's `jupyter server list`; nothing they sent comes back, the token least."""
    process, port, log = app
    token = _url(log).split("token=")[1]
    hostile = "<script>alert(1)</script>"
    asked = [
        f"/?partner=Acme&token={hostile}",
        f"/?token=not-{token}",
        f"/voila/render/explorer.ipynb?x={hostile}",
        f"/login?next=/%3Fq%3D{hostile}",
    ]
    with httpx.Client(timeout=180) as http:
        for path in asked:
            page = http.get(f"http://127.0.0.1:{port}{path}")
            assert page.status_code == 403, path
            assert page.headers["content-type"].startswith("text/html")
            text = page.text
            assert "iptoolkit explore" in text and "Ask the person who runs it" in text
            assert "jupyter server list" not in text and "<form" not in text
            assert hostile not in text and "alert(1)" not in text
            assert token not in text and f"not-{token}" not in text
        posted = http.post(f"http://127.0.0.1:{port}/login", data={"password": "guess"})
        assert posted.status_code == 403 and "<form" not in posted.text  # (xsrf: no body)
        rebound = http.get(f"http://127.0.0.1:{port}/", headers={"Host": f"evil.example:{port}"})
        assert rebound.status_code == 403 and "iptoolkit explore" not in rebound.text


def test_no_caller_without_the_token_hears_what_a_page_asked(app) -> None:
    """Voila's `/voila/query/<kernel id>` websocket answered anyone, without the token and
    under any Host, with the query string of the page a preheated kernel served: the token
    in it. Kernel ids are in /proc/net/unix, which every local user reads. The app reads
    no request info from there, so the route is gone (the page's catch-all refuses it)."""
    process, port, log = app
    url = _url(log)
    token = url.split("token=")[1]
    page = httpx.get(url, timeout=180)
    found = re.search(r'"kernelId": "([0-9a-f-]+)"', page.text)
    assert found is not None, "the page names its kernel"
    kernel = found.group(1)
    assert kernel in Path("/proc/net/unix").read_text()  # any local user finds it there
    heard = asyncio.run(_hear(f"ws://127.0.0.1:{port}/voila/query/{kernel}"))
    assert token not in heard
    assert heard == "refused 403"


async def _hear(address: str) -> str:
    """What a websocket at `address` says first (within 5 s), or how it refused."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    try:
        socket = await websocket_connect(HTTPRequest(address, headers={"Host": "evil.example"}))
    except HTTPClientError as exc:
        return f"refused {exc.code}"
    try:
        said = await asyncio.wait_for(socket.read_message(), 5)
    except TimeoutError:
        said = None
    socket.close()
    return str(said)


def test_a_refused_or_failed_request_is_logged_without_the_token(app) -> None:
    """Tornado logs the address of a request that fails (a 404, a file Voila will not
    serve, the busy page's 503) as it was asked: the token in it, for whoever reads the
    log. The command prints it once, at start; every other line masks it."""
    process, port, log = app
    token = _url(log).split("token=")[1]
    with httpx.Client(timeout=180) as http:
        missing = http.get(f"http://127.0.0.1:{port}/voila/api/shutdown/x?token={token}&x=1")
        assert missing.status_code == 405  # the beacon POSTs
        refused = http.get(f"http://127.0.0.1:{port}/voila/files/a.txt?token={token}")
        assert refused.status_code == 403
    wait_logged(log, "GET /voila/files/a.txt", process)
    text = log.read_text()
    assert text.count(token) == 1, text  # the address the command printed
    assert "GET /voila/api/shutdown/x?token=[secret]&x=1" in text


def test_the_page_holds_no_script_or_style_from_another_host(app) -> None:
    """An offline or private machine asks the internet for nothing: nbconvert's lab
    template imports Mermaid from a CDN whenever an output is a Mermaid diagram."""
    process, port, log = app
    page = httpx.get(_url(log), timeout=180).text
    fetched = re.findall(r"""(?:src=|href=|import\(|Url = )["'](https?://[^"']+)""", page)
    assert fetched == []
    assert "cdnjs.cloudflare.com" not in page and "cdn.jsdelivr.net" not in page


def test_the_log_says_the_address_once_and_no_warning_per_kernel(app) -> None:
    """The command prints the address that works; Voila's placeholder line, and the
    'not trusted' and 'eavesdropping' warnings each page or kernel logged, are gone."""
    process, port, log = app
    url = _url(log)
    with httpx.Client(timeout=180) as http:
        for _ in range(2):  # two visits: two kernels handed out, one more preheated
            assert http.get(url).status_code == 200
    wait_logged(log, "Using pre-heated kernel", process)
    text = log.read_text()
    assert text.count("http://127.0.0.1") == 1, text
    assert "?token=..." not in text and "running at" not in text
    assert "not trusted" not in text and "eavesdropping" not in text, text
    assert "Kernel started" in text, "Voila's log is still there"
    assert "To share a view, send the page's Copy link: it holds the token" in text


def test_sigint_stops_the_app_even_when_started_with_sigint_ignored(app) -> None:
    process, port, log = app
    children = _descendants(process.pid, "")
    assert children, "Voila and its kernel run under the command"
    process.send_signal(signal.SIGINT)
    process.wait(90)
    assert process.returncode == 0, log.read_text()
    assert "Stopping the Explorer app" in log.read_text()
    _gone(children)


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGKILL])
def test_sighup_stops_the_app_and_sigkill_takes_voila_with_it(tmp_path: Path, signum: int) -> None:
    process, port, log = _explore(tmp_path)
    try:
        children = _descendants(process.pid, "iptoolkit.app.server")
        assert children, "Voila runs under the command"
        process.send_signal(signum)
        process.wait(90)
        _gone(children)  # on SIGKILL, Linux sends Voila SIGTERM (PR_SET_PDEATHSIG)
    finally:
        _kill_leftovers(process)


def test_the_session_cap_holds_for_pages_asked_at_once(tmp_path: Path) -> None:
    """`--max-sessions 2`, and six pages asked at the same moment (a browser restoring
    its tabs, a script): each was checked against the kernels in use before any of them
    had one, so all six got a kernel. Pages being started count as sessions."""
    process, port, log = _explore(tmp_path, "--max-sessions", "2")
    try:
        url = _url(log)

        async def ask_at_once() -> list[int]:
            async with httpx.AsyncClient(timeout=180) as http:
                answers = await asyncio.gather(*(http.get(url) for _ in range(6)))
            return [answer.status_code for answer in answers]

        answered = sorted(asyncio.run(ask_at_once()))
        assert answered.count(503) >= 4, answered
        assert set(answered) <= {200, 503}
        assert 200 in answered
    finally:
        _kill_leftovers(process)


def _gone(pids: list[int], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [pid for pid in pids if _alive(pid)]
        if not alive:
            return
        time.sleep(0.2)
    raise AssertionError(f"still running: {alive}")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# -- the Export panel as the app builds it ----------------------------------------------------


@pytest.fixture(scope="module")
def estate() -> ipt.Estate:
    raw = [
        {
            "class": "core:IntegrationProfile",
            "id": "P1",
            "name": "Shipments",
            "group": "Logistics",
            "inputAgent": {
                "class": "core:HttpAgentSettings",
                "id": 1,
                "httpSettings": {"uri": f"/v3/shipments?apikey={SECRET}", "password": SECRET},
            },
        }
    ]
    return ipt.Estate.from_raw(raw)


def test_the_app_writes_into_its_folder_whatever_the_page_sends(
    tmp_path: Path, estate: ipt.Estate
) -> None:
    fixed = tmp_path / "exports"
    panel = ExportPanel(lambda: estate, folder=str(fixed), fixed=True, masked=True)
    assert panel.folder.disabled
    panel.folder.value = str(tmp_path / "elsewhere")  # what a hostile page could send
    panel.name.value = "../../outside"
    assert panel.write("csv") is None  # a name only: refused
    panel.name.value = "estate"
    written = panel.write("json")
    assert written is not None and written.parent == fixed.resolve()
    assert not (tmp_path / "elsewhere").exists()
    text = written.read_text()
    assert SECRET not in text and "**********" in text
    assert len(ipt.load(written)) == 1  # masked, the snapshot still loads


def test_unmasked_downloads_keep_the_snapshot_as_held(tmp_path: Path, estate: ipt.Estate) -> None:
    panel = ExportPanel(lambda: estate, folder=str(tmp_path), fixed=True, masked=False)
    written = panel.write("json")
    assert written is not None and SECRET in written.read_text()


def test_the_app_writes_no_file_through_a_link_in_its_folder(
    tmp_path: Path, estate: ipt.Estate
) -> None:
    """Whoever may create files in the app's folder (a shared one) leaves a symbolic
    link named as an export: the page's Export would write wherever it points."""
    fixed = tmp_path / "exports"
    fixed.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("kept")
    (fixed / "estate.csv").symlink_to(victim)
    panel = ExportPanel(lambda: estate, folder=str(fixed), fixed=True, masked=True)
    panel.name.value = "estate"
    assert panel.write("csv") is None
    assert victim.read_text() == "kept"
    assert "symbolic link" in panel.log.value and "estate.csv" in panel.log.value
    assert panel.write("json") is not None  # another file of the folder: written
    unfixed = ExportPanel(lambda: estate, folder=str(fixed))  # a notebook's: as open() would
    unfixed.name.value = "estate"
    assert unfixed.write("csv") == fixed / "estate.csv"
    assert victim.read_text() != "kept"
