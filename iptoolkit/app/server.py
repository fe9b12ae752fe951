"""Voila as `iptoolkit explore` runs it: `python -m iptoolkit.app.server NOTEBOOK [options]`.

Voila itself, with what an app left up for a team needs and plain Voila 0.5 lacks:

- **kernels are freed when a tab closes.** The page's `beforeunload` beacon asks Voila to
  shut its kernel down, sending back the `_xsrf` cookie; Voila's page never sets that
  cookie (it streams the page, and no template reads the token), so every shutdown was
  refused (403, "'_xsrf' argument missing") and each closed or reloaded tab left its kernel
  running. `SessionHandler.prepare` sets the cookie before the page is sent. Culling idle,
  disconnected kernels (`runner.session_options`) is the safety net for a tab that dies
  without its beacon (a crashed browser, a lost network): within `runner.FREE_AFTER`
  seconds, never while its page is connected, and never before a page handed a kernel
  has had `CONNECT_GRACE` seconds to connect to it (`handed_out_kernels_wait`).
- **a cap on sessions** (`--max-sessions`): past it, a page says so (HTTP 503, `Retry-After`)
  instead of starting one more kernel of a few hundred MB; a page let in but not yet
  given its kernel counts, so pages asked at once (a browser restoring tabs) keep to it.
- **nothing leaves the machine**: the page template drops the lab template's Font Awesome
  links to a CDN (the widgets' icons come bundled with Voila's own front end) and its
  script importing Mermaid from one.
- **a valid page** (the W3C Nu checker finds no error): the template puts the icon and the
  first view's style in <head>, opens the <main> the lab template closes, and drops the
  spinner's RDF metadata and the cells' non-HTML `cell-index` attribute.
- **no route without the token**: Voila's `/voila/query/<kernel id>` websocket, which
  hands a kernel its page's query string (the token in it) and checks neither token nor
  Host, is not served: the app's notebook reads no request info, and any local user can
  read kernel ids in /proc/net/unix.
- **a page of its own for a link without its token** (`token_page`): a missing or wrong
  token gets HTTP 403 and a page saying what this is and whom to ask for the address,
  instead of Jupyter's login form telling a colleague to run `jupyter server list` on a
  machine that is not theirs. Nothing of the request is echoed (least of all a token),
  and the Host check comes first, as before.
- **a quiet log**: Voila's own "running at" line (with a `?token=...` placeholder: the
  command prints the address that works) and the "notebook is not trusted" warning each
  page load logged (trust is JupyterLab's notion of whose outputs to render; Voila runs
  the app's own notebook) are dropped (`QuietLog`). Kernels talk to Voila over Unix
  sockets in Voila's private folder (`runner.command`), so no kernel warns that its TCP
  traffic could be overheard. A failed request's address is logged with its token
  masked (`TokenMasked`).
- **connections that cannot wedge it** (`app.connections`): request headers due within
  10 s, at most 1,000 connections held (the oldest stalled one closed for a new one; fewer
  where the open-file limit is lower), and an accept loop that, out of descriptors, waits
  a second instead of logging a traceback at every turn; Voila's `Application.listen`
  serves with `GuardedHTTPServer`.
- **a first view at once** (`app.first_view`): the overview is drawn once at start, by the
  zygote (or, without one, in a child process: the estate is never held here), and sent
  inside the page of an address that opens the overview, painted before Voila's scripts
  have loaded; CSS hides it when the live canvas is there. A filtered address (a link a
  colleague sent) gets the overview of what its filter keeps, drawn by a fork of the
  zygote while Voila starts the page (`FirstView.for_filter`, kept for the next visitor),
  if it is drawn within `FILTERED_WAIT` seconds.
- **kernels forked from the zygote** (`--ExplorerVoila.zygote=SOCKET`, `app.zygote`): every
  kernel, the pool's one included, shares the estate the zygote holds instead of reading
  it again (`fork_provisioner`).

Kept out of the `explore` command so that the command stays a thin launcher, and out of
`runner` so that the child process imports Voila, never the command.
"""

from __future__ import annotations

import asyncio
import functools
import html
import logging
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..support.extras import require

require("app")  # before Voila's and uvicorn's imports: a missing one names the extra

import tornado.web  # noqa: E402
from jupyter_server.auth.decorator import allow_unauthenticated  # noqa: E402
from jupyter_server.auth.login import LoginFormHandler  # noqa: E402
from traitlets import Bool, Int, Unicode  # noqa: E402
from voila.app import Voila  # noqa: E402
from voila.request_info_handler import RequestInfoSocketHandler  # noqa: E402
from voila.tornado.handler import TornadoVoilaHandler  # noqa: E402

from ..core.selection import Filter  # noqa: E402
from .connections import guarded_listen  # noqa: E402
from .first_view import MARKER, STYLE, STYLE_MARKER  # noqa: E402
from .zygote import request as zygote_request  # noqa: E402

__all__ = [
    "TEMPLATE_DIR",
    "ExplorerVoila",
    "SessionHandler",
    "FirstView",
    "busy_page",
    "token_page",
    "TokenPageHandler",
    "QuietLog",
    "TokenMasked",
    "opens_overview",
    "drawn_filter",
    "sessions_in_use",
    "connections_never_below_zero",
    "main",
]

TEMPLATE_DIR = Path(__file__).with_name("voila_template")
"""The page template: Voila's lab template, without its links to a CDN."""
RETRY_AFTER = 60
"""Seconds a turned-away visitor is told to wait (a closed tab frees its kernel by then)."""
DRAW_TIMEOUT = 600
"""Seconds the first view may take (the zygote's reading included) before the app goes
without one."""
CONNECT_GRACE = 90.0
"""Seconds a page handed a kernel has to connect to it before the culler may free that
kernel: on a loaded machine a page's scripts take longer than the culler's idle timeout
(14 s at `--free-after 20`), and a page whose kernel went first never draws its view."""
FILTERED_WAIT = 1.0
"""Seconds a filtered address's page waits for its first view (drawn meanwhile, while
Voila starts the page; the rest of the page waits with it); a later visitor to the same
filter gets it at once."""
FILTERED_KEPT = 16
"""Filtered first views kept, the latest drawn."""
FILTERED_AT_ONCE = 2
"""Filtered first views drawn at once (each a fork of the zygote, seconds of a core and
its own memory at 100,000 profiles): a page asking beyond goes without one."""


class FirstView:
    """The app's first view (`app.first_view`), drawn once at start, by the zygote that
    holds the estate (`app.zygote`) when there is one, else in a child process of its own;
    `html` is None until it is drawn, and stays None if it cannot be (the page is then
    Voila's alone, as before)."""

    def __init__(self, zygote_address: str | None = None) -> None:
        self.html: str | None = None
        self.zygote_address = zygote_address
        self._filtered: dict[str, str | None] = {}
        self._lock = threading.Lock()
        self._drawing = threading.BoundedSemaphore(FILTERED_AT_ONCE)

    def for_filter(self, chosen: Filter) -> str | None:
        """The overview of what `chosen` keeps, drawn by a fork of the zygote (blocking: for
        a thread); None without a zygote, with `FILTERED_AT_ONCE` drawing already, or when it
        could not be drawn. Kept, the latest `FILTERED_KEPT`, for the next page of the same
        filter."""
        key = chosen.to_json()
        with self._lock:
            if key in self._filtered:
                return self._filtered[key]
        if self.zygote_address is None or not self._drawing.acquire(blocking=False):
            return None
        try:
            answer = zygote_request(self.zygote_address, {"first_view": True, "filter": key}, 60)
        except (OSError, ValueError):
            return None
        finally:
            self._drawing.release()
        drawn = answer.get("html") if isinstance(answer.get("html"), str) else None
        with self._lock:
            if len(self._filtered) >= FILTERED_KEPT:
                self._filtered.pop(next(iter(self._filtered)))
            self._filtered[key] = drawn
        return drawn

    def start(self, log: Any) -> threading.Thread:
        """Draw it in the background (the server answers meanwhile, without it)."""
        thread = threading.Thread(target=self._draw, args=(log,), name="first-view", daemon=True)
        thread.start()
        return thread

    def _draw(self, log: Any) -> None:
        began = time.monotonic()
        drawn = self._asked(log) if self.zygote_address else self._drawn_apart(log)
        if drawn is None:
            return
        self.html = drawn
        log.info("iptoolkit: first view drawn in %.1f s", time.monotonic() - began)

    def _asked(self, log: Any) -> str | None:
        """The zygote's drawing (it answers once it holds the estate)."""
        assert self.zygote_address is not None
        try:
            answer = zygote_request(self.zygote_address, {"first_view": True}, DRAW_TIMEOUT)
        except (OSError, ValueError) as exc:
            log.warning("iptoolkit: no first view: %s", exc)
            return None
        drawn = answer.get("html")
        if not isinstance(drawn, str):
            log.warning("iptoolkit: no first view: the snapshot could not be read")
            return None
        return drawn

    def _drawn_apart(self, log: Any) -> str | None:
        """Drawn by `python -m iptoolkit.app.first_view` (the estate never held here)."""
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
            return None
        if done.returncode != 0:
            reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
            log.warning("iptoolkit: %s", reason[-1] if reason else f"exit {done.returncode}")
            return None
        return done.stdout.decode("utf-8")


def drawn_filter(query: str) -> Filter | None:
    """The filter whose overview a page address opens (`app.address`): an empty one for
    the overview of everything; None when it opens something else (an item in Details, a
    drill-down, paths, a saved view), which a drawing of an overview would misstate."""
    from .address import view_of

    view = view_of(query)
    if view.item or view.drill or view.paths or view.view:
        return None
    return view.filter


def opens_overview(query: str) -> bool:
    """True when a page address opens the Explorer's first view, the overview of
    everything (no filter, drill or item)."""
    chosen = drawn_filter(query)
    return chosen is not None and chosen.is_empty()


async def _within(pending: asyncio.Future[str | None], seconds: float) -> str | None:
    """What `pending` gives within `seconds`, else None (it goes on, for the next page); a
    drawing that failed is none either: the page is sent whole without it."""
    try:
        return await asyncio.wait_for(asyncio.shield(pending), seconds)
    except Exception:  # noqa: BLE001  (TimeoutError, or the drawing's own failure)
        return None


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


def token_page() -> str:
    """The page a visitor without the app's token sees (HTTP 403): what this is, and that
    the address comes from the person who runs it. Fixed text: nothing of the request."""
    title = html.escape("iptoolkit Explorer: this link needs its token")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='referrer' content='no-referrer'>"
        f"<title>{title}</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:40em;margin:4em auto;"
        "padding:0 1em;line-height:1.5;color:#1f2328}h1{font-size:1.4em}"
        "code{background:#f0f2f4;padding:1px 4px;border-radius:3px}"
        ".ipt-why{color:#59636e;font-size:.95em}</style></head><body>"
        "<h1>This link to the iptoolkit Explorer lacks its token</h1>"
        "<p>The iptoolkit Explorer is a web app that someone on this machine started with "
        "<code>iptoolkit explore</code>. It opens only for people given its whole address, "
        "which ends in <code>?token=</code> and a long code. The link you followed has no "
        "token, or not this app's.</p>"
        "<p><b>Ask the person who runs it for the address.</b> Their <em>Copy link</em> "
        "button gives it with the token; so does the line the command printed when it "
        "started. A restarted app has a new token: a link from before no longer opens.</p>"
        "<p class='ipt-why'>Why: the app can write files and hand over the whole estate, "
        "so it answers only its token.</p></body></html>"
    )


def _answer_page(handler: tornado.web.RequestHandler, status: int, page: str) -> None:
    """End the request with one of the app's own pages (`token_page`, `busy_page`)."""
    handler.set_status(status)
    handler.set_header("Content-Type", "text/html; charset=utf-8")
    handler.finish(page)


def _refuse_without_token(handler: tornado.web.RequestHandler) -> None:
    """Answer 403 with `token_page` (no redirect to a login form)."""
    handler.clear()
    handler.set_header("Cache-Control", "no-store")
    _answer_page(handler, 403, token_page())


class TokenPageHandler(LoginFormHandler):
    """`/login`, where Jupyter sends a visitor without the token: `token_page` instead of
    a form (a token typed there would be no safer than in the address). Its `prepare`
    is Jupyter's: the Host check still answers a foreign Host first."""

    @allow_unauthenticated
    def get(self) -> None:
        _refuse_without_token(self)

    @allow_unauthenticated
    def post(self) -> None:
        _refuse_without_token(self)


class QuietLog(logging.Filter):
    """Drops the log lines that mislead or repeat for every page (see the module)."""

    DROPPED = ("Voilà is running at", "Notebook %s is not trusted")

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.DROPPED)


class TokenMasked(logging.Filter):
    """Masks the app's token in a log line: tornado logs the address of a request that
    fails (a 404, a file Voila will not serve, the busy page's 503) as it was asked, and
    a log is read by more people than the token is meant for."""

    LOGGERS = ("tornado.access", "tornado.general", "tornado.application")
    """Tornado's loggers, besides the app's own: their records carry no app filter."""
    _GIVEN = re.compile(r"(token=)[^&#\s]+")

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        said = record.getMessage()
        masked = self._GIVEN.sub(r"\1[secret]", said)
        if self.token:  # however it was given (a header, an encoded parameter name)
            masked = masked.replace(self.token, "[secret]")
        if masked != said:
            record.msg, record.args = masked, None
        return True


class SessionHandler(TornadoVoilaHandler):  # type: ignore[misc]  # voila has no types
    """Voila's page handler: refuses a visitor without the token with `token_page`, sets
    the `_xsrf` cookie, keeps to the session cap, and puts the first view in the page
    when the address opens an overview: of everything, or of what its filter keeps."""

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        first = self.settings.get("iptoolkit_first_view")
        chosen = drawn_filter(self.request.query) if first is not None else None
        drawing: str | None = None
        pending: asyncio.Future[str | None] | None = None
        if first is not None and chosen is not None:
            if chosen.is_empty():
                drawing = first.html
            elif first.zygote_address:  # drawn while Voila starts the page
                pending = asyncio.get_running_loop().run_in_executor(None, first.for_filter, chosen)
        style = STYLE if drawing is not None or pending is not None else ""
        async for chunk in self.get_generator(path=path):
            if STYLE_MARKER in chunk:  # once, in <head>: the drawing's style
                chunk = chunk.replace(STYLE_MARKER, style, 1)
            if MARKER in chunk:  # once: where the template leaves room, before the cells
                if pending is not None:
                    drawing = await _within(pending, FILTERED_WAIT)
                chunk = chunk.replace(MARKER, drawing or "", 1)
                drawing = None
            self._starting().discard(self)  # its kernel is counted in use now
            self.write(chunk)
            self.flush()

    async def prepare(self) -> None:
        await super().prepare()
        if self._finished:  # refused: a foreign Host, or no token (see `redirect`)
            return
        self.xsrf_token  # noqa: B018  (reading it sets the cookie the shutdown beacon returns)
        limit = int(self.settings.get("iptoolkit_max_sessions") or 0)
        if not limit:
            return
        starting = self._starting()
        if sessions_in_use(self.kernel_manager) + len(starting) >= limit:
            self.set_header("Retry-After", str(RETRY_AFTER))
            _answer_page(self, 503, busy_page(limit))
        else:  # a page not yet given its kernel is a session: pages asked at once
            starting.add(self)

    def on_finish(self) -> None:
        self._starting().discard(self)
        super().on_finish()

    def _starting(self) -> set[SessionHandler]:
        """The pages let past the cap that have no kernel yet (the app's, for every page)."""
        starting: set[SessionHandler] = self.settings.setdefault("iptoolkit_starting", set())
        return starting

    def redirect(self, url: str, permanent: bool = False, status: int | None = None) -> None:
        """Jupyter sends a visitor without the token to its login form: `token_page` here,
        at once (403, no redirect)."""
        if not self.current_user and url.startswith(self.get_login_url()):
            _refuse_without_token(self)
            return
        super().redirect(url, permanent, status)


class ExplorerVoila(Voila):  # type: ignore[misc]  # voila has no types: Voila is Any
    """Voila with `SessionHandler` for the page, `max_sessions`, and the CDN-free template."""

    template_paths: list[str]  # Voila's traits, which voila gives no types
    tornado_settings: dict[str, Any]

    name = "iptoolkit-explore"
    max_sessions = Int(0, config=True, help="Pages served at once (0: no cap).")
    first_view = Bool(
        True, config=True, help="Draw the app's overview at start and send it in the page."
    )
    zygote = Unicode(
        "",
        config=True,
        help="The socket of the app's zygote, which forks each kernel (`app.zygote`); "
        "empty: kernels start as Voila starts them.",
    )
    aliases = {**Voila.aliases, "max-sessions": "ExplorerVoila.max_sessions"}

    def setup_template_dirs(self) -> None:
        super().setup_template_dirs()
        self.template_paths = [str(TEMPLATE_DIR), *self.template_paths]

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        handed_out_kernels_wait(self.kernel_manager)
        connections_never_below_zero(self.kernel_manager)
        provider = getattr(self, "identity_provider", None)
        if provider is not None:  # built by Voila with its login form: ours instead
            provider.login_handler_class = TokenPageHandler
        return settings

    def init_handlers(self) -> list[Any]:
        handlers = super().init_handlers()
        return [
            (rule[0], SessionHandler, *rule[2:]) if rule[1] is TornadoVoilaHandler else rule
            for rule in handlers
            if rule[1] is not RequestInfoSocketHandler  # no token: see the module
        ]

    def start(self) -> None:
        self.log.addFilter(QuietLog())
        masked = TokenMasked(self.token or "")
        for logger in (self.log, *(logging.getLogger(name) for name in TokenMasked.LOGGERS)):
            logger.addFilter(masked)
        if self.zygote:  # before the kernel manager, which fills its pool at once
            from .fork_provisioner import register

            register(self.zygote, self.config)
        first = FirstView(self.zygote or None) if self.first_view else None
        settings = {
            **self.tornado_settings,
            "iptoolkit_max_sessions": self.max_sessions,
            "iptoolkit_first_view": first,
        }
        self.tornado_settings = settings
        if first is not None:
            first.start(self.log)
        super().start()

    def listen(self) -> None:
        """Voila's (port, then the loop), its `Application.listen` serving with
        `GuardedHTTPServer` instead of tornado's own server."""
        self.app.listen = functools.partial(guarded_listen, self.app, logger=self.log)
        super().listen()


def handed_out_kernels_wait(manager: Any, grace: float = CONNECT_GRACE) -> None:
    """A preheated kernel counts as active from the moment a page takes it (its notebook
    ran minutes before), and the culler leaves it alone until its page has connected or
    `grace` seconds have passed: a slow page (10,000 profiles, a loaded machine) would
    otherwise find its kernel gone and never draw its view."""
    original = getattr(manager, "get_rendered_notebook", None)
    if original is None:  # no pool: kernels start with the page
        return
    from jupyter_server._tz import utcnow

    waiting: dict[str, float] = {}  # kernel id: when it was handed out, not yet connected

    async def handed_out(*args: Any, **kwargs: Any) -> Any:
        task, rendered, kernel_id = await original(*args, **kwargs)
        for gone in [known for known in waiting if known not in manager]:
            del waiting[gone]  # shut down (a closed tab's beacon) before it connected
        kernel = getattr(manager, "_kernels", {}).get(kernel_id)
        if kernel is not None:
            kernel.last_activity = utcnow()
            waiting[kernel_id] = time.monotonic()
        return task, rendered, kernel_id

    connect = manager.notify_connect

    def connected(kernel_id: str) -> None:
        waiting.pop(kernel_id, None)
        connect(kernel_id)

    cull = manager.cull_kernel_if_idle

    async def cull_unless_waited_for(kernel_id: str) -> Any:
        handed = waiting.get(kernel_id)
        if handed is not None and time.monotonic() - handed < grace:
            return None
        waiting.pop(kernel_id, None)
        return await cull(kernel_id)

    manager.get_rendered_notebook = handed_out
    manager.notify_connect = connected
    manager.cull_kernel_if_idle = cull_unless_waited_for


def connections_never_below_zero(manager: Any) -> None:
    """A page that leaves while its kernel's websocket is still being set up (a link opened,
    then another at once, on a busy machine) closes the socket before it is counted:
    jupyter_server counts the close all the same, the kernel's connections go to -1, and
    its culler, which frees only kernels with no connection, then keeps that kernel for
    good. Counting a close only when a connection was counted keeps the count true."""
    original = getattr(manager, "notify_disconnect", None)
    if original is None:
        return

    def disconnected(kernel_id: str) -> None:
        if getattr(manager, "_kernel_connections", {}).get(kernel_id, 0) > 0:
            original(kernel_id)

    manager.notify_disconnect = disconnected


def main(argv: list[str] | None = None) -> None:
    """Run the app's Voila (the arguments are Voila's, plus `--max-sessions=N`)."""
    ExplorerVoila.launch_instance(argv if argv is not None else sys.argv[1:])


if __name__ == "__main__":
    main()
