"""Secrets of a principals file, in plain text or as salted hashes, checked in constant time.

Every secret (``client_secret``, ``password``, ``login_token``) may be written in plain text
or as a salted hash made by ``hash_secret`` (``iptoolkit hash-secret``)::

    pbkdf2_sha256$<iterations>$<salt, base64>$<PBKDF2-HMAC-SHA256 of the UTF-8 secret, base64>

(standard base64 with padding). A value that starts with ``pbkdf2_sha256$`` is read as a
hash, anything else as plain text. Both are compared in constant time
(``hmac.compare_digest``).

A login token is looked up, not verified against a named member, so a hashed one carries a
fifth field, ``$<lookup tag>``: 8 bytes of a fast digest of the token (``hash_secret(token,
lookup=True)``, ``iptoolkit hash-secret --login-token``). This module knows nothing of
principals: `principals` indexes and checks members with it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable

__all__ = [
    "HASH_SCHEME",
    "DEFAULT_ITERATIONS",
    "MAX_ITERATIONS",
    "TAG_BYTES",
    "hash_secret",
    "lookup_tag",
    "verify_secret",
    "is_hashed",
    "stored_tag",
    "check_hash_format",
    "dummy_like",
]

HASH_SCHEME = "pbkdf2_sha256"
DEFAULT_ITERATIONS = 600_000
"""OWASP's 2023 figure for PBKDF2-HMAC-SHA256."""
MAX_ITERATIONS = 2**31 - 1
"""The most PBKDF2 iterations hashlib takes (a C int)."""
TAG_BYTES = 8
"""Bytes of a login token's lookup tag."""
_SALT_BYTES = 16
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
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS:,}")
    salt = secrets.token_bytes(_SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, iterations)
    parts = [HASH_SCHEME, str(iterations), _b64(salt), _b64(digest)]
    if lookup:
        parts.append(_b64(lookup_tag(secret)))
    return "$".join(parts)


def lookup_tag(secret: str) -> bytes:
    """The fast digest a hashed login token is indexed by (8 bytes of SHA-256)."""
    return hashlib.sha256(_TAG_CONTEXT + secret.encode()).digest()[:TAG_BYTES]


def verify_secret(secret: str, stored: str) -> bool:
    """Whether `secret` matches `stored` (plain or hashed), compared in constant time."""
    if not is_hashed(stored):
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


def is_hashed(stored: str) -> bool:
    """Whether a stored secret is a hash (else it is plain text)."""
    return stored.startswith(HASH_SCHEME + "$")


def stored_tag(stored: str) -> bytes:
    """The lookup tag of a hashed login token (checked by `check_hash_format` at load)."""
    return base64.b64decode(stored.rsplit("$", 1)[1])


def check_hash_format(text: str, *, lookup: bool = False) -> None:
    """Refuse a hashed secret that cannot be read (it would never match); `lookup=True`
    also demands the lookup tag. Messages name the part, never the value."""
    if not is_hashed(text):
        return
    parts = text.split("$")
    if len(parts) not in (4, 5) or not parts[1].isdigit() or int(parts[1]) < 1:
        raise ValueError(f"a hashed secret reads {HASH_SCHEME}$<iterations>$<salt>$<hash>")
    for name, part in zip(("salt", "hash", "lookup tag"), parts[2:], strict=False):
        decoded = _b64_or_none(part)
        if not decoded or (name == "lookup tag" and len(decoded) != TAG_BYTES):
            size = f" of {TAG_BYTES} bytes" if name == "lookup tag" else ""
            raise ValueError(f"the hashed secret's {name} is not standard base64{size}")
    if lookup and len(parts) != 5:
        raise ValueError(
            "a hashed login_token needs its lookup tag (a fifth $-field), so that the "
            "server finds its guest without a slow hash per guest: hash it again with "
            "`iptoolkit hash-secret --login-token`"
        )


def dummy_like(stored: Iterable[str]) -> str:
    """A secret nobody knows, as costly to check as the costliest of `stored`: checked for
    an unknown name, so that answer times do not say which names exist."""
    iterations = max((_iterations(value) for value in stored), default=0)
    if iterations == 0:
        return secrets.token_urlsafe(24)
    return hash_secret(secrets.token_urlsafe(24), iterations=iterations)


def _iterations(stored: str) -> int:
    """PBKDF2 iterations of a stored secret; 0 for plain text."""
    return int(stored.split("$")[1]) if is_hashed(stored) else 0


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _b64_or_none(text: str) -> bytes | None:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return None
