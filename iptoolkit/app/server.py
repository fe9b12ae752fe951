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

Kept out of the `explore` command so that the command stays a thin launcher, and out of
`runner` so that the child process imports Voila, never the command.
"""

from __future__ import annotations

import html
import sys
from pathlib import Path
from typing import Any

from traitlets import Int
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

__all__ = [
    "TEMPLATE_DIR",
    "ExplorerVoila",
    "SessionHandler",
    "busy_page",
    "sessions_in_use",
    "main",
]

TEMPLATE_DIR = Path(__file__).with_name("voila_template")
"""The page template: Voila's lab template, without its links to a CDN."""
RETRY_AFTER = 60
"""Seconds a turned-away visitor is told to wait (a closed tab frees its kernel by then)."""


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
    """Voila's page handler: sets the `_xsrf` cookie and keeps to the session cap."""

    async def prepare(self) -> None:  # type: ignore[override]
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


class ExplorerVoila(Voila):  # type: ignore[misc]
    """Voila with `SessionHandler` for the page, `max_sessions`, and the CDN-free template."""

    name = "iptoolkit-explore"
    max_sessions = Int(0, config=True, help="Pages served at once (0: no cap).")
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
        settings = {**self.tornado_settings, "iptoolkit_max_sessions": self.max_sessions}
        self.tornado_settings = settings
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
