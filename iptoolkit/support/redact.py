"""Which values are secrets, and how they are masked wherever text might show them.

Shared by the client (its error messages and the httpx/httpcore log filters), the reference
server (its access log), the exporters (URLs inside exported values) and the Explorer (fields in
its detail pane), which must not import each other. One rule, `is_secret_name`, says which names
hold secrets (query parameters, JSON fields, HTTP headers alike), and one `MASK` replaces their
values everywhere. A credential held as a name/value pair (`{"name": "Authorization", "value":
"Bearer X"}`, `{"key": "X-Api-Key", "value": ...}`, `{"paramName": "apikey", "paramValue":
...}`) is one too, however its members are named: `secret_pair_value` says which member to mask.
Text (an error a server sent, a log line, a field's value) loses credential query values after
any separator and in a fragment (`#access_token=`), quoted or not (`password="x"`, a JAAS
config), URL passwords with or without a scheme (`//u:pw@host`, `u:pw@host`), private keys in
PEM armour, the values of secret headers written as `Authorization: Bearer X` or
`"Authorization": "Bearer X"`, of secret names after a colon (`password: x`, YAML's block
scalars `password: |`, a tag or an anchor before one `password: !vault |`, a quoted key starting
a line `"password": x`, a log line, a quoted header `-H 'api-key: x'`; not prose) or in a hash
(`"password" => "x"`), of JSON members (`"password": 1234` too), of XML elements named for a
secret or by a `key`/`name` attribute (`<wsse:Password>`, `<entry key="db.password">`, CDATA
too), of XML name/value pairs (`<name>`/`<value>`), YAML's (a Kubernetes `env` entry's `- name:
DB_PASSWORD` and `value: x`, or its value on the lines below `value:`; not a quantity's number:
`- name: max_tokens` and `value: 1024`), flat mappings' (YAML's flow `{name: DB_PASSWORD, value:
x}`, a JSON object on one line or many) and attribute pairs (`<add key="DbPassword"
value="x"/>`), SQL's `IDENTIFIED BY x`, and a command's (`curl -u user:x`, `-u me@x.com:x`,
`-uuser:x`, `-u :x`, `mysql -px`, `docker login -p x`, `mongosh -p x`, `redis-cli -a x`,
`ldapsearch -w x`, `smbclient -U user%x`, `keytool -storepass x -keypass x`, `--password x`,
`--token x`; only where the command stands, not in prose: `use -p to make folders`;
`redact_lines.py` reads YAML's pairs, `redact_commands.py` commands). A value starting a line,
or on a line of pairs, runs to its end (`Password=correct horse battery`); elsewhere to a
separator; a `&` ends it in a query, else only before the next pair (`Password=P@ss&word!` is
one value, `client_secret=x&grant_type=y` two). A shape is over-masked rather than let through
when text is ambiguous: `Note:joe@example.com` reads as `user:password@host`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .redact_commands import COMMAND_MARK, mask_command_secrets
from .redact_lines import BLOCK_SCALAR, PROSE, block_scalar, mask_mapping_pairs, mask_yaml_pairs
from .redact_tokens import has_token_mark, mask_token_shapes
from .secret_names import (
    MASK,
    PAIR_NAMES,
    PAIR_VALUES,
    SECRET_HEADERS,
    SECRET_PARAMS,
    is_a_quantity,
    is_secret_name,
    names_a_secret,
    not_a_credential,
    secret_pair_value,
)

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
    if item in (None, ""):
        return item
    if (pair and key in PAIR_VALUES) or (is_secret_name(str(key)) and not _about(key, item)):
        return MASK
    return redact_fields(item)


def _about(key: Any, item: Any) -> bool:
    """Whether a secret's field holds a flag or a number about it, not it (`"requireToken":
    true`, `"max_tokens": 1024`): text's rule (`not_a_credential`) asked of the value as
    written; a PIN (`"password": 1234`) is masked."""
    kind = type(item)
    return (kind is bool or kind is int or kind is float) and not_a_credential(str(key), str(item))


_KEY = r"[\w.%+\-\[\]$]"
"""A character of a pair's name (`api%5Fkey`, `X-Amz-Signature`, `a[b]`); any other one
separates pairs (`?`, `&`, `;`, `,`, `#`, `|`, `/`, white space, quotes, brackets)."""
_PAIR_NAME = re.compile(rf"(?<![\w.%+\-\[\]$=])({_KEY}++)(?:=(?!>)|[ \t]*+(?::=|=(?![=>])))[ \t]*+")
"""The name of a pair `name=value` (or `name = value`, INI; `name := value`, Go), after any
character that cannot be part of it (or `=`: the `b` of `a=b=c` names nothing); not `=>`, a
hash's arrow (`_HASH_HEAD`). Blanks after the `=` are skipped: `password= x` hides `x`."""
_QUERY_VALUE_END = re.compile(r"[&#\s\"']")
"""Where a value in a query (its pair after a `?`, a `&` or a `#`) ends: a `&` always."""
_PAIR_AMPERSAND = rf"&(?=[&\s]|\Z|amp;|{_KEY}++=)"
"""A `&` that ends a value outside a query: the next pair's (`client_secret=x&grant_type=y`,
HTML's `&amp;`), a shell's `&&` or `&`; not one inside it (`Password=P@ss&word!`)."""
_VALUE_END = re.compile(rf"{_PAIR_AMPERSAND}|[#\s\"']")
_LINE_VALUE_END = re.compile(
    rf"[\n;|]|{_PAIR_AMPERSAND}|,(?=[ \t])|[\"'](?!\w)|"
    r"(?<![ \t])[ \t]++(?=[\w.%+\-\[\]$]++(?:[ \t]*+=|:(?:[ \t\r\n]|\Z)))"
)
"""Where a value on a line of pairs ends: at the line's end, the `&` of the next pair, a `;`
(a connection string's next pair), a `|` (a table's cell), a comma and a blank, a closing
quote (not `it's`), or the blank before the next pair (`password=a b user=u`); not at a blank
inside it (`=correct horse`)."""
_LINE_HEAD = re.compile(
    r"[ \t]*+(?:(?:#|;|//)[ \t]*+)?(?:\[[^\s\]]{1,40}+\][ \t]++)?"
    r"(?:[^\s=&?#;\"'<>()\[\]{}]++[ \t]++){0,2}+"
)
"""What may stand before the first pair of a line of pairs: a comment's mark (`# `), a
thread (`[main] `), two words at most (`export`, `set`, `Data` of `Data Source=`, a log
line's level), none holding a separator or a bracket: more words are a sentence, whose
`token=abc which ...` keeps all but its value's word."""
_LINE_SEPARATORS = ("", "\n", " ", "\t", ";", ",", '"', "'")
"""What stands before a pair that a line of pairs reads as one of its own."""
_HEAD_REACH = 120
"""How far back a key's line start is looked for (`_key_column`, asked for every key): a key
further from it is read as one inside a line."""
QUERY_ONLY_SECRETS = frozenset({"key"})
"""Names that hold a credential as a query parameter (`?key=`, `&key=`, an API key), and too
often something else elsewhere (`<add key="x" ...>`, `sort key=name`) for `is_secret_name`."""
_QUERY_SEPARATORS = "?&#"
_USERINFO = re.compile(r"(?<![a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]*+://)([^/?#\s\"'<>]*)@")
_URL = re.compile(r"(?<![a-zA-Z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]*+://[^\s\"'<>]+")


def redact_query(text: str) -> str:
    """Mask credential values of query parameters anywhere in `text` (a URL, a log line).

    Pairs start after any separator: `?`, `&`, `;`, a fragment's `#` (`#access_token=`), a
    comma (`env=prod,token=...`), where a form or a word starts (the text's start, white
    space, a quote, a parenthesis: a token endpoint echoing `client_secret=...`), and inside
    another pair's value (`Source=db;Password="x"`). A credential's value is masked whole
    when quoted (`password="a;b"`), else up to the next `&` in a query, the `&` of the next
    pair elsewhere (`Password=P@ss&word!` is one value), `#`, white space or a quote, so a
    `;` or `,` inside it does not let the rest show; the `)` closing a parenthesis it
    ends is kept (`(GET /?loginToken=**********)`), one inside it is masked with it. On a
    line of pairs (`_begins_a_line`: a config line, `export X=`, a connection string) white
    space does not end a value either (`Password=correct horse battery`), the next pair does.
    One pass, left to right: linear in the text, however it nests.

    >>> redact_query('"GET /?loginToken=abc&lang=en HTTP/1.1"')
    '"GET /?loginToken=**********&lang=en HTTP/1.1"'
    """
    pieces: list[str] = []
    done = position = 0
    line_end = first = -1  # the end of the line of the last pair seen, and its first pair
    pairs_line: bool | None = None  # whether that line is a line of pairs, once asked
    while (match := _PAIR_NAME.search(text, position)) is not None:
        start = position = match.end()
        if match.start() > line_end:  # a line's first pair: one look at each line
            found = text.find("\n", start)
            line_end, first, pairs_line = len(text) if found == -1 else found, match.start(), None
        if not _names_a_credential(text, match):
            continue  # its value may hold pairs: `a=1;token=x`, `p;a=1?token=x`
        before = text[match.start() - 1 : match.start()]
        line = before in _LINE_SEPARATORS
        if line and pairs_line is None:
            pairs_line = _begins_a_line(text, first)
        if line and pairs_line:
            ends = _LINE_VALUE_END
        else:
            ends = _QUERY_VALUE_END if before and before in _QUERY_SEPARATORS else _VALUE_END
        end, masked = _credential_value(text, start, ends)
        pieces += (text[done:start], masked)
        done = position = end
    return "".join(pieces) + text[done:] if pieces else text


def _begins_a_line(text: str, at: int) -> bool:
    """Whether the pair at `at` begins a line of pairs: only words (`_LINE_HEAD`) stand
    before it on its line, or a quote opens it (`"Server=db;Password=a b"`). Its value, and
    those of the pairs after it on that line that a `;`, a `,`, a quote or white space
    separates, run over blanks (`_LINE_VALUE_END`). Asked once a line: read to its start."""
    if at == 0 or text[at - 1] in ("\n", '"', "'"):
        return True
    return _LINE_HEAD.fullmatch(text, text.rfind("\n", 0, at) + 1, at) is not None


def _names_a_credential(text: str, match: re.Match[str]) -> bool:
    key = match.group(1)
    if is_secret_name(key):
        return True
    before = text[match.start() - 1 : match.start()]
    return before != "" and before in _QUERY_SEPARATORS and key.lower() in QUERY_ONLY_SECRETS


def _credential_value(text: str, start: int, ends: re.Pattern[str]) -> tuple[int, str]:
    """Where the value starting at `start` ends, and what stands for it; `ends`: where an
    unquoted one ends, in a query (`_QUERY_VALUE_END`), on a line of pairs (over blanks,
    `_LINE_VALUE_END`), or elsewhere (`_VALUE_END`)."""
    quote = text[start : start + 1]
    if quote in ("'", '"'):
        close = text.find(quote, start + 1)
        if close != -1 and "\n" not in text[start:close]:
            return close + 1, f"{quote}{MASK}{quote}"
        start += 1  # never closed: masked to where an unquoted one ends
    else:
        quote = ""
    found = ends.search(text, start)
    end = len(text) if found is None else found.start()
    while end > start and text[end - 1] in ") \t\r":
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
_NAMED = re.compile(
    r"""(?P<head>(?<![\w.\-"'])(?P<open>["']?+)(?P<name>[A-Za-z][\w.\-]{0,60})"""
    r"""(?P<close>["']?+)[ \t]*+:(?!=)[ \t]*+)"""  # `password: `, `"password": `, `'api-key: `
    r"""(?![\w.\-]+:(?:[ \t]|$))"""  # not a name itself: `Caused by: token: x`
    r"""(?:(?P<quoted>"(?:[^"\\\n]|\\.)*+"|'(?:[^'\n]|'')*+')"""  # `"a\"b"`, `'it''s'`
    r"""|(?P<quote>["']?+)(?P<first>[^\s"'<>,;]{0,24}+))"""
)
"""A secret's name and a colon (not `:=`), its value after it as YAML or a log line writes
it (`password: x`, `token: Bearer x`), or quoted (`secret: "x"`); `_named_value` says how far
it runs, and whether it is one: its first word (none when it starts with a bracket:
`password: <none>`) may be prose (`no usable token: the body ...`). The name may be quoted
at a line's start (YAML's `"password": x`), or open a quoted header (`-H 'api-key: x'`)."""
_YAML_HEAD = re.compile(r"[ \t]*+(?:-[ \t]++)?")
"""What stands before a YAML mapping's key on its line: indentation, a sequence's dash."""
_YAML_VALUE_END = re.compile(r"\n|(?<![ \t])[ \t]++(?=[\w.\-]++:(?:[ \t\r\n]|\Z))")
"""Where a value after a key at a line's start ends: the line's end (a YAML plain scalar
holds blanks, commas, quotes), or the blank before the next key (`password: x user: u`)."""
_INLINE_VALUE_END = re.compile(
    r"""[\n,;"'<]|[)\]}](?![^\s,;.])|"""
    r"""(?<![ \t])[ \t]++(?=[\w.\-]++(?:[ \t]*+=|:(?:[ \t\r\n]|\Z)))"""
)
"""Where a value after a key inside a line ends: a separator, a quote, a tag, a bracket
closing it (`(password: x)`, `{secret: x}`; not `a)b`), the blank before the next pair."""
_HASH_HEAD = re.compile(
    r"""(?<![\w.\-$])(?:(?P<quote>["'])(?P<quoted>[A-Za-z_][\w.\-]{0,60}+)(?P=quote)"""
    r"""[ \t]*+(?:=>|=(?![=>]))|(?P<name>[A-Za-z_][\w.\-]{0,60}+)[ \t]*+=>)[ \t]*+"""
)
"""A hash's name and arrow: `"password" => ` (PHP, Perl, Ruby), `:password => `, or a quoted
name and `=` (`"password" = `, TOML, Lua); a bare name and `=` is `redact_query`'s."""
_HASH_QUOTED = re.compile(r""""(?:[^"\\\n]|\\.)*+"|'(?:[^'\\\n]|\\.)*+'""")
_HASH_BARE_END = re.compile(r"""[\s"',;()\[\]{}]""")
_XML_ELEMENT = re.compile(
    r"<((?:[\w.\-]+:)?([\w.\-]+))(\s[^<>]*)?>"
    r"((?:<!\[CDATA\[(?:[^\]]|\](?!\]>)){0,512}+\]\]>|[^<])++)</\1[ \t]*>"
)
"""An XML element holding text or CDATA: `<wsse:Password Type="...">x</wsse:Password>`, or
`<entry key="db.password">x</entry>` (possessive: a CDATA section is read one way, never
tried again from another start)."""
_NAME_ATTRIBUTE = re.compile(
    r"""(?<![\w.:\-])(?:key|name)[ \t]*=[ \t]*(["'])([^"'\n]{1,200}+)\1""", re.IGNORECASE
)
"""The attribute naming what an element holds: `key="db.password"`, `name="ApiKey"`."""
_XML_PAIR = re.compile(
    r"(?P<head><(?P<tag>(?:[\w.\-]+:)?(?P<local>[\w.\-]*(?:name|key)))(?:\s[^<>]*+)?>"
    r"[ \t\r\n]*+(?P<name>[^<]{1,200}+)</(?P=tag)[ \t]*>"  # `<name>db.password</name>`
    r"|<[\w.\-:]+(?P<attributes>\s[^<>]*+)(?<!/)>)"  # or `<setting name="ApiKey" ...>`
    r"(?P<gap>\s*+<(?P<value_tag>(?:[\w.\-]+:)?(?P<value_local>[\w.\-]*values?))"
    r"(?:\s[^<>]*+)?>)"
    r"(?P<value>(?:<!\[CDATA\[(?:[^\]]|\](?!\]>)){0,512}+\]\]>|[^<])++)</(?P=value_tag)[ \t]*>",
    re.IGNORECASE,
)
"""A name/value pair as XML elements, masked by the rule of JSON's (`PAIR_NAMES`): Hadoop's
and Java's `<property><name>db.password</name><value>x</value></property>`, `<key>`,
`<param-name>`; .NET's `<setting name="ApiKey"><value>x</value></setting>`."""
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


def redact_text(text: str) -> str:
    """`text` with the rule of `redact_url` applied to every URL inside it, absolute
    (`scheme://user:pw@host/...`) or relative (`/v3/shipments?apikey=...`): a password in an
    authority and every credential query value are masked, the rest is kept as written.
    Credentials a server echoes (an error body quoting a request) are masked too: secret
    headers (`Authorization: Bearer X`), quoted members with a secret's name (`"password":
    "x"`) and form pairs (`client_secret=x&...`). A private key in PEM armour keeps its
    armour lines only. Config text too: a YAML block scalar's lines, XML, YAML and flat
    mappings' name/value pairs, a hash's `"password" => "x"`, a whole line's value
    (`Password=correct horse battery`); and a command line's credentials (`curl -u user:pw`,
    `--password pw`); credentials of a token's shape, named or not (`redact_tokens`)."""
    if "PRIVATE KEY" in text:  # `... PRIVATE KEY-----`, PGP's `PRIVATE KEY BLOCK-----`
        text = _PRIVATE_KEY.sub(rf"-----BEGIN \1-----{MASK}-----END \1-----", text)
    if has_token_mark(text):  # a JWT, `Bearer x` in prose, `ghp_...`: no name beside them
        text = mask_token_shapes(text)
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
            text = _mask_named_values(text)
            if "value" in lower and "{" in text:  # `{name: DB_PASSWORD, value: x}`
                text = mask_mapping_pairs(text)
            if "value" in lower and "\n" in text:  # `- name: DB_PASSWORD` / `  value: x`
                text = mask_yaml_pairs(text)
        if "@" in text:
            text = _BARE_USERINFO.sub(_mask_userinfo, text)
    if "-" in text and COMMAND_MARK.search(text):
        text = mask_command_secrets(text)
    if "</" in text:
        text = _XML_ELEMENT.sub(_mask_element, text)
        if "value" in text.lower():
            text = _XML_PAIR.sub(_mask_xml_pair, text)
    if "identified" in text.lower():
        text = _SQL_PASSWORD.sub(_mask_sql, text)
    if "=" not in text:
        return text
    if "value" in text.lower():
        text = _ATTRIBUTE_PAIR.sub(_mask_attribute, text)
        text = _VALUE_FIRST_PAIR.sub(_mask_attribute, text)
    if "=>" in text or '"' in text or "'" in text:
        text = _mask_hashes(text)
    return redact_query(text)  # relative URLs, forms, and query strings standing alone


def _masked_like(value: str) -> str:
    """`MASK` in the quotes `value` was written in, if any."""
    quote = value[:1] if value[:1] in ("'", '"') and value[-1:] == value[:1] else ""
    return f"{quote}{MASK}{quote}"


def _mask_named_values(text: str) -> str:
    """`text` with the value after each secret's name and a colon masked (`_named_value`):
    one pass, left to right, each value read once."""
    pieces: list[str] = []
    done = position = 0
    while (match := _NAMED.search(text, position)) is not None:
        position = match.end("head")  # a value not masked may hold a pair: `a: token:x`
        open_, close = match.group("open", "close")
        if (close and close != open_) or not is_secret_name(match.group("name")):
            continue  # `password": x`, `'password": x` (`'api-key: x'`: a quoted header)
        column = None if open_ and not close else _key_column(text, match.start())
        if close and (column is None or text[position : position + 1] in ("{", "[")):
            continue  # `{"password": x}` is JSON's (`_QUOTED_MEMBER`), `"secret": {` nests
        if (value := _named_value(text, match, column)) is None:
            continue
        end, masked = value
        pieces += (text[done:position], masked)
        done = position = end
    return "".join(pieces) + text[done:] if pieces else text


def _named_value(text: str, match: re.Match[str], column: int | None) -> tuple[int, str] | None:
    """Where the value after a secret's name and a colon ends, and what stands for it; None
    when none follows (prose: `no usable token: the body ...`; nothing; a mask). Quoted, it
    ends at its quote; after a key starting a line, at the line's end (YAML's plain scalar:
    `password: correct horse battery`), or below it (a block scalar: `password: |`); inside
    a line, at a separator or a bracket closing it (`_INLINE_VALUE_END`). `column`: that of
    a key starting its line (`_key_column`), else None."""
    quoted, quote, first = match.group("quoted", "quote", "first")
    if quoted is not None:
        plain = quoted[1:-1].strip()
        if plain in ("", MASK) or plain.lower() in PROSE:
            return None
        return match.end(), _masked_like(quoted)
    start, value = match.end("head"), match.end("quote")  # a quote never closed: kept
    if column is not None and text[start : start + 1] in ("|", ">", "!", "&"):
        if block := BLOCK_SCALAR.match(text, start):  # `password: !vault |`
            return block_scalar(text, start, block.end(), column)
    if first == "" or first.lower() in PROSE or text.startswith(MASK, value):
        return None
    found = (_INLINE_VALUE_END if column is None else _YAML_VALUE_END).search(text, value)
    end = len(text) if found is None else found.start()
    while end > value and text[end - 1] in " \t\r":
        end -= 1
    if match.group("close") and text[end - 1 : end] == ",":
        end -= 1  # a JSON member's comma, on a line of its own: `"apiKey": true,`
    if not_a_credential(match.group("name"), text[value:end]):
        return None
    return (end, quote + MASK) if end > value else None


def _key_column(text: str, at: int) -> int | None:
    """The column of the key at `at` when it starts its line (after indentation and a
    sequence's `- `, as YAML writes a mapping), else None."""
    if at == 0 or text[at - 1] == "\n":
        return 0
    head = text[max(0, at - _HEAD_REACH) : at]
    _, newline, line = head.rpartition("\n")
    if (not newline and at > _HEAD_REACH) or _YAML_HEAD.fullmatch(line) is None:
        return None
    return len(line)


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
    if not is_secret_name(name) or is_a_quantity(name):
        return match.group(0)
    return f"{quote}{name}{quote}{colon}{MASK}"


def _mask_userinfo(match: re.Match[str]) -> str:
    slashes, user, password = match.groups()
    if user.lower() in _NOT_A_USER or (user.isdigit() and password.isdigit()):
        return match.group(0)
    return f"{slashes or ''}{user}:{MASK}@"


def _mask_element(match: re.Match[str]) -> str:
    """An element named for a secret (`<Password>`), or whose `key`/`name` attribute names
    one (`<entry key="db.password">`, `<add key="ApiKey">`): its text masked."""
    tag, name, attributes, value = match.groups()
    if value.strip() in ("", MASK):
        return match.group(0)
    if not is_secret_name(name) and not _names_a_secret_attribute(attributes or ""):
        return match.group(0)
    return f"<{tag}{attributes or ''}>{MASK}</{tag}>"


def _names_a_secret_attribute(attributes: str) -> bool:
    found = _NAME_ATTRIBUTE.search(attributes)
    return found is not None and is_secret_name(found.group(2))


def _mask_xml_pair(match: re.Match[str]) -> str:
    """A pair of XML elements: the value's text masked when its sibling, or the attribute
    of the element holding it, names a secret, as JSON's pairs are (`secret_pair_value`)."""
    value, local, value_local = match.group("value", "local", "value_local")
    if value.strip() in ("", MASK) or value_local not in PAIR_VALUES:
        return match.group(0)
    if local is None:
        named = _names_a_secret_attribute(match.group("attributes"))
    else:
        named = local in PAIR_NAMES and is_secret_name(match.group("name").strip())
    if not named:
        return match.group(0)
    head, gap, tag = match.group("head", "gap", "value_tag")
    return f"{head}{gap}{MASK}</{tag}>"


def _mask_hashes(text: str) -> str:
    """`text` with the value of each hash's pair naming a secret masked (`_HASH_HEAD`): a
    quoted one, or a word that is not a call (`=> env('X')`). One pass: a word found to be
    a call is skipped whole, not read again from each `x=>` inside it."""
    pieces: list[str] = []
    done = position = 0
    unclosed = {"'": -1, '"': -1}  # a quote known not to close before this (its line's end)
    while (match := _HASH_HEAD.search(text, position)) is not None:
        start = position = match.end()
        if not is_secret_name(match.group("quoted") or match.group("name")):
            continue
        quote = text[start : start + 1]
        if quote in unclosed:
            value = _HASH_QUOTED.match(text, start) if start >= unclosed[quote] else None
            if value is None:  # never closed on its line: nor from a later start on it
                line_end = text.find("\n", start)
                unclosed[quote] = len(text) if line_end == -1 else line_end
                continue
            end = value.end()
        else:
            found = _HASH_BARE_END.search(text, start)
            end = len(text) if found is None else found.start()
            if text[end : end + 1] in ("(", "["):
                position = max(end, start)  # a call: none of its words is a value
                continue
        if text[start:end].strip("'\"") in ("", MASK):
            continue
        pieces += (text[done:start], _masked_like(text[start:end]))
        done = position = end
    return "".join(pieces) + text[done:] if pieces else text


def _mask_member(match: re.Match[str]) -> str:
    quote, name, colon, value_quote, value = match.groups()
    if value in ("", MASK) or not is_secret_name(name):
        return match.group(0)
    return f"{quote}{name}{quote}{colon}{value_quote}{MASK}{value_quote}"
