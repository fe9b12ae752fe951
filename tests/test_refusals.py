"""A refusal is not retried: a wrong secret's 401 at the token endpoint fails at once, a 401
on the listing renews the token once and then fails, and neither the client nor
`iptoolkit watch` backs off and tries again (each login tried spends the platform's login
limit, and a wrong secret took 16 s to report). The requests are counted on
`httpx.MockTransport`; a 503 shows the retries that stay."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.client import (
    ApiConnectionError,
    ApiError,
    AsyncClient,
    AuthenticationError,
    Client,
    ClientCredentials,
    ResponseParseError,
    _retry,
    error_class_for_status,
)

from .client_helpers import BASE, CLIENT_SECRET, LISTING

pytest.importorskip("duckdb")
from iptoolkit.archive import Archive, watch  # noqa: E402

TOKEN_PATH = "/dw/register/oauth/token"
Handler = Callable[[httpx.Request], httpx.Response]


def _envelope(status: int, text: str) -> dict[str, Any]:
    code = {401: "CORESYSTEM_AuthenticationManager_401", 403: "CORESYSTEM_permission_403"}
    return {"errorInfo": {"errorCode": code.get(status, f"E_{status}"), "errorText": text}}


class Platform:
    """A fake platform: the token endpoint answers `token_status`, the listing `status`;
    every request is recorded."""

    def __init__(self, *, token_status: int = 200, status: int = 200) -> None:
        self.token_status = token_status
        self.status = status
        self.requests: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(f"{request.method} {request.url.path}")
        if request.url.path == TOKEN_PATH:
            if self.token_status != 200:
                text = "Unknown client, or wrong client secret."
                return httpx.Response(self.token_status, json=_envelope(self.token_status, text))
            return httpx.Response(200, json={"access_token": "issued", "expires_in": 3600})
        if self.status != 200:
            return httpx.Response(self.status, json=_envelope(self.status, "no"))
        return httpx.Response(200, json=[])


@pytest.fixture(autouse=True)
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait asked for, the client's back-off and the watch's, none waited out."""
    asked: list[float] = []
    monkeypatch.setattr(_retry, "sleep", asked.append)
    monkeypatch.setattr(watch, "sleep", asked.append)
    return asked


def _fetcher(platform: Platform, secret: str = CLIENT_SECRET) -> Callable[[], ipt.Estate]:
    def fetch() -> ipt.Estate:
        auth = ClientCredentials("reporting", secret)
        transport = httpx.MockTransport(platform)
        with Client(BASE, auth=auth, transport=transport) as client:
            return client.fetch_estate(progress=False)

    return fetch


@pytest.mark.parametrize(
    ("status", "final"),
    [(400, True), (401, True), (403, True), (404, True)]
    + [(408, False), (429, False), (500, False), (503, False)],
)
def test_a_refusal_is_final_and_not_now_is_not(status: int, final: bool) -> None:
    assert error_class_for_status(status)("x", status_code=status).final is final


@pytest.mark.parametrize(
    "error",
    [
        AuthenticationError("redirected to a login page", status_code=302),
        ApiConnectionError("x"),
        ResponseParseError("a truncated body", status_code=200),
    ],
)
def test_final_among_the_other_errors(error: ApiError) -> None:
    assert error.final is isinstance(error, AuthenticationError)


REFUSED_LOGINS = {
    "wrong secret": ({"token_status": 401}, [f"POST {TOKEN_PATH}"]),
    "401 on the listing": ({"status": 401}, [f"POST {TOKEN_PATH}", f"GET {LISTING}"] * 2),
}
"""A refused login, as the platform is set up, and every request the client may send."""


@pytest.mark.parametrize("case", list(REFUSED_LOGINS))
def test_the_client_sends_a_refused_login_once(case: str, waits: list[float]) -> None:
    setup, requests = REFUSED_LOGINS[case]
    platform = Platform(**setup)
    with pytest.raises(AuthenticationError):
        _fetcher(platform)()
    assert platform.requests == requests and waits == []


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("case", list(REFUSED_LOGINS))
async def test_the_async_client_sends_a_refused_login_once(
    case: str, anyio_backend: str, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(_retry, "async_sleep", wait)
    setup, requests = REFUSED_LOGINS[case]
    platform = Platform(**setup)
    auth = ClientCredentials("reporting", CLIENT_SECRET)
    async with AsyncClient(BASE, auth=auth, transport=httpx.MockTransport(platform)) as client:
        with pytest.raises(AuthenticationError):
            await client.fetch_raw()
    assert platform.requests == requests and waits == []


@pytest.mark.parametrize(
    ("platform", "requests", "words"),
    [
        (Platform(token_status=401), [f"POST {TOKEN_PATH}"], "401 CORESYSTEM_Authentication"),
        (  # the token is refused on the listing: renewed once, then final
            Platform(status=401),
            [f"POST {TOKEN_PATH}", f"GET {LISTING}"] * 2,
            "401 CORESYSTEM_Authentication",
        ),
        (Platform(status=403), [f"POST {TOKEN_PATH}", f"GET {LISTING}"], "403 CORESYSTEM"),
    ],
    ids=["wrong secret", "401 on the listing", "403"],
)
def test_watch_reports_a_refusal_at_once(
    platform: Platform, requests: list[str], words: str, waits: list[float], tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "estate.duckdb")
    lines: list[str] = []
    result = watch.watch_once(archive, _fetcher(platform), echo=lines.append)
    assert platform.requests == requests and waits == []
    assert result.exit_code == 2 and result.error.startswith("the platform refused the fetch: ")
    assert words in result.error
    assert lines[0].startswith("fetch failed: ") and lines[0].endswith("not tried again")
    assert len(lines) == 2 and lines[1].endswith("nothing stored")
    assert CLIENT_SECRET not in "\n".join(lines)
    assert not archive.path.exists()


def test_watch_still_retries_a_failing_server(waits: list[float], tmp_path: Path) -> None:
    platform = Platform(status=503)
    result = watch.watch_once(
        Archive(tmp_path / "estate.duckdb"), _fetcher(platform), echo=lambda _: None
    )
    assert result.exit_code == 2 and "the fetch failed 3 times" in result.error
    # three fetches, each a token and three GETs (the client's two retries)
    assert platform.requests == ([f"POST {TOKEN_PATH}"] + [f"GET {LISTING}"] * 3) * 3
    assert len(waits) == 3 * 2 + 2  # the client's back-off in each fetch, the watch's
    assert [w for w in waits if w >= watch.FETCH_FIRST_DELAY] == [5.0, 10.0]


@pytest.fixture
def platform_for_the_command_line(monkeypatch: pytest.MonkeyPatch) -> Iterator[Platform]:
    """`iptoolkit watch` builds its own `Client`: this one sends to a fake platform."""
    import iptoolkit.client

    platform = Platform(token_status=401)

    def client(base_url: str, **options: Any) -> Client:
        return Client(base_url, transport=httpx.MockTransport(platform), **options)

    monkeypatch.setattr(iptoolkit.client, "Client", client)
    monkeypatch.setenv("IPTOOLKIT_CLIENT_SECRET", "wrong")
    yield platform


def test_watch_on_the_command_line_exits_2_after_one_login(
    platform_for_the_command_line: Platform, waits: list[float], tmp_path: Path
) -> None:
    from iptoolkit.cli import main

    args = ["watch", "--archive", str(tmp_path / "estate.duckdb"), "--once"]
    args += ["--base-url", BASE, "--client-id", "reporting"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert platform_for_the_command_line.requests == [f"POST {TOKEN_PATH}"] and waits == []
    [failed, error] = result.stderr.splitlines()
    assert failed.startswith("fetch failed: client-credentials token request failed: 401")
    assert error.startswith("error: the platform refused the fetch")
