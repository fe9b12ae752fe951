"""The standalone app in a real browser: `iptoolkit explore` (Voila), Debian's Chromium.

Starts the command as a user would (`--no-browser`, a free port, a small snapshot, the
Export tab writing into the test's folder), opens the page in Chromium with WebGL on
(SwiftShader), waits for the Explorer, changes filters in the page and checks the counts
follow, exports a picture from the Export tab and checks the file, and saves screenshots
under the test's temporary folder. Then Ctrl-C (SIGINT) stops the command, and Voila's
kernel with it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ..ci import skip_or_fail
from .lab import CHROMIUM, CHROMIUM_ARGS, chromium_missing, free_port

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

WEBGL_ARGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
VIEWPORT = {"width": 1600, "height": 1000}
FIRST_RENDER = 120_000  # ms: Voila starts a kernel per page, the machine is shared
STEP = 30_000  # ms


def test_the_app_filters_and_exports_in_chromium(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    import iptoolkit as ipt

    snapshot = tmp_path / "estate.json"
    ipt.demo_estate(n_profiles=120, seed=3).save(snapshot)
    exports = tmp_path / "exports"
    port = free_port()
    log = tmp_path / "explore.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.cli", "explore", str(snapshot), "--no-browser",
             "--port", str(port), "--folder", str(exports)],
            stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, start_new_session=True,
        )  # fmt: skip
    try:
        _wait_listening(process, port, log)
        console = _session(f"http://127.0.0.1:{port}/", tmp_path, exports)
    finally:
        _interrupt(process)
    text = log.read_text(errors="replace")
    assert process.returncode == 0, text[-3000:]
    assert "Stopping the Explorer app" in text and "Kernel shutdown" in text, text[-3000:]
    errors = [line for line in console if "error" in line.lower() and "favicon" not in line]
    print("browser console errors:", *errors, sep="\n  ")


def _wait_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    import socket

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"explore exited ({process.returncode}):\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"explore never listened on {port}:\n{log.read_text()}")


def _interrupt(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C, as a person stops it; its whole session is killed if it hangs."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
            raise AssertionError("explore did not stop on Ctrl-C") from None


def _session(url: str, tmp_path: Path, exports: Path) -> list[str]:
    from playwright.sync_api import sync_playwright

    console: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *WEBGL_ARGS]
        )
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
            try:
                _use_the_app(page, url, tmp_path, exports)
            except Exception:
                _shot(page, tmp_path, "app-failure")
                raise
        finally:
            browser.close()
    return console


def _use_the_app(page: Any, url: str, tmp_path: Path, exports: Path) -> None:
    page.goto(url, timeout=FIRST_RENDER)
    counts = page.locator(".ipt-counts")
    counts.wait_for(timeout=FIRST_RENDER)
    page.wait_for_function("!document.querySelector('.ipt-explorer .ipt-busy')", timeout=STEP)
    assert page.title().strip() == "iptoolkit Explorer"
    assert page.locator(".ipt-app-title h1").inner_text() == "iptoolkit Explorer"
    assert "estate.json" in page.locator(".ipt-app-source").inner_text()
    # no code: Voila strips the inputs
    assert page.locator(".jp-InputArea, .jp-CodeMirrorEditor, .cm-editor").count() == 0
    assert "import" not in page.locator("body").inner_text()
    first = counts.inner_text()
    assert first.startswith("120 of 120 profiles"), first
    page.wait_for_timeout(500)
    _shot(page, tmp_path, "app-first-render")

    page.locator(".ipt-f-active button", has_text="active").first.click()
    second = _wait_counts_change(page, first)
    assert " of 120 profiles" in second and not second.startswith("120 of"), second

    agent_types = page.locator(".ipt-f-agent-types select")
    agent_types.select_option(index=0)
    third = _wait_counts_change(page, second)
    page.wait_for_function("!document.querySelector('.ipt-explorer .ipt-busy')", timeout=STEP)
    _shot(page, tmp_path, "app-filtered")

    page.locator(".ipt-filters button", has_text="Reset").click()
    assert _wait_counts_change(page, third).startswith("120 of 120 profiles")

    page.locator(".ipt-explorer .lm-TabBar-tab", has_text="Export").click()
    export = page.locator(".ipt-export")
    export.wait_for(timeout=STEP)
    export.locator("button", has_text=".png").first.click()
    export.locator("li", has_text="wrote").first.wait_for(timeout=STEP * 2)
    written = sorted(exports.iterdir())
    assert [p.suffix for p in written] == [".png"], written
    assert written[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    _shot(page, tmp_path, "app-exported")


def _wait_counts_change(page: Any, before: str) -> str:
    page.wait_for_function(
        "before => document.querySelector('.ipt-counts').innerText !== before",
        arg=before,
        timeout=STEP,
    )
    return page.locator(".ipt-counts").inner_text()


def _shot(page: Any, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    try:
        page.screenshot(path=str(path), full_page=True)
        if os.environ.get("IPTOOLKIT_KEEP_SCREENSHOTS"):
            import shutil

            shutil.copy(path, Path(os.environ["IPTOOLKIT_KEEP_SCREENSHOTS"]) / path.name)
    except Exception:  # a screenshot must never hide the real failure
        pass
    return path
