"""Telling people: a JSON message POSTed to webhooks, or a command fed the changelog.

The message has a `text` field in Markdown, which Slack and Microsoft Teams incoming
webhooks show as it is, and the structured summary for anything else (`summary`: the
diff's counts; `changes`: the changes at or above the watch's severity, at most
`MAX_CHANGES`). A webhook that fails is tried again with backoff and then reported; it
never undoes the snapshot, which was stored before anyone was told.

`sleep` is the only place that waits; tests replace it.
"""

from __future__ import annotations

import logging
import shlex
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..support.redact import redact_text, redact_url

if TYPE_CHECKING:
    from ..change.model import EstateDiff

__all__ = [
    "message",
    "post",
    "run_command",
    "Delivery",
    "webhook_name",
    "MAX_CHANGES",
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
logger = logging.getLogger("iptoolkit.watch")


def sleep(seconds: float) -> None:
    time.sleep(seconds)


@dataclass(frozen=True)
class Delivery:
    """How telling one webhook or command went."""

    target: str
    """The URL (credentials masked) or the command."""
    ok: bool
    attempts: int
    error: str = ""


def message(
    diff: EstateDiff, *, snapshot_id: int, source: str | None, wanted: Sequence[str]
) -> dict[str, Any]:
    """The JSON body: Markdown `text`, then the structured summary and changes."""
    from ..change.render import short

    shown = [change for change in diff.changes if change.severity in wanted]
    where = f" from {redact_url(source)}" if source else ""
    lines = [
        f"**iptoolkit watch**: snapshot {snapshot_id}{where}",
        "",
        diff.summary().split("\n", 1)[0],
    ]
    for change in shown[:TEXT_CHANGES]:
        what = f"`{change.key}`" + (f" {change.path}" if change.path else "")
        reason = f": {change.reason}" if change.reason else ""
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


def post(
    url: str, body: dict[str, Any], *, attempts: int = ATTEMPTS, timeout: float = 10.0
) -> Delivery:
    """POST `body` as JSON to `url`, tried `attempts` times with doubling waits."""
    import httpx

    shown = webhook_name(url)
    error = ""
    for attempt in range(1, attempts + 1):
        try:
            response = httpx.post(url, json=body, timeout=timeout)
            if response.status_code < 300:
                return Delivery(shown, True, attempt)
            error = f"HTTP {response.status_code}"
        except httpx.HTTPError as exc:
            error = redact_text(f"{type(exc).__name__}: {exc}")
        logger.warning("notify %s: attempt %d of %d failed: %s", shown, attempt, attempts, error)
        if attempt < attempts:
            sleep(FIRST_DELAY * 2 ** (attempt - 1))
    return Delivery(shown, False, attempts, error)


def webhook_name(url: str) -> str:
    """How a webhook is named in logs: its scheme and host only. A Slack or Teams webhook's
    path is its secret (whoever has it may post)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or "?"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}/..."


def run_command(
    command: str, changelog: str, *, runner: Callable[..., Any] = subprocess.run
) -> Delivery:
    """Run `command` (split as a shell would, not run by one) with the changelog on stdin."""
    try:
        done = runner(
            shlex.split(command), input=changelog.encode(), capture_output=True, timeout=300
        )
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        return Delivery(command, False, 1, redact_text(str(exc)))
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return Delivery(
            command, False, 1, redact_text(f"exit code {done.returncode} {tail[0]}".strip())
        )
    return Delivery(command, True, 1)
