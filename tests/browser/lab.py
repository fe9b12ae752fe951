"""JupyterLab on loopback and Chromium through Playwright, for the browser tests.

Facts this relies on (see the project's jupyter-testing notes): `port_retries=0` so that a
leftover server makes the start fail instead of moving ports; an empty token makes
`/api/shutdown` answer 403, so the server is stopped by its PID; the "news" notification
covers the page unless silenced by a settings override; Debian's Chromium is driven through
`executable_path`, never a browser Playwright downloads.
"""

from __future__ import annotations

import atexit
import functools
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

__all__ = [
    "chromium",
    "serving",
    "chromium_page",
    "first_launch",
    "wait_listening",
    "printed_app_url",
    "wait_logged",
    "LIVE_CANVAS",
    "FIRST_VIEW_WATCH",
    "launch_explore",
    "stop_explore",
    "FirstLaunchTimeout",
    "run_in_lab",
    "shared_lab",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "Lab",
    "launch_chromium",
    "free_port",
    "start_lab",
    "stop_lab",
    "write_notebook",
    "open_notebook",
    "run_all",
]

CHROMIUM = os.environ.get("IPTOOLKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # WebGL (the interactive topology view) in a headless browser without a GPU
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]
_SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
    # Autosave would write the browser's run back into the (copied) notebook mid-test.
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}


@dataclass
class Lab:
    """A running JupyterLab: its address, process and the folder it serves; `folder`, the
    test's own folder within it, and `workspace`, the test's own JupyterLab workspace (a
    lab shared by a process's tests opens no earlier test's notebooks)."""

    url: str
    process: subprocess.Popen[bytes]
    root: Path
    log: Path
    env: dict[str, str] = field(repr=False, default_factory=dict)
    folder: str = ""
    workspace: str = "default"

    def tree(self, name: str) -> str:
        """The address that opens the notebook `name` of the test's folder."""
        path = f"{self.folder}/{name}" if self.folder else name
        return f"{self.url}/lab/workspaces/{self.workspace}/tree/{path}"

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server's log, for failure messages."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


def free_port() -> int:
    """A loopback port free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(
    process: subprocess.Popen[bytes], port: int, log: Path, *, timeout: float = 120
) -> None:
    """Wait until `process` (a server started by a test) accepts connections on `port`;
    fail with its log if it exits first or never listens."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited ({process.returncode}):\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"server never listened on {port}:\n{log.read_text()}")


def launch_explore(
    snapshot: Path | None, tmp_path: Path, *options: str, measured: bool = True
) -> tuple[subprocess.Popen[bytes], int, Path]:
    """`iptoolkit explore SNAPSHOT` (None: without, `--archive` in `options`, say) on a free
    port in its own session, its output in a log:
    the process, the port and the log (wait with `wait_listening`, stop with
    `stop_explore`). `measured=False` keeps `make test`'s coverage out of the app and its
    kernels (a test that loads the estate in kernel after kernel, and whose code other
    app tests measure, runs at about half the cost)."""
    port = free_port()
    log = tmp_path / "explore.log"
    environ = {
        key: value
        for key, value in os.environ.items()
        if measured or not key.startswith("COVERAGE_")
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.cli", "explore",
             *([str(snapshot)] if snapshot is not None else []), "--no-browser",
             "--port", str(port), *options],
            stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, start_new_session=True,
            env=environ,
        )  # fmt: skip
    return process, port, log


def stop_explore(process: subprocess.Popen[bytes], signum: int = signal.SIGINT) -> bool:
    """Stop the app with `signum` (Ctrl-C by default, as a person does); False, with its
    whole session killed, if it did not stop within a minute."""
    if process.poll() is not None:
        return True
    process.send_signal(signum)
    try:
        process.wait(60)
        return True
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)
        return False


def printed_app_url(log: Path, port: int, *, timeout: float = 30) -> str:
    """The address `iptoolkit explore` printed, with its token (the app answers nothing
    without it, or the cookie a first visit with it sets)."""
    pattern = re.compile(rf"http://127\.0\.0\.1:{port}/\?token=[\w-]+")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = pattern.search(log.read_text(errors="replace"))
        if found:
            return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no address with a token printed:\n{log.read_text()}")


def wait_logged(
    log: Path, text: str, process: subprocess.Popen[bytes], *, timeout: float = 180
) -> None:
    """Wait until `text` is in the server's `log` (`iptoolkit explore` logs "first view
    drawn" once the app's first view is ready); fail with the log if it stops first."""
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"never logged {text!r}:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)


LIVE_CANVAS = ".ipt-topology .ipysigma-container canvas"
"""The app's live topology canvas (sigma.js, in the Explorer's Topology tab)."""
FIRST_VIEW_WATCH = f"""
(() => {{
  const seen = {{first: null, live: null, hiddenWithLive: null}};
  window.__iptFirstView = seen;
  const shown = (element) => !!element && getComputedStyle(element).display !== "none"
    && getComputedStyle(element).visibility !== "hidden";
  const poll = () => {{
    const drawing = document.getElementById("ipt-first-view");
    if (seen.first === null && drawing && drawing.querySelector("svg") && shown(drawing)) {{
      seen.first = Date.now();
    }}
    if (seen.live === null && document.querySelector({json.dumps(LIVE_CANVAS)})) {{
      seen.live = Date.now();
      requestAnimationFrame(() => {{ seen.hiddenWithLive = !shown(drawing); }});
      return;
    }}
    requestAnimationFrame(poll);
  }};
  requestAnimationFrame(poll);
}})();
"""
"""A page script (`page.add_init_script`) noting, at every frame from the page's start,
when the app's first view (`#ipt-first-view`, drawn on the server) is first shown and when
the live canvas first exists (`Date.now()`, ms), and whether the drawing was hidden on the
frame after: `window.__iptFirstView`, `first` null if it never showed."""


def start_lab(
    root: Path, state: Path, *, timeout: float = 60.0, variables: Mapping[str, str] = {}
) -> Lab:
    """Start JupyterLab serving `root`, with its config, runtime and settings under `state`
    (`variables`: set for the server and its kernels, over the test process's).

    Everything JupyterLab writes goes under `state`, so no user's or venv's settings are
    touched and no earlier run leaks in.
    """
    port = free_port()
    settings = state / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "overrides.json").write_text(json.dumps(_SETTINGS))
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(state / "config"),
        JUPYTER_RUNTIME_DIR=str(state / "runtime"),
        JUPYTER_DATA_DIR=str(state / "data"),
        JUPYTERLAB_SETTINGS_DIR=str(state / "user-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(state / "workspaces"),
        IPYTHONDIR=str(state / "ipython"),
        MPLBACKEND="module://matplotlib_inline.backend_inline",
        PYTHONHASHSEED="0",
    )
    env.update(variables)
    # The app directory's settings overrides are read from <app dir>/settings; point the
    # app dir at the venv's (where extensions live) but take overrides from `state`.
    env["JUPYTERLAB_SETTINGS_DIR"] = str(state / "user-settings")
    log = state / "jupyterlab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip",
        "127.0.0.1",
        "--port",
        str(port),
        "--ServerApp.port_retries=0",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        "--allow-root",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={state / 'user-settings'}",
        f"--LabServerApp.workspaces_dir={state / 'workspaces'}",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    lab = Lab(f"http://127.0.0.1:{port}", process, root, log, env)
    _write_user_settings(state / "user-settings")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited ({process.returncode}):\n{lab.log_tail()}")
        try:
            with urllib.request.urlopen(f"{lab.url}/api/status", timeout=2) as response:
                if response.status == 200:
                    return lab
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    stop_lab(lab)
    raise TimeoutError(f"JupyterLab did not answer in {timeout:.0f} s:\n{lab.log_tail()}")


def _write_user_settings(folder: Path) -> None:
    """The same overrides as user settings files, which JupyterLab reads whatever its app dir."""
    for key, values in _SETTINGS.items():
        plugin, _, name = key.partition(":")
        path = folder / plugin / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


def stop_lab(lab: Lab) -> None:
    """Stop the server and its kernels by PID (its process group): shutdown answers 403."""
    if lab.process.poll() is None:
        try:
            os.killpg(lab.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            lab.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(lab.process.pid, signal.SIGKILL)
            lab.process.wait(5)


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        return f"Chromium not found at {CHROMIUM} (install it: apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    return None


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium (never a browser Playwright downloads), headless, WebGL on."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium for a block (a module's fixture: one browser for its tests),
    closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


class _QuietFiles(http.server.SimpleHTTPRequestHandler):
    """Serves a folder's files and logs no request (silenced here, not for every
    `SimpleHTTPRequestHandler` of the process)."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """`folder`'s files served on a free loopback port for a block: its address (a built
    docs site read as its readers read it, over HTTP); stopped after."""
    handler = functools.partial(_QuietFiles, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@contextmanager
def chromium_page(viewport: dict[str, int]) -> Iterator[tuple[Any, list[str]]]:
    """A page in Debian's Chromium and the errors its scripts raise (`pageerror`); the
    browser is closed after."""
    with chromium() as browser:
        page = browser.new_page(viewport=viewport)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page, errors


@contextmanager
def first_launch(page: Any, screenshot: Path | None = None) -> Iterator[None]:
    """Opening the page and running the notebook: a timeout there is a `FirstLaunchTimeout`
    (worth a retry on a fresh server, see `run_in_lab`), with a screenshot if asked."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        yield
    except PlaywrightTimeout as exc:
        if screenshot is not None:
            page.screenshot(path=str(screenshot))
        shown = _outputs(page)
        raise FirstLaunchTimeout(f"{exc}\n--- what the notebook shows ---\n{shown}") from exc


def _outputs(page: Any) -> str:
    """The text of the page's cell outputs (a widget's error, "Loading widget..."), for a
    timeout's message: what the page showed when it gave up."""
    try:
        texts = page.locator(".jp-OutputArea-output").all_inner_texts()
    except Exception as exc:  # the page itself is gone: say so, the timeout is the news
        return f"(unreadable: {exc})"
    return "\n".join(text[:300] for text in texts) or "(no output)"


def write_notebook(path: Path, *sources: str) -> Path:
    """A notebook of code cells, unexecuted (the browser runs it), at `path`."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, path)
    return path


def open_notebook(page: Any, lab: Lab, name: str, *, timeout: float = 90_000) -> None:
    """Open a notebook of the lab's folder, wait until its kernel is idle, fold the sidebar."""
    page.goto(lab.tree(name), timeout=timeout)
    page.wait_for_selector(
        ".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator[data-status='idle']",
        timeout=timeout,
    )
    page.wait_for_timeout(1000)  # the session settles; running earlier can ask for a kernel
    current = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if current.count():
        current.first.click()


def keep_screenshot(target: Any, tmp_path: Path, name: str) -> None:
    """A screenshot of `target` (a page or an element) in the test's folder, copied to
    IPTOOLKIT_KEEP_SCREENSHOTS if set (how `docs/screenshots/` is refreshed)."""
    path = tmp_path / f"{name}.png"
    try:
        target.screenshot(path=str(path))
    except Exception:  # a screenshot never hides the failure it documents
        return
    keep = os.environ.get("IPTOOLKIT_KEEP_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)


def open_and_run(
    page: Any,
    lab: Lab,
    name: str,
    *,
    first_widget: str,
    screenshot: Path | None = None,
    timeout: float = 90_000,
) -> None:
    """Open the lab's notebook `name`, run every cell and wait for the `first_widget`
    selector: a timeout in any of it is a `FirstLaunchTimeout` (`first_launch`), because a
    fresh server's first launch sometimes runs every cell and renders no widget."""
    with first_launch(page, screenshot):
        open_notebook(page, lab, name, timeout=timeout)
        run_all(page, timeout=timeout)
        page.locator(first_widget).first.wait_for(timeout=timeout)


def run_beside_file_browser(
    page: Any, lab: Lab, name: str, *, first_widget: str, screenshot: Path, timeout: float
) -> None:
    """Open the lab's notebook `name` with JupyterLab's file browser open beside it (where
    people keep it: the laptop's narrow pane), run every cell and wait for `first_widget`;
    a timeout there is a `FirstLaunchTimeout` (`first_launch`, with `screenshot`)."""
    with first_launch(page, screenshot):
        page.goto(lab.tree(name), timeout=timeout)
        page.wait_for_selector(
            ".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator[data-status='idle']",
            timeout=timeout,
        )
        page.wait_for_timeout(1000)
        if not page.locator(".jp-FileBrowser").first.is_visible():
            page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id='filebrowser']").click()
        page.locator(".jp-FileBrowser").first.wait_for(state="visible", timeout=45_000)
        run_all(page, timeout=timeout)
        page.locator(first_widget).first.wait_for(timeout=timeout)


def run_all(page: Any, *, timeout: float = 90_000) -> None:
    """Run every cell from the Run menu and wait until none is pending."""
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click("li[data-command='runmenu:run-all']")
    page.wait_for_function(
        """() => {
            const busy = document.querySelector(
                ".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator[data-status='busy']");
            const prompts = Array.from(document.querySelectorAll('.jp-InputPrompt'));
            return !busy && prompts.length > 0
                && prompts.every(p => !p.textContent.includes('*'));
        }""",
        timeout=timeout,
    )


class FirstLaunchTimeout(Exception):
    """The page or kernel never came up: the one failure worth a retry (see the notes)."""


_SHARED: dict[tuple[Path, frozenset[tuple[str, str]]], Lab] = {}
"""The JupyterLabs a test process shares between its tests (`run_in_lab`), by the root
they serve and the variables their kernels are given."""


def shared_lab(root: Path, *, variables: Mapping[str, str] = {}, fresh: bool = False) -> Lab:
    """The process's JupyterLab serving `root` with `variables` (`start_lab`), started at
    first use (or anew, `fresh`, or when it has died) and stopped when the process ends:
    one server for the browser test files a worker runs, not one each (a server costs
    seconds of a core to start)."""
    key = (root, frozenset(variables.items()))
    lab = _SHARED.get(key)
    if lab is not None and (fresh or lab.process.poll() is not None):
        stop_lab(lab)
        lab = None
    if lab is None:
        state = root / f"shared-lab-{len(_SHARED)}-{time.monotonic_ns()}"
        lab = _SHARED[key] = start_lab(root, state, variables=variables)
        atexit.register(stop_lab, lab)
    return lab


def end_sessions(lab: Lab) -> None:
    """Shut the lab's kernels down (a shared lab's next test needs no earlier one's)."""
    try:
        with urllib.request.urlopen(f"{lab.url}/api/sessions", timeout=10) as response:
            sessions = json.load(response)
        for session in sessions:
            request = urllib.request.Request(
                f"{lab.url}/api/sessions/{session['id']}", method="DELETE"
            )
            urllib.request.urlopen(request, timeout=30).close()
    except (urllib.error.URLError, OSError):  # a dead server has no kernels left
        pass


def run_in_lab(
    folder: Path,
    state: Path,
    session: Callable[[Lab], None],
    *,
    attempts: int = 2,
    variables: Mapping[str, str] = {},
) -> None:
    """Run `session` in the process's JupyterLab (`shared_lab`, with `variables` for its
    kernels), which serves the folder that holds the test's own (`state`'s parent: pytest's
    folder for the process), opening `folder`'s notebooks in a workspace of the test's own;
    its kernels are shut down after.

    A session that raises `FirstLaunchTimeout` (a fresh server's first launch sometimes
    hangs) is tried again on a new server; any other failure carries the server's log.
    """
    root = state.parent
    for attempt in range(1, attempts + 1):
        shared = shared_lab(root, variables=variables, fresh=attempt > 1)
        lab = replace(
            shared,
            folder=folder.relative_to(root).as_posix(),
            workspace=f"{state.name}-{attempt}",
        )
        try:
            session(lab)
            return
        except FirstLaunchTimeout as exc:
            if attempt == attempts:
                raise AssertionError(f"{exc}\n--- JupyterLab log ---\n{lab.log_tail()}") from exc
            print(f"first launch timed out, tried again on a fresh server:\n{exc}")
        except Exception as exc:
            raise AssertionError(f"{exc}\n--- JupyterLab log ---\n{lab.log_tail()}") from exc
        finally:
            end_sessions(lab)
