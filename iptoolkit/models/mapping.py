"""Mapping settings: the source and target data structures and the links between them."""

from __future__ import annotations

from pydantic import Field

from .base import ApiModel

__all__ = [
    "MappingSettings",
    "MappingLink",
    "SourceDataStructure",
    "DestinationDataStructure",
    "DataStructureItem",
]


class DataStructureItem(ApiModel):
    """One node of a data structure tree."""

    class_: str | None = Field(None, alias="class")
    children: list[DataStructureItem] | None = None
    name: str | None = None
    source_object_id: str | None = None


class SourceDataStructure(ApiModel):
    """The structure of the parsed input."""

    class_: str | None = Field(None, alias="class")
    nodes: list[DataStructureItem] | None = None


class DestinationDataStructure(ApiModel):
    """The structure the mapping produces."""

    class_: str | None = Field(None, alias="class")
    nodes: list[DataStructureItem] | None = None


class MappingLink(ApiModel):
    """One mapping rule from a source node to a destination node."""

    class_: str | None = Field(None, alias="class")
    destination: str | None = None
    source: str | None = None
    xpath: str | None = None


class MappingSettings(ApiModel):
    """How parsed input is mapped onto the target structure."""

    class_: str | None = Field(None, alias="class")
    mappings: list[MappingLink] | None = None
    source_structure: SourceDataStructure | None = None
    target_structure: DestinationDataStructure | None = None
