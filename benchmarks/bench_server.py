"""The reference server under load: 50 concurrent clients listing 1,000 profiles, for 20 s.

The server runs as its own process (`python -m iptoolkit.server`, loopback only, a free
port) with a 1,000-profile demo snapshot and a principals file holding one random client
secret; the clients (one `httpx.AsyncClient` each, each with its own bearer token) run here,
so client and server do not share a GIL. Every response is checked byte for byte against
the expected listing. Prints requests/s, MB/s, p50/p99 latency, errors (must be zero) and
the server's RSS (VmRSS from /proc/<pid>/status) before, during and after the load.

    python benchmarks/bench_server.py [--clients 50] [--seconds 20] [--profiles 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

import iptoolkit as ipt
from iptoolkit.server.app import PROFILES_PATH, TOKEN_PATH
from iptoolkit.server.catalogue import Catalogue

__all__ = ["main"]


def rss_mb(pid: int) -> float:
    """Resident set size of a process, in MB, from /proc/<pid>/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(snapshot: Path, principals: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "iptoolkit.server", "--host", "127.0.0.1", "--port", "0"]
        + ["--snapshot", str(snapshot), "--principals", str(principals)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
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
    results = await asyncio.gather(
        sample_rss(pid, stop_at, samples),
        *(one_client(base_url, secret, expected, stop_at, latencies) for _ in range(clients)),
    )
    elapsed = time.perf_counter() - start
    return latencies, sum(results[1:]), elapsed, samples


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--profiles", type=int, default=1000)
    args = parser.parse_args()

    estate = ipt.demo_estate(n_profiles=args.profiles, seed=0)
    expected = Catalogue(estate.raw_profiles).view(["*"]).body
    secret = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory() as folder:
        snapshot = estate.save(Path(folder) / "estate.json")
        principals = Path(folder) / "principals.json"
        principals.touch(mode=0o600)
        principals.write_text(
            json.dumps(
                {
                    "roles": {"all": {"permissions": ["profiles:view"], "groups": ["*"]}},
                    "clients": [{"client_id": "bench", "client_secret": secret, "roles": ["all"]}],
                }
            )
        )
        process, base_url = start_server(snapshot, principals)
        try:
            httpx.get(base_url + "/", timeout=30)  # answering
            before = rss_mb(process.pid)
            server_cpu, client_cpu = cpu_seconds(process.pid), time.process_time()
            latencies, errors, elapsed, samples = asyncio.run(
                load(base_url, process.pid, secret, expected, args.clients, args.seconds)
            )
            after = rss_mb(process.pid)
            server_cpu = cpu_seconds(process.pid) - server_cpu
            client_cpu = time.process_time() - client_cpu
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()

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


if __name__ == "__main__":
    sys.exit(main())
