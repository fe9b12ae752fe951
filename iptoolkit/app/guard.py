"""Who may drive the Explorer app, and how its Voila dies with the command.

The app's page can write files and hand over the estate, so only the person who started
it may use it:

* a token (`secrets.token_urlsafe`), printed in the address the command opens, as
  Jupyter does; Voila refuses any request without it (or the cookie it sets);
* a Host allow-list: only loopback addresses and `localhost` (jupyter_server's own check,
  which Voila turns off by default), so a web page that rebinds its DNS name to
  127.0.0.1 (`http://evil.example:8866`) is refused even with the token;
* both given to Voila in a config file of a private folder (mode 0700), never on its
  command line, which any local user can read in `ps`.

Voila runs in a session of its own (a Ctrl-C reaches the command, which stops it in
order); `die_with_parent` makes the kernel send it SIGTERM when the command dies, even
by SIGKILL (Linux `prctl(PR_SET_PDEATHSIG)`), so no Voila and no kernel outlives it.
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import signal
import sys
import tempfile
from pathlib import Path

__all__ = ["new_token", "write_config", "die_with_parent", "LOCAL_HOSTNAMES"]

LOCAL_HOSTNAMES = ["localhost"]
"""Host names (besides loopback addresses) the app answers to."""
_PR_SET_PDEATHSIG = 1


def new_token() -> str:
    """A fresh token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def write_config(token: str) -> Path:
    """A private folder holding `voila.json` with the token and the Host check; Voila
    reads it with `--Voila.config_file_paths=<folder>`. The caller removes the folder."""
    folder = Path(tempfile.mkdtemp(prefix="iptoolkit-app-"))  # mode 0700
    config = {
        "Voila": {
            "token": token,
            "tornado_settings": {
                "allow_remote_access": False,
                "local_hostnames": LOCAL_HOSTNAMES,
            },
        }
    }
    path = folder / "voila.json"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump(config, file)
    return folder


def die_with_parent(parent: int) -> None:
    """In the child, before it runs Voila: have Linux send it SIGTERM when `parent` dies
    (and stop at once if it already has). Elsewhere, nothing."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os.kill(os.getpid(), signal.SIGTERM)
