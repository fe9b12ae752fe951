"""The web UI of the reference server: one login page, plain HTML, no scripts.

The page loads nothing from elsewhere, and its headers forbid framing, scripts and
referrers to other sites (a guest link carries its login token in the address). The
referrer policy is `same-origin`, not `no-referrer`: under `no-referrer` a browser sends
`Origin: null` with the page's own form post (the Fetch standard's rule), which the
login-CSRF check must refuse, since another site can send `null` as well.
"""

from __future__ import annotations

from html import escape

from .principals import Identity

__all__ = ["PAGE_HEADERS", "login_page"]

PAGE_HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; color: #222; }
h1 { font-size: 1.3rem; }
label { display: block; margin: .8rem 0 .2rem; }
input { width: 100%; padding: .4rem; box-sizing: border-box; }
button { margin-top: 1rem; padding: .5rem 1.2rem; }
.error { color: #a00; } .hint { color: #555; font-size: .9rem; } code { font-size: .9rem; }
"""


def login_page(identity: Identity | None = None, *, error: str | None = None) -> str:
    """The login form, or who is signed in and how to get a bearer token."""
    if identity is not None:
        body = (
            f"<p>Signed in as <strong>{escape(identity.name)}</strong> "
            f"({escape(identity.kind)}).</p>"
            '<p>Your bearer token: <a href="/auth/sessionBearerToken">'
            "<code>GET /auth/sessionBearerToken</code></a>. Send it as "
            "<code>Authorization: Bearer &lt;token&gt;</code> to "
            "<code>/api/preview/profiles</code>.</p>"
        )
    else:
        problem = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
        body = (
            f"{problem}"
            '<form method="post" action="/">'
            '<label for="username">User name</label>'
            '<input id="username" name="username" autocomplete="username" required autofocus>'
            '<label for="password">Password</label>'
            '<input id="password" name="password" type="password" '
            'autocomplete="current-password" required>'
            '<button type="submit">Sign in</button></form>'
            '<p class="hint">Guests open their link, <code>/?loginToken=&lt;token&gt;</code>. '
            "API clients use <code>POST /dw/register/oauth/token</code>; the API is "
            'described at <a href="/openapi.json">/openapi.json</a>.</p>'
        )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Integration platform: sign in</title><style>{_STYLE}</style></head>"
        f"<body><h1>Integration platform (iptoolkit reference server)</h1>{body}</body></html>"
    )
