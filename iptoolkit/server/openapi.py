"""The served OpenAPI document: error responses with the envelope, profiles fully typed.

FastAPI's generated document is adjusted in four ways. Its 422 responses go (this server
answers validation errors with a 400 envelope). The profile schemas of `iptoolkit.models`
are added under `components/schemas`. Their polymorphic unions become `anyOf` rather
than `oneOf`: a value of an unknown `class` is valid (the API is a preview and changes),
so the union's generic member matches every object and `oneOf` would reject known ones.
And what OpenAPI tools (Redocly's recommended rules) look for is stated: `servers` (this
server, wherever it runs: the paths are relative to the document's address), the
license, and `security: []` on the operations that take no token (logging in, asking for
a token).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from ..models import IntegrationProfile
from .bodies import ErrorEnvelope, ProfilePage
from .error_responses import ERROR_CODES

__all__ = [
    "REF",
    "error_responses",
    "session_redirect",
    "listing_response",
    "install_openapi",
    "extra_schemas",
    "LICENSE",
    "SERVERS",
    "NO_TOKEN",
]

REF = "#/components/schemas/{model}"
LICENSE = {"name": "MIT", "identifier": "MIT"}
"""The project's licence (pyproject.toml's `license`), as OpenAPI 3.1 states one."""
SERVERS = [{"url": "/", "description": "This server: the paths are relative to its address."}]
NO_TOKEN: dict[str, Any] = {"security": []}
"""`openapi_extra` of an operation that needs no credentials: said, not left to guess."""

_DESCRIPTIONS = {
    400: "The request is malformed or failed validation.",
    401: "Authentication is required, or the credentials are not valid.",
    403: "The caller is not permitted to perform this operation.",
    404: "The requested resource does not exist.",
    429: "Too many failed attempts for this name or from this address.",
    500: "Unexpected server error.",
}


def error_responses(*statuses: int, html: bool = False) -> dict[int | str, dict[str, Any]]:
    """OpenAPI responses for the given error statuses, each the error envelope.

    `html=True` adds a `text/html` alternative to 401 (the login page, for browsers). The
    content is spelled out, not given as a `model`: FastAPI would file a model under the
    route's own media type, which is `text/html` for the web UI.
    """
    envelope = {"application/json": {"schema": {"$ref": REF.format(model="ErrorEnvelope")}}}
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        description = f"{_DESCRIPTIONS[status]} `errorCode` {ERROR_CODES[status]}."
        content: dict[str, Any] = dict(envelope)
        if html and status == 401:
            content["text/html"] = {"schema": {"type": "string"}}
            description += " A browser (Accept: text/html) gets the login page instead."
        out[status] = {"description": description, "content": content}
        if status == 429:
            out[status]["headers"] = {
                "Retry-After": {
                    "schema": {"type": "integer", "minimum": 1},
                    "description": "Seconds to wait before the next attempt.",
                }
            }
    return out


def session_redirect(description: str) -> dict[str, Any]:
    """A 303 that opens a session: the cookie, and where to go next."""
    return {
        "description": description,
        "headers": {
            "Location": {"schema": {"type": "string"}, "description": "Always `/`."},
            "Set-Cookie": {
                "schema": {"type": "string"},
                "description": "The session cookie (HttpOnly, SameSite=Lax).",
            },
        },
    }


def listing_response() -> dict[str, Any]:
    """The listing's 200 response: a bare array of profiles, or a page object."""
    profile = {"$ref": REF.format(model="IntegrationProfile")}
    return {
        "description": "The profiles, each exactly as stored.",
        "content": {
            "application/json": {
                "schema": {
                    "oneOf": [
                        {"type": "array", "items": profile},
                        {"$ref": REF.format(model="ProfilePage")},
                    ]
                }
            }
        },
    }


def extra_schemas() -> dict[str, Any]:
    """The error envelope, `IntegrationProfile`, `ProfilePage` and all they use, as components."""
    components: dict[str, Any] = {}
    envelope = ErrorEnvelope.model_json_schema(mode="serialization", ref_template=REF)
    components.update(envelope.pop("$defs", {}))
    components["ErrorEnvelope"] = envelope
    components.update(_profile_schemas())
    return components


def _profile_schemas() -> dict[str, Any]:
    schema = TypeAdapter(IntegrationProfile).json_schema(mode="serialization", ref_template=REF)
    components: dict[str, Any] = schema.pop("$defs", {})
    components["IntegrationProfile"] = schema
    page = ProfilePage.model_json_schema(mode="serialization", ref_template=REF)
    page["properties"]["content"]["items"] = {"$ref": REF.format(model="IntegrationProfile")}
    components["ProfilePage"] = page
    fixed: dict[str, Any] = _one_of_to_any_of(components)
    return fixed


def install_openapi(app: FastAPI) -> None:
    """Replace `app.openapi` with one that builds the adjusted document once."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
                servers=SERVERS,
                license_info=LICENSE,
            )
            for path in document.get("paths", {}).values():
                for operation in path.values():
                    operation.get("responses", {}).pop("422", None)
            components = document.setdefault("components", {}).setdefault("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                components.pop(unused, None)
            for name, schema in extra_schemas().items():
                if name in components and components[name] != schema:
                    raise RuntimeError(f"two OpenAPI schemas named {name}")
                components[name] = schema
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way


def _one_of_to_any_of(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            ("anyOf" if key == "oneOf" else key): _one_of_to_any_of(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_one_of_to_any_of(item) for item in node]
    return node
