"""The watch's webhooks and command against hostile data and hostile receivers (issue 35):
real HTTP to receivers on 127.0.0.1, a real subprocess for `--exec` and the command line.

- chat markup in ids, names and reasons reaches a webhook as text, never as a mention, a
  link or a new line (finding 1);
- credentials held as name/value pairs are masked in the webhook, the changelog and the
  archive's `changes` table (finding 2);
- a malformed `--notify` URL is refused when the watch starts, and a delivery fault is
  reported, never raised (finding 6);
- one POST ends at its deadline however the receiver trickles; 307 and 308 are followed,
  a 302 is reported; the `--exec` line names the program, not its arguments (finding 11).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt

pytest.importorskip("duckdb")
from iptoolkit.archive import Archive, notify, watch  # noqa: E402
from iptoolkit.support.markdown import chat  # noqa: E402

from .hostile_estate import CHAT_FIELD, IDS, NAMES, SECRETS, hostile_changed, hostile_estate  # noqa: E402
from .hostile_server import Hostile, hostile_server, send_head, trickle  # noqa: E402

IPTOOLKIT = str(Path(sys.executable).parent / "iptoolkit")
TOKEN = "exec-token-71c4"
"""A token an `--exec` command carries in its arguments."""


pytestmark = pytest.mark.usefixtures("no_waits")  # tests/conftest.py: no back-off waited


def _answer(hostile: Hostile, handler: Any) -> None:
    """A receiver: 200 for `/hook...`; `/r307` and `/r308` move to `/hook`, `/r302` too,
    `/loop` to itself, `/trickle` sends its headers a byte every 0.1 s for 8 s."""
    path = handler.path
    moves = {"/r307": 307, "/r308": 308, "/r302": 302, "/loop": 307}
    if path in moves:
        target = "/loop" if path == "/loop" else f"{hostile.url}/hook/moved"
        send_head(handler, moves[path], Location=target, Content_Length=0)
    elif path == "/trickle":
        handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
        trickle(hostile, handler, b"X-Slow: y\r\n")
    else:
        send_head(handler, 200, Content_Length=0)


@pytest.fixture
def receiver() -> Iterator[Hostile]:
    with hostile_server(_answer) as hostile:
        yield hostile


@pytest.fixture(scope="module")
def hostile_pair() -> tuple[ipt.Estate, ipt.Estate]:
    return hostile_estate(), hostile_changed()


def _no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret} in {where}"


def test_hostile_changes_reach_the_webhook_inert_and_masked_everywhere(
    receiver: Hostile,
    hostile_pair: tuple[ipt.Estate, ipt.Estate],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every change is named in the text (no cut), so every hostile id, name and path
    passes through it; the changelog goes to a real `--exec` command."""
    monkeypatch.setattr(notify, "TEXT_CHANGES", 10_000)
    monkeypatch.setattr(notify, "MAX_CHANGES", 10_000)
    archive = Archive(tmp_path / "estate.duckdb")
    fetched = iter(hostile_pair)
    changelog = tmp_path / "changelog.md"
    script = "import pathlib, sys; pathlib.Path(sys.argv[1]).write_bytes(sys.stdin.buffer.read())"
    command = shlex.join([sys.executable, "-c", script, str(changelog), "--token", TOKEN])
    lines: list[str] = []
    for _ in hostile_pair:
        result = watch.watch_once(
            archive,
            lambda: next(fetched),
            fail_on="any",
            notify=[f"{receiver.url}/hook/T0/SECRETPATH"],
            command=command,
            echo=lines.append,
        )
    assert result.exit_code == 1 and all(d.ok for d in result.deliveries), result.deliveries
    [body] = [json.loads(raw) for raw in receiver.bodies]
    text = body["text"]
    # finding 1: nothing a chat reads as markup, no line of its own
    assert not re.search(r"[<>\r]|(?<!\\)\]\(|@U123", text), text
    changes = result.diff.changes if result.diff else ()
    assert len(text.split("\n")) == 3 + len(changes)  # a heading, a blank, the summary
    assert all(line.startswith("- **") for line in text.split("\n")[3:])
    for hostile in [*IDS, CHAT_FIELD]:
        assert chat(hostile) in text, hostile
    assert "cr- -overwrite -id" in text and "&lt;!channel&gt;" in text and "&lt;!here&gt;" in text
    assert IDS[3] in [c["key"].split(":", 1)[1] for c in body["changes"]]  # the data: raw
    # finding 2: the pairs changed, and show masked in the webhook, changelog and archive
    paths = [c["path"] for c in body["changes"] if c["path"] and "headers" in c["path"]]
    assert len(paths) == 3 * (len(NAMES) + len(IDS))  # 2 rotated, 1 added in each
    _no_secret(json.dumps(body), "the webhook")
    _no_secret(changelog.read_text(encoding="utf-8"), "the changelog")
    assert changelog.read_text(encoding="utf-8") == archive.diff(1, 2).to_markdown()
    _no_secret(archive.sql("SELECT * FROM changes").to_csv(), "the changes table")
    # finding 11: the command's line names its program, not the token in its arguments
    said = "\n".join(lines)
    assert f"exec {sys.executable} ...: done" in said and TOKEN not in said
    assert "SECRETPATH" not in said


def test_a_post_ends_at_its_deadline_however_the_receiver_trickles(receiver: Hostile) -> None:
    """The receiver sends a header line every 0.1 s for 8 s, each read well within the
    time-out: only a total deadline ends the POST at 1 s."""
    started = time.monotonic()
    delivery = notify.post(f"{receiver.url}/trickle", {"text": "x"}, attempts=1, timeout=1.0)
    took = time.monotonic() - started
    assert not delivery.ok and "within 1 s" in delivery.error, delivery
    assert took < 4, f"the POST took {took:.1f} s"


def test_307_and_308_are_followed_and_a_302_is_reported(receiver: Hostile) -> None:
    body = {"text": "moved"}
    for status in (307, 308):
        delivery = notify.post(f"{receiver.url}/r{status}", body, attempts=1)
        assert delivery.ok, delivery
    assert receiver.requests[-4:] == ["POST /r307", "POST /hook/moved", "POST /r308",
                                      "POST /hook/moved"]  # fmt: skip
    assert [json.loads(raw) for raw in receiver.bodies[-3::2]] == [body, body]  # kept
    moved = notify.post(f"{receiver.url}/r302", body, attempts=1)
    assert not moved.ok and "HTTP 302" in moved.error and "new URL" in moved.error, moved
    assert receiver.requests[-1] == "POST /r302"  # not followed (as a GET or at all)
    looped = notify.post(f"{receiver.url}/loop", body, attempts=1)
    assert not looped.ok and f"more than {notify.REDIRECTS} redirects" in looped.error


def test_a_delivery_fault_is_reported_and_the_round_goes_on(
    receiver: Hostile,
    hostile_pair: tuple[ipt.Estate, ipt.Estate],
    tmp_path: Path,
) -> None:
    """URLs `check_webhook` refuses, given straight to `watch_once`: each is reported as a
    failed delivery, and the good webhook after them is still told."""
    archive = Archive(tmp_path / "estate.duckdb")
    fetched = iter(hostile_pair)
    bad = ["https://hooks.example:99999/T0/SECRETPATH", "https://hooks.example/T0\r", "ftp://x/"]
    lines: list[str] = []
    for _ in hostile_pair:
        result = watch.watch_once(
            archive, lambda: next(fetched), notify=[*bad, f"{receiver.url}/hook"], echo=lines.append
        )
    assert [d.ok for d in result.deliveries] == [False, False, False, True]
    assert result.deliveries[0].target == "https://hooks.example:?/..."
    assert all(d.error for d in result.deliveries[:3])
    assert len(receiver.bodies) == 1 and result.exit_code == 1
    assert not any("SECRETPATH" in line for line in lines)
    for url in bad:
        with pytest.raises(ValueError, match="hooks.example|not an http"):
            notify.check_webhook(url)


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("https://hooks.example/T0/SECRETPATH\r", "holds '\\r'"),
        ("https://hooks.example:99999/T0/SECRETPATH", "port is not a number from 1 to 65535"),
    ],
)
def test_a_malformed_notify_url_is_refused_when_the_watch_starts(
    url: str, said: str, tmp_path: Path
) -> None:
    """As the command line runs: a real process, which must not reach the fetch (the
    platform URL is a closed port) nor create the archive."""
    archive = tmp_path / "estate.duckdb"
    done = subprocess.run(
        [IPTOOLKIT, "watch", "--archive", str(archive), "--every", "1h",
         "--base-url", "http://127.0.0.1:9", "--notify", url],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "SECRETPATH" not in done.stderr
    assert done.stdout == "" and not archive.exists()
