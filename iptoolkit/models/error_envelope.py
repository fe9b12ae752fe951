"""The error envelope every failed request carries: `{"errorInfo": {...}}`."""

from __future__ import annotations

from typing import Any

from .base import ApiModel

__all__ = ["ErrorInfo", "ErrorEnvelope"]


class ErrorInfo(ApiModel):
    """Why a request failed. `errorLevel` is a number; `httpResponseStatus` is untyped."""

    error_code: str | None = None
    error_text: str | None = None
    error_level: int | float | None = None
    http_response_status: Any = None


class ErrorEnvelope(ApiModel):
    """The body of every error response."""

    error_info: ErrorInfo | None = None
