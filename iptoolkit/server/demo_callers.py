"""Principals for a demo: one of each kind of caller, with secrets new on every call.

`iptoolkit serve` and `iptoolkit demo` without `--principals`, and `running()` without
principals, use them; the credentials go to whoever runs the demo, never into a log.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass, field

from .principals import PROFILES_VIEW, Principals

__all__ = ["DemoCredentials", "demo_principals"]


@dataclass(frozen=True)
class DemoCredentials:
    """The credentials of demo principals; `repr` leaves every secret out."""

    client_id: str
    client_secret: str = field(repr=False)
    username: str
    password: str = field(repr=False)
    guest_token: str = field(repr=False)
    denied_client_id: str
    """An API client whose role lacks `profiles:view`: the listing answers 403."""
    denied_client_secret: str = field(repr=False)
    guest_groups: tuple[str, ...] = ("Finance", "Finance/*")


def demo_principals() -> tuple[Principals, DemoCredentials]:
    """Principals for a demo, with secrets that are new on every call.

    One API client sees every group, one UI user sees every group, one guest sees the
    `Finance` groups, and one API client lacks `profiles:view` (to show a 403).
    """
    creds = DemoCredentials(
        client_id="demo-client",
        client_secret=secrets.token_urlsafe(24),
        username="demo",
        password=secrets.token_urlsafe(12),
        guest_token=str(uuid.UUID(bytes=secrets.token_bytes(16), version=4)).upper(),
        denied_client_id="demo-no-access",
        denied_client_secret=secrets.token_urlsafe(24),
    )
    principals = Principals.model_validate(
        {
            "roles": {
                "all": {"permissions": [PROFILES_VIEW], "groups": ["*"]},
                "finance": {"permissions": [PROFILES_VIEW], "groups": list(creds.guest_groups)},
                "no-access": {"permissions": [], "groups": ["*"]},
            },
            "clients": [
                {
                    "client_id": creds.client_id,
                    "client_secret": creds.client_secret,
                    "roles": ["all"],
                },
                {
                    "client_id": creds.denied_client_id,
                    "client_secret": creds.denied_client_secret,
                    "roles": ["no-access"],
                },
            ],
            "users": [{"username": creds.username, "password": creds.password, "roles": ["all"]}],
            "guests": [
                {"login_token": creds.guest_token, "name": "demo-guest", "roles": ["finance"]}
            ],
        }
    )
    return principals, creds
