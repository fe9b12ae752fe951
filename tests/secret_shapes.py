"""Credentials in every shape a profile may hold them (issue 44), and an estate planting each.

`SHAPES` are the shapes: a field named for a secret, a name/value pair whose name member
names one (however its members are named), a PEM block, a URL with a password, credential
query values after any separator (`?`, `&`, `;`, `,`, a fragment's `#`), a header or a JSON
member written as text. Each is a function of the secret it holds, which no output may
show. `ORDINARY` are fields that only look like secrets (`tokenizer`, `keyboardLayout`, a
name holding "key"), whose values every output must keep (`ORDINARY_SHOWN` marks them).

`secret_estate(side)` plants every shape in its own profile, three times (the profile, its
input agent, its channel's partner), with secrets of its side (`"a"` or `"b"`): two sides
differ in exactly those values, so that a comparison reports each as a change; and one
profile, `ORDINARY`, holding `ORDINARY` in its input agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from iptoolkit.core.estate import Estate

from .factories import agent, channel, partner, profile, unit

__all__ = ["SHAPES", "ORDINARY", "ORDINARY_SHOWN", "Shape", "secret", "secrets", "secret_estate"]


class Shape(NamedTuple):
    name: str
    fields: Callable[[str], dict[str, Any]]
    """The fields holding the secret given, to merge into an object."""
    missed: bool
    """Whether the masking missed it before issue 44."""


def _pem(value: str) -> str:
    return (
        f"-----BEGIN PRIVATE KEY-----\nMIIEv{value}\nQIBADAN{value}==\n-----END PRIVATE KEY-----\n"
    )


SHAPES = [
    # fields named for a secret
    Shape("password", lambda s: {"password": s}, False),
    Shape("clientSecret", lambda s: {"clientSecret": s}, False),
    Shape("apiKey", lambda s: {"apiKey": s}, False),
    Shape("loginToken", lambda s: {"loginToken": s}, False),
    Shape("accessToken", lambda s: {"accessToken": s}, False),
    Shape("privateKey", lambda s: {"privateKey": s}, False),
    Shape("passphrase", lambda s: {"keyPassphrase": s}, False),
    Shape("credentials", lambda s: {"credentials": s}, False),
    Shape("smtpPassword", lambda s: {"smtpPassword": s}, False),
    Shape("sessionId", lambda s: {"sessionid": s}, False),
    Shape("headers map", lambda s: {"headers": {"Authorization": f"Bearer {s}"}}, False),
    Shape("authHeader", lambda s: {"authHeader": f"Basic {s}"}, True),
    Shape("privateKeyPem", lambda s: {"privateKeyPem": _pem(s)}, True),
    Shape("sharedAccessKey", lambda s: {"sharedAccessKey": s}, True),
    Shape("encryptionKey", lambda s: {"encryptionKey": s}, True),
    Shape("accessKey", lambda s: {"accessKey": s}, True),
    Shape("bearer", lambda s: {"bearer": s}, True),
    # name/value pairs
    Shape(
        "name/value",
        lambda s: {"headers": [{"name": "Authorization", "value": f"Bearer {s}"}]},
        False,
    ),
    Shape("key/value", lambda s: {"headers": [{"key": "X-Api-Key", "value": s}]}, False),
    Shape("Name/Value", lambda s: {"params": [{"Name": "client_secret", "Value": s}]}, False),
    Shape(
        "header/value", lambda s: {"headers": [{"header": "Cookie", "value": f"sid={s}"}]}, False
    ),
    Shape("property/value", lambda s: {"properties": [{"property": "password", "value": s}]}, True),
    Shape(
        "paramName/paramValue",
        lambda s: {"params": [{"paramName": "apikey", "paramValue": s}]},
        True,
    ),
    Shape(
        "headerName/headerValue",
        lambda s: {"headers": [{"headerName": "Authorization", "headerValue": f"Bearer {s}"}]},
        True,
    ),
    Shape("variable/value", lambda s: {"env": [{"variable": "DB_PASSWORD", "value": s}]}, True),
    # secrets in text
    Shape("URL password", lambda s: {"url": f"https://svc:{s}@edi.example/in"}, False),
    Shape("query token", lambda s: {"url": f"https://edi.example/in?token={s}&n=1"}, False),
    Shape("relative URL", lambda s: {"uri": f"/v3/shipments?apikey={s}&page=2"}, False),
    Shape("matrix sig", lambda s: {"uri": f"/hook;sig={s}"}, False),
    Shape("form", lambda s: {"body": f"client_secret={s}&grant_type=client_credentials"}, False),
    Shape("header text", lambda s: {"note": f"send Authorization: Bearer {s} first"}, False),
    Shape("cookie text", lambda s: {"note": f"Cookie: sid={s}"}, False),
    Shape("JSON text", lambda s: {"template": f'{{"password": "{s}", "user": "u"}}'}, False),
    Shape("access_token query", lambda s: {"url": f"https://h.example/?access_token={s}"}, False),
    Shape(
        "fragment token",
        lambda s: {"url": f"https://app.example/cb#access_token={s}&token_type=bearer"},
        True,
    ),
    Shape("token after a comma", lambda s: {"tags": f"env=prod,token={s}"}, True),
    Shape(
        "Azure SharedAccessKey",
        lambda s: {
            "connection": "Endpoint=sb://ns.servicebus.windows.net/;"
            f"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}"
        },
        True,
    ),
    Shape(
        "S3 X-Amz-Signature",
        lambda s: {
            "url": "https://b.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            f"&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={s}"
        },
        True,
    ),
    Shape(
        "Azure AccountKey",
        lambda s: {
            "connection": "DefaultEndpointsProtocol=https;AccountName=acct;"
            f"AccountKey={s};EndpointSuffix=core.windows.net"
        },
        True,
    ),
    Shape("PEM anywhere", lambda s: {"material": _pem(s)}, True),
    # missed until the audit of 2026-12-05
    Shape(
        "JAAS quoted",
        lambda s: {"saslJaasConfig": f'PlainLoginModule required username="u" password="{s}";'},
        True,
    ),
    Shape("protocol-relative URL", lambda s: {"url": f"//svc:{s}@proto.example/in"}, True),
    Shape("SFTP user:pw@host", lambda s: {"host": f"sftpuser:{s}@sftp.example"}, True),
    Shape("?key= API key", lambda s: {"url": f"https://maps.example/api?key={s}&q=1"}, True),
    Shape("subscription key header", lambda s: {"headers": {"Ocp-Apim-Subscription-Key": s}}, True),
    Shape(
        "WS-Security password",
        lambda s: {"soapData": f'<wsse:Password Type="PasswordText">{s}</wsse:Password>'},
        True,
    ),
    Shape("YAML password", lambda s: {"body": f"user: u\npassword: {s}\n"}, True),
    Shape("SQL IDENTIFIED BY", lambda s: {"sql": f"CREATE USER u IDENTIFIED BY {s};"}, True),
    # missed until config text was read (2026-12-06): the secret where the old rules
    # stopped short of it (a second word, a block's line, a pair's other element)
    Shape(
        "Hadoop property",
        lambda s: {"config": f"<property>\n  <name>db.password</name>\n  <value>{s}</value>"},
        True,
    ),
    Shape(
        ".NET setting",
        lambda s: {"config": f'<setting name="ApiKey" serializeAs="String">\n<value>{s}</value>'},
        True,
    ),
    Shape(
        "Java properties entry", lambda s: {"config": f'<entry key="db.password">{s}</entry>'}, True
    ),
    Shape("words after =", lambda s: {"env": f"Password=correct {s} battery"}, True),
    Shape("words after :", lambda s: {"body": f"user: u\npassword: correct {s}\n"}, True),
    Shape(
        "YAML block scalar", lambda s: {"body": f"client_secret: |\n  abc\n  {s}\nuser: u"}, True
    ),
    Shape("PHP array", lambda s: {"php": f"['user' => 'u', 'password' => '{s}']"}, True),
    Shape("Go :=", lambda s: {"code": f'password := "{s}"'}, True),
    # missed until commands' flags were read by the command (2026-12-06)
    Shape("curl -u address", lambda s: {"cmd": f"curl -u me@corp.example:{s} https://x"}, True),
    Shape("mongosh -p", lambda s: {"cmd": f"mongosh -u admin -p {s} db.example"}, True),
    Shape("redis-cli -a", lambda s: {"cmd": f"redis-cli -h cache -a {s} ping"}, True),
    Shape("ldapsearch -w", lambda s: {"cmd": f"ldapsearch -x -w {s} -D cn=admin"}, True),
    Shape("smbclient -U user%", lambda s: {"cmd": f"smbclient //h/s -U alice%{s}"}, True),
    Shape("keytool -storepass", lambda s: {"cmd": f"keytool -list -storepass {s} -v"}, True),
    # missed until flat mappings and values below their key were read (2026-12-06)
    Shape("YAML flow pair", lambda s: {"env": f"[{{name: DB_PASSWORD, value: {s}}}]"}, True),
    Shape("YAML value below", lambda s: {"env": f"- name: DB_PASSWORD\n  value:\n    {s}\n"}, True),
    Shape(
        "JSON pair, pretty",
        lambda s: {"body": f'{{\n  "name": "DB_PASSWORD",\n  "value": "{s}"\n}}'},
        True,
    ),
    Shape("& inside a value", lambda s: {"env": f"Password=P@ss&{s}!"}, True),
    # missed until tokens were told by their own shape (2026-12-06): no name beside them
    Shape("Bearer in prose", lambda s: {"note": f"call it with Bearer {s} each time"}, True),
    Shape("JWT alone", lambda s: {"note": f"use eyJhbGciOiJIUzI1NiJ9.eyJzdWIi{s}.c2ln"}, True),
    Shape("Slack token", lambda s: {"note": f"post as xoxb-1234-{s}"}, True),
]

ORDINARY = {
    "tokenizer": "whitespace-tokenizer-7",
    "keyboardLayout": "de-ch-nodeadkeys",
    "privateKeyId": "key-ref-3141",
    "tokenType": "bearer-type-2718",
    "sharedAccessKeyName": "RootManage-visible",
    "accessKeyId": "AKIAEXAMPLEID0001",
    "encryptionKeyLength": "key-length-256",
    "tokenEndpoint": "https://login.example/oauth2/token-visible",
    "description": "Monkey business: the turkey key account, sorted by value",
    "certificate": (
        "-----BEGIN CERTIFICATE-----\nMIIcertificate-body-visible\n-----END CERTIFICATE-----"
    ),
    "pairs": [
        {"name": "Accept", "value": "application/json-visible"},
        {"name": "Keyboard key map", "value": "pair-value-visible"},
        {"property": "timeout", "value": "property-value-visible"},
    ],
    "url": "https://edi.example/in?page=2&lang=en-visible,sort=name-visible#section-visible",
    "contact": "mailto:ops-visible@example.com; tokenType: bearer-colon-visible",
    "keyName": "key-name-visible",
    "hadoop": "<property><name>timeout</name><value>xml-pair-visible</value></property>",
    "yamlText": "description: |\n  yaml-block-visible\nnote: no token: the body-visible\n",
    "shellLine": "export LOG_LEVEL=debug shell-line-visible",
    "secretsManager": "aws-secrets-manager-visible",
    "modelEnv": "- name: max_tokens\n  value: 4096\n- name: model\n  value: model-env-visible\n",
    "mysqlNote": "the mysql client reads its password from its config-visible",
    "authNote": "uses Bearer authentication-visible, or Basic auth-visible",
}
"""Fields that only look like secrets, each value one an output must keep as it is."""
ORDINARY_SHOWN = [
    "whitespace-tokenizer-7", "de-ch-nodeadkeys", "key-ref-3141", "bearer-type-2718",
    "RootManage-visible", "AKIAEXAMPLEID0001", "key-length-256", "token-visible",
    "Monkey business", "MIIcertificate-body-visible", "application/json-visible",
    "pair-value-visible", "property-value-visible", "lang=en-visible", "sort=name-visible",
    "section-visible", "ops-visible@example.com", "bearer-colon-visible", "key-name-visible",
    "xml-pair-visible", "yaml-block-visible", "the body-visible", "shell-line-visible",
    "aws-secrets-manager-visible", "value: 4096", "model-env-visible",
    "reads its password from its config-visible", "Bearer authentication-visible",
    "Basic auth-visible",
]  # fmt: skip
"""What of `ORDINARY` an output shows (a marker in each value), to look for in it."""


def secret(n: int, side: str = "a") -> str:
    """Shape `n`'s secret on one side: letters and digits only, so that no separator cuts
    it and a masked value cannot leave a part of it."""
    return f"Qz{n:02d}{side}S3cr3tV4lu3"


def secrets(side: str = "a") -> list[str]:
    return [secret(n, side) for n in range(len(SHAPES))]


def secret_estate(side: str = "a") -> Estate:
    """A profile per shape (`S-00`, ...) holding it in itself, its input agent and the
    partner of the channel it listens on; and one profile holding `ORDINARY`."""
    raws: list[dict[str, Any]] = []
    for n, shape in enumerate(SHAPES):
        fields = shape.fields
        owner = {**partner(700 + n, f"Partner of shape {n:02d}"), **fields(secret(n, side))}
        ch = channel(7000 + n, "HTTP", partner=owner, name=f"Channel of shape {n:02d}")
        raws.append(
            profile(
                f"S-{n:02d}",
                name=f"Shape {shape.name}",
                group="Secrets",
                agent=agent("Http", channels=[ch], **fields(secret(n, side))),
                units=[unit("Ftp", channel=channel(7900, "SFTP", partner=partner(799, "Sink")))],
                **fields(secret(n, side)),
            )
        )
    raws.append(
        profile(
            "ORDINARY",
            name="Turkey key account feed",  # a name holding "key"
            group="Secrets",
            agent=agent("Http", **ORDINARY),
            units=[unit("Ftp", channel=channel(7900, "SFTP", partner=partner(799, "Sink")))],
        )
    )
    return Estate.from_raw(raws)
