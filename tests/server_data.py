"""Shared data for the reference-server tests: raw profiles and principals with known secrets."""

from __future__ import annotations

from typing import Any

import httpx

from iptoolkit.server import Principals, hash_secret
from iptoolkit.server.app import TOKEN_PATH

__all__ = ["PROFILES", "SECRETS", "make_principals", "ids", "request_token"]

PROFILES: list[Any] = [
    {"class": "core:IntegrationProfile", "id": "P1", "name": "Invoices in", "group": "Finance"},
    {
        "class": "core:IntegrationProfile",
        "id": "P2",
        "group": "Finance/AP",
        "active": True,
        "description": "Grüße, 請求書 \u2028 and a tab\t",
        "inputAgentSettings": {
            "class": "core:SFTPAgentSettings",
            "typeName": "SFTP",
            "channels": [{"class": "core:IntegrationPartnerChannelSFTP", "id": 9007199254740993}],
        },
    },
    {"class": "core:IntegrationProfile", "id": "P3", "group": "FinanceX"},
    {"class": "core:IntegrationProfile", "id": "P4", "group": "Logistics/EDI/Inbound"},
    {"class": "core:IntegrationProfile", "id": "P5"},  # no group: only `*` sees it
    {"class": "core:IntegrationProfile", "id": "P6", "group": None, "unknownField": [1, 2.5]},
    {"class": "core:IntegrationProfile", "id": "P7", "group": "Finance", "created": "yesterday"},
    {"class": "core:IntegrationProfile", "id": "P8", "group": "Finance/AR", "lastModified": 2**70},
]
"""P7 breaks the spec's types and P8 holds an integer beyond 64 bits: served all the same."""

SECRETS: dict[str, str] = {
    "analytics": "analytics-secret-6f1c9b",
    "hashed": "hashed-secret-21d7e0",
    "auditor": "auditor-secret-93ab44",
    "lena": "lena-password-5c0e2a",
    "guest": "7264E89B-0C5E-4D7A-9D11-55B6F0E4A7C3",
    "hashed-guest": "GUEST-HASHED-0b6d11",
}


def make_principals() -> Principals:
    """All flows; the `hashed` client and the second guest use hashed secrets."""
    return Principals.model_validate(
        {
            "roles": {
                "all": {"permissions": ["profiles:view"], "groups": ["*"]},
                "fin": {"permissions": ["profiles:view"], "groups": ["Finance", "Finance/*"]},
                "fin-star": {"permissions": ["profiles:view"], "groups": ["Finance*"]},
                "edi": {"permissions": ["profiles:view"], "groups": ["Logistics/EDI/*"]},
                "audit": {"permissions": ["audit:read"], "groups": ["*"]},
            },
            "clients": [
                {"client_id": "analytics", "client_secret": SECRETS["analytics"], "roles": ["all"]},
                {
                    "client_id": "hashed",
                    "client_secret": hash_secret(SECRETS["hashed"], iterations=1000),
                    "roles": ["fin-star"],
                },
                {"client_id": "auditor", "client_secret": SECRETS["auditor"], "roles": ["audit"]},
            ],
            "users": [{"username": "lena", "password": SECRETS["lena"], "roles": ["fin", "edi"]}],
            "guests": [
                {"login_token": SECRETS["guest"], "roles": ["fin"]},
                {
                    "login_token": hash_secret(
                        SECRETS["hashed-guest"], iterations=1000, lookup=True
                    ),
                    "name": "visitor",
                    "roles": ["edi"],
                },
            ],
        }
    )


def ids(profiles: list[Any]) -> list[Any]:
    return [profile.get("id") for profile in profiles]


def request_token(http: httpx.Client, client_id: str, secret: str | None = None) -> httpx.Response:
    """POST the client-credentials form to the token endpoint; the secret defaults to the
    client's own in SECRETS."""
    return http.post(
        TOKEN_PATH,
        data={
            "grant_type": "client_credentials",
            "client_id": client_id,
            "client_secret": secret if secret is not None else SECRETS[client_id],
        },
    )
