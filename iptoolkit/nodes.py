"""What the graph, filters, tables and findings agree on: node ids and flat facts of models.

Node ids (see DESIGN.md) are strings with a kind prefix: `profile:<key>`, `agent:<key>`,
`response:<key>:<index>`, `channel:<channel key>`, `partner:<partner key>`.

The profile key is the profile's id, with a deliberate rule for ids that do not identify:

- a profile without an id (or with an empty or non-scalar one) is keyed by its position
  in the listing: `profile:#12` is `estate.raw_profiles[12]`;
- when several profiles share an id, the first keeps it and every later one gets its
  position appended: `profile:P1`, `profile:P1#7`.

The rule runs over `estate.raw_profiles` in order, faulty profiles included, so a key is
stable for a given listing. The channel key is the registry key of `Estate.channels` (the
channel id, or `<profile id>:<path>` for a channel without one), the partner key that of
`Estate.partners` (the partner id, or `name:<name>`).

"Active" means `active` is true: a missing flag counts as not active, everywhere.

This module imports nothing heavy, so filters and tables can use it without networkx.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import field_value, type_name_of
from .references import ChannelUse, channel_key, partner_key

if TYPE_CHECKING:
    from .estate import Estate

__all__ = [
    "Endpoint",
    "ProfileUse",
    "endpoint",
    "is_active",
    "label",
    "normalise_type",
    "type_matches",
    "type_aliases",
    "type_of",
    "partner_of",
    "target",
    "field_of",
    "profile_keys",
    "profile_node",
    "agent_node",
    "response_node",
    "channel_node",
    "partner_node",
    "profile_uses",
    "raw_field",
    "split_tags",
    "CHANNEL_PREFIX",
]

CHANNEL_PREFIX = "IntegrationPartnerChannel"
"""Channel type names start with this; `AS2` is accepted for `IntegrationPartnerChannelAS2`."""

_SHORT_NAMES = (
    (CHANNEL_PREFIX.lower(), ""),
    ("", "agentsettings"),
    ("", "profileresponseunit"),
)
"""(prefix, suffix) pairs, lower case, that a type's short name leaves out."""

_URL_FIELDS = (
    "url",
    "as2_url",
    "as2Url",
    "endpoint_url",
    "endpointUrl",
    "smtp_server_url",
    "smtpServerUrl",
)
_HOST_FIELDS = ("host",)
_TOPIC_FIELDS = ("topic", "topic_name", "topicName", "queue_name", "queueName", "queue")
_TAG_SPLIT = re.compile(r"[,;\s]+")


# -- node ids -----------------------------------------------------------------------------


def profile_keys(raw_profiles: Sequence[Any]) -> list[str]:
    """The key of every profile in the listing, by the rule in the module docstring."""
    keys: list[str] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_profiles):
        pid = raw.get("id") if isinstance(raw, dict) else None
        base = str(pid) if isinstance(pid, str | int) and not isinstance(pid, bool) else ""
        key = base if base and base not in seen else f"{base}#{index}"
        while key in seen:  # only when an id itself looks like `P1#7`
            key += f"#{index}"
        seen.add(key)
        keys.append(key)
    return keys


def profile_node(key: str) -> str:
    return f"profile:{key}"


def agent_node(key: str) -> str:
    return f"agent:{key}"


def response_node(key: str, index: int) -> str:
    return f"response:{key}:{index}"


def channel_node(key: Any) -> str:
    return f"channel:{key}"


def partner_node(key: Any) -> str:
    return f"partner:{key}"


# -- channel uses with their keys ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProfileUse:
    """A `ChannelUse` with the channel's key resolved the way the estate's registry keys it.

    `key` is the registry key (`channel` is the model the profile holds), or for a
    reference the id it names (`channel` is then the registry's model, None if unknown).
    `node` is the graph node id. A reference that names no usable id is left out.
    """

    use: ChannelUse
    key: Any
    node: str
    channel: Any

    @property
    def resolved(self) -> bool:
        return self.channel is not None


def profile_uses(estate: Estate) -> list[list[ProfileUse]]:
    """For each of `estate.profiles`, its channel uses with keys, references resolved."""
    by_text = {str(key): key for key in estate.channels}
    result: list[list[ProfileUse]] = []
    for profile, uses in zip(estate.profiles, estate.uses, strict=True):
        keyed: list[ProfileUse] = []
        for use in uses:
            if use.channel is not None:
                key = channel_key(use.channel, profile.id, use.path)
                keyed.append(ProfileUse(use, key, channel_node(key), use.channel))
            elif _is_scalar_id(use.channel_id):
                key = by_text.get(str(use.channel_id), use.channel_id)
                known = estate.channels.get(key)
                keyed.append(ProfileUse(use, key, channel_node(key), known))
        result.append(keyed)
    return result


def _is_scalar_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool) and value != ""


# -- flat facts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where an agent, channel or response unit points: host, URL and topic (or queue)."""

    host: str | None = None
    url: str | None = None
    topic: str | None = None


_NOWHERE = Endpoint()
_HTTP_FIELDS = ("http_settings", "httpSettings")
_PLAN_FIELDS = (_URL_FIELDS, _HOST_FIELDS, _TOPIC_FIELDS, _HTTP_FIELDS)
_PLANS: dict[type, tuple[tuple[str, ...], ...]] = {}
"""Per model class without extra fields: which of `_PLAN_FIELDS` it has."""


def endpoint(model: Any) -> Endpoint:
    """The host, URL and topic of a model or raw dict, from whichever fields its type has.

    HTTP client settings (`httpSettings`: host, port, uri, sslEnabled) make a URL too.
    """
    if model is None:
        return _NOWHERE
    plain = not isinstance(model, dict) and not getattr(model, "__pydantic_extra__", None)
    plan = _PLANS.get(type(model)) if plain else None
    if plan is None:
        plan = tuple(_candidates(model, names) for names in _PLAN_FIELDS)
        if plain:
            _PLANS[type(model)] = plan
    urls, hosts, topics, https = plan
    if not (urls or hosts or topics or https):
        return _NOWHERE
    url = _first_text(model, urls)
    host = _first_text(model, hosts)
    topic = _first_text(model, topics)
    http = next((value for name in https if (value := _get(model, name)) is not None), None)
    if http is not None:
        http_host = _first_text(http, _candidates(http, ("host",)))
        host = host or http_host
        url = url or _http_url(http, http_host)
    return Endpoint(host, url, topic)


def _http_url(http: Any, host: str | None) -> str | None:
    uri = _first_text(http, _candidates(http, ("uri",)))
    if uri and "://" in uri:
        return uri
    if not host:
        return uri
    port = _get(http, "port")
    scheme = "https" if _get(http, "ssl_enabled") or _get(http, "sslEnabled") else "http"
    path = uri or ""
    if path and not path.startswith("/"):
        path = "/" + path
    return f"{scheme}://{host}{f':{port}' if port not in (None, '') else ''}{path}"


def target(unit: Any) -> str | None:
    """Where a response unit delivers, in words: file name, mail recipient or URL."""
    names = _candidates(unit, ("file_name", "fileName", "to"))
    return _first_text(unit, names) or endpoint(unit).url


def is_active(value: Any) -> bool:
    """A model's (or raw dict's) `active` flag; missing or not a boolean counts as False."""
    flag = value.get("active") if isinstance(value, dict) else getattr(value, "active", None)
    return flag is True


def label(model: Any, key: Any = None) -> str:
    """A short human name: the name, else the id, else the key."""
    name = _get(model, "name")
    if isinstance(name, str) and name:
        return name
    ident = _get(model, "id")
    if ident is not None and not isinstance(ident, dict | list):
        return str(ident)
    return str(key) if key is not None else "?"


def raw_field(raw: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    """A field of a raw (possibly faulty) profile, only when it has the expected type."""
    value = raw.get(name) if isinstance(raw, dict) else None
    if isinstance(value, bool) and kind is not bool and bool not in _as_tuple(kind):
        return None
    return value if isinstance(value, kind) else None


def split_tags(tags: Any) -> list[str]:
    """A profile's `tags` string split on commas, semicolons and spaces."""
    if not isinstance(tags, str):
        return []
    return [tag for tag in _TAG_SPLIT.split(tags) if tag]


def normalise_type(name: Any) -> str:
    """A type name for comparing: no `core:` prefix, lower case."""
    text = str(name or "").strip()
    if text.startswith("core:"):
        text = text[len("core:") :]
    return text.lower()


def type_matches(actual: Any, wanted: Any) -> bool:
    """`wanted` names `actual`: the same type name (any case, `core:` optional) or its short
    name: `AS2` for `IntegrationPartnerChannelAS2`, `Fax` for `FaxAgentSettings`, `Ftp` for
    `FtpProfileResponseUnit` (so `SFTP` names an agent type and a channel type)."""
    return normalise_type(wanted) in type_aliases(actual)


def type_aliases(name: Any) -> list[str]:
    """The normalised forms that name a type (see `type_matches`)."""
    full = normalise_type(name)
    if not full:
        return []
    for prefix, suffix in _SHORT_NAMES:
        if full.startswith(prefix) and full.endswith(suffix):
            short = full[len(prefix) : len(full) - len(suffix)]
            if short:
                return [full, short]
    return [full]


def type_of(model: Any) -> str | None:
    """The type name without `core:`, of a model or raw dict."""
    return type_name_of(model)


def partner_of(channel: Any) -> tuple[Any, Any]:
    """(partner key, partner model) of a channel, (None, None) when it names none."""
    partner = _get(channel, "partner")
    if partner is None or isinstance(partner, list | str | int):
        return None, None
    return partner_key(partner), partner


field_of = field_value
"""A field of a model or raw dict, or None (`models.field_value`; kept under this name)."""
_get = field_value


_PRESENT: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


def _candidates(obj: Any, names: tuple[str, ...]) -> tuple[str, ...]:
    """Of `names`, those the object can have: its class's fields, plus its extra fields."""
    if isinstance(obj, dict):
        return names
    key = (type(obj), names)
    present = _PRESENT.get(key)
    if present is None:
        fields = getattr(type(obj), "__pydantic_fields__", None)
        present = names if fields is None else tuple(n for n in names if n in fields)
        _PRESENT[key] = present
    extra = getattr(obj, "__pydantic_extra__", None)
    if extra:
        present += tuple(name for name in names if name in extra)
    return present


def _first_text(obj: Any, names: tuple[str, ...]) -> str | None:
    """The first non-blank text among `names` (already narrowed by `_candidates`)."""
    for name in names:
        value = _get(obj, name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
