"""Filter: a declarative, serialisable selection of profiles (applied by `iptoolkit.query.filters`).

Plain data with no dependency on the estate, so the data core can name it in its types
without an import cycle.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, field_validator

__all__ = ["Filter"]


def _as_list(value: Any) -> Any:
    """Let a single value stand for a one-item list: `Filter(partners="Acme")`."""
    if value is None:
        return []
    if isinstance(value, str | int):
        return [value]
    return value


Values = Annotated[list[str], BeforeValidator(_as_list)]
Ids = Annotated[list[int | str], BeforeValidator(_as_list)]


class Filter(BaseModel):
    """A selection of profiles that saves to and loads from JSON; `iptoolkit.query.filters` says
    how each field matches."""

    model_config = ConfigDict(extra="forbid")

    agent_types: Values = []
    channel_types: Values = []
    partners: Ids = []
    channels: Ids = []
    groups: Values = []
    tags: Values = []
    active: bool | None = None
    text: str | None = None

    @field_validator("text")
    @classmethod
    def _blank_text_is_none(cls, value: str | None) -> str | None:
        return value if value is None or value.strip() else None

    def is_empty(self) -> bool:
        """True when the filter selects everything."""
        return self == Filter()

    def to_json(self) -> str:
        """Compact JSON with only the fields that are set."""
        return self.model_dump_json(exclude_defaults=True)

    @classmethod
    def from_json(cls, data: str | bytes) -> Filter:
        return cls.model_validate_json(data)

    def describe(self) -> str:
        """One line an analyst can read: `agent type SFTP; partner Acme`. Types are named as
        every list, legend and diagram names them (`names.type_label`: `SFTP`, not
        `SFTPAgentSettings`), one name per type wherever the filter is said."""
        from ..support.names import type_label

        parts = [
            _said("agent type", [type_label(t) for t in self.agent_types]),
            _said("channel type", [type_label(t) for t in self.channel_types]),
            _said("partner", self.partners),
            _said("channel", self.channels),
            _said("group", self.groups),
            _said("tag", self.tags),
            {True: "active", False: "not active", None: ""}[self.active],
            f"text {self.text!r}" if self.text else "",
        ]
        return "; ".join(part for part in parts if part) or "everything"

    def __str__(self) -> str:
        return self.describe()


def _said(what: str, values: list[Any]) -> str:
    return f"{what} {' or '.join(str(value) for value in values)}" if values else ""
