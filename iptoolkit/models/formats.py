"""File format metadata (the `AbstractFileFormatMetadata` family) and the opaque data format."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import ApiModel, FallbackModel, polymorphic

__all__ = ["CSVFileMetadata", "UnknownFileFormatMetadata", "FileFormatMetadata"]


class CSVFileMetadata(ApiModel):
    """How a CSV file is read or written."""

    class_: str | None = Field(None, alias="class")
    delimiter: str | None = None
    load_as_example_data: bool | None = None


class UnknownFileFormatMetadata(FallbackModel):
    """File format metadata of a class this toolkit does not know; kept as sent."""


FileFormatMetadata: Any = polymorphic([CSVFileMetadata], UnknownFileFormatMetadata)
