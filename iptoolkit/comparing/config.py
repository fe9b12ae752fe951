"""The comparison's configuration and the named environments, kept in the repository.

`[tool.iptoolkit.compare]` in `pyproject.toml`, or `[compare]` in `iptoolkit.toml`, found
upward from the working directory as the audit finds its table (`auditing.config`, whose
TOML reader and line finder this reuses, so an error names the file and line):

    [tool.iptoolkit.compare]
    ignore = ["profile:$.description", "*.remotePath"]     # JSON path globs
    substitute = [["test.example.com", "example.com"], ["T_", "P_"]]
    mapping = "compare-mapping.toml"                       # manual matches (relative)

    [tool.iptoolkit.compare.keys]
    channel = ["partner", "name"]                          # defaults: see rules.py

    [[tool.iptoolkit.compare.known]]
    status = "changed"                                     # or "*" (any)
    item = "profile:Sales/EDI / Orders in"                 # a glob over kind:key
    reason = "test polls every minute"
    expires = 2027-03-31

Environments, `[tool.iptoolkit.environments.NAME]` (`[environments.NAME]`), say where an
installation is and which environment variables hold its credentials, never a secret:

    [tool.iptoolkit.environments.prod]
    base-url = "https://ip.example.com"
    auth = "client"                                        # client, guest, session, bearer
    client-id-env = "PROD_CLIENT_ID"
    secret-env = "PROD_CLIENT_SECRET"
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..support.names import did_you_mean
from ..support.redact import is_secret_name
from .difference import STATUSES
from .rules import DEFAULT_IGNORED, DEFAULT_KEYS, KEY_KINDS, Rules

if TYPE_CHECKING:
    import httpx

    from ..core.estate import Estate

_VARIABLE_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")
"""What an environment variable's name looks like (a secret seldom does)."""

__all__ = ["Environment", "load_rules", "load_environments", "AUTH_KINDS"]

_KEYS = ("keys", "ignore", "ignore-names", "substitute", "mapping", "known")
_KNOWN_KEYS = ("status", "item", "reason", "expires")
_ENV_KEYS = ("base-url", "auth", "client-id-env", "secret-env", "profiles-path")
AUTH_KINDS = ("client", "guest", "session", "bearer")


@dataclass(frozen=True)
class Environment:
    """One installation: where it is and the names of the variables holding its
    credentials (their values are read when it is fetched, never kept here)."""

    name: str
    base_url: str
    auth: str | None = None
    client_id_env: str | None = None
    secret_env: str | None = field(default=None, repr=False)
    """Never shown: written by mistake, it may be the secret itself."""
    profiles_path: str | None = None

    def credentials(self) -> httpx.Auth:
        """The auth flow, from the variables named (a missing one is an error naming it)."""
        from ..client import BearerToken, ClientCredentials, GuestLogin, SessionCookie

        kind = self.auth or ("client" if self.client_id_env else "bearer")
        secret = self._variable(self.secret_env, "secret-env")
        if kind == "client":
            return ClientCredentials(self._variable(self.client_id_env, "client-id-env"), secret)
        flows: dict[str, Callable[[str], httpx.Auth]] = {
            "guest": GuestLogin,
            "session": SessionCookie,
            "bearer": BearerToken,
        }
        return flows[kind](secret)

    def fetch(self, *, progress: bool | None = None) -> Estate:
        """Every profile of this installation, as an estate."""
        from ..client import Client

        with Client(
            self.base_url, auth=self.credentials(), profiles_path=self.profiles_path
        ) as client:
            return client.fetch_estate(progress=progress)

    def _variable(self, name: str | None, key: str) -> str:
        if not name:
            raise ValueError(f"environment {self.name!r}: {key} names no variable")
        value = os.environ.get(name, "").strip()
        if not value:
            if not _VARIABLE_NAME.fullmatch(name):  # the secret itself, written by mistake?
                raise ValueError(
                    f"environment {self.name!r}: {key} does not look like a variable's name "
                    "(upper-case letters, digits, _): is it the secret itself? (not shown)"
                )
            if key == "secret-env":  # a secret that looks like a name (`S3CR3T_2024`): not shown
                raise ValueError(
                    f"environment {self.name!r}: the variable that secret-env names is not set "
                    "(its name is not shown, in case it is the secret itself)"
                )
            raise ValueError(f"environment {self.name!r}: the variable {name} ({key}) is not set")
        return value


def _table(document: Mapping[str, Any], source: Path, name: str) -> tuple[Any, str]:
    section = ("tool", "iptoolkit", name) if source.name == "pyproject.toml" else (name,)
    table: Any = document
    for part in section:
        table = table.get(part, {}) if isinstance(table, dict) else {}
    return table, ".".join(section)


class _Reader:
    """One file's text, to name the line of what an error is about."""

    def __init__(self, path: Path) -> None:
        from ..auditing.config import read_config_text, read_toml

        self.path = path
        self.text = read_config_text(path)
        self.document = read_toml(self.text, path)

    def fail(self, token: str, message: str, section: str) -> NoReturn:
        from ..auditing.config import ConfigError, line_of

        line = line_of(self.text, token, section)
        where = f"{self.path}:{line}" if line else str(self.path)
        raise ConfigError(f"{where}: {message}")

    def strings(self, value: Any, key: str, section: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(key, f"{key} must be a list of strings", section)
        return tuple(value)


def load_rules(path: Path | None = None, *, start: Path | None = None) -> Rules:
    """The comparison's rules from `path`, else the file found upward from `start`, else
    the defaults."""
    from ..auditing.config import find_config

    found = path or find_config(start, table="compare")
    if found is None:
        return Rules()
    reader = _Reader(found)
    table, section = _table(reader.document, found, "compare")
    if not isinstance(table, dict):
        reader.fail("compare", f"[{section}] must be a table", section)
    if not isinstance(table, dict):
        reader.fail("compare", "[compare] must be a table", section)
    for key in table:
        if key not in _KEYS:
            reader.fail(key, f"unknown key {key!r} in [{section}]{did_you_mean(key, _KEYS)}; "
                        f"known: {', '.join(_KEYS)}", section)  # fmt: skip
    keys = dict(DEFAULT_KEYS)
    given_keys = table.get("keys", {})
    if not isinstance(given_keys, dict):
        reader.fail("keys", "keys must be a table of kind = [fields]", section)
    for kind, parts in given_keys.items():
        if kind not in KEY_KINDS:
            reader.fail(kind, f"keys: unknown kind {kind!r}; known: {', '.join(KEY_KINDS)}",
                        section)  # fmt: skip
        keys[kind] = reader.strings(parts, kind, section) or reader.fail(
            kind, f"keys.{kind} needs at least one field", section
        )
    substitute = []
    pairs = table.get("substitute", [])
    if not isinstance(pairs, list):
        reader.fail("substitute", "substitute holds pairs of texts: [[\"a\", \"b\"], ...]",
                    section)  # fmt: skip
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) and p
                                                                 for p in pair)):  # fmt: skip
            reader.fail("substitute", "substitute holds pairs of texts: [[\"a\", \"b\"], ...]",
                        section)  # fmt: skip
        substitute.append((pair[0], pair[1]))
    mapping = table.get("mapping")
    if mapping is not None and not isinstance(mapping, str):
        reader.fail("mapping", "mapping must be a file name (text)", section)
    return Rules(
        keys=keys,
        ignore=reader.strings(table.get("ignore", []), "ignore", section),
        ignore_names=reader.strings(
            table.get("ignore-names", list(DEFAULT_IGNORED)), "ignore-names", section
        ),
        substitute=tuple(substitute),
        known=_known(reader, table.get("known", []), section),
        mapping=(found.parent / mapping) if mapping else None,
        source=found,
    )


def _known(reader: _Reader, value: Any, section: str) -> tuple[Any, ...]:
    """Known differences as the audit's suppressions (`code` is the status)."""
    from ..auditing.config import Suppression

    within = f"{section}.known"
    if not isinstance(value, list):
        reader.fail("known", "known must be an array of tables ([[...known]])", section)
    found = []
    for n, entry in enumerate(value):
        if not isinstance(entry, dict):
            reader.fail("known", "each known difference is a table", within)
        for key in entry:
            if key not in _KNOWN_KEYS:
                reader.fail(key, f"known[{n}]: unknown key {key!r}; known: "
                            + ", ".join(_KNOWN_KEYS), within)  # fmt: skip
        for key in ("item", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                reader.fail("known", f"known[{n}] needs {key} (text)", within)
        status = entry.get("status", "*")
        if status != "*" and status not in STATUSES:
            reader.fail(str(status), f"known[{n}].status {status!r} is not * or one of "
                        + ", ".join(STATUSES), within)  # fmt: skip
        expires = entry.get("expires")
        if isinstance(expires, dt.datetime):
            expires = expires.date()
        if expires is not None and not isinstance(expires, dt.date):
            reader.fail("expires", f"known[{n}].expires must be a date (2027-03-31)", within)
        line = _nth_line(reader.text, within, n)
        found.append(Suppression(status, entry["item"], entry["reason"], expires, line))
    return tuple(found)


def _nth_line(text: str, within: str, n: int) -> int | None:
    seen = -1
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().replace(" ", "") == f"[[{within}]]":
            seen += 1
            if seen == n:
                return number
    return None


def load_environments(
    path: Path | None = None, *, start: Path | None = None
) -> dict[str, Environment]:
    """The environments named in the configuration (none when there is none)."""
    from ..auditing.config import find_config

    found = path or find_config(start, table="environments")
    if found is None:
        return {}
    reader = _Reader(found)
    table, section = _table(reader.document, found, "environments")
    if not isinstance(table, dict):
        reader.fail("environments", f"[{section}] must be a table of tables", section)
    out = {}
    for name, entry in table.items():
        within = f"{section}.{name}"
        if not isinstance(entry, dict):
            reader.fail(name, f"environments.{name} must be a table", section)
        for key in entry:
            if key not in _ENV_KEYS:
                secret = is_secret_name(key) and not key.endswith("-env")
                advice = (
                    "; never a secret in the file: name its environment variable with secret-env"
                    if secret
                    else did_you_mean(key, _ENV_KEYS)
                )
                reader.fail(key, f"environments.{name}: unknown key {key!r}{advice}", within)
            if not isinstance(entry[key], str):
                reader.fail(key, f"environments.{name}.{key} must be text", within)
        if "base-url" not in entry:
            reader.fail(name, f"environments.{name} needs base-url", within)
        auth = entry.get("auth")
        if auth is not None and auth not in AUTH_KINDS:
            reader.fail("auth", f"environments.{name}.auth must be one of "
                        + ", ".join(AUTH_KINDS), within)  # fmt: skip
        out[name] = Environment(
            name,
            entry["base-url"],
            auth,
            entry.get("client-id-env"),
            entry.get("secret-env"),
            entry.get("profiles-path"),
        )
    return out


def environment(name: str, *, start: Path | None = None) -> Environment:
    """The environment called `name`; an unknown one is an error naming the known ones."""
    known = load_environments(start=start)
    if name not in known:
        listed = ", ".join(sorted(known)) or "none configured"
        raise ValueError(
            f"no environment {name!r}{did_you_mean(name, known)} (environments: {listed}; "
            "[tool.iptoolkit.environments.NAME] in pyproject.toml)"
        )
    return known[name]
