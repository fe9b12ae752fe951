"""Telling people: a JSON message POSTed to webhooks, or a command fed the changelog.

The message has a `text` field in Markdown, which Slack and Microsoft Teams incoming
webhooks show as it is, and the structured summary for anything else (`summary`: the
diff's counts; `changes`: the changes at or above the watch's severity, at most
`MAX_CHANGES`). Every id, path and reason in `text` is hostile input, written by
`support.markdown.chat`: one line, `& < >` as entities, Markdown escaped, no mention.

A webhook URL is checked when the watch starts (`check_webhook`); a webhook that fails is
tried again with backoff and then reported, whatever went wrong; it never undoes the
snapshot, which was stored before anyone was told. One POST ends within its `timeout`,
however slowly the receiver answers (a total deadline, not httpx's per-read one). A 307
or 308 redirect is followed (at most `REDIRECTS`, never from https to http): both keep a
POST a POST with its body, which is what a webhook that moved means. A 301, 302 or 303 is
reported, not followed: clients turn those into a GET, which would drop the message.

`sleep` is the only place that waits; tests replace it.
"""

from __future__ import annotations

import concurrent.futures
import logging
import shlex
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..support.markdown import chat
from ..support.printable import escape_unprintable
from ..support.redact import redact_text, redact_url

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff

__all__ = [
    "message",
    "post",
    "run_command",
    "Delivery",
    "webhook_name",
    "command_name",
    "check_webhook",
    "MAX_CHANGES",
    "REDIRECTS",
    "ATTEMPTS",
    "sleep",
]

MAX_CHANGES = 50
"""Changes listed in a message (the summary counts them all)."""
TEXT_CHANGES = 10
"""Changes named in the Markdown text."""
ATTEMPTS = 4
"""Tries of a webhook before it is reported as failed."""
FIRST_DELAY = 1.0
"""Seconds before the second try; doubled for each further one."""
TIMEOUT = 10.0
"""Seconds one POST may take in all: connecting, redirects, and the whole answer."""
REDIRECTS = 3
"""307 and 308 redirects followed in one POST."""
logger = logging.getLogger("iptoolkit.watch")


def sleep(seconds: float) -> None:
    time.sleep(seconds)


@dataclass(frozen=True)
class Delivery:
    """How telling one webhook or command went."""

    target: str
    """The URL (scheme and host: `webhook_name`) or the command's program (`command_name`)."""
    ok: bool
    attempts: int
    error: str = ""


def message(
    diff: EstateDiff, *, snapshot_id: int, source: str | None, wanted: Sequence[str]
) -> dict[str, Any]:
    """The JSON body: Markdown `text`, then the structured summary and changes."""
    from ..change.render import short

    shown = [change for change in diff.changes if change.severity in wanted]
    where = f" from {chat(redact_url(source))}" if source else ""
    lines = [
        f"**iptoolkit watch**: snapshot {snapshot_id}{where}",
        "",
        chat(diff.summary().split("\n", 1)[0]),
    ]
    for change in shown[:TEXT_CHANGES]:
        what = chat(change.key) + (f" {chat(change.path)}" if change.path else "")
        reason = f": {chat(change.reason)}" if change.reason else ""
        lines.append(f"- **{change.severity}** {change.op} {what}{reason}")
    if len(shown) > TEXT_CHANGES:
        lines.append(f"- and {len(shown) - TEXT_CHANGES} more")
    body = diff.to_dict()
    return {
        "text": "\n".join(lines),
        "snapshot": snapshot_id,
        "source_url": redact_url(source) if source else None,
        "summary": body["summary"],
        "changes": [
            {**change.to_dict(), "old": short(change.old), "new": short(change.new)}
            for change in shown[:MAX_CHANGES]
        ],
    }


def check_webhook(url: str) -> str:
    """`url` if a webhook can be POSTed to it, else `ValueError` saying why in one line
    (naming the URL by `webhook_name`: its path is its secret). The watch checks each
    `--notify` URL when it starts, not when the first alert is due."""
    if any(char.isspace() or not char.isprintable() for char in url):
        bad = next(char for char in url if char.isspace() or not char.isprintable())
        raise ValueError(
            f"{webhook_name(url)}: the URL holds '{escape_unprintable(bad)}', "
            "which no URL may (a line break pasted with it?)"
        )
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{webhook_name(url)}: not an http(s) URL")
    if not parts.hostname:
        raise ValueError(f"{webhook_name(url)}: no host")
    try:
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        raise ValueError(f"{webhook_name(url)}: the port is not a number from 1 to 65535") from None
    import httpx

    try:
        httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise ValueError(f"{webhook_name(url)}: {redact_text(str(exc))}") from None
    return url


def post(
    url: str, body: dict[str, Any], *, attempts: int = ATTEMPTS, timeout: float = TIMEOUT
) -> Delivery:
    """POST `body` as JSON to `url`, tried `attempts` times with doubling waits, each try
    ending within `timeout` seconds. Never raises: any fault is the delivery's `error`."""
    shown = webhook_name(url)
    error = ""
    for attempt in range(1, attempts + 1):
        try:
            error = _post_once(url, body, timeout)
            if not error:
                return Delivery(shown, True, attempt)
        except TimeoutError:
            error = f"no complete answer within {timeout:g} s (a slow or trickling receiver)"
        except Exception as exc:  # noqa: BLE001 - a delivery fault is reported, never raised: the watch goes on
            error = escape_unprintable(redact_text(f"{type(exc).__name__}: {exc}"))
        logger.warning("notify %s: attempt %d of %d failed: %s", shown, attempt, attempts, error)
        if attempt < attempts:
            sleep(FIRST_DELAY * 2 ** (attempt - 1))
    return Delivery(shown, False, attempts, error)


def _post_once(url: str, body: dict[str, Any], timeout: float) -> str:
    """One POST (following 307 and 308) within `timeout` seconds in all: "" when it was
    taken, else why not. Run on an event loop of its own in a worker thread, so that the
    deadline cancels even a read the receiver trickles, and so that it works where a loop
    runs already (a notebook)."""
    import anyio
    import httpx

    async def send() -> str:
        with anyio.fail_after(timeout):
            async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
                target = httpx.URL(url)
                for _ in range(REDIRECTS + 1):
                    response = await client.post(target, json=body)
                    status = response.status_code
                    if status < 300:
                        return ""
                    location = response.headers.get("location")
                    if not response.is_redirect or location is None:
                        return f"HTTP {status}"
                    moved = target.join(location)
                    if status not in (307, 308):
                        return (
                            f"HTTP {status} to {webhook_name(str(moved))}: not followed (it "
                            "would turn the POST into a GET); give --notify the new URL"
                        )
                    if moved.scheme not in ("https", target.scheme):
                        return (
                            f"HTTP {status} to {webhook_name(str(moved))}: refused (https to http)"
                        )
                    target = moved
                return f"HTTP {status}: more than {REDIRECTS} redirects"

    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="notify") as pool:
        return pool.submit(anyio.run, send).result()


def webhook_name(url: str) -> str:
    """How a webhook is named in logs: its scheme and host only. A Slack or Teams webhook's
    path is its secret (whoever has it may post). Never raises (a port out of range, a
    URL that is not one: what can be read of it)."""
    parts = urlsplit(url)
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ":?"
    host = escape_unprintable(parts.hostname or "?")
    return f"{escape_unprintable(parts.scheme) or '?'}://{host}{port}/..."


def command_name(command: str) -> str:
    """How an `--exec` command is named in logs: its program, then `...` for arguments,
    which may carry a token (`notify --token X`, `curl -H 'Authorization: ...'`)."""
    words = _words(command)
    if not words:
        return "?"
    return escape_unprintable(redact_text(words[0])) + (" ..." if len(words) > 1 else "")


def run_command(
    command: str, changelog: str, *, runner: Callable[..., Any] = subprocess.run
) -> Delivery:
    """Run `command` (split as a shell would, not run by one) with the changelog on stdin."""
    shown = command_name(command)
    try:
        done = runner(
            shlex.split(command), input=changelog.encode(), capture_output=True, timeout=300
        )
    except Exception as exc:  # noqa: BLE001 - a delivery fault is reported, never raised: the watch goes on
        return Delivery(shown, False, 1, _scrubbed(str(exc) or type(exc).__name__, command))
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return Delivery(
            shown, False, 1, _scrubbed(f"exit code {done.returncode} {tail[0]}".strip(), command)
        )
    return Delivery(shown, True, 1)


def _scrubbed(text: str, command: str) -> str:
    """A command's error for a log line: masked, and without the command's own arguments
    (`TimeoutExpired` quotes the whole command)."""
    for word in sorted(_words(command)[1:], key=len, reverse=True):
        if len(word) >= 4:
            text = text.replace(word, "...")
    return escape_unprintable(redact_text(text))


def _words(command: str) -> list[str]:
    """The command's words as `run_command` splits them (by white space if it cannot)."""
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()
