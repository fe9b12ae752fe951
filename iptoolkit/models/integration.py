"""Integration settings: the integration unit (IU) a profile hands its mapped data to."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import ApiModel, FallbackModel, polymorphic

__all__ = [
    "ProfileIntegrationSettings",
    "XMLCreationIU",
    "JsonCreationIU",
    "EdifactCreationIU",
    "UnknownIU",
    "ProfileIU",
]


class XMLCreationIU(ApiModel):
    """Builds an XML document from the mapped data."""

    class_: str | None = Field(None, alias="class")
    root_name: str | None = None


class JsonCreationIU(ApiModel):
    """Builds a JSON document from the mapped data."""

    class_: str | None = Field(None, alias="class")
    start_at_node: str | None = None


class EdifactCreationIU(ApiModel):
    """Builds an EDIFACT interchange from the mapped data."""

    class_: str | None = Field(None, alias="class")


class UnknownIU(FallbackModel):
    """An integration unit of a class this toolkit does not know; kept as sent."""


ProfileIU: Any = polymorphic([XMLCreationIU, JsonCreationIU, EdifactCreationIU], UnknownIU)


class ProfileIntegrationSettings(ApiModel):
    """What happens after mapping: the integration unit and a post-execution class."""

    class_: str | None = Field(None, alias="class")
    post_execution_class: str | None = None
    unit: ProfileIU | None = None
