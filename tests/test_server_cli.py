"""The server's click commands: `hash-secret` through CliRunner, `serve` as a real process."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import httpx
import pytest
from click.testing import CliRunner

import iptoolkit.server.runner as runner_module
from iptoolkit.cli import main
from iptoolkit.cli.serve import hash_secret_command, serve_command
from iptoolkit.server import Principals, ServerLimits, verify_secret
from iptoolkit.server.app import PROFILES_PATH, TOKEN_PATH
from iptoolkit.support import env

from .server_data import PROFILES, SECRETS, ids, request_token


def test_hash_secret_reads_stdin_not_argv() -> None:
    result = CliRunner().invoke(hash_secret_command, ["--iterations", "1000"], input="s3cret\n")
    assert result.exit_code == 0, result.output
    stored = result.output.strip()
    assert stored.startswith("pbkdf2_sha256$1000$")
    assert verify_secret("s3cret", stored) and not verify_secret("s3cret\n", stored)
    assert "s3cret" not in result.output


def test_hash_secret_for_a_login_token_adds_the_lookup_tag() -> None:
    token = "7264E89B-0C5E-4D7A-9D11-55B6F0E4A7C3"
    args = ["--iterations", "1000", "--login-token"]
    result = CliRunner().invoke(hash_secret_command, args, input=token + "\n")
    assert result.exit_code == 0, result.output
    stored = result.output.strip()
    assert len(stored.split("$")) == 5 and verify_secret(token, stored)
    principals = Principals.model_validate({"guests": [{"login_token": stored}]})
    assert principals.authenticate_guest(token) is not None


def test_serve_passes_its_limits_and_cookie_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}
    monkeypatch.setattr(runner_module, "serve", lambda *args, **kwargs: seen.update(kwargs))
    args = ["--port", "0", "--login-limit", "5 per minute", "--address-login-limit", "off"]
    args += ["--max-tokens-per-principal", "7", "--header-timeout", "2", "--body-timeout", "3"]
    args += ["--max-connections", "50", "--max-header-bytes", "9000", "--no-secure-cookies"]
    result = CliRunner().invoke(serve_command, args)
    assert result.exit_code == 0, result.output
    assert seen["limits"] == ServerLimits("5 per minute", "off", 7, 2.0, 3.0, 50, 9000)
    assert seen["secure_cookies"] is False
    CliRunner().invoke(serve_command, ["--port", "0"])
    assert seen["limits"] == ServerLimits() and seen["secure_cookies"] is None


def test_serve_refuses_a_limit_it_cannot_read() -> None:
    result = CliRunner().invoke(serve_command, ["--port", "0", "--login-limit", "ten a minute"])
    assert result.exit_code == 2
    assert "--login-limit" in result.output and "'ten a minute'" in result.output


def test_cookies_are_secure_by_default_beyond_loopback() -> None:
    assert runner_module._secure_default(None, "0.0.0.0") is True
    assert runner_module._secure_default(None, "127.0.0.1") is None  # per request: HTTPS or not
    assert runner_module._secure_default(False, "0.0.0.0") is False


def test_hash_secret_refuses_the_secret_as_an_argument() -> None:
    result = CliRunner().invoke(hash_secret_command, ["s3cret"], input="x\n")
    assert result.exit_code != 0


def test_hash_secret_refuses_an_empty_secret() -> None:
    result = CliRunner().invoke(hash_secret_command, [], input="\n")
    assert result.exit_code != 0 and "empty" in result.output


def test_serve_is_a_command_of_iptoolkit() -> None:
    assert {"serve", "hash-secret"} <= set(main.list_commands(click.Context(main)))
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert "--snapshot" in result.output and "--principals" in result.output
    assert "--token-ttl" in result.output
    for option in ("--login-limit", "--header-timeout", "--max-connections", "--secure-cookies"):
        assert option in result.output


def test_serve_rejects_a_bad_principals_file(tmp_path: Path) -> None:
    bad = tmp_path / "principals.json"
    bad.write_text('{"clients": [{"client_id": "a", "client_secret": "b", "roles": ["nope"]}]}')
    result = CliRunner().invoke(serve_command, ["--principals", str(bad), "--port", "0"])
    assert result.exit_code != 0 and "unknown role" in result.output


def _start(args: list[str]) -> tuple[subprocess.Popen[str], str, list[str]]:
    """Start `python -m iptoolkit.server`; return it, its base URL and the banner's lines."""
    process = subprocess.Popen(
        [sys.executable, "-m", "iptoolkit.server", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith("Stop with Ctrl+C") or "Stop with Ctrl+C" in line:
            break
    match = re.search(r"at (http://127\.0\.0\.1:\d+)", lines[0] if lines else "")
    assert match, lines
    return process, match.group(1), lines


def _stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return out, err


def _wait(base_url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(base_url + "/", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.05)


@pytest.mark.slow
def test_serve_snapshot_and_principals_files(tmp_path: Path) -> None:
    snapshot = tmp_path / "profiles.json"
    snapshot.write_text(json.dumps(PROFILES))
    principals = tmp_path / "principals.json"
    principals.write_text(
        json.dumps(
            {
                "roles": {"fin": {"permissions": ["profiles:view"], "groups": ["Finance/*"]}},
                "clients": [
                    {"client_id": "c", "client_secret": SECRETS["analytics"], "roles": ["fin"]}
                ],
            }
        )
    )
    process, base_url, lines = _start(
        ["--snapshot", str(snapshot), "--principals", str(principals), "--token-ttl", "60"]
    )
    try:
        _wait(base_url)
        assert "8 profiles" in lines[0]
        token = httpx.post(
            base_url + TOKEN_PATH,
            data={
                "grant_type": "client_credentials",
                "client_id": "c",
                "client_secret": SECRETS["analytics"],
            },
        ).json()
        assert token["expires_in"] == 60
        listing = httpx.get(
            base_url + PROFILES_PATH, headers={"Authorization": f"Bearer {token['access_token']}"}
        )
        assert ids(listing.json()) == ["P2", "P8"]
    finally:
        out, err = _stop(process)
    assert SECRETS["analytics"] not in "\n".join(lines) + out + err
    assert token["access_token"] not in out + err


@pytest.mark.slow
def test_serve_demo_prints_credentials_once_and_logs_no_secrets() -> None:
    process, base_url, lines = _start([])
    try:
        _wait(base_url)
        banner = "\n".join(lines)
        secret = re.search(r"client_id=demo-client\s+client_secret=(\S+)", banner)
        guest = re.search(r"loginToken=(\S+)", banner)
        assert secret and guest, banner
        with httpx.Client(base_url=base_url) as http:
            assert http.get("/", params={"loginToken": guest.group(1)}).status_code == 303
            response = request_token(http, "demo-client", secret.group(1))
            token = response.json()["access_token"]
            assert http.get(PROFILES_PATH, headers={"Authorization": f"Bearer {token}"}).is_success
    finally:
        out, err = _stop(process)
    assert process.returncode == 0, err
    # the credentials line, then the Python and the shell examples (names from support.env)
    assert banner.count(secret.group(1)) == 3
    shell = f"{env.BASE_URL}={base_url} {env.CLIENT_ID}=demo-client {env.CLIENT_SECRET}="
    assert shell + secret.group(1) in banner
    for value in (secret.group(1), guest.group(1), token):
        assert value not in out and value not in err
