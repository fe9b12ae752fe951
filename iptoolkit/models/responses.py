"""Response settings: the response units (paths) along which a profile delivers its output."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import ApiModel, FallbackModel, polymorphic
from .channels import Channel
from .http import HttpClientSettings

__all__ = [
    "ProfileResponseSettings",
    "ResponseUnit",
    "UnknownResponseUnit",
    "ProfileResponseUnit",
    "RESPONSE_UNIT_TYPES",
    "FileProfileResponseUnit",
    "AS2ProfileResponseUnit",
    "MailProfileResponseUnit",
    "HttpProfileResponseUnit",
    "FtpProfileResponseUnit",
    "ContentTypeBase",
    "UnknownResponseContentType",
    "ResponseContentType",
    "CONTENT_TYPES",
    "ResponseContentType_ORIG",
    "ResponseContentType_ORIG_UNZIPPED_DIFF_CODING",
    "ResponseContentType_CSV",
    "ResponseContentType_TRIGGER",
    "ResponseContentType_ORIG_UNZIPPED",
    "ResponseContentType_FIX",
    "ResponseContentType_NONE",
    "ResponseContentType_IU",
]


class ContentTypeBase(ApiModel):
    """What a response unit sends; the variants carry only `class`."""

    class_: str | None = Field(None, alias="class")


class ResponseContentType_ORIG(ContentTypeBase):  # noqa: N801 - the spec's type name
    """The original input."""


class ResponseContentType_ORIG_UNZIPPED_DIFF_CODING(ContentTypeBase):  # noqa: N801
    """The original input, unzipped, in a different encoding."""


class ResponseContentType_CSV(ContentTypeBase):  # noqa: N801
    """A CSV rendering."""


class ResponseContentType_TRIGGER(ContentTypeBase):  # noqa: N801
    """A trigger only."""


class ResponseContentType_ORIG_UNZIPPED(ContentTypeBase):  # noqa: N801
    """The original input, unzipped."""


class ResponseContentType_FIX(ContentTypeBase):  # noqa: N801
    """A fixed content."""


class ResponseContentType_NONE(ContentTypeBase):  # noqa: N801
    """Nothing."""


class ResponseContentType_IU(ContentTypeBase):  # noqa: N801
    """What the integration unit produced."""


class UnknownResponseContentType(FallbackModel):
    """A content type of a class this toolkit does not know; kept as sent."""


CONTENT_TYPES: tuple[type[ContentTypeBase], ...] = (
    ResponseContentType_ORIG,
    ResponseContentType_ORIG_UNZIPPED_DIFF_CODING,
    ResponseContentType_CSV,
    ResponseContentType_TRIGGER,
    ResponseContentType_ORIG_UNZIPPED,
    ResponseContentType_FIX,
    ResponseContentType_NONE,
    ResponseContentType_IU,
)

ResponseContentType: Any = polymorphic(CONTENT_TYPES, UnknownResponseContentType)


class ResponseUnit(ApiModel):
    """Fields every response unit type shares."""

    class_: str | None = Field(None, alias="class")
    active: bool | None = None
    content_type: ResponseContentType | None = None
    encoding: str | None = None


class FileProfileResponseUnit(ResponseUnit):
    """Writes the output to a file."""

    file_name: str | None = None
    target_backup: bool | None = None


class AS2ProfileResponseUnit(ResponseUnit):
    """Sends the output over an AS2 channel."""

    channel: Channel | None = None
    file_name: str | None = None


class MailProfileResponseUnit(ResponseUnit):
    """Mails the output."""

    body: str | None = None
    from_: str | None = Field(None, alias="from")
    subject: str | None = None
    to: str | None = None


class HttpProfileResponseUnit(ResponseUnit):
    """Sends the output in an HTTP request."""

    http_settings: HttpClientSettings | None = None


class FtpProfileResponseUnit(ResponseUnit):
    """Uploads the output over an FTP channel."""

    channel: Channel | None = None
    file_name: str | None = None


class UnknownResponseUnit(FallbackModel):
    """A response unit of a class this toolkit does not know; kept as sent."""


RESPONSE_UNIT_TYPES: tuple[type[ResponseUnit], ...] = (
    FileProfileResponseUnit,
    AS2ProfileResponseUnit,
    MailProfileResponseUnit,
    HttpProfileResponseUnit,
    FtpProfileResponseUnit,
)

ProfileResponseUnit: Any = polymorphic(RESPONSE_UNIT_TYPES, UnknownResponseUnit)


class ProfileResponseSettings(ApiModel):
    """The response paths of a profile."""

    class_: str | None = Field(None, alias="class")
    units: list[ProfileResponseUnit] | None = None
