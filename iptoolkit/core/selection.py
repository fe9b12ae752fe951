"""Filter: a declarative, serialisable selection of profiles (applied by `iptoolkit.query.filters`).

Plain data with no dependency on the estate, so the data core can name it in its types
without an import cycle. What each field means:

Fields combine with AND, the values inside a field with OR; an empty filter selects
everything. Matching is case-insensitive throughout.

- `agent_types`, `channel_types`: type names, `core:` optional, or short names (`SFTP`
  for `SFTPAgentSettings`, `AS2` for `IntegrationPartnerChannelAS2`). A channel counts
  wherever the profile uses it: input, response path, or named by id (when known).
- `partners`, `channels`: ids, node ids or names (`17`, `"17"`, `"partner:17"` and
  `"Acme"` all work); a value that is no id or name but the first words of one name
  (`"Mosel Retail"` of `Mosel Retail GmbH & Co. KG`, ending where a word ends) selects
  that name's, and the first words of several names select nothing (`filters.unmatched`
  says which names it could be).
- **The channel fields (`channel_types`, `partners`, `channels`) apply to one channel**:
  `Filter(partners=["Acme"], channel_types=["AS2"])` selects the profiles that use an AS2
  channel of Acme, not those with an AS2 channel of another partner that use Acme on some
  other channel. That is what "profiles on an AS2 channel of Acme" means; the command
  line's options, the Explorer's facets and the MCP tool `find_profiles` read it so,
  through `iptoolkit.query.filters`.
- `groups`: a plain group selects it and its subgroups (`Finance` matches `Finance/AP`);
  a pattern with `*`, `?` or `[...]` is matched as a whole (`Finance/*`, `*/EDI/*`).
- `tags`: tags or patterns; a profile's `tags` string is split on commas, semicolons and
  spaces.
- `active`: True selects active profiles, False the others: `nodes.is_active`, the rule
  `summary` counts by (a missing flag, or one that is not a boolean, is not active).
- `text`: every word must occur in the profile's id, name, description, group or tags, or
  in a name, URL, host, topic or target of its agent, channels, partners or responses.

Faulty profiles (`estate.problems`) are matched by what could be read of them (their
record: raw group, tags, agent type, the `active` rule, id, name and description), so a
profile faulty only in its name is in its group's selection, and a filtered audit reports
it. What one cannot answer leaves it out, unsaid by no front end: the channel fields (its
channels are not read), a group, tags or agent whose value has the wrong type, text found
nowhere that could be read. `filters.unjudged` names those profiles and fields; the
command line says them on stderr (`note: 2 faulty profiles could not be matched against
--partner and are left out: P4, P6`), the Explorer beside its counts, `find_profiles` in
its note.

>>> f = Filter(partners=["Acme"], active=True)
>>> Filter.from_json(f.to_json()) == f
True
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
    """A selection of profiles that saves to and loads from JSON; the module's docstring says
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
        `SFTPAgentSettings`), one name per type wherever the filter is said; masked
        (`redact_text`): a partner or group chosen may hold a URL's password or a token,
        and every header, log line and answer that says the filter says it so."""
        from ..support.names import type_label
        from ..support.redact import redact_text

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
        return redact_text("; ".join(part for part in parts if part)) or "everything"

    def __str__(self) -> str:
        return self.describe()


def _said(what: str, values: list[Any]) -> str:
    return f"{what} {' or '.join(str(value) for value in values)}" if values else ""
