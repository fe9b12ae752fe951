"""HTTP client settings, shared by HTTP-polling agents and HTTP response units."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import ApiModel

__all__ = ["HttpClientSettings"]


class HttpClientSettings(ApiModel):
    """Where and how an HTTP request is sent. `headers` and `httpMethod` are opaque."""

    class_: str | None = Field(None, alias="class")
    headers: Any = None
    host: str | None = None
    http_method: Any = None
    port: str | None = None
    ssl_enabled: bool | None = None
    uri: str | None = None
