"""Credentials told by their own shape, which `redact_text` (`redact.py`) masks too.

The other rules find a secret by the name beside it (`token=x`, `Authorization: Bearer x`,
`"password": "x"`). These need no name: a JSON Web Token (`eyJ...` `.` `eyJ...` `.` ...),
a `Bearer` or `Basic` credential in prose (`call it with Bearer eyJ...`), and the
prefixed tokens services issue so that scanners can find them (GitHub's `ghp_`, Slack's
`xoxb-`, Stripe's `sk_live_`, Google's `AIza`). Prose keeps its words: `Bearer
authentication` and `Basic auth` show, since a bearer credential must hold a digit or a
token's punctuation (or be a long mix of cases, as base64 is), and a basic one must
decode to `user:password`.
"""

from __future__ import annotations

import base64
import binascii
import re

from .secret_names import MASK

__all__ = ["has_token_mark", "mask_token_shapes"]


def has_token_mark(text: str) -> bool:
    """Whether `text` holds what a token's shape starts with (`eyJ`, the `_` of `ghp_` or
    `sk_live_`, `xox`, `xapp`, `AIza`, `earer` of Bearer or bearer, `asic` of Basic, or
    theirs in capitals: `BEARER x`): most text holds none and skips the pass.
    Substring tests: one case-blind expression asked of every text of a snapshot made
    masking it 2.7 times as slow."""
    return len(text) >= 10 and (  # the shortest: `Basic YTpi` (`a:b`)
        "eyJ" in text
        or "_" in text
        or "xox" in text
        or "xapp" in text
        or "AIza" in text
        or "earer" in text
        or "asic" in text
        or "EARER" in text  # `BEARER x`: a scheme's name is case-blind (`_SCHEME`)
        or "ASIC" in text
    )


_TOKEN = (
    r"(?:"
    r"eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*"  # a JWT: header, claims, signature (or none)
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{40,}"  # GitHub's tokens
    r"|xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}"  # Slack's, its apps' too
    r"|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"  # Stripe's secret and restricted keys
    r"|AIza[\w-]{35}"  # a Google API key
    r")"
)
_ISSUED = re.compile(rf"(?<![\w-]){_TOKEN}", re.ASCII)
"""A token starting a word: only one start is tried in a run of word characters (linear)."""
_ESCAPED = re.compile(
    rf"(%[0-9A-Fa-f]{{2}}|\\(?:u[0-9A-Fa-f]{{4}}|x[0-9A-Fa-f]{{2}}|[nrtbf])){_TOKEN}", re.ASCII
)
"""A token right after an escape, whose last character is a word's (`%22eyJ...` of a URL's
JSON, `%20` of `Bearer%20ghp_...`, `\\n` or `\\u0022` of JSON text): `_ISSUED` starts no
word there. Its own pass, asked only of text holding a `%` or a backslash: one expression
allowing both starts was twice as slow on every text."""
_SCHEME = re.compile(
    r"(?<![\w-])(?P<scheme>bearer|basic)(?:[ \t]+|%20|\+)(?P<value>[\w~+/.-]+=*)", re.I | re.A
)
"""A credential after its HTTP scheme's name, no header before it (a blank, or a URL's
`%20` or `+`, between them)."""


def mask_token_shapes(text: str) -> str:
    """`text` with every credential of a token's shape masked (see the module docstring)."""
    text = _ISSUED.sub(MASK, text)
    if "%" in text or "\\" in text:
        text = _ESCAPED.sub(lambda match: match.group(1) + MASK, text)
    return _SCHEME.sub(_mask_scheme, text)


def _mask_scheme(match: re.Match[str]) -> str:
    value = match["value"]
    if value == MASK or not _is_credential(match["scheme"].lower(), value):
        return match.group(0)
    return match.group(0)[: match.start("value") - match.start()] + MASK


def _is_credential(scheme: str, value: str) -> bool:
    """Whether `value` after `scheme` is a credential rather than the next words of prose:
    a bearer token holds a letter and a digit or a token's punctuation (not a date,
    `Bearer 2024-01-01`, nor `token...`), or is a long run of letters changing case as
    base64 does, not as CamelCase prose (`Bearer AzureActiveDirectory`)."""
    if scheme == "basic":
        return _decodes_to_a_login(value)
    value = value.rstrip(".")  # a sentence's full stop
    if len(value) < 8 or not any(character.isalpha() for character in value):
        return False
    if _TOKEN_CHARACTER.search(value):
        return True
    changes = sum(a.isupper() != b.isupper() for a, b in zip(value, value[1:], strict=False))
    return len(value) >= 16 and "-" not in value and changes >= 6


_TOKEN_CHARACTER = re.compile(r"[\d._~+/=]")


def _decodes_to_a_login(value: str) -> bool:
    """Basic's credential is `user:password` in base64: printable text with a colon."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()
