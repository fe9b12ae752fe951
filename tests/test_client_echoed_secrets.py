"""Secrets a server echoes never reach an error (issue 35, finding 7): a token endpoint
quoting the form it was sent (the secret percent-encoded, which a CI log's masking of the
plain value misses), a 500 page quoting the request's `Authorization` header. Real HTTP to
a server on 127.0.0.1; the command line as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, quote_plus

import pytest

import iptoolkit as ipt
from iptoolkit.client.errors import ApiError

pytest.importorskip("duckdb")
from iptoolkit.archive import Archive, watch  # noqa: E402

from .hostile_server import Hostile, hostile_server, send_head  # noqa: E402

IPTOOLKIT = str(Path(sys.executable).parent / "iptoolkit")
SECRET = "Sec/ret+&=42 x-9f1"
"""A client secret with characters a form percent-encodes (and a space: `+`)."""
TOKEN = "tok-5b0e7c1d2a"


def _spellings(value: str) -> list[str]:
    return [value, quote(value, safe=""), quote_plus(value, safe="")]


def _answer(hostile: Hostile, handler: Any) -> None:
    """`/echo-form/...`: the token endpoint refuses (400) quoting the form and the secret
    alone, percent-encoded; `/echo-header/...`: a token, then the listing fails (500) with a
    page quoting the Authorization header and the token alone."""
    if handler.command == "POST":
        form = hostile.bodies[-1].decode()
        secret = parse_qs(form)["client_secret"][0]
        if handler.path.startswith("/echo-form/"):
            text = f"invalid_client: {form} (the secret {quote(secret, safe='')} is unknown)"
            body = json.dumps({"errorInfo": {"errorCode": "E400", "errorText": text}}).encode()
            status = 400
        else:
            body, status = json.dumps({"access_token": TOKEN, "expires_in": 3600}).encode(), 200
        content_type = "application/json"
    else:
        sent = handler.headers.get("Authorization", "")
        key = handler.headers.get("X-Gateway", "")
        accept = handler.headers.get("Accept", "")
        body = (
            f"<pre>proxy error\nAuthorization: {sent}\nsession {TOKEN} dropped\n"
            f"X-Gateway={key} Accept={accept}</pre>"
        ).encode()
        status, content_type = 500, "text/html"
    send_head(handler, status, Content_Type=content_type, Content_Length=len(body))
    handler.wfile.write(body)


@pytest.fixture(scope="module")
def server() -> Iterator[Hostile]:
    with hostile_server(_answer) as hostile:
        yield hostile


def _shows_none(text: str, where: str) -> None:
    for value in [*_spellings(SECRET), TOKEN]:
        assert value not in text, f"{value!r} in {where}: {text}"


@pytest.mark.parametrize("kind", ["echo-form", "echo-header"])
def test_an_error_shows_no_secret_the_server_echoed(server: Hostile, kind: str) -> None:
    auth = ipt.ClientCredentials("reporting", SECRET, token_path=f"/{kind}/token")
    with (
        ipt.Client(server.url, auth=auth, max_retries=0) as client,
        pytest.raises(ApiError) as caught,
    ):
        client.fetch_raw()
    error = caught.value
    assert error.status_code == (400 if kind == "echo-form" else 500)
    for text in (str(error), repr(error), error.error_text or "", error.body_excerpt or ""):
        _shows_none(text, kind)
    assert "**********" in str(error)  # masked, not dropped: the reader sees it was there


def test_an_echoed_header_is_masked_by_its_name_whatever_the_auth(server: Hostile) -> None:
    """An auth the client knows nothing of (httpx's Basic): no value of its own to mask,
    so the 500 page's `Authorization: Basic ...` is masked by the header's name alone."""
    import base64

    import httpx

    sent = base64.b64encode(f"reporting:{SECRET}".encode()).decode()
    auth = httpx.BasicAuth("reporting", SECRET)
    with (
        ipt.Client(f"{server.url}/echo-header", auth=auth, max_retries=0) as client,
        pytest.raises(ApiError) as caught,
    ):
        client.fetch_raw()
    assert "Authorization: **********" in str(caught.value)
    for text in (str(caught.value), caught.value.body_excerpt or ""):
        assert sent not in text and "Basic" not in text, text


@pytest.mark.parametrize("auth", ["bearer", "basic"])
def test_a_header_the_client_was_given_is_masked_when_echoed(server: Hostile, auth: str) -> None:
    """A gateway's key given as a header (`headers=`) under a name no rule calls secret
    (`X-Gateway`: `Ocp-Apim-Subscription-Key` is masked by its name) is
    masked as the session's own credentials are, whatever the auth; a plain header's value
    (`Accept`) is kept."""
    import httpx

    key = "apim-4f2e9c71"
    given: httpx.Auth = ipt.BearerToken(TOKEN) if auth == "bearer" else httpx.BasicAuth("u", "p")
    headers = {"X-Gateway": key, "Accept-Language": "en"}
    with (
        ipt.Client(f"{server.url}/echo-header", auth=given, max_retries=0, headers=headers) as c,
        pytest.raises(ApiError) as caught,
    ):
        c.fetch_raw()
    for text in (str(caught.value), repr(caught.value), caught.value.body_excerpt or ""):
        assert key not in text, text
    assert "X-Gateway=**********" in str(caught.value)
    assert "Accept=application/json" in str(caught.value)


def test_fetch_and_watch_on_the_command_line_show_no_echoed_secret(
    server: Hostile, tmp_path: Path
) -> None:
    environ = {**os.environ, "IPTOOLKIT_CLIENT_SECRET": SECRET}
    runs = {  # the base URL's prefix picks the server's answer
        "fetch": (f"{server.url}/echo-header", ["-o", str(tmp_path / "s.json")], 1),
        "watch": (f"{server.url}/echo-form", ["--archive", str(tmp_path / "a.db"), "--once"], 2),
    }
    for name, (base_url, options, code) in runs.items():
        command = [IPTOOLKIT, name, "--base-url", base_url, "--client-id", "reporting", *options]
        done = subprocess.run(command, capture_output=True, text=True, env=environ, timeout=120)
        assert done.returncode == code, (name, done.stderr)
        assert "Traceback" not in done.stderr and "**********" in done.stderr, done.stderr
        _shows_none(done.stdout + done.stderr, name)


def test_the_watch_reports_a_500_without_the_echoed_header(
    server: Hostile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch, "sleep", lambda seconds: None)

    def fetch() -> ipt.Estate:
        auth = ipt.ClientCredentials("reporting", SECRET, token_path="/echo-header/token")
        with ipt.Client(server.url, auth=auth, max_retries=0) as client:
            return client.fetch_estate(progress=False)

    lines: list[str] = []
    result = watch.watch_once(Archive(tmp_path / "a.duckdb"), fetch, echo=lines.append)
    assert result.exit_code == 2 and "500" in result.error
    _shows_none("\n".join([*lines, result.error]), "the watch")
