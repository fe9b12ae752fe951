"""Request and response bodies of the reference server, as the OpenAPI document shows them.

The error envelope here is the strict, server-side shape (every field present); the
client-side `iptoolkit.models.ErrorEnvelope` is lenient, as a client must be.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import error_envelope

__all__ = [
    "TokenForm",
    "LoginForm",
    "TokenResponse",
    "ErrorInfo",
    "ErrorEnvelope",
    "ProfilePage",
]


class TokenForm(BaseModel):
    """The client-credentials token request (application/x-www-form-urlencoded)."""

    grant_type: Literal["client_credentials"]
    client_id: str = Field(min_length=1)
    client_secret: str = Field(min_length=1)


class LoginForm(BaseModel):
    """The UI login form posted to `/`."""

    username: str = Field(min_length=1)
    password: str = Field(min_length=1)


class TokenResponse(BaseModel):
    """A bearer token for the `Authorization: Bearer` header of API calls."""

    model_config = ConfigDict(json_schema_extra={"additionalProperties": False})

    access_token: str
    token_type: Literal["Bearer"] = "Bearer"
    expires_in: int = Field(ge=0, description="Seconds until the token stops working.")


class ErrorInfo(error_envelope.ErrorInfo):
    """Why a request failed."""

    error_code: str = Field(
        description="Stable machine-readable code, e.g. `CORESYSTEM_permission_403`."
    )
    error_text: str = Field(description="Human-readable explanation.")
    error_level: int = Field(description="Severity: 2 for request errors, 3 for server errors.")
    http_response_status: int = Field(description="The HTTP status of the response.")


class ErrorEnvelope(error_envelope.ErrorEnvelope):
    """The body of every error response."""

    error_info: ErrorInfo


class ProfilePage(BaseModel):
    """One page of the listing, Spring-style, when `page` or `size` is given."""

    content: list[dict[str, Any]] = Field(description="The profiles of this page.")
    number: int = Field(ge=0, description="This page's number, from 0.")
    size: int = Field(ge=1, description="The page size asked for.")
    numberOfElements: int = Field(ge=0)  # noqa: N815 (the JSON name)
    totalElements: int = Field(ge=0)  # noqa: N815
    totalPages: int = Field(ge=0)  # noqa: N815
    first: bool
    last: bool
    empty: bool
