"""The app left up for a team, in Debian's Chromium: one `iptoolkit explore` and one
browser for the whole test (both are costly on a small machine).

As the issue asks: an address with a query opens the same filtered view; a drill-down
into a group of 2,000 profiles ends in a view drawn node by node that fits its canvas
(screenshot kept under the test's folder, and `IPTOOLKIT_KEEP_SHOTS` when set); five
reloads and a close leave at most one kernel (the warm one Voila keeps for the next
visitor) within 90 s, the first reload (of a drilled view's address, `?drill=...`) showing
the same drilled view; a tab whose browser is killed (no unload, no beacon) loses its
kernel within the app's `--free-after` (20 s here, to spare the suite the default's
minute; `test_app_address` holds the default within a minute), while a tab left open and
idle all that time keeps its own; and the page logged no script error and asked nothing
of any host but the app's own (no CDN).

The estate: a 2,500-profile demo in which four profiles of five are moved under `Finance/`
(their own groups becoming its subgroups), so `Finance` holds 2,000 profiles on a few
levels, as the issue's Finance (2,337) did at 10,000.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from iptoolkit.app.runner import cull_timings
from iptoolkit.topology.style import KIND_COLOURS

from ..app_processes import app_kernels, kernel_id
from ..ci import skip_or_fail
from .lab import (
    CHROMIUM,
    CHROMIUM_ARGS,
    chromium_missing,
    free_port,
    launch_chromium,
    launch_explore,
    printed_app_url,
    stop_explore,
    wait_listening,
)
from .steps import STEP, png_pixels

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

VIEWPORT = {"width": 1600, "height": 1100}
FIRST_VIEW = 240_000  # ms: a cold kernel loading 2,500 profiles on a shared machine
PROFILES, SEED = 2500, 11
KERNELS_FREED = 90.0  # s
FREE_AFTER = 20  # s: the app's --free-after here; the default (within a minute) costs 35 s more
LOST_TAB_FREED = FREE_AFTER + 5  # s: and the kernel process's own shutdown


def _estate() -> Any:
    import iptoolkit as ipt

    raw = [
        dict(profile) for profile in ipt.demo_estate(n_profiles=PROFILES, seed=SEED).raw_profiles
    ]
    for number, profile in enumerate(raw):
        if number % 5:
            profile["group"] = f"Finance/{profile.get('group') or 'General'}"
    return ipt.Estate.from_raw(raw)


def test_the_app_stays_up_shares_views_and_drills_down(tmp_path: Path) -> None:
    skip_or_fail(chromium_missing())
    estate = _estate()
    snapshot = tmp_path / "estate.json"
    estate.save(snapshot)
    process, port, log = launch_explore(
        snapshot,
        tmp_path,
        "--folder",
        str(tmp_path / "exports"),
        "--max-sessions",
        "4",
        "--free-after",
        str(FREE_AFTER),
        measured=False,  # ten kernels load 2,500 profiles: test_app_browser measures the app
    )
    try:
        wait_listening(process, port, log)
        problems = _session(printed_app_url(log, port), process, tmp_path)
    finally:
        stop_explore(process, signal.SIGTERM)
    assert problems == [], problems


def _session(signed_in: str, process: subprocess.Popen[bytes], tmp_path: Path) -> list[str]:
    """The app opened once with its token (the cookie it sets lets the rest in), then used
    at its plain address."""
    from playwright.sync_api import sync_playwright

    url = signed_in.split("?", 1)[0]

    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = _watched(browser.new_page(viewport=VIEWPORT), url, problems)
            try:
                page.goto(signed_in, timeout=FIRST_VIEW)
                _shared_view(page, url)
                _copied_link_opens(page, url, signed_in.split("token=", 1)[1])
                _drill_down(page, url, tmp_path)
                _reload_and_close(page, process)
                page = _watched(browser.new_page(viewport=VIEWPORT), url, problems)
                _lost_tab(playwright, page, signed_in, process, tmp_path)
            except AssertionError as failure:
                if not page.is_closed():
                    page.screenshot(path=str(tmp_path / "team-failure.png"))
                raise AssertionError(_told(failure, problems, tmp_path / "explore.log")) from None
        finally:
            browser.close()
    return problems


def _told(failure: AssertionError, problems: list[str], log: Path) -> str:
    """A failure with what the page's console and the app's log said last: a page whose
    widgets never came (Voila's "model not found") is the kernel's story, not the page's."""
    said = log.read_text(errors="replace").splitlines()[-25:] if log.exists() else []
    return "\n".join(
        [str(failure), "console, last:", *problems[-8:], "the app's log, last:", *said]
    )


def _watched(page: Any, url: str, problems: list[str]) -> Any:
    """`page`, its script errors and any request to another host than the app's noted in
    `problems`."""
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: problems.append(f"{error}: {error.stack}"))
    page.on(
        "request",
        lambda request: (
            problems.append(f"asked {request.url}")
            if not request.url.startswith((url, "data:", "blob:"))
            else None
        ),
    )
    return page


def _wait_explorer(page: Any) -> None:
    """The Explorer's canvas shown; if not, a failure that says what the page shows instead
    (the busy page, a kernel error, Voila's spinner)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator(".ipt-topology .ipysigma-container canvas").first.wait_for(timeout=FIRST_VIEW)
    except PlaywrightTimeout:
        shown = " ".join(page.locator("body").inner_text(timeout=STEP).split())[:400]
        raise AssertionError(
            f"no Explorer within {FIRST_VIEW / 1000:.0f} s at {page.url}: the page shows "
            f"{page.title()!r}: {shown!r}"
        ) from None


def _shared_view(page: Any, url: str) -> None:
    """A link with a query opens that view: the filter applied, the item in Details."""
    page.goto(url + "?group=Finance&channel-type=AS2", timeout=FIRST_VIEW)
    _wait_explorer(page)
    header = page.locator(".ipt-explorer .ipt-header").first
    page.wait_for_function(
        "() => document.querySelector('.ipt-explorer .ipt-header').innerText"
        ".includes('channel type AS2; group Finance')",
        timeout=STEP,
    )
    counts = header.inner_text()
    assert f"of {PROFILES:,} profiles" in counts and not counts.startswith(f"{PROFILES:,} of")
    assert page.locator(".ipt-copy-link").first.is_visible()
    from urllib.parse import parse_qsl  # the page rewrites its address in one order

    shown = sorted(parse_qsl(page.evaluate("location.search").lstrip("?")))
    assert shown == [("channel-type", "AS2"), ("group", "Finance")]


def _copied_link_opens(page: Any, url: str, token: str) -> None:
    """ "Copy link" copies the view's address with the app's token (the address bar keeps it
    out): the link a colleague is sent opens; without the token they meet the app's own
    page (403), not Jupyter's login form."""
    from urllib.parse import parse_qsl, urlsplit

    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url.rstrip("/"))
    assert "token" not in page.evaluate("location.search")
    page.locator(".ipt-copy-link").first.click()
    said = page.locator(".ipt-copy-said").first
    page.wait_for_function(
        "() => document.querySelector('.ipt-copy-said').innerText.trim() !== ''", timeout=STEP
    )
    text = said.inner_text().strip()
    link = page.evaluate("navigator.clipboard.readText()") if text == "link copied" else text
    parts = urlsplit(link)
    assert link.startswith(url) and parts.path == "/", link
    assert sorted(parse_qsl(parts.query)) == sorted(
        [("channel-type", "AS2"), ("group", "Finance"), ("token", token)]
    )
    stranger = page.context.browser.new_context()
    try:
        refused = stranger.request.get(link.split("token=")[0].rstrip("&?"))
        assert refused.status == 403 and "Ask the person who runs it" in refused.text()
        assert "jupyter server list" not in refused.text()
    finally:
        stranger.close()


def _drill_down(page: Any, url: str, tmp_path: Path) -> None:
    """From the overview, the biggest profile group opened level after level until a view
    is drawn node by node; that view fits its canvas."""
    page.goto(url, timeout=FIRST_VIEW)
    _wait_explorer(page)
    page.wait_for_timeout(1500)
    canvas = page.locator(".ipt-topology .ipysigma-container").first
    status = page.locator(".ipt-topology-status").first
    titles: list[str] = []
    for _ in range(7):
        before = status.inner_text()
        if "node by node" in before:
            break
        assert _click_biggest(page, canvas, KIND_COLOURS["profile"]), before
        page.wait_for_function(
            "before => document.querySelector('.ipt-topology-status').innerText !== before",
            arg=before,
            timeout=STEP,
        )
        titles.append(status.inner_text())
        page.wait_for_timeout(1500)
    assert "node by node" in status.inner_text(), titles
    assert titles[0].startswith("Finance, in detail: by subgroup"), titles
    crumbs = page.locator(".ipt-topology-crumbs").first.inner_text()
    assert crumbs.startswith("Overview") and "Finance" in crumbs
    from urllib.parse import parse_qs

    drilled = parse_qs(page.evaluate("location.search").lstrip("?")).get("drill", [])
    assert drilled and drilled[0].startswith("Finance"), drilled  # the address follows
    shot = page.locator(".ipt-explorer").first.screenshot()
    _keep(tmp_path, "team-drilled-group.png", shot)
    # fitted: what is drawn stays clear of the canvas's top and bottom edges
    import numpy as np

    pixels = png_pixels(canvas.screenshot())
    height, width = pixels.shape[:2]
    middle = pixels[:, int(0.15 * width) : int(0.85 * width)]  # not sigma's buttons
    drawn = np.where((middle.max(axis=-1) - middle.min(axis=-1) > 0.15).any(axis=1))[0]
    assert drawn.size and drawn.min() > 0.03 * height and drawn.max() < 0.96 * height


def _click_biggest(page: Any, canvas: Any, colour: str) -> bool:
    """Click the biggest disc drawn in `colour` (the most matching pixels around it)."""
    import numpy as np

    pixels = png_pixels(canvas.screenshot())
    target = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    match = (np.abs(pixels - target).max(axis=-1) < 0.04).astype(float)
    if not match.any():
        return False
    reach = 6
    padded = np.pad(match, reach)
    around = sum(
        padded[reach + dy : reach + dy + match.shape[0], reach + dx : reach + dx + match.shape[1]]
        for dy in range(-reach, reach + 1)
        for dx in range(-reach, reach + 1)
    )
    row, column = np.unravel_index(np.argmax(around * match), match.shape)
    box = canvas.bounding_box()
    scale = box["width"] / match.shape[1]
    x, y = box["x"] + (column + 0.5) * scale, box["y"] + (row + 0.5) * scale
    page.mouse.move(x, y)
    page.wait_for_timeout(300)
    page.mouse.click(x, y)
    return True


def _reload_and_close(page: Any, process: subprocess.Popen[bytes]) -> None:
    """Five reloads, each shown (the first, of the drilled view's address, shows the same
    drilled view), then the tab closed as a person closes it: every kernel but the warm
    one goes within `KERNELS_FREED` seconds."""
    crumbs = page.locator(".ipt-topology-crumbs").first.inner_text()
    for reload in range(5):
        page.reload(timeout=FIRST_VIEW)
        _wait_explorer(page)
        if not reload:  # the drilled view's address opens the same drilled view
            page.wait_for_function(
                "crumbs => document.querySelector('.ipt-topology-crumbs').innerText === crumbs",
                arg=crumbs,
                timeout=STEP,
            )
            assert "node by node" in page.locator(".ipt-topology-status").first.inner_text()
    # closing a tab unloads its page, which sends Voila's shutdown beacon; Playwright's
    # page.close() does not wait for that, so the page is left first, then closed
    page.goto("about:blank")
    page.close()
    deadline = time.monotonic() + KERNELS_FREED
    while (count := len(kernels := _kernels(process))) > 1 and time.monotonic() < deadline:
        time.sleep(2)
    assert count <= 1, (
        f"{count} kernels still running {KERNELS_FREED:.0f} s after the close: "
        + "; ".join(_described(kernel) for kernel in kernels)
    )


def _described(kernel: Any) -> str:
    """A kernel as a failure names it: its pid, id, state, age and CPU seconds (a kernel
    left after the close was once seen under load only: this says which one it was)."""
    import psutil

    try:
        with kernel.oneshot():
            times = kernel.cpu_times()
            age = time.time() - kernel.create_time()
            return (
                f"pid {kernel.pid} kernel {kernel_id(kernel)} {kernel.status()}, "
                f"{age:.0f} s old, {times.user + times.system:.1f} CPU-s"
            )
    except psutil.Error as error:
        return f"pid {kernel.pid}: {type(error).__name__}"


def _lost_tab(
    playwright: Any, page: Any, signed_in: str, process: subprocess.Popen[bytes], tmp_path: Path
) -> None:
    """One tab stays open and idle (`page`); another, in a second Chromium, is lost when
    that browser is killed (SIGKILL: no unload, no shutdown beacon). The lost tab's kernel
    goes within `LOST_TAB_FREED` s; the open one's stays, though it has been idle longer
    than the culler's timeout."""
    idle, _ = cull_timings(FREE_AFTER)
    kept = _open_tracking_kernel(page, signed_in)
    port = free_port()
    log = tmp_path / "lost-chromium.log"
    with log.open("wb") as out:
        lost_browser = subprocess.Popen(
            [CHROMIUM, *CHROMIUM_ARGS, f"--remote-debugging-port={port}",
             f"--user-data-dir={tmp_path / 'lost-profile'}", "about:blank"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        wait_listening(lost_browser, port, log)
        remote = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        lost = _open_tracking_kernel(remote.contexts[0].new_page(), signed_in)
        assert lost != kept and {kept, lost} <= _kernel_ids(process)
    finally:
        os.killpg(lost_browser.pid, signal.SIGKILL)
        lost_browser.wait(10)
    killed = time.monotonic()
    while lost in _kernel_ids(process) and time.monotonic() - killed < LOST_TAB_FREED + 30:
        time.sleep(1)
    freed_after = time.monotonic() - killed
    print(f"the lost tab's kernel was freed {freed_after:.0f} s after its browser was killed")
    assert freed_after <= LOST_TAB_FREED, f"the lost tab's kernel went after {freed_after:.0f} s"
    # the culler has looked at the open tab's kernel, idle past its timeout, and kept it
    time.sleep(FREE_AFTER - idle + 1)  # one more pass, to be sure
    assert kept in _kernel_ids(process), "the open, idle tab lost its kernel"
    model = page.request.get(signed_in.split("?", 1)[0] + f"api/kernels/{kept}").json()
    idle_for = time.time() - _epoch(model["last_activity"])
    assert model["connections"] >= 1 and idle_for > idle, (model, idle_for)
    assert page.locator(".ipt-counts").first.is_visible()
    page.close()


def _epoch(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _open_tracking_kernel(page: Any, url: str) -> str:
    """Open the app in `page` until its canvas shows; the id of the kernel it talks to
    (from its websocket, `/api/kernels/ID/channels`)."""
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(url, timeout=FIRST_VIEW)
    _wait_explorer(page)
    ids = {found.group(1) for u in sockets if (found := _CHANNELS.search(u))}
    assert len(ids) == 1, sockets
    return ids.pop()


_CHANNELS = re.compile(r"/api/kernels/([0-9a-f-]+)/channels")


def _kernel_ids(process: subprocess.Popen[bytes]) -> set[str]:
    """The ids of the kernels running (from their connection files, `kernel-ID.json`)."""
    found = (kernel_id(kernel) for kernel in _kernels(process))
    return {ident for ident in found if ident}


def _kernels(process: subprocess.Popen[bytes]) -> list[Any]:
    """The app's kernels, each forked by its zygote (`tests.app_processes`)."""
    return app_kernels(process.pid)


def _keep(tmp_path: Path, name: str, png: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(png)
    if os.environ.get("IPTOOLKIT_KEEP_SHOTS"):
        shutil.copy(path, Path(os.environ["IPTOOLKIT_KEEP_SHOTS"]) / name)
