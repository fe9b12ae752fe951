"""The client's limits against a hostile server (issue 14, finding 8), and their cost.

A stdlib server on 127.0.0.1 (a thread of this process) serves a 10,000-profile listing
(plain and gzip), a gzip bomb and a body trickled one byte every 0.1 s. Prints:

- speed: `Client.fetch_raw` of the listing against the baseline of plain `httpx.get` and
  the same JSON parser, best of N, in this process and again with a 10k-profile estate
  held in memory; the ratio is what the limits (decoding and counting as it streams) cost;
- memory: the peak RSS of a fresh process reading the bomb with the cap, against a fresh
  process reading it with plain httpx (the baseline: everything decoded in memory);
- time: how long a trickled response holds the client, with `deadline` against plain httpx
  with the same `timeout` (the server gives up after `--trickle` seconds).

    python benchmarks/bench_client.py [--profiles 10000] [--bomb-mib 256] [--cap-mib 16]
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import resource
import subprocess
import sys
import threading
import time
import zlib
from typing import Any

import httpx
from timing import best_time

import iptoolkit as ipt
from iptoolkit.demo import demo_profiles
from iptoolkit.models import loads_json

__all__ = ["main"]

MiB = 1 << 20


def gzip_bomb(decoded_mib: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = b" " * MiB
    return b"".join(packer.compress(block) for _ in range(decoded_mib)) + packer.flush()


def serve(bodies: dict[str, tuple[bytes, str]], trickle_seconds: float) -> tuple[Any, str]:
    """Serve each path's (body, content encoding); `/trickle` sends a byte every 0.1 s."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle(self) -> None:
            try:
                super().handle()
            except OSError:  # a client that hung up (the cap, the deadline): expected
                pass

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == "/trickle":
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                ends = time.monotonic() + trickle_seconds
                try:
                    while time.monotonic() < ends:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(0.1)
                except OSError:
                    pass
                self.close_connection = True
                return
            body, encoding = bodies[path]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            if encoding:
                self.send_header("Content-Encoding", encoding)
            try:
                self.end_headers()
                self.wfile.write(body)
            except OSError:  # the client stopped reading (the cap): expected
                self.close_connection = True

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def client(base: str, path: str, **options: Any) -> ipt.Client:
    return ipt.Client(
        base, auth=ipt.BearerToken("bench"), profiles_path=path, max_retries=0, **options
    )


def speed(base: str, repeat: int, label: str) -> None:
    for path in ("/plain", "/gzip"):
        url = base + path
        with httpx.Client() as plain:
            baseline = best_time(lambda: loads_json(plain.get(url).content), repeat)  # noqa: B023
        with client(base, path) as ours:
            measured = best_time(ours.fetch_raw, repeat)
        print(
            f"  {label:<22} {path:<7} httpx + parse {baseline * 1000:7.1f} ms   "
            f"Client.fetch_raw {measured * 1000:7.1f} ms   ratio {measured / baseline:.2f}"
        )


def bomb_in_a_fresh_process(base: str, cap_mib: int | None) -> tuple[float, str]:
    """Peak RSS (MiB) of a fresh process reading /bomb, and how it ended."""
    if cap_mib is None:
        code = f"import httpx; r = httpx.get({base + '/bomb'!r}); print(len(r.content))"
    else:
        code = (
            "import iptoolkit as ipt\n"
            f"c = ipt.Client({base!r}, auth=ipt.BearerToken('b'), profiles_path='/bomb', "
            f"max_retries=0, max_response_bytes={cap_mib * MiB})\n"
            "try:\n    c.fetch_raw()\nexcept ipt.ResponseTooLargeError as e:\n"
            "    print(type(e).__name__)\n"
        )
    # VmHWM, not ru_maxrss: ru_maxrss survives exec, so it would report this process's peak
    probe = "import sys; exec(sys.argv[1]); "
    probe += "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])"
    result = subprocess.run(
        [sys.executable, "-c", probe, code], capture_output=True, text=True, check=True
    )
    outcome, peak_kib = result.stdout.split()
    return int(peak_kib) / 1024, outcome


def trickle(base: str, timeout: float, deadline: float) -> None:
    started = time.monotonic()
    try:
        with client(base, "/trickle", timeout=timeout, deadline=deadline) as ours:
            ours.fetch_raw()
    except ipt.DeadlineExceededError:
        pass
    ours_s = time.monotonic() - started
    started = time.monotonic()
    try:
        httpx.get(base + "/trickle", timeout=timeout)
    except httpx.HTTPError:
        pass
    plain_s = time.monotonic() - started
    print(
        f"  trickle, timeout {timeout:g} s: plain httpx held {plain_s:5.1f} s (until the "
        f"server stopped); Client with deadline {deadline:g} s: {ours_s:4.1f} s "
        f"(ratio {ours_s / plain_s:.2f})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--bomb-mib", type=int, default=256)
    parser.add_argument("--cap-mib", type=int, default=16)
    parser.add_argument("--trickle", type=float, default=12.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    listing = json.dumps(demo_profiles(args.profiles, seed=0)).encode()
    bomb = gzip_bomb(args.bomb_mib)
    bodies = {
        "/plain": (listing, ""),
        "/gzip": (gzip.compress(listing, 6), "gzip"),
        "/bomb": (bomb, "gzip"),
    }
    server, base = serve(bodies, args.trickle)
    try:
        print(f"listing: {args.profiles:,} profiles, {len(listing) / MiB:.1f} MiB of JSON")
        speed(base, args.repeat, "no estate held")
        held = ipt.demo_estate(n_profiles=10_000, seed=1)
        speed(base, args.repeat, "10k estate held")
        del held

        print(f"gzip bomb: {len(bomb) / 1024:.0f} KiB on the wire, {args.bomb_mib} MiB decoded")
        plain_peak, plain_end = bomb_in_a_fresh_process(base, None)
        ours_peak, ours_end = bomb_in_a_fresh_process(base, args.cap_mib)
        print(
            f"  peak RSS of a fresh process: plain httpx {plain_peak:6.0f} MiB ({plain_end} "
            f"bytes read); Client with a {args.cap_mib} MiB cap {ours_peak:6.0f} MiB "
            f"({ours_end}); ratio {ours_peak / plain_peak:.2f}"
        )
        trickle(base, timeout=5.0, deadline=3.0)
    finally:
        server.shutdown()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process: peak RSS {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
