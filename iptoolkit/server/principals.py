"""Who may call the reference server, and what each caller may see.

A principals file is JSON with four keys: ``roles``, ``clients`` (API clients for the
client-credentials flow), ``users`` (UI users who log in at ``/``) and ``guests`` (guest
users with a login token)::

    {"roles":   {"all": {"permissions": ["profiles:view"], "groups": ["*"]},
                 "fin": {"permissions": ["profiles:view"], "groups": ["Finance", "Finance/*"]}},
     "clients": [{"client_id": "analytics", "client_secret": "...", "roles": ["all"]}],
     "users":   [{"username": "lena", "password": "...", "roles": ["fin"]}],
     "guests":  [{"login_token": "7264E89B-...", "roles": ["fin"]}]}

``groups`` are shell-style patterns (``fnmatch``, case-sensitive; ``*`` also crosses ``/``)
matched against a profile's ``group``. A profile without a group matches only ``*``. A
caller sees the union of the groups of those of its roles that grant ``profiles:view``.

Every secret (``client_secret``, ``password``, ``login_token``) may be written in plain text
or as a salted hash made by ``hash_secret`` (``iptoolkit hash-secret``)::

    pbkdf2_sha256$<iterations>$<salt, base64>$<PBKDF2-HMAC-SHA256 of the UTF-8 secret, base64>

(standard base64 with padding). A value that starts with ``pbkdf2_sha256$`` is read as a
hash, anything else as plain text. Both are compared in constant time
(``hmac.compare_digest``).

A login token is looked up, not verified against a named member, so a hashed one carries a
fifth field, ``$<lookup tag>``: 8 bytes of a fast digest of the token (``hash_secret(token,
lookup=True)``, ``iptoolkit hash-secret --login-token``). The server indexes every guest by
that tag (plain-text tokens by an HMAC with a per-process key), so a wrong guess costs one
dictionary lookup and the slow hash runs only for the one candidate. Unknown client ids and
user names are checked against a dummy hash as costly as the real ones, so that answer times
do not say which names exist.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from os import PathLike
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SecretStr, model_validator

__all__ = [
    "PROFILES_VIEW",
    "HASH_SCHEME",
    "DEFAULT_ITERATIONS",
    "Role",
    "ApiClient",
    "UiUser",
    "GuestUser",
    "Principals",
    "Identity",
    "DemoCredentials",
    "hash_secret",
    "lookup_tag",
    "verify_secret",
    "group_matches",
    "demo_principals",
]

PROFILES_VIEW = "profiles:view"
"""The permission the profile listing needs."""

HASH_SCHEME = "pbkdf2_sha256"
DEFAULT_ITERATIONS = 600_000
"""OWASP's 2023 figure for PBKDF2-HMAC-SHA256."""
_SALT_BYTES = 16
_TAG_BYTES = 8
_TAG_CONTEXT = b"iptoolkit login-token lookup\0"


def hash_secret(
    secret: str,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    salt: bytes | None = None,
    lookup: bool = False,
) -> str:
    """Hash a secret for a principals file, so the file need not hold it in plain text.

    `lookup=True` (for login tokens, which must be random) appends the lookup tag that
    lets the server find the token's guest without a slow hash per guest.

    >>> hash_secret("s3cret", iterations=1, salt=b"0123456789abcdef")[:16]
    'pbkdf2_sha256$1$'
    """
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    salt = secrets.token_bytes(_SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, iterations)
    parts = [HASH_SCHEME, str(iterations), _b64(salt), _b64(digest)]
    if lookup:
        parts.append(_b64(lookup_tag(secret)))
    return "$".join(parts)


def lookup_tag(secret: str) -> bytes:
    """The fast digest a hashed login token is indexed by (8 bytes of SHA-256)."""
    return hashlib.sha256(_TAG_CONTEXT + secret.encode()).digest()[:_TAG_BYTES]


def verify_secret(secret: str, stored: str) -> bool:
    """Whether `secret` matches `stored` (plain or hashed), compared in constant time."""
    if not stored.startswith(HASH_SCHEME + "$"):
        return hmac.compare_digest(secret.encode(), stored.encode())
    try:
        _, iterations, salt, digest, *tag = stored.split("$")
        if len(tag) > 1:
            return False
        expected = base64.b64decode(digest, validate=True)
        actual = hashlib.pbkdf2_hmac(
            "sha256", secret.encode(), base64.b64decode(salt, validate=True), int(iterations)
        )
    except ValueError:
        return False
    return hmac.compare_digest(actual, expected)


def group_matches(group: Any, patterns: Iterable[str]) -> bool:
    """Whether a profile's `group` matches one of the patterns; no group matches only `*`."""
    if not isinstance(group, str):
        return "*" in patterns
    return any(fnmatchcase(group, pattern) for pattern in patterns)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _check_hash_format(value: SecretStr) -> SecretStr:
    """A hashed secret that cannot be read is refused now: it would never match (the
    message names the part, never the value)."""
    text = value.get_secret_value()
    if text.startswith(HASH_SCHEME + "$"):
        parts = text.split("$")
        if len(parts) not in (4, 5) or not parts[1].isdigit() or int(parts[1]) < 1:
            raise ValueError(f"a hashed secret reads {HASH_SCHEME}$<iterations>$<salt>$<hash>")
        for name, part in zip(("salt", "hash", "lookup tag"), parts[2:], strict=False):
            decoded = _b64_or_none(part)
            if not decoded or (name == "lookup tag" and len(decoded) != _TAG_BYTES):
                size = f" of {_TAG_BYTES} bytes" if name == "lookup tag" else ""
                raise ValueError(f"the hashed secret's {name} is not standard base64{size}")
    return value


def _b64_or_none(text: str) -> bytes | None:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return None


def _iterations(stored: str) -> int:
    """PBKDF2 iterations of a stored secret; 0 for plain text."""
    return int(stored.split("$")[1]) if stored.startswith(HASH_SCHEME + "$") else 0


class _Model(BaseModel):
    # hide_input_in_errors: a validation error would otherwise quote the member (or the
    # whole file) it failed on, passwords and login tokens included
    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)


class Role(_Model):
    """What a role may do (`permissions`) and which profile groups it covers."""

    permissions: list[str] = Field(default_factory=list)
    groups: list[str] = Field(default_factory=list)


class ApiClient(_Model):
    """An API client of the client-credentials flow."""

    client_id: str = Field(min_length=1)
    client_secret: SecretStr
    roles: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _hash_format(self) -> ApiClient:
        _check_hash_format(self.client_secret)
        return self


class UiUser(_Model):
    """A user who logs in through the web UI at `/`."""

    username: str = Field(min_length=1)
    password: SecretStr
    roles: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _hash_format(self) -> UiUser:
        _check_hash_format(self.password)
        return self


class GuestUser(_Model):
    """A guest user: `GET /?loginToken=<token>` opens a password-free session."""

    login_token: SecretStr
    name: str | None = None
    roles: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _hash_format(self) -> GuestUser:
        _check_hash_format(self.login_token)
        text = self.login_token.get_secret_value()
        if text.startswith(HASH_SCHEME + "$") and len(text.split("$")) != 5:
            raise ValueError(
                "a hashed login_token needs its lookup tag (a fifth $-field), so that the "
                "server finds its guest without a slow hash per guest: hash it again with "
                "`iptoolkit hash-secret --login-token`"
            )
        return self


@dataclass(frozen=True)
class Identity:
    """An authenticated caller: who it is, what it may do, which groups it sees."""

    kind: str
    name: str
    permissions: frozenset[str]
    patterns: tuple[str, ...] = field(default=())
    """Group patterns of the roles that grant `profiles:view`, sorted and unique."""

    def can(self, permission: str) -> bool:
        return permission in self.permissions


class Principals(_Model):
    """The roles, API clients, UI users and guest users one server knows."""

    roles: dict[str, Role] = Field(default_factory=dict)
    clients: list[ApiClient] = Field(default_factory=list)
    users: list[UiUser] = Field(default_factory=list)
    guests: list[GuestUser] = Field(default_factory=list)

    _lookup_key: bytes = PrivateAttr(default=b"")
    _clients: dict[str, ApiClient] = PrivateAttr(default_factory=dict)
    _users: dict[str, UiUser] = PrivateAttr(default_factory=dict)
    _guests: dict[bytes, list[int]] = PrivateAttr(default_factory=dict)
    """Guest positions by lookup tag (hashed tokens) or keyed digest (plain-text tokens)."""
    _dummy_client: str = PrivateAttr(default="")
    _dummy_user: str = PrivateAttr(default="")

    @model_validator(mode="after")
    def _consistent(self) -> Principals:
        for kind, members in (
            ("client", self.clients),
            ("user", self.users),
            ("guest", self.guests),
        ):
            for member in members:
                unknown = [role for role in member.roles if role not in self.roles]
                if unknown:
                    raise ValueError(f"{kind} {_label(member)!r} names unknown role(s) {unknown}")
        for kind, names in (
            ("client_id", [client.client_id for client in self.clients]),
            ("username", [user.username for user in self.users]),
        ):
            duplicates = sorted({name for name in names if names.count(name) > 1})
            if duplicates:
                raise ValueError(f"duplicate {kind}: {duplicates}")
        return self

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Principals:
        """Read a principals JSON file."""
        return cls.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))

    def model_post_init(self, context: Any, /) -> None:
        """Index members for lookups that cost the same however many members there are."""
        self._lookup_key = secrets.token_bytes(32)
        self._clients = {client.client_id: client for client in self.clients}
        self._users = {user.username: user for user in self.users}
        self._dummy_client = _dummy_like(c.client_secret for c in self.clients)
        self._dummy_user = _dummy_like(u.password for u in self.users)
        for index, guest in enumerate(self.guests):
            stored = guest.login_token.get_secret_value()
            if stored.startswith(HASH_SCHEME + "$"):
                key = base64.b64decode(stored.rsplit("$", 1)[1])
            else:
                key = self._keyed(stored)
            self._guests.setdefault(key, []).append(index)

    def _keyed(self, secret: str) -> bytes:
        return hmac.new(self._lookup_key, secret.encode(), hashlib.sha256).digest()

    def authenticate_client(self, client_id: str, client_secret: str) -> Identity | None:
        """The identity of an API client whose id and secret match, else None.

        An unknown id costs one check against a dummy secret, as a known one does.
        """
        client = self._clients.get(client_id)
        if client is None:
            verify_secret(client_secret, self._dummy_client)
            return None
        if verify_secret(client_secret, client.client_secret.get_secret_value()):
            return self.identity("client", client.client_id, client.roles)
        return None

    def authenticate_user(self, username: str, password: str) -> Identity | None:
        """The identity of a UI user whose name and password match, else None."""
        user = self._users.get(username)
        if user is None:
            verify_secret(password, self._dummy_user)
            return None
        if verify_secret(password, user.password.get_secret_value()):
            return self.identity("user", user.username, user.roles)
        return None

    def authenticate_guest(self, login_token: str) -> Identity | None:
        """The identity of the guest user holding this login token, else None.

        Candidates come from the index (keyed digest or lookup tag); only they are verified.
        """
        candidates = self._guests.get(self._keyed(login_token), [])
        candidates = candidates + self._guests.get(lookup_tag(login_token), [])
        for index in candidates:
            guest = self.guests[index]
            if verify_secret(login_token, guest.login_token.get_secret_value()):
                return self.identity("guest", guest.name or f"guest-{index + 1}", guest.roles)
        return None

    def identity(self, kind: str, name: str, roles: Iterable[str]) -> Identity:
        """The identity that the given roles make: permissions and visible group patterns."""
        granted = [self.roles[role] for role in roles]
        permissions = frozenset(p for role in granted for p in role.permissions)
        patterns = sorted(
            {g for role in granted if PROFILES_VIEW in role.permissions for g in role.groups}
        )
        return Identity(kind, name, permissions, tuple(patterns))

    def identities(self) -> list[Identity]:
        """Every identity these principals can produce (to prepare their views up front)."""
        members: list[tuple[str, str, list[str]]] = [
            ("client", c.client_id, c.roles) for c in self.clients
        ]
        members += [("user", u.username, u.roles) for u in self.users]
        members += [
            ("guest", g.name or f"guest-{i + 1}", g.roles) for i, g in enumerate(self.guests)
        ]
        return [self.identity(kind, name, roles) for kind, name, roles in members]


def _dummy_like(stored: Iterable[SecretStr]) -> str:
    """A secret nobody knows, as costly to check as the costliest of `stored`."""
    iterations = max((_iterations(value.get_secret_value()) for value in stored), default=0)
    if iterations == 0:
        return secrets.token_urlsafe(24)
    return hash_secret(secrets.token_urlsafe(24), iterations=iterations)


def _label(member: ApiClient | UiUser | GuestUser) -> str:
    if isinstance(member, ApiClient):
        return member.client_id
    if isinstance(member, UiUser):
        return member.username
    return member.name or "guest"


@dataclass(frozen=True)
class DemoCredentials:
    """The credentials of demo principals; `repr` leaves every secret out."""

    client_id: str
    client_secret: str = field(repr=False)
    username: str
    password: str = field(repr=False)
    guest_token: str = field(repr=False)
    denied_client_id: str
    """An API client whose role lacks `profiles:view`: the listing answers 403."""
    denied_client_secret: str = field(repr=False)
    guest_groups: tuple[str, ...] = ("Finance", "Finance/*")


def demo_principals() -> tuple[Principals, DemoCredentials]:
    """Principals for a demo, with secrets that are new on every call.

    One API client sees every group, one UI user sees every group, one guest sees the
    `Finance` groups, and one API client lacks `profiles:view` (to show a 403).
    """
    creds = DemoCredentials(
        client_id="demo-client",
        client_secret=secrets.token_urlsafe(24),
        username="demo",
        password=secrets.token_urlsafe(12),
        guest_token=str(uuid.UUID(bytes=secrets.token_bytes(16), version=4)).upper(),
        denied_client_id="demo-no-access",
        denied_client_secret=secrets.token_urlsafe(24),
    )
    principals = Principals.model_validate(
        {
            "roles": {
                "all": {"permissions": [PROFILES_VIEW], "groups": ["*"]},
                "finance": {"permissions": [PROFILES_VIEW], "groups": list(creds.guest_groups)},
                "no-access": {"permissions": [], "groups": ["*"]},
            },
            "clients": [
                {
                    "client_id": creds.client_id,
                    "client_secret": creds.client_secret,
                    "roles": ["all"],
                },
                {
                    "client_id": creds.denied_client_id,
                    "client_secret": creds.denied_client_secret,
                    "roles": ["no-access"],
                },
            ],
            "users": [{"username": creds.username, "password": creds.password, "roles": ["all"]}],
            "guests": [
                {"login_token": creds.guest_token, "name": "demo-guest", "roles": ["finance"]}
            ],
        }
    )
    return principals, creds
