"""The reference server against hostile callers (issue 14, findings 1-7), over real HTTP."""

from __future__ import annotations

import hashlib
import logging
import re
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from limits.storage import MemoryStorage
from pydantic import ValidationError

import iptoolkit.server.principals as principals_module
from iptoolkit.client import ApiError, Client, ClientCredentials, RateLimitError
from iptoolkit.hardening import open_files
from iptoolkit.server import Principals, RunningServer, hash_secret, running
from iptoolkit.server.app import PROFILES_PATH, SESSION_COOKIE, TOKEN_PATH, VERIFY_THREADS
from iptoolkit.server.settings import ServerLimits
from iptoolkit.server.throttle import Attempt, LoginThrottle, parse_limit

from .server_data import PROFILES, SECRETS, ids, make_principals, request_token


def assert_envelope(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    info = response.json()["errorInfo"]
    assert info["errorCode"] == code and info["httpResponseStatus"] == status
    return str(info["errorText"])


@pytest.fixture(scope="module")
def srv() -> Iterator[RunningServer]:
    limits = ServerLimits(header_timeout=0.5, body_timeout=0.5, max_connections=8)
    with running(PROFILES, make_principals(), limits=limits) as server:
        yield server


@pytest.fixture
def http(srv: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=srv.base_url, timeout=10) as client:
        yield client


def raw_exchange(srv: RunningServer, data: bytes, *, wait: float = 5.0) -> bytes:
    """Send raw bytes, return everything the server sends until it closes (or `wait` ends)."""
    with socket.create_connection((srv.host, srv.port), timeout=wait) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except TimeoutError:
            chunks.append(b"<still open>")
        return b"".join(chunks)


def slow_hashes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the iterations of every PBKDF2 the principals compute."""
    calls: list[int] = []
    real = hashlib.pbkdf2_hmac

    def spy(name: str, secret: bytes, salt: bytes, iterations: int) -> bytes:
        calls.append(iterations)
        return real(name, secret, salt, iterations)

    monkeypatch.setattr(hashlib, "pbkdf2_hmac", spy)  # the hashlib server.hashing calls
    return calls


# -- 1. a guest lookup costs at most one slow hash, off the request threads -------------------


def many_guests(count: int) -> Principals:
    tokens = [f"GUEST-{index:04d}-TOKEN" for index in range(count)]
    return Principals.model_validate(
        {
            "roles": {"r": {"permissions": ["profiles:view"], "groups": ["*"]}},
            "guests": [
                {"login_token": hash_secret(token, iterations=1000, lookup=True), "roles": ["r"]}
                for token in tokens
            ],
        }
    )


def test_a_guest_lookup_verifies_one_slow_hash_however_many_guests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    principals = many_guests(30)
    calls = slow_hashes(monkeypatch)
    assert principals.authenticate_guest("a wrong guess") is None
    assert calls == []  # no candidate: not a single slow hash
    guest = principals.authenticate_guest("GUEST-0029-TOKEN")
    assert guest is not None and guest.name == "guest-30"
    assert calls == [1000]


def test_a_hashed_login_token_needs_its_lookup_tag() -> None:
    untagged = hash_secret("GUEST-TOKEN", iterations=10)
    with pytest.raises(ValidationError, match="lookup tag") as caught:
        Principals.model_validate({"guests": [{"login_token": untagged}]})
    assert "GUEST-TOKEN" not in str(caught.value) and untagged not in str(caught.value)


@pytest.mark.parametrize("tag", ["", "!!!", "QUFB"], ids=["empty", "not-base64", "3-bytes"])
def test_a_login_tokens_lookup_tag_that_cannot_be_read_is_refused_naming_the_guest(
    tag: str,
) -> None:
    """Such a guest could never log in (no lookup finds it): refused at load, not silently."""
    tagged = hash_secret("GUEST-TOKEN", iterations=10, lookup=True)
    broken = tagged.rsplit("$", 1)[0] + "$" + tag
    with pytest.raises(ValidationError, match="lookup tag is not standard base64") as caught:
        Principals.model_validate({"guests": [{"login_token": tagged}, {"login_token": broken}]})
    assert "guests.1" in str(caught.value) and broken not in str(caught.value)


def test_secrets_are_checked_on_the_verifier_threads(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = principals_module.verify_secret

    def spy(secret: str, stored: str) -> bool:
        threads.append(threading.current_thread().name)
        return real(secret, stored)

    monkeypatch.setattr(principals_module, "verify_secret", spy)
    assert request_token(http, "hashed").status_code == 200
    assert http.get("/", params={"loginToken": SECRETS["hashed-guest"]}).status_code == 303
    assert len(threads) == 2
    assert all(name.startswith("iptoolkit-verify") for name in threads), threads


# -- 2. unknown names cost what known ones cost ----------------------------------------------


def test_an_unknown_client_costs_the_same_slow_hash_as_a_known_one(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = slow_hashes(monkeypatch)
    assert request_token(http, "hashed", "wrong").status_code == 401
    known = list(calls)
    calls.clear()
    assert request_token(http, "no-such-client", "wrong").status_code == 401
    assert known == [1000] and calls == known


def test_an_unknown_user_costs_the_same_slow_hash_as_a_known_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    principals = Principals.model_validate(
        {"users": [{"username": "u", "password": hash_secret("pw", iterations=2000)}]}
    )
    calls = slow_hashes(monkeypatch)
    assert principals.authenticate_user("u", "wrong") is None
    assert principals.authenticate_user("nobody", "wrong") is None
    assert calls == [2000, 2000]


# -- 3. failed logins and token requests are limited -----------------------------------------


@pytest.fixture
def strict() -> Iterator[RunningServer]:
    limits = ServerLimits(login_limit_principal="3 per minute", login_limit_address="8 per minute")
    with running(PROFILES, make_principals(), limits=limits) as server:
        yield server


def assert_429(response: httpx.Response) -> None:
    assert_envelope(response, 429, "CORESYSTEM_tooManyRequests_429")
    assert 1 <= int(response.headers["retry-after"]) <= 60


def test_failed_token_requests_for_one_client_end_in_429(strict: RunningServer) -> None:
    with httpx.Client(base_url=strict.base_url, timeout=10) as http:
        for _ in range(3):
            assert request_token(http, "analytics", "wrong").status_code == 401
        assert_429(request_token(http, "analytics", "wrong"))
        assert_429(request_token(http, "analytics"))  # even the right secret must wait
        assert request_token(http, "hashed").status_code == 200  # another name may go on


def test_concurrent_guesses_cannot_slip_under_the_limit() -> None:
    slow = {"client_id": "slow", "client_secret": hash_secret("s", iterations=300_000)}
    principals = Principals.model_validate({"clients": [slow]})
    limits = ServerLimits(login_limit_principal="3 per minute", login_limit_address=None)

    def attempt(base_url: str) -> int:
        with httpx.Client(base_url=base_url, timeout=60) as http:
            return request_token(http, "slow", "wrong").status_code

    with running(PROFILES, principals, limits=limits) as server, ThreadPoolExecutor(20) as pool:
        statuses = sorted(pool.map(attempt, [server.base_url] * 20))
    assert set(statuses) == {401, 429}
    assert 3 <= statuses.count(401) <= 3 + VERIFY_THREADS - 1  # one per verifier thread


def test_concurrent_successes_never_reach_the_limit(strict: RunningServer) -> None:
    def attempt(_: int) -> int:
        with httpx.Client(base_url=strict.base_url, timeout=30) as http:
            return request_token(http, "hashed").status_code

    with ThreadPoolExecutor(20) as pool:
        assert set(pool.map(attempt, range(20))) == {200}


def test_a_successful_login_resets_the_count(strict: RunningServer) -> None:
    with httpx.Client(base_url=strict.base_url, timeout=10) as http:
        wrong = {"username": "lena", "password": "wrong"}
        for _ in range(2):
            assert http.post("/", data=wrong).status_code == 401
        good = http.post("/", data={"username": "lena", "password": SECRETS["lena"]})
        assert good.status_code == 303
        for _ in range(3):  # a fresh count: three more failures before the limit
            assert http.post("/", data=wrong).status_code == 401
        assert_429(http.post("/", data=wrong))


def test_failures_from_one_address_end_in_429_whatever_the_names(strict: RunningServer) -> None:
    with httpx.Client(base_url=strict.base_url, timeout=10) as http:
        for index in range(8):
            response = http.get("/", params={"loginToken": f"guess-{index}"})
            assert response.status_code == 401
        assert_429(http.get("/", params={"loginToken": SECRETS["guest"]}))
        assert_429(request_token(http, "unknown-client", "x"))


def test_the_client_waits_out_the_throttles_retry_after_and_then_gets_its_token(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The client and the server agree: the token endpoint's 429 (after someone else's
    wrong guesses at this client id) is retried after its Retry-After, inside the fetch."""
    limits = ServerLimits(login_limit_principal="2 per 3 seconds", login_limit_address=None)
    credentials = ClientCredentials("analytics", SECRETS["analytics"])
    with running(PROFILES, make_principals(), limits=limits) as server:
        with httpx.Client(base_url=server.base_url, timeout=10) as http:
            for _ in range(2):
                assert request_token(http, "analytics", "wrong").status_code == 401
        with Client(server.base_url, auth=credentials, max_retries=0) as impatient:
            with pytest.raises(ApiError) as caught:  # one `except ApiError` holds it
                impatient.fetch_raw()
        assert isinstance(caught.value, RateLimitError) and caught.value.status_code == 429
        assert caught.value.retry_after is not None and 1 <= int(caught.value.retry_after) <= 3
        assert SECRETS["analytics"] not in str(caught.value)
        with caplog.at_level(logging.DEBUG, logger="iptoolkit.client"):
            with Client(server.base_url, auth=credentials, max_retries=1) as patient:
                raw = patient.fetch_raw()
    assert ids(raw) == ids(PROFILES)
    assert "429; retrying in" in caplog.text and "as Retry-After asks" in caplog.text


def test_failed_attempts_at_long_names_hold_no_copy_of_the_names() -> None:
    """A form field may be a megabyte: the limit counts each name tried for its whole
    window, so it must hold a digest, not the name (60 such guesses held 60 MB)."""
    throttle = LoginThrottle("2 per minute", "100 per minute")
    names = [f"{index}{'a' * 100_000}" for index in range(5)]
    for name in [*names, names[0]]:
        throttle.failed(Attempt("client", name, "127.0.0.1"))
    storage = throttle._limiter.storage
    assert isinstance(storage, MemoryStorage)
    held = storage.events  # the limits library's moving-window counts, by key
    assert len(held) == 6  # five names and the address
    assert all(len(key) < 200 for key in held)
    assert throttle.retry_after(Attempt("client", names[0], "127.0.0.1")) is not None
    assert throttle.retry_after(Attempt("client", names[1], "127.0.0.1")) is None


def test_a_limit_is_read_or_refused_clearly() -> None:
    assert parse_limit("off") is None and parse_limit(None) is None
    item = parse_limit("10 per 5 minutes")
    assert item is not None and item.amount == 10
    with pytest.raises(ValueError, match="'ten a minute'"):
        ServerLimits(login_limit_principal="ten a minute")
    with pytest.raises(ValueError, match="header_timeout"):
        ServerLimits(header_timeout=0)


# -- 4. half-sent requests time out; connections are capped; floods are logged once ----------


def test_unfinished_headers_are_closed(srv: RunningServer) -> None:
    answer = raw_exchange(srv, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1")
    assert answer == b""  # closed without an answer, before raw_exchange gave up waiting


def test_a_stalled_body_answers_408(srv: RunningServer) -> None:
    head = (
        f"POST {TOKEN_PATH} HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
    )
    answer = raw_exchange(srv, head.encode() + b"grant_type=")
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"CORESYSTEM_requestTimeout_408" in answer and b"<still open>" not in answer


@pytest.mark.parametrize("path", [TOKEN_PATH, "/"])
def test_a_body_beyond_the_cap_answers_413_unread(http: httpx.Client, path: str) -> None:
    """A form of a thousand 1 MB fields passes Starlette's caps and was held whole (one
    400 MB token request: 390 MB more server memory); every body we take is short."""
    chunk = b"a" * 65_536

    def form() -> Iterator[bytes]:
        yield b"grant_type=client_credentials&client_id=analytics&client_secret=x"
        for index in range(64):  # 60 MiB in fields under Starlette's 1 MiB cap
            yield f"&f{index}=".encode()
            yield from [chunk] * 15

    response = http.post(
        path, content=form(), headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert_envelope(response, 413, "CORESYSTEM_payloadTooLarge_413")
    assert response.headers["connection"] == "close"
    fits = {"grant_type": "client_credentials", "client_id": "analytics", "padding": "a" * 60_000}
    assert http.post(TOKEN_PATH, data={**fits, "client_secret": SECRETS["analytics"]}).is_success


@pytest.fixture
def capped() -> Iterator[RunningServer]:
    limits = ServerLimits(header_timeout=60, max_connections=8)  # only the cap closes them
    with running(PROFILES, make_principals(), limits=limits) as server:
        yield server


def test_stalled_connections_beyond_the_cap_make_room_and_are_logged_once(
    capped: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="iptoolkit.server")
    srv, stalled = capped, []
    http = httpx.Client(base_url=srv.base_url, timeout=10)
    try:
        for _ in range(30):
            sock = socket.create_connection((srv.host, srv.port), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\n")
            stalled.append(sock)
        time.sleep(0.2)
        assert http.get("/").status_code == 200  # a normal request is still answered
        closed = 0
        for sock in stalled:
            sock.settimeout(0.05)
            try:
                closed += sock.recv(1) == b""
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed += 1
        assert closed >= 30 - 8
    finally:
        http.close()
        for sock in stalled:
            sock.close()
    lines = [r for r in caplog.records if "beyond the cap" in r.getMessage()]
    assert len(lines) == 1


def test_the_connection_cap_fits_the_open_file_limit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A hard limit of 1024 (a common default) is too low for 1000 connections plus the
    accept batches that pass the cap: a smaller cap and batch, said once. A higher hard
    limit: the soft one is raised and nothing is lowered."""
    set_to: list[tuple[int, int]] = []
    # the resource module open_files asks
    monkeypatch.setattr(resource, "setrlimit", lambda _, pair: set_to.append(pair))
    monkeypatch.setattr(resource, "getrlimit", lambda _: (256, 1024))
    caplog.set_level(logging.WARNING, logger="iptoolkit.server")
    logger = logging.getLogger("iptoolkit.server")
    fitted = open_files.fit_open_files(1000, logger)
    assert set_to == [(1024, 1024)] and fitted.open_files == 1024
    assert fitted.max_connections < 1000 and fitted.backlog < open_files.MAX_BACKLOG
    assert fitted.max_connections + 3 * fitted.backlog + open_files.RESERVED_FILES <= 1024
    assert "open-file limit is 1024" in caplog.text and "ulimit -n" in caplog.text
    monkeypatch.setattr(resource, "getrlimit", lambda _: (1024, 1_000_000))
    fitted = open_files.fit_open_files(1000, logger)
    assert (fitted.max_connections, fitted.backlog) == (1000, open_files.MAX_BACKLOG)
    assert set_to[-1] == (1000 + 3 * open_files.MAX_BACKLOG + open_files.RESERVED_FILES, 1_000_000)


def stalled_flood(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` connections that never send a byte, opened without waiting for each."""
    stalled = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex((host, port))
        stalled.append(sock)
    return stalled


@pytest.mark.skipif(sys.platform == "win32", reason="open-file limits are POSIX")
def test_a_flood_under_a_low_open_file_limit_leaves_normal_requests_answered(
    tmp_path: Path,
) -> None:
    """The server's own process, limited to 256 open files, and 600 stalled connections:
    normal requests are answered and the log holds a few lines, not a traceback per
    failed accept (before: no answer, and hundreds of thousands of tracebacks)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    log = tmp_path / "server.log"
    with log.open("w") as errors:
        server = subprocess.Popen(
            [sys.executable, "-m", "iptoolkit.server", "--port", "0", "--header-timeout", "60"],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            preexec_fn=limit,
        )
    stalled: list[socket.socket] = []
    try:
        assert server.stdout is not None
        base_url = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline())
        assert base_url is not None, log.read_text()
        host, port = base_url.group().removeprefix("http://").split(":")
        with httpx.Client(base_url=base_url.group(), timeout=30) as http:
            assert http.get("/").status_code == 200
        stalled = stalled_flood(host, int(port), 600)
        time.sleep(1.0)  # the server is accepting them
        for _ in range(5):  # each a new connection, as a normal client's request comes
            # (a kept-alive one may be among those the server sheds to stay under its limit)
            with httpx.Client(base_url=base_url.group(), timeout=30) as http:
                assert http.get("/").status_code == 200
    finally:
        for sock in stalled:
            sock.close()
        server.terminate()
        server.wait(15)
    text = log.read_text()
    assert "Too many open files" not in text and "Traceback" not in text, text[-2000:]
    assert "open-file limit is 256" in text
    assert len(text.splitlines()) < 20, text[-2000:]


# -- 5. tokens are bounded per principal ------------------------------------------------------


def test_a_principal_issuing_tokens_never_logs_out_another() -> None:
    limits = ServerLimits(max_tokens_per_principal=3)
    with running(PROFILES, make_principals(), limits=limits) as server:
        with httpx.Client(base_url=server.base_url, timeout=10) as http:
            victim = request_token(http, "analytics").json()["access_token"]
            spree = [request_token(http, "auditor").json()["access_token"] for _ in range(10)]
            headers = {"Authorization": f"Bearer {victim}"}
            assert http.get(PROFILES_PATH, headers=headers).status_code == 200
            assert len(server.app.state.server.tokens) == 4
            newest = {"Authorization": f"Bearer {spree[-1]}"}
            oldest = {"Authorization": f"Bearer {spree[0]}"}
            assert http.get(PROFILES_PATH, headers=newest).status_code == 403  # live: no right
            assert http.get(PROFILES_PATH, headers=oldest).status_code == 401  # replaced


# -- 6. login CSRF; Secure cookies -----------------------------------------------------------


LENA = {"username": "lena", "password": SECRETS["lena"]}


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Referer": "https://evil.example/login.html"},
    ],
)
def test_a_login_posted_from_another_site_is_refused(
    http: httpx.Client, headers: dict[str, str]
) -> None:
    response = http.post("/", data=LENA, headers=headers)
    assert_envelope(response, 403, "CORESYSTEM_permission_403")
    assert "set-cookie" not in response.headers


def test_a_login_posted_from_the_servers_own_page_works(
    srv: RunningServer, http: httpx.Client
) -> None:
    response = http.post("/", data=LENA, headers={"Origin": srv.base_url})
    assert response.status_code == 303
    assert "Secure" not in response.headers["set-cookie"]  # plain HTTP on loopback
    referer = {"Referer": srv.base_url + "/"}
    assert http.post("/", data=LENA, headers=referer).status_code == 303


def browser_form_origin(referrer_policy: str, page: str, target: str) -> str:
    """The `Origin` a browser sends with a form POST from `page` to `target`: the Fetch
    standard, "append a request Origin header", step 3 (non-CORS, neither GET nor HEAD)."""
    page_origin = "{0.scheme}://{0.netloc}".format(urlsplit(page))
    target_origin = "{0.scheme}://{0.netloc}".format(urlsplit(target))
    policy = referrer_policy.split(",")[-1].strip().lower()  # the last one a browser knows
    if policy == "no-referrer":
        return "null"
    if policy == "same-origin" and page_origin != target_origin:
        return "null"
    downgrading = page.startswith("https:") and not target.startswith("https:")
    strict = ("no-referrer-when-downgrade", "strict-origin", "strict-origin-when-cross-origin")
    if policy in strict and downgrading:
        return "null"
    return page_origin


def test_the_login_page_posts_its_form_with_an_origin_the_csrf_check_accepts(
    srv: RunningServer, http: httpx.Client
) -> None:
    """A browser's own login works: the page's referrer policy keeps the form's Origin."""
    page = http.get("/")
    origin = browser_form_origin(page.headers["referrer-policy"], srv.base_url + "/", srv.base_url)
    assert origin == srv.base_url
    response = http.post("/", data=LENA, headers={"Origin": origin})
    assert response.status_code == 303, response.text


def test_cookies_are_secure_behind_https(http: httpx.Client) -> None:
    response = http.post("/", data=LENA, headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 303
    assert "Secure" in response.headers["set-cookie"]


def test_cookies_are_secure_when_told() -> None:
    with running(PROFILES, make_principals(), secure_cookies=True) as server:
        response = httpx.post(server.base_url + "/", data=LENA)
        assert response.headers["set-cookie"].startswith(SESSION_COOKIE)
        assert "Secure" in response.headers["set-cookie"]


# -- 7. malformed requests get the envelope; HEAD answers like GET ----------------------------


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"\x16\x03\x01 garbage that is no request line\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
    ],
    ids=["garbage-line", "1MB-header", "bad-content-length", "two-content-lengths"],
)
def test_malformed_requests_answer_the_envelope(
    srv: RunningServer, request_bytes: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    answer = raw_exchange(srv, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"content-type: application/json" in head.lower()
    assert b'"errorCode":"CORESYSTEM_validation_400"' in body
    assert not [r for r in caplog.records if r.getMessage() == "Invalid HTTP request received."]


def test_headers_up_to_max_header_bytes_are_accepted(srv: RunningServer) -> None:
    # 40 kB of unfinished headers: beyond h11's own 16 KiB, within the default 64 KiB
    with socket.create_connection((srv.host, srv.port), timeout=5) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000)
        time.sleep(0.2)  # the server has read them as an incomplete request
        sock.sendall(b"\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]


def test_head_answers_like_get_without_a_body(http: httpx.Client) -> None:
    page = http.head("/")
    assert page.status_code == 200 and page.content == b""
    assert page.headers["content-type"].startswith("text/html")
    token = request_token(http, "analytics").json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    listing, full = (
        http.head(PROFILES_PATH, headers=headers),
        http.get(PROFILES_PATH, headers=headers),
    )
    assert listing.status_code == 200 and listing.content == b""
    assert listing.headers["content-length"] == str(len(full.content))
    refused = http.head(PROFILES_PATH)
    assert refused.status_code == 401 and refused.content == b""
    assert refused.headers["content-type"] == "application/json"
