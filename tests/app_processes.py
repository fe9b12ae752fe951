"""The processes of a running app (`iptoolkit explore`): its kernels and their memory.

A kernel is either started by Voila (its command line runs `ipykernel_launcher`) or forked
by the app's zygote (named `zygote.PROCESS_NAME`, its command line the zygote's); a kernel's
id is in its connection file's name, which a forked kernel does not carry on its command
line but in the paths of the Unix sockets it listens on (`kernel-ID-ipc-N`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from iptoolkit.app.zygote import PROCESS_NAME

__all__ = ["app_kernels", "kernel_id", "pss_bytes", "tree"]

_KERNEL_ID = re.compile(r"kernel-([0-9a-f]{8}-[0-9a-f-]{27})")


def tree(pid: int) -> list[Any]:
    """`pid` and every process under it (psutil processes)."""
    import psutil

    top = psutil.Process(pid)
    return [top, *top.children(recursive=True)]


def _is_kernel(process: Any) -> bool:
    import psutil

    try:
        return process.name() == PROCESS_NAME or "ipykernel_launcher" in " ".join(process.cmdline())
    except psutil.Error:  # gone, or a zombie not yet reaped: shut down all the same
        return False


def app_kernels(pid: int) -> list[Any]:
    """The kernels under the app process `pid` (see the module)."""
    return [process for process in tree(pid)[1:] if _is_kernel(process)]


def kernel_id(process: Any) -> str | None:
    """The id of a kernel process (None: gone, or none found)."""
    import psutil

    try:
        found = _KERNEL_ID.search(" ".join(process.cmdline()))
        if found is None:
            paths = " ".join(str(c.laddr) for c in process.net_connections(kind="unix"))
            found = _KERNEL_ID.search(paths)
    except psutil.Error:
        return None
    return found.group(1) if found else None


def pss_bytes(pid: int) -> int:
    """A process's proportional set size (its private pages, and its share of each page it
    shares with others: what copy-on-write sharing is measured in); 0 once it is gone."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    found = re.search(r"^Pss:\s+(\d+) kB", text, re.MULTILINE)
    return int(found.group(1)) * 1024 if found else 0
