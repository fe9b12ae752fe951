"""The blocking client: configuration, from_env, listings, estates, progress and retries."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest

from iptoolkit.client import (
    ApiConnectionError,
    ApiTimeoutError,
    BearerToken,
    Client,
    ClientCredentials,
    GuestLogin,
    InternalServerError,
    NotFoundError,
    RateLimitError,
    SessionCookie,
    _retry,
    auth,
)
from iptoolkit.core.estate import Estate
from iptoolkit.models import IntegrationProfile, ParseError

from .client_helpers import (
    BASE,
    BEARER,
    CLIENT_SECRET,
    ISSUED,
    LISTING,
    assert_no_secrets,
    bearer_client,
)

PROFILES = [
    {"class": "core:IntegrationProfile", "id": "P1", "name": "Orders in", "created": 1700000000},
    {"class": "core:IntegrationProfile", "id": "P2", "x_unknown": {"kept": [1, 2]}, "big": 2**70},
]

pytestmark = pytest.mark.usefixtures("no_sleep")


def sequence(*answers: httpx.Response | Exception) -> Callable[[httpx.Request], httpx.Response]:
    """A handler giving these answers in turn (raising the exceptions), then the listing."""
    pending = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        if pending:
            answer = pending.pop(0)
            if isinstance(answer, Exception):
                if isinstance(answer, httpx.RequestError):
                    answer.request = request
                raise answer
            return answer
        return httpx.Response(200, json=PROFILES)

    return handler


# -- construction ----------------------------------------------------------------------------


def test_repr_and_attributes() -> None:
    with Client(BASE + "/platform/", auth=ClientCredentials("reporting", CLIENT_SECRET)) as client:
        assert repr(client) == (
            "Client(base_url='https://platform.test/platform/', auth=ClientCredentials("
            "client_id='reporting', client_secret=Secret('**********')))"
        )
        assert str(client.profiles_url) == BASE + "/platform/api/preview/profiles"
        assert client.source_url == BASE + "/platform/api/preview/profiles"
        assert client.max_retries == 2


@pytest.mark.parametrize("bad", ["platform.test", "ftp://platform.test", "/relative"])
def test_base_url_must_be_http(bad: str) -> None:
    with pytest.raises(ValueError, match="http"):
        Client(bad, auth=BearerToken(BEARER))


def test_base_url_password_is_masked_in_errors_and_repr() -> None:
    with pytest.raises(ValueError) as caught:
        Client(f"ftp://user:{CLIENT_SECRET}@host", auth=BearerToken(BEARER))
    assert_no_secrets(str(caught.value))


def test_negative_max_retries_is_refused() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        Client(BASE, auth=BearerToken(BEARER), max_retries=-1)


@pytest.mark.parametrize(
    ("options", "error", "said"),
    [
        ({"timeout": -1}, ValueError, "timeout must be a positive number of seconds"),
        ({"timeout": 0}, ValueError, "not 0"),
        ({"timeout": float("nan")}, ValueError, "not nan"),
        ({"timeout": float("inf")}, ValueError, "not inf"),
        ({"timeout": "30"}, TypeError, "timeout must be .* not str: '30'"),
        ({"max_retries": "2"}, TypeError, "max_retries must be a whole number, not str"),
        ({"max_retries": -1}, ValueError, "max_retries must be 0 or more, not -1"),
        ({"max_response_bytes": "1GiB"}, TypeError, "max_response_bytes must be a whole"),
        ({"deadline": float("nan")}, ValueError, "deadline .* not nan"),
    ],
)
def test_a_bad_option_is_refused_at_once_naming_it_and_its_value(
    options: dict[str, Any], error: type[Exception], said: str
) -> None:
    """Refused when the client is made, not at the first request deep in the socket
    (`timeout=-1` was "Timeout value out of range", `0` a connection failure)."""
    with pytest.raises(error, match=said):
        Client(BASE, auth=BearerToken(BEARER), **options)


@pytest.mark.parametrize("timeout", [None, 5, 0.5, httpx.Timeout(3)])
def test_a_good_timeout_is_taken(timeout: Any) -> None:
    Client(BASE, auth=BearerToken(BEARER), timeout=timeout, deadline=float("inf")).close()


def test_custom_headers_and_default_accept() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=[])

    with bearer_client(handler, headers={"X-Tenant": "acme"}) as client:
        client.fetch_raw()
    assert seen[0].headers["x-tenant"] == "acme"
    assert seen[0].headers["accept"] == "application/json"
    assert seen[0].headers["user-agent"].startswith("iptoolkit/")


def test_close_and_context_manager() -> None:
    client = bearer_client(sequence())
    with client as entered:
        assert entered is client
    with pytest.raises(RuntimeError):
        client.fetch_raw()


# -- listings --------------------------------------------------------------------------------


def test_fetch_raw_returns_profiles_exactly_as_received() -> None:
    with bearer_client(sequence()) as client:
        raw = client.fetch_raw()
    assert raw == PROFILES
    assert raw[1]["big"] == 2**70


def test_list_profiles_parses_strictly() -> None:
    with bearer_client(sequence()) as client:
        listed = client.list_profiles()
    assert [type(p) for p in listed] == [IntegrationProfile, IntegrationProfile]
    assert [p.id for p in listed] == ["P1", "P2"]


def test_a_faulty_profile_fails_list_profiles_naming_page_and_path() -> None:
    bad = [*PROFILES, {"class": "core:IntegrationProfile", "id": "P3", "active": "sometimes"}]
    with bearer_client(sequence(httpx.Response(200, json=bad))) as client:
        with pytest.raises(
            ParseError,
            match=r"^page 1 \(https://platform.test/api/preview/profiles\): "
            r"profile 2 .*\$\[2\]\.active",
        ):
            client.list_profiles()


def test_custom_profiles_path_under_a_prefix() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"data": PROFILES})

    with Client(
        BASE + "/platform",
        auth=BearerToken(BEARER),
        profiles_path="v2/profiles",
        transport=httpx.MockTransport(handler),
    ) as client:
        assert client.fetch_raw() == PROFILES
    assert seen == [BASE + "/platform/v2/profiles"]


def test_a_wrong_path_is_a_not_found_error_that_names_the_url() -> None:
    with bearer_client(
        lambda r: httpx.Response(
            404,
            json={
                "errorInfo": {"errorCode": "CORESYSTEM_notFound_404", "errorText": "No such path."}
            },
        )
    ) as client:
        with pytest.raises(
            NotFoundError,
            match=r"^404 CORESYSTEM_notFound_404: No such path\. \(GET https://platform\.test/api/preview/profiles\)$",
        ):
            client.list_profiles()


# -- fetch_estate ----------------------------------------------------------------------------


def test_fetch_estate_is_lenient_and_records_source_and_time() -> None:
    bad = {"class": "core:IntegrationProfile", "id": "P3", "created": "yesterday"}
    before = datetime.now(UTC)
    with bearer_client(sequence(httpx.Response(200, json=[*PROFILES, bad]))) as client:
        estate = client.fetch_estate()
    assert isinstance(estate, Estate)
    assert [p.id for p in estate.profiles] == ["P1", "P2"]
    assert [problem.profile_id for problem in estate.problems] == ["P3"]
    assert list(estate.raw_profiles) == [*PROFILES, bad]
    assert estate.info.source_url == BASE + LISTING
    fetched_at = estate.info.fetched_at
    assert fetched_at is not None and fetched_at.tzinfo is not None
    assert fetched_at.utcoffset() == timedelta(0)
    assert before <= fetched_at <= datetime.now(UTC)


def test_fetch_estate_strict_raises() -> None:
    bad = {"class": "core:IntegrationProfile", "id": "P3", "created": "yesterday"}
    with bearer_client(sequence(httpx.Response(200, json=[bad]))) as client:
        with pytest.raises(ParseError, match="created"):
            client.fetch_estate(strict=True)


def test_fetch_estate_source_url_never_carries_a_login_token() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/":
            return httpx.Response(303, headers={"Set-Cookie": "JSESSIONID=s1", "Location": "/"})
        if request.url.path == "/auth/sessionBearerToken":
            return httpx.Response(200, json={"access_token": ISSUED[0]})
        return httpx.Response(200, json=PROFILES)

    with Client(
        BASE, auth=GuestLogin(CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        estate = client.fetch_estate()
    assert estate.info.source_url == BASE + LISTING
    assert_no_secrets(repr(estate), estate.info)


def _three_pages(request: httpx.Request) -> httpx.Response:
    page = int(request.url.params.get("page", 0))
    items = [{"class": "core:IntegrationProfile", "id": f"P{page}-{i}"} for i in range(2)]
    return httpx.Response(
        200, json={"content": items, "number": page, "size": 2, "totalElements": 6, "totalPages": 3}
    )


def test_progress_is_silent_by_default_in_tests_and_when_disabled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with bearer_client(_three_pages) as client:
        assert len(client.fetch_estate().profiles) == 6
        assert len(client.fetch_estate(progress=False).profiles) == 6
    captured = capsys.readouterr()
    assert captured.out == captured.err == ""


def test_progress_bar_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    with bearer_client(_three_pages) as client:
        estate = client.fetch_estate(progress=True)
    assert len(estate.profiles) == 6
    err = capsys.readouterr().err
    assert "Fetching profiles" in err
    assert "6/6" in err


def test_auto_progress_shows_where_someone_watches_once_the_delay_is_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from iptoolkit.support import progress

    monkeypatch.setattr(progress, "watched", lambda: True)
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "0")
    with bearer_client(_three_pages) as client:
        client.fetch_estate()
    assert "Fetching profiles" in capsys.readouterr().err
    monkeypatch.setenv("IPTOOLKIT_PROGRESS_DELAY", "3600")  # a fetch quicker than the delay
    with bearer_client(_three_pages) as client:
        client.fetch_estate()
    assert capsys.readouterr().err == ""


def test_fetch_reports_to_a_progress_given() -> None:
    from tests.progress_helpers import Recorder

    recorder = Recorder()
    with bearer_client(_three_pages) as client:
        client.fetch_estate(progress=recorder)
    fetched = [("stage", "Fetching profiles", 6), ("advance", 6)]
    assert recorder.log == [*fetched, ("stage", "Indexing the profiles fetched", None)]


# -- retries ---------------------------------------------------------------------------------


def test_a_transient_500_then_success(
    no_sleep: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="iptoolkit.client")
    handler = sequence(
        httpx.Response(500, json={"errorInfo": {"errorCode": "CORESYSTEM_internalServerError_500"}})
    )
    with bearer_client(handler) as client:
        assert client.fetch_raw() == PROFILES
    assert len(no_sleep) == 1
    assert (
        _retry.INITIAL_RETRY_DELAY * (1 - _retry.JITTER)
        <= no_sleep[0]
        <= _retry.INITIAL_RETRY_DELAY
    )
    assert f"GET {BASE}{LISTING}: 500; retrying in" in caplog.text
    assert "(retry 1 of 2)" in caplog.text


def test_backoff_grows_and_gives_up_after_max_retries(
    no_sleep: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="iptoolkit.client")
    with bearer_client(lambda r: httpx.Response(502, text="bad gateway")) as client:
        with pytest.raises(InternalServerError, match="^502 Bad Gateway: bad gateway"):
            client.fetch_raw()
    assert len(no_sleep) == 2
    assert no_sleep[1] > no_sleep[0]
    assert "giving up after 2 retries" in caplog.text


def test_backoff_is_capped() -> None:
    assert all(_retry.backoff_delay(n) <= _retry.MAX_RETRY_DELAY for n in range(20))
    assert _retry.backoff_delay(20) >= _retry.MAX_RETRY_DELAY * (1 - _retry.JITTER)


def test_max_retries_zero_means_one_attempt(no_sleep: list[float]) -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(503)

    with bearer_client(handler, max_retries=0) as client, pytest.raises(InternalServerError):
        client.fetch_raw()
    assert calls == [1] and no_sleep == []


def test_max_retries_five(no_sleep: list[float]) -> None:
    with (
        bearer_client(lambda r: httpx.Response(503), max_retries=5) as client,
        pytest.raises(InternalServerError),
    ):
        client.fetch_raw()
    assert len(no_sleep) == 5


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_retryable_statuses(status: int, no_sleep: list[float]) -> None:
    with bearer_client(sequence(httpx.Response(status))) as client:
        assert client.fetch_raw() == PROFILES
    assert len(no_sleep) == 1


def test_retry_after_seconds_is_honoured(
    no_sleep: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="iptoolkit.client")
    handler = sequence(
        httpx.Response(429, headers={"Retry-After": "3"}),
        httpx.Response(503, headers={"Retry-After": "0"}),
    )
    with bearer_client(handler) as client:
        assert client.fetch_raw() == PROFILES
    assert no_sleep == [3.0, 0.0]
    assert "as Retry-After asks" in caplog.text


def test_retry_after_http_date_is_honoured(no_sleep: list[float]) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    with bearer_client(sequence(httpx.Response(503, headers={"Retry-After": when}))) as client:
        client.fetch_raw()
    assert len(no_sleep) == 1
    assert 15 <= no_sleep[0] <= 20


def test_parse_retry_after() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert _retry.parse_retry_after("120") == 120.0
    assert _retry.parse_retry_after("1.5") == 1.5
    assert _retry.parse_retry_after("-4") == 0.0
    assert _retry.parse_retry_after("Wed, 01 Jan 2025 12:00:30 GMT", now=now) == 30.0
    assert _retry.parse_retry_after("Wed, 01 Jan 2025 11:00:00 GMT", now=now) == 0.0
    assert _retry.parse_retry_after("soon") is None
    assert _retry.parse_retry_after("") is None
    assert _retry.parse_retry_after(None) is None


def test_a_retry_after_that_is_not_a_finite_number_is_ignored(no_sleep: list[float]) -> None:
    # float() reads "nan" and "inf"; time.sleep(nan) raises deep inside the retry loop
    for value in ("nan", "NaN", "inf", "-inf", "1e999"):
        assert _retry.parse_retry_after(value) is None, value
    handler = sequence(httpx.Response(503, headers={"Retry-After": "nan"}))
    with bearer_client(handler) as client:
        assert client.fetch_raw() == PROFILES
    assert len(no_sleep) == 1
    assert math.isfinite(no_sleep[0])


def test_a_retry_after_beyond_the_cap_is_not_waited_out(
    no_sleep: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="iptoolkit.client")
    with bearer_client(sequence(httpx.Response(429, headers={"Retry-After": "3600"}))) as client:
        with pytest.raises(RateLimitError) as caught:
            client.fetch_raw()
    assert caught.value.retry_after == "3600"
    assert no_sleep == []
    assert "exceeds the 60 s cap; not retrying" in caplog.text


def test_an_unparseable_retry_after_falls_back_to_backoff(no_sleep: list[float]) -> None:
    with bearer_client(sequence(httpx.Response(503, headers={"Retry-After": "later"}))) as client:
        client.fetch_raw()
    assert 0 < no_sleep[0] <= _retry.INITIAL_RETRY_DELAY


@pytest.mark.parametrize(
    "failure",
    [httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("closed")],
)
def test_transport_failures_are_retried(failure: Exception, no_sleep: list[float]) -> None:
    with bearer_client(sequence(failure)) as client:
        assert client.fetch_raw() == PROFILES
    assert len(no_sleep) == 1


def test_a_timeout_that_persists_raises_api_timeout_error(no_sleep: list[float]) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    with (
        bearer_client(handler) as client,
        pytest.raises(ApiTimeoutError, match=f"GET {BASE}{LISTING}"),
    ):
        client.fetch_raw()
    assert len(no_sleep) == 2


def test_an_unsupported_protocol_is_not_retried(no_sleep: list[float]) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.UnsupportedProtocol("no", request=request)

    with bearer_client(handler) as client, pytest.raises(ApiConnectionError):
        client.fetch_raw()
    assert no_sleep == []


def test_retries_in_the_middle_of_paging(no_sleep: list[float]) -> None:
    failed: set[int] = set()

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params.get("page", 0))
        if page == 1 and page not in failed:
            failed.add(page)
            return httpx.Response(500)
        return _three_pages(request)

    with bearer_client(handler) as client:
        assert len(client.fetch_raw()) == 6
    assert len(no_sleep) == 1


# -- a token that expires in the middle of paging --------------------------------------------


class ExpiringPlatform:
    """Spring pages behind client credentials; tokens die after `lifetime` API calls."""

    def __init__(self, lifetime: int, expires_in: float | None = None) -> None:
        self.lifetime = lifetime
        self.expires_in = expires_in
        self.tokens = iter(ISSUED[:2])
        self.current: str | None = None
        self.uses = 0
        self.log: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            self.current, self.uses = next(self.tokens), 0
            self.log.append("token")
            body: dict[str, Any] = {"access_token": self.current}
            if self.expires_in is not None:
                body["expires_in"] = self.expires_in
            return httpx.Response(200, json=body)
        page = request.url.params.get("page", "0")
        if (
            request.headers.get("authorization") != f"Bearer {self.current}"
            or self.uses >= self.lifetime
        ):
            self.log.append(f"401 page {page}")
            return httpx.Response(
                401, json={"errorInfo": {"errorCode": "CORESYSTEM_AuthenticationManager_401"}}
            )
        self.uses += 1
        self.log.append(f"page {page}")
        return _three_pages(request)


def test_a_token_refused_in_the_middle_of_paging_is_renewed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    platform = ExpiringPlatform(lifetime=2)
    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(platform)
    ) as client:
        assert len(client.fetch_raw()) == 6
    assert platform.log == ["token", "page 0", "page 1", "401 page 2", "token", "page 2"]
    assert_no_secrets(caplog.text)


def test_a_token_expiring_by_the_clock_in_the_middle_of_paging_is_renewed_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [0.0]
    monkeypatch.setattr(auth, "_clock", lambda: now[0])
    platform = ExpiringPlatform(lifetime=99, expires_in=80)

    def handler(request: httpx.Request) -> httpx.Response:
        # every request takes 40 s: the token, got at t=40 for 80 s, is renewed from t=112
        # (80 s minus a 10% margin): page 0 at t=40 and page 1 at t=80 use it, page 2 not
        now[0] += 40
        return platform(request)

    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(handler)
    ) as client:
        assert len(client.fetch_raw()) == 6
    assert platform.log == ["token", "page 0", "page 1", "token", "page 2"]


# -- from_env --------------------------------------------------------------------------------


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (
        "IPTOOLKIT_BASE_URL",
        "IPTOOLKIT_CLIENT_ID",
        "IPTOOLKIT_CLIENT_SECRET",
        "IPTOOLKIT_GUEST_TOKEN",
        "IPTOOLKIT_SESSION_COOKIE",
        "IPTOOLKIT_BEARER_TOKEN",
        "IPTOOLKIT_PROFILES_PATH",
    ):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("env", "flow"),
    [
        (
            {"IPTOOLKIT_CLIENT_ID": "reporting", "IPTOOLKIT_CLIENT_SECRET": CLIENT_SECRET},
            ClientCredentials,
        ),
        ({"IPTOOLKIT_GUEST_TOKEN": CLIENT_SECRET}, GuestLogin),
        ({"IPTOOLKIT_SESSION_COOKIE": f"JSESSIONID={CLIENT_SECRET}"}, SessionCookie),
        ({"IPTOOLKIT_BEARER_TOKEN": BEARER}, BearerToken),
        ({"IPTOOLKIT_BEARER_TOKEN": BEARER, "IPTOOLKIT_GUEST_TOKEN": CLIENT_SECRET}, GuestLogin),
    ],
)
def test_from_env_picks_the_flow(
    clean_env: pytest.MonkeyPatch, env: dict[str, str], flow: type[httpx.Auth]
) -> None:
    clean_env.setenv("IPTOOLKIT_BASE_URL", BASE + "/platform")
    for name, value in env.items():
        clean_env.setenv(name, value)
    with Client.from_env() as client:
        assert type(client.auth) is flow
        assert str(client.base_url) == BASE + "/platform"
        assert str(client.profiles_url) == BASE + "/platform" + LISTING
        assert_no_secrets(repr(client))


def test_from_env_reads_the_profiles_path_and_passes_options(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("IPTOOLKIT_BASE_URL", BASE)
    clean_env.setenv("IPTOOLKIT_BEARER_TOKEN", BEARER)
    clean_env.setenv("IPTOOLKIT_PROFILES_PATH", "/custom/profiles")
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        assert request.headers["authorization"] == f"Bearer {BEARER}"
        return httpx.Response(200, json=PROFILES)

    with Client.from_env(transport=httpx.MockTransport(handler), max_retries=0) as client:
        assert client.max_retries == 0
        assert client.fetch_raw() == PROFILES
    assert seen == [BASE + "/custom/profiles"]


def test_from_env_accepts_a_mapping() -> None:
    env = {"IPTOOLKIT_BASE_URL": BASE, "IPTOOLKIT_BEARER_TOKEN": BEARER}
    with Client.from_env(environ=env) as client:
        assert isinstance(client.auth, BearerToken)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "^IPTOOLKIT_BASE_URL is not set"),
        ({"IPTOOLKIT_BASE_URL": "  "}, "^IPTOOLKIT_BASE_URL is not set"),
        (
            {"IPTOOLKIT_BASE_URL": BASE},
            "^no credentials in the environment: "
            "set IPTOOLKIT_CLIENT_ID and IPTOOLKIT_CLIENT_SECRET",
        ),
        (
            {"IPTOOLKIT_BASE_URL": BASE, "IPTOOLKIT_CLIENT_ID": "reporting"},
            r"^IPTOOLKIT_CLIENT_SECRET is not set \(IPTOOLKIT_CLIENT_ID is\)",
        ),
        (
            {"IPTOOLKIT_BASE_URL": BASE, "IPTOOLKIT_CLIENT_SECRET": CLIENT_SECRET},
            r"^IPTOOLKIT_CLIENT_ID is not set \(IPTOOLKIT_CLIENT_SECRET is\)",
        ),
        ({"IPTOOLKIT_BASE_URL": BASE, "IPTOOLKIT_SESSION_COOKIE": CLIENT_SECRET}, "name=value"),
    ],
)
def test_from_env_says_which_variable_is_missing(
    clean_env: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    for name, value in env.items():
        clean_env.setenv(name, value)
    with pytest.raises(ValueError, match=message) as caught:
        Client.from_env()
    assert_no_secrets(str(caught.value))


def test_from_env_with_an_explicit_auth_needs_no_credentials(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("IPTOOLKIT_BASE_URL", BASE)
    with Client.from_env(auth=BearerToken(BEARER)) as client:
        assert isinstance(client.auth, BearerToken)


# -- no secret anywhere, across every flow ---------------------------------------------------


def test_no_secret_in_any_log_line_of_a_full_run(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    platform = ExpiringPlatform(lifetime=1)
    with Client(
        BASE, auth=ClientCredentials("c", CLIENT_SECRET), transport=httpx.MockTransport(platform)
    ) as client:
        with pytest.raises(
            Exception
        ) as caught:  # the second token is refused as well: 401 at the end
            client.fetch_raw()
        assert_no_secrets(repr(client), str(caught.value), repr(caught.value))
    assert caplog.records
    assert_no_secrets(caplog.text, *(record.getMessage() for record in caplog.records))


def test_a_failed_token_request_is_logged_with_its_own_method(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The debug line names the request that failed (the token POST), not the listing's GET."""
    caplog.set_level(logging.DEBUG, logger="iptoolkit.client")

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with (
        Client(
            BASE,
            auth=ClientCredentials("c", CLIENT_SECRET),
            transport=httpx.MockTransport(handler),
            max_retries=0,
        ) as client,
        pytest.raises(ApiConnectionError),
    ):
        client.fetch_raw()
    lines = [r.getMessage() for r in caplog.records if "giving up" in r.getMessage()]
    assert lines and all(line.startswith("POST ") for line in lines), lines
    assert "token" in lines[0]
