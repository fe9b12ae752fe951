"""Kernels for the app's pages forked from its zygote: jupyter_client's provisioner for it.

Voila's kernel manager starts each kernel through a provisioner; jupyter_client's own
(`LocalProvisioner`) runs the kernel's command as a new process, which reads the snapshot
again. `ForkProvisioner` asks the app's zygote (`app.zygote`, at `zygote_address`) to fork
one instead, and keeps the rest of `LocalProvisioner`'s work (the connection file, signals
to the kernel's process group, interrupts, kills, waiting). The process it holds is not
its child, so a `ForkedKernel` stands in for `subprocess.Popen`: it follows the kernel
through a pidfd (Linux 5.3), which names that process and no later one given its number.

Registered by the app's Voila alone (`register`, `app.server`), not as an entry point: no
other Jupyter on the machine offers it, and a kernelspec naming it elsewhere would find no
zygote. A command that is not ipykernel's (another kernelspec) is launched as before.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import subprocess
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from traitlets import Float, Unicode

from .zygote import MAX_REQUEST

__all__ = ["NAME", "ForkedKernel", "ForkProvisioner", "kernel_args", "register"]

NAME = "iptoolkit-fork"
"""The provisioner's name, as a kernelspec or `default_provisioner_name` gives it."""
_LAUNCHER = "ipykernel_launcher"


class ForkedKernel:
    """What `LocalProvisioner` needs of `subprocess.Popen`, for a process that is the
    zygote's child, not ours: alive or not, signals, waiting. Its exit code is the
    zygote's to collect, so a kernel that ended reports 0 (Voila only asks whether it
    runs)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin = self.stdout = self.stderr = None
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # ended already
            self._pidfd = None
            self.returncode = 0

    def poll(self) -> int | None:
        if self.returncode is None and self._pidfd is not None:
            readable, _, _ = select.select([self._pidfd], [], [], 0)
            if readable:  # a pidfd reads as ready once its process has ended
                self._ended()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and self._pidfd is not None:
            readable, _, _ = select.select([self._pidfd], [], [], timeout)
            if not readable:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            self._ended()
        return self.returncode or 0

    def send_signal(self, signum: int) -> None:
        if self.poll() is None and self._pidfd is not None:
            signal.pidfd_send_signal(self._pidfd, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _ended(self) -> None:
        self.returncode = 0
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


def kernel_args(cmd: list[str]) -> list[str] | None:
    """The arguments ipykernel's launcher is given in `cmd` (`-f CONNECTION_FILE`), or
    None when `cmd` does not run ipykernel (the zygote forks ipykernels only)."""
    if _LAUNCHER not in cmd:
        return None
    return cmd[cmd.index(_LAUNCHER) + 1 :]


class ForkProvisioner(LocalProvisioner):
    """`LocalProvisioner`, its kernel forked by the app's zygote (see the module)."""

    zygote_address = Unicode(
        "", config=True, help="The app zygote's socket (empty: launch kernels as usual)."
    )
    zygote_timeout = Float(
        600.0,
        config=True,
        help="Seconds to wait for the zygote (it answers once it holds the estate).",
    )

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        args = kernel_args(cmd)
        if not self.zygote_address or args is None:
            return await super().launch_kernel(cmd, **kwargs)
        environ = kwargs.get("env") or dict(os.environ)
        answer = await asyncio.wait_for(
            _ask(self.zygote_address, {"kernel": {"args": args, "env": environ,
                                                  "cwd": str(kwargs.get("cwd") or "")}}),
            self.zygote_timeout,
        )  # fmt: skip
        if "pid" not in answer:
            raise RuntimeError(f"the app's zygote forked no kernel: {answer.get('error')}")
        kernel = ForkedKernel(int(answer["pid"]))
        # a stand-in for the Popen LocalProvisioner declares (see ForkedKernel)
        self.process = kernel  # type: ignore[assignment]
        self.pid = self.pgid = kernel.pid  # the kernel leads a group of its own
        self.cwd = kwargs.get("cwd") or os.getcwd()
        info: KernelConnectionInfo = self.connection_info
        return info


async def _ask(address: str, message: dict[str, Any]) -> dict[str, Any]:
    """One request to the zygote, without blocking Voila's loop."""
    reader, writer = await asyncio.open_unix_connection(address, limit=MAX_REQUEST)
    try:
        writer.write(json.dumps(message).encode("utf-8") + b"\n")
        await writer.drain()
        line = await reader.readline()
    finally:
        writer.close()
    if not line:
        raise ConnectionError("the app's zygote closed the connection without an answer")
    answer: dict[str, Any] = json.loads(line)
    return answer


def register(address: str, config: Any) -> None:
    """Make `ForkProvisioner` known to jupyter_client in this process (no entry point: see
    the module) and the provisioner of every kernelspec that names none, asking the zygote
    at `address`; `config` is the application's (its kernel managers read it)."""
    from importlib.metadata import EntryPoint

    from jupyter_client.provisioning.factory import KernelProvisionerFactory

    factory = KernelProvisionerFactory.instance()
    factory.provisioners[NAME] = EntryPoint(
        NAME, f"{__name__}:ForkProvisioner", KernelProvisionerFactory.GROUP_NAME
    )
    factory.default_provisioner_name = NAME
    config.ForkProvisioner.zygote_address = address
