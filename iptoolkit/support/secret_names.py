"""Which names hold a credential: a query parameter, a JSON field, a header, a pair's name.

The one judgement every mask asks (`redact.py` masks by it): a name is secret when it is one
of the credentials' own names (`token`, `pwd`, `Authorization`) or holds a word that makes a
longer name secret (`clientSecret`, `smtpPassword`), unless it only refers to one
(`privateKeyId`, `tokenType`); and a name/value pair's value is secret when its sibling
names a secret (`{"name": "Authorization", "value": "Bearer X"}`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote_plus

__all__ = [
    "MASK",
    "SECRET_PARAMS",
    "SECRET_HEADERS",
    "PAIR_NAMES",
    "PAIR_VALUES",
    "is_secret_name",
    "is_a_quantity",
    "not_a_credential",
    "secret_pair_value",
    "names_a_secret",
]

MASK = "**********"

SECRET_PARAMS = frozenset(
    {
        "logintoken",
        "token",
        "access_token",
        "accesstoken",
        "bearertoken",
        "client_secret",
        "password",
        "passwd",
        "pwd",
        "secret",
        "api_key",
        "apikey",
        "sig",
        "signature",
        "sessionid",
        "jsessionid",
    }
)
"""Names (lower case, after percent-decoding) that are credentials however they are spelt
elsewhere: short ones (`sig`, `pwd`) and ones `_SECRET_WORD` alone would let pass."""

SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token"}
)
"""HTTP header names (lower case) whose values are credentials."""

_SECRET_WORD = re.compile(
    r"pass(word|wd|phrase)?$|secret(?!s[-_.]?(?:manager|engine|provider|backend|store|vault)$)|"
    r"token(?!i[sz])|authori[sz]ation|api[-_]?key|credential|"
    r"private[-_]?key|(access|account|encryption|signing|shared|master|hmac|auth|subscription)"
    r"[-_]?keys?$|"
    r"signature$|bearer$|auth[-_]?header$"
)
"""Words that make a longer name secret: `clientSecret`, `loginToken`, `smtpPassword`,
`privateKeyPem`, `sharedAccessKey`, `X-Amz-Signature`, `authHeader`,
`Ocp-Apim-Subscription-Key`; not `tokenizer`, nor `secretsManager`: "secrets" before the
name of what keeps them, ending the name (AWS Secrets Manager, a secrets engine, provider,
backend, store or vault), is a setting that selects it, while `secrets`, `SecretString`,
`secretsKey` and `secretsManagerKey` hold them."""
_NOT_SECRET = re.compile(
    r"(id|ids|type|name|url|uri|endpoint|mechanism|alias|path|file|algorithm|format|length|size)$"
)
"""Endings of names that refer to a secret or describe it, without holding it:
`privateKeyId`, `tokenType`, `smtpAuthMechanism`, `SharedAccessKeyName`, `tokenEndpoint`,
`privateKeyFile`, `encryptionKeyLength`."""


@functools.lru_cache(maxsize=4096)
def is_secret_name(name: str) -> bool:
    """Whether a query parameter, JSON field or header of this name holds a credential.

    Cached: a diff or an export asks it for every field name of every item it shows.

    >>> [is_secret_name(n) for n in ("loginToken", "Authorization", "sig", "privateKeyId")]
    [True, True, True, False]
    """
    key = unquote_plus(name).strip().lower()
    if key in SECRET_PARAMS or key in SECRET_HEADERS:
        return True
    return bool(_SECRET_WORD.search(key)) and not _NOT_SECRET.search(key)


_QUANTITY_WORDS = frozenset(
    "tokens count lifetime ttl timeout expiry expires days seconds minutes hours age limit "
    "max min".split()
)
"""Last words of a secret's name that hold a number about it, not it: `max_tokens`,
`accessTokenLifetime`, `tokenTtl`, `expires_in`; as whole words (not `tokenAdmin`,
`secretAccount`, `pinMessage`)."""
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
"""The words of a name, split at case changes, separators and digits (`accessTokenTTL`)."""
_LITERAL = re.compile(r"true|false|null|~|(?P<number>-?\d+(?:\.\d+)?)", re.IGNORECASE)
_LITERAL_FIRST = frozenset("tfnTFN~-0123456789")
"""What a literal (`_LITERAL`) starts with."""


def is_a_quantity(name: str) -> bool:
    """Whether a secret's name holds a number about it (`max_tokens`, `tokenTtl`), which a
    number written as its value is, not the secret."""
    if not name.isascii() or not name[-1:].isalnum():
        return False  # words split as ASCII: a name ending otherwise (`token_max_`) is none
    words = [word.lower() for word in _WORDS.findall(name)]
    return bool(words) and (words[-1] in _QUANTITY_WORDS or words[-2:] == ["expires", "in"])


def not_a_credential(name: str, value: str) -> bool:
    """Whether `value`, written as text for a secret's `name` (a member, a pair's value), is
    none: a flag (`"requireToken": true`, YAML's `~`) or a quantity's number (`"max_tokens":
    4096`, `- name: max_tokens` / `value: 4096`)."""
    if value[:1] not in _LITERAL_FIRST:
        return False  # most values: no expression tried
    literal = _LITERAL.fullmatch(value)
    if literal is None:
        return False
    return literal.group("number") is None or is_a_quantity(name)


_ROLES = (
    "header", "param", "parameter", "property", "prop", "variable", "var", "field", "attribute",
    "attr", "env", "arg", "argument", "option", "setting",
)  # fmt: skip
"""What the members of a name/value pair may be named for: `headerName`/`headerValue`."""


def _spellings(words: list[str]) -> frozenset[str]:
    """Each member's name (`param value`) as JSON spells it: `paramValue`, `ParamValue`,
    `param_value`, `param-value`, `paramvalue`, `PARAM_VALUE`, ..."""
    out: set[str] = set()
    for word in words:
        parts = word.split()
        out |= {"".join(parts), "_".join(parts), "-".join(parts)}
        out.add(parts[0] + "".join(part.capitalize() for part in parts[1:]))
        out.add("".join(part.capitalize() for part in parts))
    return frozenset({*out, *(spelt.upper() for spelt in out)})


PAIR_NAMES = _spellings(
    ["name", "key", "label", *_ROLES]
    + [f"{role} {end}" for role in _ROLES for end in ("name", "key")]
)
"""Members that name the value beside them in a name/value pair: `name`, `Key`, `header`,
`headerName`, `paramName`, `property`, `variable`, ..."""
PAIR_VALUES = _spellings(
    [f"{role} {end}" for role in ("", "default", *_ROLES) for end in ("value", "values")]
)
"""Members that hold a name/value pair's value: `value`, `Value`, `values`, `headerValue`,
`paramValue`, `defaultValue`, ..."""


def secret_pair_value(obj: Mapping[Any, Any], key: object) -> bool:
    """Whether `obj[key]` is the value of a name/value pair that names a credential:
    `key` holds a pair's value (`value`, `paramValue`, `headerValue`, ...) and a sibling
    naming it (`name`, `key`, `property`, `variable`, `headerName`, ..., as JSON spells
    them) is a secret's name, as in `[{"name": "Authorization", "value": "Bearer X"}]`
    (HAR, Kubernetes, Postman) or `{"paramName": "apikey", "paramValue": "k"}`.

    >>> secret_pair_value({"key": "X-Api-Key", "value": "k"}, "value")
    True
    >>> secret_pair_value({"property": "password", "value": "k"}, "value")
    True
    """
    return key in PAIR_VALUES and names_a_secret(obj)


def names_a_secret(obj: Mapping[Any, Any]) -> bool:
    """Whether `obj` holds a pair's value and a member naming it a secret's name: then its
    pair's value is masked (`redact_member`)."""
    if PAIR_VALUES.isdisjoint(obj.keys()):
        return False  # most objects: one pass in C, no name asked
    return any(
        member in PAIR_NAMES and isinstance(name, str) and is_secret_name(name)
        for member, name in obj.items()
    )
