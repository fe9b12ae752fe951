"""Which values are secrets, and how they are masked wherever text might show them.

Shared by the client (its error messages and the httpx/httpcore log filters), the
reference server (its access log), the exporters (URLs inside exported values) and the
Explorer (fields in its detail pane), which must not import each other. One rule,
`is_secret_name`, says which names hold secrets (query parameters, JSON fields, HTTP
headers alike), and one `MASK` replaces their values everywhere. A credential held as a
name/value pair (`{"name": "Authorization", "value": "Bearer X"}`, `{"key": "X-Api-Key",
"value": ...}`, `{"paramName": "apikey", "paramValue": ...}`) is one too, however its
members are named: `secret_pair_value` says which member to mask. Text (an error a server
sent, a log line, a field's value) loses credential query values after any separator and in
a fragment (`#access_token=`), quoted or not (`password="x"`, a JAAS config), URL passwords
with or without a scheme (`//u:pw@host`, `u:pw@host`), private keys in PEM armour, the
values of secret headers written as `Authorization: Bearer X` or `"Authorization": "Bearer
X"`, of secret names after a colon (`password: x`, YAML, a log line; not prose), of
JSON members (`"password": 1234` too), of XML elements with a secret's name (`<wsse:Password>x
</wsse:Password>`, CDATA too) and of attribute pairs (`<add key="DbPassword" value="x"/>`),
and SQL's `IDENTIFIED BY x`. A shape is over-masked rather than let through when text is
ambiguous: `Note:joe@example.com` reads as `user:password@host`.
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
    "is_secret_name",
    "secret_pair_value",
    "redact_fields",
    "redact_member",
    "names_a_secret",
    "redact_query",
    "redact_url",
    "redact_text",
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
    r"pass(word|wd|phrase)?$|secret|token(?!i[sz])|authori[sz]ation|api[-_]?key|credential|"
    r"private[-_]?key|(access|account|encryption|signing|shared|master|hmac|auth|subscription)"
    r"[-_]?keys?$|"
    r"signature$|bearer$|auth[-_]?header$"
)
"""Words that make a longer name secret: `clientSecret`, `loginToken`, `smtpPassword`,
`privateKeyPem`, `sharedAccessKey`, `X-Amz-Signature`, `authHeader`,
`Ocp-Apim-Subscription-Key`; not `tokenizer`."""
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


def redact_fields(value: Any) -> Any:
    """A copy of JSON-like data with the value of every secret-named field masked, and the
    value of every name/value pair naming a secret (`secret_pair_value`).

    The spec carries no secrets in channels (certificates are referenced by id), but HTTP
    headers, unknown agent classes and future fields may: nothing shown may reveal them.
    Strings elsewhere pass through `redact_text` (URLs with credentials in them).
    """
    kind = type(value)
    if kind is str:  # the leaves, told first by their exact type: no ABC asked (an HTML
        return redact_text(value)  # file masks every field of every item it shows)
    if value is None or kind is int or kind is bool or kind is float:
        return value
    if isinstance(value, Mapping):
        pair = names_a_secret(value)
        return {key: redact_member(key, item, pair) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact_fields(item) for item in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def redact_member(key: Any, item: Any, pair: bool) -> Any:
    """`item`, the value of `key` in a mapping, as `redact_fields` shows it: masked when
    `key` is a secret's name, or the mapping names a secret (`pair`, `names_a_secret`)
    and `key` holds that pair's value; else its own fields masked. One rule for a whole
    mapping and for a caller that masks its members one by one (`field_rows`)."""
    if item not in (None, "") and (is_secret_name(str(key)) or (pair and key in PAIR_VALUES)):
        return MASK
    return redact_fields(item)


_KEY = r"[\w.%+\-\[\]$]"
"""A character of a pair's name (`api%5Fkey`, `X-Amz-Signature`, `a[b]`); any other one
separates pairs (`?`, `&`, `;`, `,`, `#`, `|`, `/`, white space, quotes, brackets)."""
_PAIR_NAME = re.compile(rf"(?<![\w.%+\-\[\]$=])({_KEY}+)(?:=|[ \t]+=[ \t]*(?!=))")
"""The name of a pair `name=value` (or `name = value`, INI), after any character that cannot
be part of it (or `=`: the `b` of `a=b=c` names nothing)."""
_VALUE_END = re.compile(r"[&#\s\"']")
QUERY_ONLY_SECRETS = frozenset({"key"})
"""Names that hold a credential as a query parameter (`?key=`, `&key=`, an API key), and too
often something else elsewhere (`<add key="x" ...>`, `sort key=name`) for `is_secret_name`."""
_QUERY_SEPARATORS = "?&#"
_USERINFO = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://)([^/?#\s\"'<>]*)@")
_URL = re.compile(r"(?<![a-zA-Z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")


def redact_query(text: str) -> str:
    """Mask credential values of query parameters anywhere in `text` (a URL, a log line).

    Pairs start after any separator: `?`, `&`, `;`, a fragment's `#` (`#access_token=`), a
    comma (`env=prod,token=...`), where a form or a word starts (the text's start, white
    space, a quote, a parenthesis: a token endpoint echoing `client_secret=...`), and inside
    another pair's value (`Source=db;Password="x"`). A credential's value is masked whole
    when quoted (`password="a;b"`), else up to the next `&` (or `#`, white space, a quote),
    so a `;` or `,` inside it does not let the rest show; the `)` closing a parenthesis it
    ends is kept (`(GET /?loginToken=**********)`), one inside it is masked with it. One
    pass, left to right: linear in the text, however it nests.

    >>> redact_query('"GET /?loginToken=abc&lang=en HTTP/1.1"')
    '"GET /?loginToken=**********&lang=en HTTP/1.1"'
    """
    pieces: list[str] = []
    done = position = 0
    while (match := _PAIR_NAME.search(text, position)) is not None:
        start = position = match.end()
        if not _names_a_credential(text, match):
            continue  # its value may hold pairs: `a=1;token=x`, `p;a=1?token=x`
        end, masked = _credential_value(text, start)
        pieces += (text[done:start], masked)
        done = position = end
    return "".join(pieces) + text[done:] if pieces else text


def _names_a_credential(text: str, match: re.Match[str]) -> bool:
    key = match.group(1)
    if is_secret_name(key):
        return True
    before = text[match.start() - 1 : match.start()]
    return before != "" and before in _QUERY_SEPARATORS and key.lower() in QUERY_ONLY_SECRETS


def _credential_value(text: str, start: int) -> tuple[int, str]:
    """Where the value starting at `start` ends, and what stands for it."""
    quote = text[start : start + 1]
    if quote in ("'", '"'):
        close = text.find(quote, start + 1)
        if close != -1 and "\n" not in text[start:close]:
            return close + 1, f"{quote}{MASK}{quote}"
        start += 1  # never closed: masked to where an unquoted one ends
    else:
        quote = ""
    found = _VALUE_END.search(text, start)
    end = len(text) if found is None else found.start()
    while end > start and text[end - 1] == ")":
        end -= 1
    return end, f"{quote}{MASK}"


def redact_url(url: str) -> str:
    """The URL (absolute or relative) with a password in its authority and credential query
    values masked; everything else is kept as written.

    >>> redact_url("https://user:pw@host/p?token=abc&page=2")
    'https://user:**********@host/p?token=**********&page=2'
    """

    def mask(match: re.Match[str]) -> str:
        scheme, userinfo = match.groups()
        user, colon, _ = userinfo.partition(":")
        return f"{scheme}{user}:{MASK}@" if colon else match.group(0)

    return redact_query(_USERINFO.sub(mask, url, count=1))


_HEADER_NAMES = "|".join(re.escape(name) for name in sorted(SECRET_HEADERS, key=len)[::-1])
_HEADER_VALUE = re.compile(
    rf"""((?<![\w-])["']?(?:{_HEADER_NAMES})["']?[ \t]*:[ \t]*["']?)"""  # `Authorization: `
    r"""((?:(?:bearer|basic|digest|token|negotiate|ntlm|apikey)[ \t]+)?"""  # a scheme
    r"""[^\s"'<>,;]+(?:;[ \t]*[^\s"'<>,;]+)*)""",  # the credential, cookies `a=1; b=2`
    re.IGNORECASE,
)
"""A secret header's value as a server may echo it: `Authorization: Bearer X`, `"Cookie":
"a=1; b=2"`."""
_QUOTED_MEMBER = re.compile(
    r"""(["'])([^"'\\\n]{1,200})\1([ \t]*:[ \t]*)(["'])((?:(?!\4)[^\\\n]|\\.)*)\4"""
)
"""A JSON (or Python repr) member written as text: `"password": "x"`, `'token': 'x'`."""
_HINTS = ("pass", "pwd", "secret", "token", "auth", "key", "credential", "sig", "session",
          "cookie", "bearer")  # fmt: skip
"""Words every secret name (`is_secret_name`) holds: text without one (most text) has no
quoted member to mask, and skips that expression; text naming no secret header skips the
other."""


_PRIVATE_KEY = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END \1-----|\Z)",
    re.DOTALL,
)
"""A private key in PEM armour (PKCS#8, RSA, EC, OpenSSH, PGP), up to its end line or the
end of the text (a key cut short): its body is a secret whatever field holds it."""


_BARE_USERINFO = re.compile(r"(?<![\w.%+:/@-])(//)?([\w.%+-]+):([^\s/:\"'<>]+)@(?=[\w-])")
"""A password in an authority with no scheme before it: `//svc:pw@host/in` (relative to the
page's scheme), `sftpuser:pw@sftp.example` (an SFTP host as written), up to its last `@`
(`u:p@ss@host`); not `mailto:a@b`, not a time (`10:30@home`)."""
_NOT_A_USER = frozenset({"mailto", "xmpp", "sip", "im"})
_CREDENTIAL = r"""(?:(?:bearer|basic|digest|token|negotiate|ntlm|apikey)[ \t]+)?[^\s"'<>,;]+"""
"""A credential written as text: a word, after the scheme that says how to read it."""
_NAMED_VALUE = re.compile(
    r"""(?<![\w.\-"'])([A-Za-z][\w.\-]{0,60}[ \t]*:[ \t]*)"""  # `password: `
    r"""(?![\w.\-]+:(?:[ \t]|$))"""  # not a name itself: `Caused by: token: x`
    rf"""("[^"\n]*"|'[^'\n]*'|{_CREDENTIAL})""",
    re.IGNORECASE,
)
"""A value after a secret's name and a colon, unquoted as YAML or a log line writes it
(`password: x`, `token: Bearer x`), or quoted (`secret: "x"`); not a word of prose
(`no usable token: the body ...`, `Invalid token: expired`)."""
_PROSE = frozenset(
    "a an the no not none is was are be been has have had must should will can could "
    "missing expired invalid required empty unset set given provided needed null undefined "
    "see for from in of on to and or with without".split()
)
"""Words that follow a secret's name and a colon in a sentence, never as its value."""
_XML_ELEMENT = re.compile(
    r"<((?:[\w.\-]+:)?([\w.\-]+))(\s[^<>]*)?>"
    r"((?:<!\[CDATA\[(?:[^\]]|\](?!\]>)){0,512}+\]\]>|[^<])++)</\1[ \t]*>"
)
"""An XML element holding text or CDATA: `<wsse:Password Type="...">x</wsse:Password>`
(possessive: a CDATA section is read one way, never tried again from another start)."""
_ATTRIBUTE_PAIR = re.compile(
    r"""(?P<head>\b(?:key|name)[ \t]*=[ \t]*(["'])(?P<name>[^"'\n]{1,200})\2[ \t]+value"""
    r"""[ \t]*=[ \t]*)(?P<value>"[^"\n]*"|'[^'\n]*')""",
    re.IGNORECASE,
)
"""A name/value pair as XML attributes: `<add key="DbPassword" value="x"/>` (.NET)."""
_VALUE_FIRST_PAIR = re.compile(
    r"""(?P<head>\bvalue[ \t]*=[ \t]*)(?P<value>"[^"\n]*"|'[^'\n]*')"""
    r"""(?=[ \t]+(?:key|name)[ \t]*=[ \t]*(["'])(?P<name>[^"'\n]{1,200})\3)""",
    re.IGNORECASE,
)
"""The same, its value first: `<add value="x" key="DbPassword"/>`."""
_SQL_PASSWORD = re.compile(
    r"""(\b(?:(user|role|login)[ \t]+\S+[ \t]+)?identified[ \t]+(?:with[ \t]+\S+[ \t]+)?by"""
    r"""[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s;,]+)""",
    re.IGNORECASE,
)
"""A password in SQL: `CREATE USER u IDENTIFIED BY x`, `alter user u identified by x`,
`... IDENTIFIED WITH p BY 'x'`; not prose (`a field identified by id`)."""
_NUMBER_MEMBER = re.compile(
    r"""(["'])([^"'\\\n]{1,200})\1([ \t]*:[ \t]*)(-?\d[\w.+\-]*)(?=[ \t]*(?:[,}\]\n]|$))"""
)
"""A JSON member holding a number (or a word starting with a digit): `"password": 123456`."""
_A_QUANTITY = re.compile(
    r"(tokens|count|lifetime|ttl|timeout|expiry|expires|expires[-_]?in|days|seconds|minutes|"
    r"hours|age|limit|max|min)$"
)
"""Endings of a secret's name that hold a number about it, not it: `max_tokens`,
`accessTokenLifetime`, `tokenTtl`."""


def redact_text(text: str) -> str:
    """`text` with the rule of `redact_url` applied to every URL inside it, absolute
    (`scheme://user:pw@host/...`) or relative (`/v3/shipments?apikey=...`): a password in an
    authority and every credential query value are masked, the rest is kept as written.
    Credentials a server echoes (an error body quoting a request) are masked too: secret
    headers (`Authorization: Bearer X`), quoted members with a secret's name (`"password":
    "x"`) and form pairs (`client_secret=x&...`). A private key in PEM armour keeps its
    armour lines only."""
    if "PRIVATE KEY-----" in text:
        text = _PRIVATE_KEY.sub(rf"-----BEGIN \1-----{MASK}-----END \1-----", text)
    if "://" in text:
        text = _URL.sub(lambda match: redact_url(match.group(0)), text)
    if ":" in text:  # `Authorization:Bearer x` is a header too: any colon
        lower = text.lower()
        if any(name in lower for name in SECRET_HEADERS):  # else no header to mask
            text = _HEADER_VALUE.sub(lambda match: match.group(1) + MASK, text)
        hinted = any(word in lower for word in _HINTS)
        if hinted and ('"' in text or "'" in text):
            text = _QUOTED_MEMBER.sub(_mask_member, text)
            text = _NUMBER_MEMBER.sub(_mask_number, text)
        if hinted:
            text = _NAMED_VALUE.sub(_mask_named, text)
        if "@" in text:
            text = _BARE_USERINFO.sub(_mask_userinfo, text)
    if "</" in text:
        text = _XML_ELEMENT.sub(_mask_element, text)
    if "identified" in text.lower():
        text = _SQL_PASSWORD.sub(_mask_sql, text)
    if "=" not in text:
        return text
    if "value" in text.lower():
        text = _ATTRIBUTE_PAIR.sub(_mask_attribute, text)
        text = _VALUE_FIRST_PAIR.sub(_mask_attribute, text)
    return redact_query(text)  # relative URLs, forms, and query strings standing alone


def _masked_like(value: str) -> str:
    """`MASK` in the quotes `value` was written in, if any."""
    quote = value[:1] if value[:1] in ("'", '"') and value[-1:] == value[:1] else ""
    return f"{quote}{MASK}{quote}"


def _mask_named(match: re.Match[str]) -> str:
    named, value = match.groups()
    name = named.rstrip(" \t:")
    plain = value.strip("'\"")
    if plain in ("", MASK) or plain.lower() in _PROSE or not is_secret_name(name):
        return match.group(0)
    closing = value[len(value.rstrip(")")) :] if value[:1] not in ("'", '"') else ""
    return named + _masked_like(value) + closing  # `(password: x)` keeps its `)`


def _mask_sql(match: re.Match[str]) -> str:
    keywords, user, value = match.groups()
    sql = user is not None or "IDENTIFIED" in keywords or _masked_like(value) != MASK
    if value == MASK or not sql:
        return match.group(0)  # lower case, unquoted, no user named: prose, not SQL
    return keywords + _masked_like(value)


def _mask_attribute(match: re.Match[str]) -> str:
    """A pair of attributes, its name first or its value (the match ends with the value)."""
    head, name, value = match.group("head", "name", "value")
    if value[1:-1] in ("", MASK) or not is_secret_name(name):
        return match.group(0)
    return head + _masked_like(value)


def _mask_number(match: re.Match[str]) -> str:
    quote, name, colon, _ = match.groups()
    if not is_secret_name(name) or _A_QUANTITY.search(name.lower()):
        return match.group(0)
    return f"{quote}{name}{quote}{colon}{MASK}"


def _mask_userinfo(match: re.Match[str]) -> str:
    slashes, user, password = match.groups()
    if user.lower() in _NOT_A_USER or (user.isdigit() and password.isdigit()):
        return match.group(0)
    return f"{slashes or ''}{user}:{MASK}@"


def _mask_element(match: re.Match[str]) -> str:
    tag, name, attributes, value = match.groups()
    if value.strip() in ("", MASK) or not is_secret_name(name):
        return match.group(0)
    return f"<{tag}{attributes or ''}>{MASK}</{tag}>"


def _mask_member(match: re.Match[str]) -> str:
    quote, name, colon, value_quote, value = match.groups()
    if value in ("", MASK) or not is_secret_name(name):
        return match.group(0)
    return f"{quote}{name}{quote}{colon}{value_quote}{MASK}{value_quote}"
