"""Principals: the file format, hashed secrets, group patterns, identities, demo principals."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from iptoolkit.server import Principals, demo_principals, hash_secret, verify_secret
from iptoolkit.server.principals import PROFILES_VIEW, group_matches

from .server_data import SECRETS, make_principals


def test_hash_format() -> None:
    stored = hash_secret("s3cret", iterations=1000, salt=b"0123456789abcdef")
    scheme, iterations, salt, digest = stored.split("$")
    assert (scheme, iterations) == ("pbkdf2_sha256", "1000")
    assert base64.b64decode(salt) == b"0123456789abcdef"
    expected = hashlib.pbkdf2_hmac("sha256", b"s3cret", b"0123456789abcdef", 1000)
    assert base64.b64decode(digest) == expected


def test_hash_is_salted_and_strong_by_default() -> None:
    first, second = hash_secret("s3cret"), hash_secret("s3cret")
    assert first != second
    assert int(first.split("$")[1]) >= 600_000
    assert verify_secret("s3cret", first) and verify_secret("s3cret", second)


@pytest.mark.parametrize(
    ("secret", "stored", "ok"),
    [
        ("s3cret", "s3cret", True),
        ("s3cret", "s3cre", False),
        ("", "", True),
        ("s3cret", hash_secret("s3cret", iterations=10), True),
        ("s3creT", hash_secret("s3cret", iterations=10), False),
        ("grüße", hash_secret("grüße", iterations=10), True),
        ("s3cret", "pbkdf2_sha256$10$!!$!!", False),
        ("s3cret", "pbkdf2_sha256$x$YQ==$YQ==", False),
        ("s3cret", "pbkdf2_sha256$0$YQ==$YQ==", False),
        ("s3cret", "pbkdf2_sha256$10$YQ==", False),
    ],
)
def test_verify_secret(secret: str, stored: str, ok: bool) -> None:
    assert verify_secret(secret, stored) is ok


def test_verify_compares_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    verify_secret("a", "b")
    verify_secret("a", hash_secret("a", iterations=10))
    assert len(calls) == 2


def test_hash_rejects_zero_iterations() -> None:
    with pytest.raises(ValueError):
        hash_secret("x", iterations=0)


@pytest.mark.parametrize(
    ("group", "patterns", "ok"),
    [
        ("Finance", ["Finance", "Finance/*"], True),
        ("Finance/AP", ["Finance", "Finance/*"], True),
        ("Finance/AP/Sub", ["Finance/*"], True),  # fnmatch's * crosses /
        ("FinanceX", ["Finance", "Finance/*"], False),
        ("FinanceX", ["Finance*"], True),
        ("finance", ["Finance*"], False),  # case-sensitive on every platform
        ("Logistics/EDI", ["Logistics/ED?"], True),
        ("Logistics/EDI", ["Logistics/[DE]DI"], True),
        ("", ["*"], True),
        (None, ["*"], True),
        (None, ["Finance*", "?*"], False),
        (42, ["*"], True),
        ("Anything", [], False),
    ],
)
def test_group_matches(group: object, patterns: list[str], ok: bool) -> None:
    assert group_matches(group, patterns) is ok


def test_identities_union_only_roles_that_grant_viewing() -> None:
    principals = Principals.model_validate(
        {
            "roles": {
                "fin": {"permissions": [PROFILES_VIEW], "groups": ["Finance/*", "Finance"]},
                "edi": {"permissions": [PROFILES_VIEW], "groups": ["EDI/*", "Finance"]},
                "audit": {"permissions": ["audit:read"], "groups": ["*"]},
            },
            "users": [{"username": "u", "password": "p", "roles": ["fin", "edi", "audit"]}],
        }
    )
    identity = principals.authenticate_user("u", "p")
    assert identity is not None
    assert identity.patterns == ("EDI/*", "Finance", "Finance/*")  # not audit's `*`
    assert identity.permissions == {PROFILES_VIEW, "audit:read"}
    assert identity.can(PROFILES_VIEW)


def test_authenticate_each_kind() -> None:
    principals = make_principals()
    client = principals.authenticate_client("hashed", SECRETS["hashed"])
    assert client is not None and client.kind == "client" and client.name == "hashed"
    assert principals.authenticate_client("hashed", SECRETS["analytics"]) is None
    assert principals.authenticate_client("nobody", SECRETS["hashed"]) is None
    user = principals.authenticate_user("lena", SECRETS["lena"])
    assert user is not None and user.kind == "user"
    assert principals.authenticate_user("Lena", SECRETS["lena"]) is None
    guest = principals.authenticate_guest(SECRETS["hashed-guest"])
    assert guest is not None and guest.kind == "guest" and guest.name == "visitor"
    first = principals.authenticate_guest(SECRETS["guest"])
    assert first is not None and first.name == "guest-1"
    assert principals.authenticate_guest("nope") is None
    auditor = principals.authenticate_client("auditor", SECRETS["auditor"])
    assert auditor is not None and not auditor.can(PROFILES_VIEW) and auditor.patterns == ()
    assert len(principals.identities()) == 6


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"clients": [{"client_id": "a", "client_secret": "s", "roles": ["x"]}]}, "unknown role"),
        (
            {
                "clients": [
                    {"client_id": "a", "client_secret": "s"},
                    {"client_id": "a", "client_secret": "t"},
                ]
            },
            "duplicate client_id",
        ),
        ({"users": [{"username": "u"}]}, "password"),
        ({"clients": [{"client_id": "a", "client_secret": "pbkdf2_sha256$x"}]}, "iterations"),
        ({"roles": {}, "admins": []}, "admins"),
        ({"users": [{"username": "", "password": "p"}]}, "username"),
    ],
)
def test_bad_principals(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Principals.model_validate(data)


@pytest.mark.parametrize(
    "data",
    [
        {"users": [{"username": "u", "password": "pbkdf2_sha256$x$Leaky-PW-1"}]},
        {
            "users": [
                {"username": "u", "password": "Leaky-PW-2"},
                {"username": "u", "password": "x"},
            ]
        },
        {"guests": [{"login_token": "Leaky-GUEST-3", "roles": ["nope"]}]},
        {"clients": [{"client_id": "c", "client_secret": "Leaky-SECRET-4", "roles": "all"}]},
    ],
)
def test_a_bad_principals_file_never_quotes_its_secrets(data: dict[str, object]) -> None:
    # pydantic quotes the input it failed on; here that input holds passwords and tokens
    with pytest.raises(ValidationError) as caught:
        Principals.model_validate(data)
    text = str(caught.value) + repr(caught.value)
    assert "Leaky" not in text and "password': 'x'" not in text


def test_load_the_issue_example(tmp_path: Path) -> None:
    path = tmp_path / "principals.json"
    path.write_text(
        json.dumps(
            {
                "roles": {
                    "all": {"permissions": ["profiles:view"], "groups": ["*"]},
                    "fin": {"permissions": ["profiles:view"], "groups": ["Finance", "Finance/*"]},
                },
                "clients": [{"client_id": "analytics", "client_secret": "x1", "roles": ["all"]}],
                "users": [
                    {
                        "username": "lena",
                        "password": hash_secret("x2", iterations=10),
                        "roles": ["fin"],
                    }
                ],
                "guests": [{"login_token": "7264E89B-AAAA", "roles": ["fin"]}],
            }
        )
    )
    principals = Principals.load(path)
    assert principals.authenticate_client("analytics", "x1")
    assert principals.authenticate_user("lena", "x2")
    assert principals.authenticate_guest("7264E89B-AAAA")


def test_secrets_hidden_from_repr() -> None:
    principals = make_principals()
    text = repr(principals) + str(principals)
    for secret in SECRETS.values():
        assert secret not in text


def test_demo_principals_are_random_and_complete() -> None:
    first, creds = demo_principals()
    _, other = demo_principals()
    assert creds.client_secret != other.client_secret
    assert creds.password != other.password and creds.guest_token != other.guest_token
    for secret in (creds.client_secret, creds.password, creds.guest_token):
        assert secret not in repr(creds) and len(secret) >= 16
    client = first.authenticate_client(creds.client_id, creds.client_secret)
    assert client is not None and client.patterns == ("*",)
    user = first.authenticate_user(creds.username, creds.password)
    assert user is not None and user.can(PROFILES_VIEW)
    guest = first.authenticate_guest(creds.guest_token)
    assert guest is not None and guest.patterns == ("Finance", "Finance/*")
    denied = first.authenticate_client(creds.denied_client_id, creds.denied_client_secret)
    assert denied is not None and not denied.can(PROFILES_VIEW)


def test_the_names_principals_had_before_its_split_still_import() -> None:
    """Hashing moved to `server.hashing`, demo principals to `server.demo_callers` (the
    package exports them, as before)."""
    import iptoolkit.server as server
    from iptoolkit.server import demo_callers, hashing, principals

    for name in ("hash_secret", "verify_secret", "lookup_tag", "HASH_SCHEME", "DEFAULT_ITERATIONS"):
        assert getattr(principals, name) is getattr(hashing, name), name
    assert server.demo_principals is demo_callers.demo_principals
