"""The integration profile: input agent, mapping, integration unit and response paths."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .agents import InputAgentSettings
from .base import I64, ApiModel, type_name_of
from .formats import FileFormatMetadata
from .integration import ProfileIntegrationSettings
from .mapping import MappingSettings
from .responses import ProfileResponseSettings
from .timestamps import Timestamp, timestamp

__all__ = ["IntegrationProfile"]


class IntegrationProfile(ApiModel):
    """One integration profile, as the listing returns it.

    `created`, `lastModified` and `lastModifiedGUI` are i32 in the spec, with no unit given;
    real platforms send epoch milliseconds, which overflow i32, so they are kept as 64-bit
    integers, unchanged. `created_at` and friends interpret them (see `timestamp`).
    `inputFormat` and `targetFormat` (IntegrationDataFormat) are opaque and kept as sent.
    """

    class_: str | None = Field(None, alias="class")
    active: bool | None = None
    created: I64 | None = None
    description: str | None = None
    encoding: str | None = None
    group: str | None = None
    id: str | None = None
    input_agent_settings: InputAgentSettings | None = None
    input_file_format_metadata: FileFormatMetadata | None = None
    input_format: Any = None
    integration_client_id: str | None = None
    integration_settings: ProfileIntegrationSettings | None = None
    last_modified: I64 | None = None
    last_modified_gui: I64 | None = Field(None, alias="lastModifiedGUI")
    mapping_settings: MappingSettings | None = None
    name: str | None = None
    response_settings: ProfileResponseSettings | None = None
    skip_mapping: bool | None = None
    tags: str | None = None
    target_file_format_metadata: FileFormatMetadata | None = None
    target_format: Any = None

    @property
    def created_at(self) -> Timestamp | None:
        """`created` as an aware UTC datetime, with the unit assumed."""
        return timestamp(self.created)

    @property
    def last_modified_at(self) -> Timestamp | None:
        """`lastModified` as an aware UTC datetime, with the unit assumed."""
        return timestamp(self.last_modified)

    @property
    def agent_type(self) -> str | None:
        """The input agent's type name (`SFTPAgentSettings`), or None without an agent."""
        return type_name_of(self.input_agent_settings) if self.input_agent_settings else None

    @property
    def response_units(self) -> list[Any]:
        """The response units, an empty list when there are none."""
        settings = self.response_settings
        return list(settings.units or []) if settings is not None else []
