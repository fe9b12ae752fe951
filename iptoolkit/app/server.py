"""Voila as `iptoolkit explore` runs it: `python -m iptoolkit.app.server NOTEBOOK [options]`.

Voila itself, with what an app left up for a team needs and plain Voila 0.5 lacks:

- **kernels are freed when a tab closes.** The page's `beforeunload` beacon asks Voila to
  shut its kernel down, sending back the `_xsrf` cookie; Voila's page never sets that
  cookie (it streams the page, and no template reads the token), so every shutdown was
  refused (403, "'_xsrf' argument missing") and each closed or reloaded tab left its kernel
  running. `SessionHandler.prepare` sets the cookie before the page is sent. Culling idle,
  disconnected kernels (`runner.session_options`) is the safety net for a tab that dies
  without its beacon (a crashed browser, a lost network, a page left before it connected):
  within `runner.FREE_AFTER` seconds, and never while its page is connected.
- **a cap on sessions** (`--max-sessions`): past it, a page says so (HTTP 503, `Retry-After`)
  instead of starting one more kernel of a few hundred MB.
- **nothing leaves the machine**: the page template drops the lab template's Font Awesome
  links to a CDN (the widgets' icons come bundled with Voila's own front end).
- **a first view at once** (`app.first_view`): the overview is drawn once at start, in a
  child process (the estate never held here), and sent inside the page of an address that
  opens the overview, painted before Voila's scripts have loaded; CSS hides it when the
  live canvas is there.

Kept out of the `explore` command so that the command stays a thin launcher, and out of
`runner` so that the child process imports Voila, never the command.
"""

from __future__ import annotations

import html
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import tornado.web
from traitlets import Bool, Int
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from .first_view import MARKER

__all__ = [
    "TEMPLATE_DIR",
    "ExplorerVoila",
    "SessionHandler",
    "FirstView",
    "busy_page",
    "opens_overview",
    "sessions_in_use",
    "main",
]

TEMPLATE_DIR = Path(__file__).with_name("voila_template")
"""The page template: Voila's lab template, without its links to a CDN."""
RETRY_AFTER = 60
"""Seconds a turned-away visitor is told to wait (a closed tab frees its kernel by then)."""
DRAW_TIMEOUT = 600
"""Seconds the first view's child process may take before the app goes without one."""


class FirstView:
    """The app's first view (`app.first_view`), drawn once in a child process started by
    `start`; `html` is None until it is drawn, and stays None if it cannot be (the page is
    then Voila's alone, as before)."""

    def __init__(self) -> None:
        self.html: str | None = None

    def start(self, log: Any) -> threading.Thread:
        """Draw it in the background (the server answers meanwhile, without it)."""
        thread = threading.Thread(target=self._draw, args=(log,), name="first-view", daemon=True)
        thread.start()
        return thread

    def _draw(self, log: Any) -> None:
        began = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "iptoolkit.app.first_view"],
                capture_output=True,
                env=dict(os.environ),
                stdin=subprocess.DEVNULL,
                timeout=DRAW_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.warning("iptoolkit: no first view: %s", exc)
            return
        if done.returncode != 0:
            reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
            log.warning("iptoolkit: %s", reason[-1] if reason else f"exit {done.returncode}")
            return
        self.html = done.stdout.decode("utf-8")
        log.info("iptoolkit: first view drawn in %.1f s", time.monotonic() - began)


def opens_overview(query: str) -> bool:
    """True when a page address opens the Explorer's first view, the overview of
    everything (no filter, drill or item; `app.address`): the drawing shows that view, and
    would show the wrong one for any other."""
    from .address import view_of

    view = view_of(query)
    return view.filter.is_empty() and not view.item and not view.drill


def sessions_in_use(kernel_manager: Any) -> int:
    """Kernels serving a page: every kernel but those kept warm in Voila's pool."""
    pooled: set[str] = set()
    for pool in getattr(kernel_manager, "_pools", {}).values():
        for item in pool:
            if item.done() and not item.cancelled() and item.exception() is None:
                pooled.add(item.result().get("kernel_id"))
            elif not item.done():
                pooled.add("starting")  # not started yet: not listed either
    return len([k for k in kernel_manager.list_kernel_ids() if k not in pooled])


def busy_page(limit: int) -> str:
    """The page a visitor past the cap sees: what happened and what to do."""
    sessions = "session" if limit == 1 else "sessions"
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<title>iptoolkit Explorer: all sessions in use</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:40em;margin:4em auto;"
        "line-height:1.5;color:#1f2328}h1{font-size:1.4em}</style></head><body>"
        "<h1>The Explorer is in use by as many people as it serves</h1>"
        f"<p>This app serves at most {html.escape(str(limit))} {sessions} at a time, "
        "and all are open. Close an Explorer tab you no longer need, or try again in a "
        f"minute: a closed tab frees its place within {RETRY_AFTER} seconds.</p>"
        "<p><a href=''>Try again</a></p></body></html>"
    )


class SessionHandler(TornadoVoilaHandler):
    """Voila's page handler: sets the `_xsrf` cookie, keeps to the session cap, and puts
    the first view in the page when the address opens the overview."""

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        first = self.settings.get("iptoolkit_first_view")
        drawing = first.html if first is not None else None
        if drawing is not None and not opens_overview(self.request.query):
            drawing = None
        async for chunk in self.get_generator(path=path):
            if MARKER in chunk:  # once: where the template leaves room, before the cells
                chunk = chunk.replace(MARKER, drawing or "", 1)
                drawing = None
            self.write(chunk)
            self.flush()

    async def prepare(self) -> None:
        await super().prepare()
        if self._finished:  # redirected to log in, or refused
            return
        self.xsrf_token  # noqa: B018  (reading it sets the cookie the shutdown beacon returns)
        limit = int(self.settings.get("iptoolkit_max_sessions") or 0)
        if limit and sessions_in_use(self.kernel_manager) >= limit:
            self.set_status(503)
            self.set_header("Retry-After", str(RETRY_AFTER))
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(busy_page(limit))


class ExplorerVoila(Voila):
    """Voila with `SessionHandler` for the page, `max_sessions`, and the CDN-free template."""

    template_paths: list[str]  # Voila's traits, which voila gives no types
    tornado_settings: dict[str, Any]

    name = "iptoolkit-explore"
    max_sessions = Int(0, config=True, help="Pages served at once (0: no cap).")
    first_view = Bool(
        True, config=True, help="Draw the app's overview at start and send it in the page."
    )
    aliases = {**Voila.aliases, "max-sessions": "ExplorerVoila.max_sessions"}

    def setup_template_dirs(self) -> None:
        super().setup_template_dirs()
        self.template_paths = [str(TEMPLATE_DIR), *self.template_paths]

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        _fresh_when_handed_out(self.kernel_manager)
        return settings

    def init_handlers(self) -> list[Any]:
        handlers = super().init_handlers()
        return [
            (rule[0], SessionHandler, *rule[2:]) if rule[1] is TornadoVoilaHandler else rule
            for rule in handlers
        ]

    def start(self) -> None:
        first = FirstView() if self.first_view else None
        settings = {
            **self.tornado_settings,
            "iptoolkit_max_sessions": self.max_sessions,
            "iptoolkit_first_view": first,
        }
        self.tornado_settings = settings
        if first is not None:
            first.start(self.log)
        super().start()


def _fresh_when_handed_out(manager: Any) -> None:
    """A preheated kernel counts as active from the moment a page takes it: its notebook
    ran minutes before, and the culler would otherwise shut it down before a slow page
    (10,000 profiles on a busy machine) has connected to it."""
    original = getattr(manager, "get_rendered_notebook", None)
    if original is None:  # no pool: kernels start with the page
        return
    from jupyter_server._tz import utcnow

    async def handed_out(*args: Any, **kwargs: Any) -> Any:
        task, rendered, kernel_id = await original(*args, **kwargs)
        kernel = getattr(manager, "_kernels", {}).get(kernel_id)
        if kernel is not None:
            kernel.last_activity = utcnow()
        return task, rendered, kernel_id

    manager.get_rendered_notebook = handed_out


def main(argv: list[str] | None = None) -> None:
    """Run the app's Voila (the arguments are Voila's, plus `--max-sessions=N`)."""
    ExplorerVoila.launch_instance(argv if argv is not None else sys.argv[1:])


if __name__ == "__main__":
    main()
