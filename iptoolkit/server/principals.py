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

Every secret may be written in plain text or as a salted hash (`hashing`, whose names
this module also exports for older imports). The server indexes every guest by the lookup
tag of a hashed login token (plain-text tokens by an HMAC with a per-process key), so a
wrong guess costs one dictionary lookup and the slow hash runs only for the one candidate.
Unknown client ids and user names are checked against a dummy hash as costly as the real
ones, so that answer times do not say which names exist. Demo principals are made by
`demo_principals`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import partial
from os import PathLike
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    model_validator,
)

from .hashing import (
    DEFAULT_ITERATIONS,
    HASH_SCHEME,
    check_hash_format,
    dummy_like,
    hash_secret,
    is_hashed,
    lookup_tag,
    stored_tag,
    verify_secret,
)

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
    "hash_secret",
    "lookup_tag",
    "verify_secret",
    "group_matches",
]

PROFILES_VIEW = "profiles:view"
"""The permission the profile listing needs."""


def _readable(value: SecretStr, *, lookup: bool = False) -> SecretStr:
    check_hash_format(value.get_secret_value(), lookup=lookup)
    return value


StoredSecret = Annotated[SecretStr, AfterValidator(_readable)]
"""A secret as a principals file stores it: plain text, or a hash that can be read (one
that cannot would never match, so it is refused at load)."""
LoginToken = Annotated[SecretStr, AfterValidator(partial(_readable, lookup=True))]
"""A stored login token: a hashed one needs its lookup tag."""


def group_matches(group: Any, patterns: Iterable[str]) -> bool:
    """Whether a profile's `group` matches one of the patterns; no group matches only `*`."""
    if not isinstance(group, str):
        return "*" in patterns
    return any(fnmatchcase(group, pattern) for pattern in patterns)


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
    client_secret: StoredSecret
    roles: list[str] = Field(default_factory=list)


class UiUser(_Model):
    """A user who logs in through the web UI at `/`."""

    username: str = Field(min_length=1)
    password: StoredSecret
    roles: list[str] = Field(default_factory=list)


class GuestUser(_Model):
    """A guest user: `GET /?loginToken=<token>` opens a password-free session."""

    login_token: LoginToken
    name: str | None = None
    roles: list[str] = Field(default_factory=list)


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


@dataclass(frozen=True)
class _ByName:
    """Members who log in with a name and a secret: name -> (stored secret, roles), and a
    secret nobody knows, as costly to check, for names that are not there."""

    members: dict[str, tuple[str, list[str]]]
    dummy: str

    @classmethod
    def of(cls, members: Iterable[tuple[str, SecretStr, list[str]]]) -> _ByName:
        index = {name: (stored.get_secret_value(), roles) for name, stored, roles in members}
        return cls(index, dummy_like(stored for stored, _ in index.values()))


class Principals(_Model):
    """The roles, API clients, UI users and guest users one server knows."""

    roles: dict[str, Role] = Field(default_factory=dict)
    clients: list[ApiClient] = Field(default_factory=list)
    users: list[UiUser] = Field(default_factory=list)
    guests: list[GuestUser] = Field(default_factory=list)

    _lookup_key: bytes = PrivateAttr(default=b"")
    _named: dict[str, _ByName] = PrivateAttr(default_factory=dict)
    """API clients (`client`) and UI users (`user`), who log in with a name and a secret."""
    _guests: dict[bytes, list[int]] = PrivateAttr(default_factory=dict)
    """Guest positions by lookup tag (hashed tokens) or keyed digest (plain-text tokens)."""

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
        """Read a principals JSON file; one of the wrong shape is a ValueError saying, in a
        line, what is wrong where (`clients[0]: ...`), not pydantic's report of many lines
        and links."""
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        try:
            return cls.model_validate(document)
        except ValidationError as exc:
            raise ValueError(_problems(exc)) from None

    def model_post_init(self, context: Any, /) -> None:
        """Index members for lookups that cost the same however many members there are."""
        self._lookup_key = secrets.token_bytes(32)
        self._named = {
            "client": _ByName.of((c.client_id, c.client_secret, c.roles) for c in self.clients),
            "user": _ByName.of((u.username, u.password, u.roles) for u in self.users),
        }
        for index, guest in enumerate(self.guests):
            stored = guest.login_token.get_secret_value()
            key = stored_tag(stored) if is_hashed(stored) else self._keyed(stored)
            self._guests.setdefault(key, []).append(index)

    def _keyed(self, secret: str) -> bytes:
        return hmac.new(self._lookup_key, secret.encode(), hashlib.sha256).digest()

    def authenticate_client(self, client_id: str, client_secret: str) -> Identity | None:
        """The identity of an API client whose id and secret match, else None."""
        return self._by_name("client", client_id, client_secret)

    def authenticate_user(self, username: str, password: str) -> Identity | None:
        """The identity of a UI user whose name and password match, else None."""
        return self._by_name("user", username, password)

    def _by_name(self, kind: str, name: str, secret: str) -> Identity | None:
        """An unknown name costs one check against a dummy secret, as a known one does."""
        named = self._named[kind]
        stored, roles = named.members.get(name, (named.dummy, None))
        if verify_secret(secret, stored) and roles is not None:
            return self.identity(kind, name, roles)
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


_SHOWN_PROBLEMS = 3
"""Problems of a principals file said at most; the count of the others follows."""


def _problems(exc: ValidationError) -> str:
    """`$.roles: Input should be a valid dictionary; $.clients[0]: ...`: each problem with
    the JSON path it is at (`jsontext.json_path`, as a snapshot's problems say it), the
    first few, then how many more."""
    from ..models.jsontext import json_path

    said = []
    for error in exc.errors(include_url=False)[:_SHOWN_PROBLEMS]:
        message = error["msg"].removeprefix("Value error, ")
        said.append(f"{json_path(tuple(error['loc']))}: {message}" if error["loc"] else message)
    more = exc.error_count() - len(said)
    return "; ".join(said) + (f" (and {more} more)" if more > 0 else "")


def _label(member: ApiClient | UiUser | GuestUser) -> str:
    if isinstance(member, ApiClient):
        return member.client_id
    if isinstance(member, UiUser):
        return member.username
    return member.name or "guest"
