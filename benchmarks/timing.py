"""What the benchmarks share: the best of N runs, the orjson floor as iptoolkit runs its
own parsing (the cyclic collector paused), and a process's memory as /proc reports it."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from iptoolkit.models import gc_paused


def best_time(
    func: Callable[[], Any], repeat: int, setup: Callable[[], Any] | None = None
) -> float:
    """The fastest of `repeat` runs: the least disturbed by the shared machine. `setup`,
    when given, runs untimed before each run (to empty a cache, say)."""
    best = float("inf")
    for _ in range(repeat):
        if setup is not None:
            setup()
        gc.collect()
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
        del result
    return best


def orjson_without_gc(payload: bytes) -> Any:
    """`orjson.loads` with the collector paused, as `iptoolkit` parses (the strict floor)."""
    with gc_paused():
        return orjson.loads(payload)


def status_kb(field: str, pid: int | str = "self") -> int:
    """A kB figure of /proc/<pid>/status (`VmRSS`, `VmHWM`)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/{pid}/status")
