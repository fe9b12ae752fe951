"""Issue 44, items 4 and 8: the bearer token goes to the base URL's origin only, and a
malformed base URL is one line and exit 2, with real sockets and real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from iptoolkit.client import BearerToken, Client

from .hostile_server import Hostile, hostile_server, send_head

TOKEN = "tok-4f1c9e"  # a bearer token that must not reach the other host


def _empty_listing(hostile: Hostile, handler: Any) -> None:
    hostile.bodies[-1] = handler.headers.get("Authorization", "").encode()
    body = b"[]"
    send_head(handler, 200, Content_Type="application/json", Content_Length=len(body))
    handler.wfile.write(body)


def _cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("IPTOOLKIT_")}
    return subprocess.run(
        [sys.executable, "-m", "iptoolkit.cli", *args],
        cwd=cwd,
        env={**clean, "IPTOOLKIT_BEARER_TOKEN": TOKEN, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "profiles_path",
    ["{other}/api/preview/profiles", "//127.0.0.1:{other_port}/api/preview/profiles"],
)
def test_a_listing_on_another_origin_is_refused_before_any_request(
    profiles_path: str, tmp_path: Path
) -> None:
    with hostile_server(_empty_listing) as base, hostile_server(_empty_listing) as other:
        path = profiles_path.format(other=other.url, other_port=other.url.rsplit(":", 1)[1])
        with pytest.raises(ValueError, match="not on the base URL's origin"):
            Client(base.url, auth=BearerToken(TOKEN), profiles_path=path)
        done = _cli(
            "fetch", "--base-url", base.url, "--profiles-path", path, "--auth", "bearer",
            "-o", str(tmp_path / "x.json"), cwd=tmp_path,
        )  # fmt: skip
        config = tmp_path / "pyproject.toml"
        config.write_text(
            "[tool.iptoolkit.environments.prod]\n"
            f'base-url = "{base.url}"\nprofiles-path = "{path}"\n'
            'auth = "bearer"\nsecret-env = "PROD_TOKEN"\n',
            encoding="utf-8",
        )
        by_env = _cli("fetch", "--env", "prod", "-o", "y.json", cwd=tmp_path,
                      env={"PROD_TOKEN": TOKEN})  # fmt: skip
    for run in (done, by_env):
        assert run.returncode == 2, run.stderr
        assert "not on the base URL's origin" in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and TOKEN not in run.stderr
    assert other.requests == [] and base.requests == []  # nothing sent anywhere
    assert not (tmp_path / "x.json").exists()


def test_a_listing_on_the_base_origin_gets_the_token(tmp_path: Path) -> None:
    with hostile_server(_empty_listing) as base:
        done = _cli(
            "fetch", "--base-url", base.url + "/platform", "--profiles-path",
            base.url + "/custom/profiles", "--auth", "bearer", "-o", "x.json", cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert base.requests == ["GET /custom/profiles"]
    assert base.bodies == [f"Bearer {TOKEN}".encode()]


@pytest.mark.parametrize(
    ("base_url", "said"),
    [
        ("http://h:port", "is not a valid URL: Invalid port"),
        ("http://u:pa55word@h:port", "is not a valid URL: Invalid port"),
        ("http://[bad", "has no valid host name"),
        ("http://exa mple.com", "has no valid host name"),
        ("ftp://files.example", "must be an http(s) URL"),
    ],
)
def test_a_malformed_base_url_is_one_line_and_exit_2(
    base_url: str, said: str, tmp_path: Path
) -> None:
    done = _cli("fetch", "--base-url", base_url, "--auth", "bearer", "-o", "x.json", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "pa55word" not in done.stderr
    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        Client(base_url, auth=BearerToken(TOKEN))
