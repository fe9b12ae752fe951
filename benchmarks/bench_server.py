"""The reference server under load, and under two storms of hostile callers (issue 14).

The server runs as its own process (`python -m iptoolkit.server`, loopback only, a free
port) with a 1,000-profile demo snapshot and a principals file of random secrets; the
callers run here, so client and server do not share a GIL.

* load: 50 concurrent clients (one `httpx.AsyncClient` each, each with its own bearer
  token) list the profiles for 20 s; every response is checked byte for byte. Prints
  requests/s, MB/s, p50/p99 latency, errors (must be zero) and the server's RSS.
* guessing: the token latency of a legitimate caller (a guest login and a client-credentials
  request, both with PBKDF2 secrets of 600,000 iterations) on an idle server, then during 40
  concurrent callers guessing guest login tokens (goal: within 2x of idle), then during 40
  guessing the secret of a known client (the per-name limit turns them to 429s).
* stalled: 5,000 connections that stall (half in their headers, half in their body; with
  `--reopen S`, each reopened S seconds after the server closes it) for 20 s, while a normal
  listing request is made every 0.5 s. Prints the server's RSS and open file descriptors
  (from /proc) and the normal requests' latency and failures (goal: bounded, and answered).
* downloads (issue 22): `--rounds` rounds of `--abandon` clients that ask for the whole
  listing and close after its first bytes, then `--slow` clients that ask for it and read
  nothing for `--hold` seconds (the server runs with `--send-timeout`, shorter). Prints the
  server's RSS after each round against its RSS after one whole download (the baseline, in
  the same run), and how many slow readers the server dropped (goal: flat, all dropped).

    python benchmarks/bench_server.py [--scenario all|load|guessing|stalled|downloads]
        [--clients 50] [--seconds 20] [--profiles 1000] [--guessers 40] [--stalled 5000]
        [--reopen S] [--download-rounds 5] [--abandon 40] [--slow 60] [--hold 12] [--send-timeout 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
from timing import status_kb

import iptoolkit as ipt
from iptoolkit.server.app import PROFILES_PATH, TOKEN_PATH
from iptoolkit.server.catalogue import Catalogue
from iptoolkit.server.hashing import hash_secret

__all__ = ["main"]


def rss_mb(pid: int) -> float:
    """Resident set size of a process, in MB, from /proc/<pid>/status."""
    return status_kb("VmRSS", pid) / 1024


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_fds(pid: int) -> int:
    """File descriptors a process holds open, from /proc/<pid>/fd."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def start_server(
    snapshot: Path, principals: Path, *options: str, open_files: int | None = None
) -> tuple[subprocess.Popen[str], str]:
    """The server as its own process; `open_files`: its soft and hard open-file limit."""

    def limit_open_files() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = subprocess.Popen(
        [sys.executable, "-m", "iptoolkit.server", "--host", "127.0.0.1", "--port", "0"]
        + ["--snapshot", str(snapshot), "--principals", str(principals), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=limit_open_files,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    match = re.search(r"at (http://127\.0\.0\.1:\d+)", first)
    if not match:
        process.kill()
        raise RuntimeError(f"the server did not start: {first!r}")
    return process, match.group(1)


async def one_client(
    base_url: str, secret: str, expected: bytes, stop_at: float, latencies: list[float]
) -> int:
    """List profiles in a loop until `stop_at`; return the number of errors."""
    errors = 0
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        response = await client.post(
            TOKEN_PATH,
            data={
                "grant_type": "client_credentials",
                "client_id": "bench",
                "client_secret": secret,
            },
        )
        headers = {"Authorization": f"Bearer {response.json()['access_token']}"}
        while time.perf_counter() < stop_at:
            start = time.perf_counter()
            try:
                response = await client.get(PROFILES_PATH, headers=headers)
                ok = response.status_code == 200 and response.content == expected
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - start)
            errors += not ok
    return errors


async def sample_rss(pid: int, stop_at: float, samples: list[float]) -> None:
    while time.perf_counter() < stop_at:
        samples.append(rss_mb(pid))
        await asyncio.sleep(2)


async def load(
    base_url: str, pid: int, secret: str, expected: bytes, clients: int, seconds: float
) -> tuple[list[float], int, float, list[float]]:
    latencies: list[float] = []
    samples: list[float] = []
    start = time.perf_counter()
    stop_at = start + seconds
    sampling = asyncio.create_task(sample_rss(pid, stop_at, samples))
    errors = await asyncio.gather(
        *(one_client(base_url, secret, expected, stop_at, latencies) for _ in range(clients)),
    )
    await sampling
    elapsed = time.perf_counter() - start
    return latencies, sum(errors), elapsed, samples


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@contextmanager
def served(
    estate: ipt.Estate,
    principals: Mapping[str, object],
    *options: str,
    open_files: int | None = None,
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """The server as its own process, with this estate, these principals and options."""
    with tempfile.TemporaryDirectory() as folder:
        snapshot = estate.save(Path(folder) / "estate.json")
        path = Path(folder) / "principals.json"
        path.touch(mode=0o600)
        path.write_text(json.dumps(principals))
        process, base_url = start_server(snapshot, path, *options, open_files=open_files)
        try:
            httpx.get(base_url + "/", timeout=30)  # answering
            yield process, base_url
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


ALL_ROLE = {"all": {"permissions": ["profiles:view"], "groups": ["*"]}}


def run_load(args: argparse.Namespace, estate: ipt.Estate) -> int:
    expected = Catalogue(estate.raw_profiles).view(["*"]).body
    secret = secrets.token_urlsafe(24)
    principals = {
        "roles": ALL_ROLE,
        "clients": [{"client_id": "bench", "client_secret": secret, "roles": ["all"]}],
    }
    with served(estate, principals) as (process, base_url):
        before = rss_mb(process.pid)
        server_cpu, client_cpu = cpu_seconds(process.pid), time.process_time()
        latencies, errors, elapsed, samples = asyncio.run(
            load(base_url, process.pid, secret, expected, args.clients, args.seconds)
        )
        after = rss_mb(process.pid)
        server_cpu = cpu_seconds(process.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu

    count = len(latencies)
    mb = count * len(expected) / 1e6
    print(f"reference server: {args.clients} clients x {args.seconds:g} s, loopback {base_url}")
    print(f"  listing: {args.profiles} profiles, {len(expected) / 1e6:.2f} MB per response")
    print(f"  requests:   {count} in {elapsed:.1f} s = {count / elapsed:.1f} requests/s")
    print(f"  throughput: {mb / elapsed:.0f} MB/s")
    print(
        f"  latency:    p50 {percentile(latencies, 0.50) * 1000:.0f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms"
    )
    print(f"  errors:     {errors}")
    print(
        f"  CPU:        server {server_cpu:.1f} s ({server_cpu / max(count, 1) * 1000:.1f} ms "
        f"per request), clients {client_cpu:.1f} s "
        f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})"
    )
    print(
        f"  server RSS: {before:.1f} MB before, {after:.1f} MB after "
        f"(during: {', '.join(f'{s:.0f}' for s in samples)} MB)"
    )
    return 1 if errors else 0


# -- the guessing storm ------------------------------------------------------------------------


async def legitimate_latencies(base_url: str, secret: str, guest: str, rounds: int) -> list[float]:
    """Time `rounds` guest logins and client-credentials token requests, one after another."""
    latencies = []
    async with httpx.AsyncClient(base_url=base_url, timeout=300) as client:
        for _ in range(rounds):
            start = time.perf_counter()
            guest_login = await client.get("/", params={"loginToken": guest})
            token = await client.post(
                TOKEN_PATH,
                data={"grant_type": "client_credentials", "client_id": "bench"}
                | {"client_secret": secret},
            )
            latencies.append(time.perf_counter() - start)
            assert guest_login.status_code == 303 and token.status_code == 200
    return latencies


async def guess(base_url: str, kind: str, stop: asyncio.Event, statuses: list[int]) -> None:
    """Guess guest tokens (`guest`) or the `victim` client's secret until `stop`."""
    async with httpx.AsyncClient(base_url=base_url, timeout=300) as client:
        while not stop.is_set():
            wrong = secrets.token_urlsafe(16)
            if kind == "guest":
                response = await client.get("/", params={"loginToken": wrong})
            else:
                form = {"grant_type": "client_credentials", "client_id": "victim"}
                response = await client.post(TOKEN_PATH, data=form | {"client_secret": wrong})
            statuses.append(response.status_code)


async def during_storm(
    base_url: str, secret: str, guest: str, kind: str, guessers: int, rounds: int
) -> tuple[list[float], list[int]]:
    stop = asyncio.Event()
    statuses: list[int] = []
    tasks = [asyncio.create_task(guess(base_url, kind, stop, statuses)) for _ in range(guessers)]
    await asyncio.sleep(1.0)  # the storm is under way
    latencies = await legitimate_latencies(base_url, secret, guest, rounds)
    stop.set()
    await asyncio.gather(*tasks)
    return latencies, statuses


def run_guessing(args: argparse.Namespace, estate: ipt.Estate) -> int:
    secret, guest = secrets.token_urlsafe(24), str(uuid.uuid4()).upper()
    stored = {name: hash_secret(secrets.token_urlsafe(24)) for name in ("victim", "g2", "g3")}
    principals = {
        "roles": ALL_ROLE,
        "clients": [
            {"client_id": "bench", "client_secret": hash_secret(secret), "roles": ["all"]},
            {"client_id": "victim", "client_secret": stored["victim"], "roles": ["all"]},
        ],
        "guests": [
            {"login_token": hash_secret(token, lookup=True), "roles": ["all"]}
            for token in (guest, secrets.token_urlsafe(16), secrets.token_urlsafe(16))
        ],
    }
    # every guess comes from 127.0.0.1, as the legitimate caller does: no per-address limit
    with served(estate, principals, "--address-login-limit", "off") as (process, base_url):
        idle = asyncio.run(legitimate_latencies(base_url, secret, guest, args.rounds))
        results = {
            kind: asyncio.run(
                during_storm(base_url, secret, guest, kind, args.guessers, args.rounds)
            )
            for kind in ("guest", "client")
        }
    idle_ms = statistics.median(idle) * 1000
    print(f"guessing storm: {args.guessers} concurrent guessers, loopback {base_url}")
    print(
        f"  legitimate caller (guest login + token request, PBKDF2 600,000 iterations each), "
        f"median of {args.rounds}:"
    )
    print(f"  idle server:                     {idle_ms:.0f} ms")
    worst = 0.0
    for kind, (latencies, statuses) in results.items():
        during = statistics.median(latencies) * 1000
        worst = max(worst, during / idle_ms)
        counts = ", ".join(f"{n} x {s}" for s, n in sorted(Counter(statuses).items()))
        label = "wrong guest tokens" if kind == "guest" else "wrong secrets of a known client"
        print(
            f"  during {label + ':':33s}{during:.0f} ms = {during / idle_ms:.2f}x idle "
            f"(guesses answered: {counts})"
        )
    print(f"  goal: within 2x of idle; worst {worst:.2f}x")
    return 0


# -- the slow-connection storm -----------------------------------------------------------------


async def stall(
    host: str,
    port: int,
    body: bool,
    reopen: float | None,
    stop: asyncio.Event,
    counts: Counter[str],
) -> None:
    """Hold a connection that stalls in its headers or its body until the server closes it;
    with `reopen`, open it again that many seconds later, until `stop`."""
    head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Stalled: "
    if body:
        head = (
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n\r\nusername="
        )
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            counts["refused"] += 1
        else:
            writer.write(head)
            counts["opened"] += 1
            read = asyncio.ensure_future(reader.read())
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait({read, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if read.done():
                counts["closed by the server"] += 1
                read.exception()  # a reset is a close too
            else:
                read.cancel()
            writer.close()
        if reopen is None:
            return
        await asyncio.sleep(reopen)


async def normal_requests(
    base_url: str, token: str, stop_at: float, latencies: list[float], failures: list[str]
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    while time.perf_counter() < stop_at:
        start = time.perf_counter()
        try:
            async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
                response = await client.get(PROFILES_PATH, headers=headers)
            if response.status_code != 200:
                failures.append(str(response.status_code))
        except httpx.HTTPError as exc:
            failures.append(type(exc).__name__)
        latencies.append(time.perf_counter() - start)
        await asyncio.sleep(0.5)


async def sample_process(pid: int, stop_at: float, samples: list[tuple[float, int]]) -> None:
    while time.perf_counter() < stop_at:
        samples.append((rss_mb(pid), open_fds(pid)))
        await asyncio.sleep(1.0)


async def slow_storm(
    base_url: str, pid: int, token: str, count: int, reopen: float | None, seconds: float
) -> tuple[Counter[str], list[float], list[str], list[tuple[float, int]]]:
    host, port = base_url.removeprefix("http://").rsplit(":", 1)
    stop, counts = asyncio.Event(), Counter[str]()
    attackers = [
        asyncio.create_task(stall(host, int(port), index % 2 == 1, reopen, stop, counts))
        for index in range(count)
    ]
    latencies: list[float] = []
    failures: list[str] = []
    samples: list[tuple[float, int]] = []
    stop_at = time.perf_counter() + seconds
    await asyncio.gather(
        normal_requests(base_url, token, stop_at, latencies, failures),
        sample_process(pid, stop_at, samples),
    )
    stop.set()
    await asyncio.gather(*attackers)
    return counts, latencies, failures, samples


def run_stalled(args: argparse.Namespace, estate: ipt.Estate) -> int:
    secret = secrets.token_urlsafe(24)
    principals = {
        "roles": ALL_ROLE,
        "clients": [{"client_id": "bench", "client_secret": secret, "roles": ["all"]}],
    }
    with served(estate, principals, open_files=args.open_files) as (process, base_url):
        form = {"grant_type": "client_credentials", "client_id": "bench", "client_secret": secret}
        token = httpx.post(base_url + TOKEN_PATH, data=form).json()["access_token"]
        before = (rss_mb(process.pid), open_fds(process.pid))
        counts, latencies, failures, samples = asyncio.run(
            slow_storm(base_url, process.pid, token, args.stalled, args.reopen, args.seconds)
        )
        time.sleep(2)
        after = (rss_mb(process.pid), open_fds(process.pid))
    print(
        f"slow-connection storm: {args.stalled} stalled connections (half in headers, half in "
        f"body) for {args.seconds:g} s, "
        + (f"each reopened {args.reopen:g} s after it is closed, " if args.reopen else "")
        + "default limits"
        + (f", open-file limit {args.open_files}" if args.open_files else "")
        + f", loopback {base_url}"
    )
    print(f"  connections: {', '.join(f'{n} {what}' for what, n in counts.items())}")
    print(
        f"  server RSS:  {before[0]:.0f} MB before, max {max(s[0] for s in samples):.0f} MB "
        f"during, {after[0]:.0f} MB 2 s after"
    )
    print(
        f"  server fds:  {before[1]} before, max {max(s[1] for s in samples)} during, "
        f"{after[1]} 2 s after"
    )
    print(
        f"  normal listing requests: {len(latencies)}, failed {len(failures)} "
        f"{dict(Counter(failures)) if failures else ''}, latency p50 "
        f"{percentile(latencies, 0.5) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )
    return 1 if failures else 0


async def _ask_listing(
    base_url: str, token: str, receive_buffer: int | None = None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw connection that has sent the listing request (nothing read yet)."""
    import socket

    host, port = base_url.removeprefix("http://").split(":")
    sock = socket.socket()
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(
        f"GET {PROFILES_PATH} HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    await writer.drain()
    return reader, writer


async def _abandon(base_url: str, token: str) -> None:
    """Ask for the whole listing, read its first bytes, and hang up."""
    reader, writer = await _ask_listing(base_url, token)
    await reader.read(1024)
    writer.transport.abort()


async def _read_nothing(base_url: str, token: str, hold: float, size: int) -> bool:
    """Ask for the whole listing, read nothing for `hold` s, then read what comes; True if
    the server dropped us (the stream ends before the whole body of `size` bytes: what
    the kernels' buffers held arrives, the rest never does)."""
    reader, writer = await _ask_listing(base_url, token, receive_buffer=4096)
    await asyncio.sleep(hold)
    received = 0
    try:
        while chunk := await asyncio.wait_for(reader.read(1 << 20), 30):
            received += len(chunk)
    except (ConnectionError, TimeoutError):
        pass
    finally:
        writer.transport.abort()
    return received < size


def run_downloads(args: argparse.Namespace, estate: ipt.Estate) -> int:
    secret = secrets.token_urlsafe(24)
    principals = {
        "roles": ALL_ROLE,
        "clients": [{"client_id": "bench", "client_secret": secret, "roles": ["all"]}],
    }
    # 0: leave the option out (to measure a server from before it had one)
    options = ("--send-timeout", str(args.send_timeout)) if args.send_timeout > 0 else ()
    with served(estate, principals, *options) as (process, base_url):
        form = {"grant_type": "client_credentials", "client_id": "bench", "client_secret": secret}
        token = httpx.post(base_url + TOKEN_PATH, data=form).json()["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        size = len(httpx.get(base_url + PROFILES_PATH, headers=headers, timeout=120).content)
        baseline = rss_mb(process.pid)
        print(
            f"dropped downloads: {args.profiles:,} profiles ({size / 1e6:.1f} MB listing), "
            f"send timeout {f'{args.send_timeout:g} s' if args.send_timeout > 0 else 'not set'}, "
            f"loopback {base_url}"
        )
        print(f"  server RSS after one whole download (baseline): {baseline:.0f} MB")
        worst = baseline
        for round_ in range(1, args.download_rounds + 1):

            async def abandon_all() -> None:
                await asyncio.gather(*(_abandon(base_url, token) for _ in range(args.abandon)))

            asyncio.run(abandon_all())
            time.sleep(1)
            now = rss_mb(process.pid)
            worst = max(worst, now)
            print(
                f"  round {round_}: {args.abandon} abandoned downloads -> RSS {now:.0f} MB "
                f"({now / baseline:.2f}x baseline)"
            )
        samples: list[float] = []

        async def slow_all() -> list[bool]:
            stop_at = time.perf_counter() + args.hold
            sampler = asyncio.create_task(sample_rss(process.pid, stop_at, samples))
            dropped = await asyncio.gather(
                *(_read_nothing(base_url, token, args.hold, size) for _ in range(args.slow))
            )
            await sampler
            return list(dropped)

        dropped = asyncio.run(slow_all())
        time.sleep(1)
        after = rss_mb(process.pid)
        worst = max([worst, after, *samples])
        print(
            f"  {args.slow} readers that read nothing for {args.hold:g} s: {sum(dropped)} dropped "
            f"by the server; RSS max {max(samples, default=after):.0f} MB during, {after:.0f} MB "
            f"after ({after / baseline:.2f}x baseline)"
        )
        print(f"  worst RSS {worst:.0f} MB = {worst / baseline:.2f}x baseline")
    return 0 if sum(dropped) == args.slow else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario",
        choices=["all", "load", "guessing", "stalled", "downloads"],
        default="all",
        help="load: listing throughput; guessing: a legitimate caller's token latency during "
        "a storm of wrong guesses, against idle; stalled: memory, descriptors and normal "
        "requests during a storm of stalled connections; downloads: memory while clients "
        "abandon the whole listing or read nothing of it (default: all four)",
    )
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (load)")
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="how long load and stalled storms last"
    )
    parser.add_argument("--profiles", type=int, default=1000, help="profiles served")
    parser.add_argument(
        "--guessers", type=int, default=40, help="concurrent wrong guessers (guessing)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="legitimate requests to time")
    parser.add_argument("--stalled", type=int, default=5000, help="stalled connections (stalled)")
    parser.add_argument(
        "--reopen", type=float, help="reopen each stalled connection this long after it closes"
    )
    parser.add_argument(
        "--open-files",
        type=int,
        help="the server's open-file limit (soft and hard) in the stalled storm, e.g. 1024",
    )
    parser.add_argument(
        "--download-rounds", type=int, default=5, help="rounds of abandoned downloads"
    )
    parser.add_argument("--abandon", type=int, default=40, help="abandoned downloads a round")
    parser.add_argument("--slow", type=int, default=60, help="readers that read nothing")
    parser.add_argument("--hold", type=float, default=12.0, help="how long they read nothing")
    parser.add_argument(
        "--send-timeout", type=float, default=4.0, help="the server's (0: its default)"
    )
    args = parser.parse_args()

    estate = ipt.demo_estate(n_profiles=args.profiles, seed=0)
    runs = {
        "load": run_load,
        "guessing": run_guessing,
        "stalled": run_stalled,
        "downloads": run_downloads,
    }
    chosen = list(runs) if args.scenario == "all" else [args.scenario]
    return max(runs[name](args, estate) for name in chosen)


if __name__ == "__main__":
    sys.exit(main())
