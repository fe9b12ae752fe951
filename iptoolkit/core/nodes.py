"""Node ids and flat facts of models that the graph, filters, tables and findings share.

Node ids are strings with a kind prefix: `profile:<key>`, `agent:<key>`,
`response:<key>:<index>`, `channel:<channel key>`, `partner:<partner key>`. The keys and
the rules behind them (profiles without ids, shared ids, channels without ids) are written
once, in `iptoolkit.core.records`; what "active" means is `is_active`, here, which every
reader of the flag calls (records, graph, tables, audit, exports, docs, demo, archive).

Fields are read by their JSON names (`models.field_value`). This module imports nothing
heavy, so filters and tables can use it without networkx.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import field_value, present_fields, type_name_of
from .references import partner_key

__all__ = [
    "Endpoint",
    "endpoint",
    "is_active",
    "label",
    "type_of",
    "partner_of",
    "target",
    "profile_node",
    "agent_node",
    "response_node",
    "channel_node",
    "partner_node",
    "raw_field",
    "split_tags",
]

_URL_FIELDS = ("url", "as2Url", "endpointUrl", "smtpServerUrl")
_HOST_FIELDS = ("host",)
_TOPIC_FIELDS = ("topic", "topicName", "queueName", "queue")


# -- node ids -----------------------------------------------------------------------------


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


# -- flat facts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where an agent, channel or response unit points: host, URL and topic (or queue)."""

    host: str | None = None
    url: str | None = None
    topic: str | None = None


_NOWHERE = Endpoint()
_HTTP_FIELDS = ("httpSettings",)
_PLAN_FIELDS = (_URL_FIELDS, _HOST_FIELDS, _TOPIC_FIELDS, _HTTP_FIELDS)
_ENDPOINT_FIELDS = frozenset(name for names in _PLAN_FIELDS for name in names)
_PLANS: dict[type, tuple[tuple[str, ...], ...]] = {}
"""Per model class without extra fields: which of `_PLAN_FIELDS` it has."""


def endpoint(model: Any) -> Endpoint:
    """The host, URL and topic of a model or raw dict, from whichever fields its type has.

    HTTP client settings (`httpSettings`: host, port, uri, sslEnabled) make a URL too.
    """
    if model is None:
        return _NOWHERE
    if isinstance(model, dict):  # the index reads every agent and unit's JSON: plain lookups
        if _ENDPOINT_FIELDS.isdisjoint(model):  # most units and many agents: one C call
            return _NOWHERE
        url = _text_in(model, _URL_FIELDS)
        host = _text_in(model, _HOST_FIELDS)
        topic = _text_in(model, _TOPIC_FIELDS)
        http = model.get("httpSettings")
    else:
        plain = not getattr(model, "__pydantic_extra__", None)
        plan = _PLANS.get(type(model)) if plain else None
        if plan is None:
            plan = tuple(present_fields(model, names) for names in _PLAN_FIELDS)
            if plain:
                _PLANS[type(model)] = plan
        urls, hosts, topics, https = plan
        url = _first_text(model, urls)
        host = _first_text(model, hosts)
        topic = _first_text(model, topics)
        http = next((value for name in https if (value := _get(model, name)) is not None), None)
    if http is not None:
        http_host = _first_text(http, present_fields(http, ("host",)))
        host = host or http_host
        url = url or _http_url(http, http_host)
    if url is None and host is None and topic is None:
        return _NOWHERE
    return Endpoint(host, url, topic)


def _text_in(data: dict[str, Any], names: tuple[str, ...]) -> str | None:
    """`_first_text` of a raw dict: the first non-blank text among `names`."""
    for name in names:
        value = data.get(name)
        if isinstance(value, str) and (value := value.strip()):
            return value
    return None


def _http_url(http: Any, host: str | None) -> str | None:
    uri = _first_text(http, present_fields(http, ("uri",)))
    if uri and "://" in uri:
        return uri
    if not host:
        return uri
    port = _get(http, "port")
    scheme = "https" if _get(http, "sslEnabled") else "http"
    path = uri or ""
    if path and not path.startswith("/"):
        path = "/" + path
    return f"{scheme}://{host}{f':{port}' if port not in (None, '') else ''}{path}"


def target(unit: Any, where: Endpoint | None = None) -> str | None:
    """Where a response unit delivers, in words: file name, mail recipient or URL
    (`where` is the unit's endpoint when the caller has it already)."""
    if isinstance(unit, dict):
        named = _text_in(unit, ("fileName", "to"))
    else:
        named = _first_text(unit, present_fields(unit, ("fileName", "to")))
    return named or (where or endpoint(unit)).url


def is_active(value: Any) -> bool:
    """The one rule for "active": the `active` flag is true; missing or not a boolean is not
    active. For a model, a raw dict or a graph node's attributes (anything else: False).
    Nothing else reads the flag as a truth (`.get("active") is True`): call this."""
    return field_value(value, "active") is True


def label(model: Any, key: Any = None) -> str:
    """A short human name: the name (not white space alone: it reads as nothing), else the
    id, else the key."""
    name = _get(model, "name")
    if isinstance(name, str) and name.strip():
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
    return tags.replace(",", " ").replace(";", " ").split()


def type_of(model: Any) -> str | None:
    """The type name without `core:`, of a model or raw dict."""
    return type_name_of(model)


def partner_of(channel: Any) -> tuple[Any, Any]:
    """(partner key, partner model) of a channel, (None, None) when it names none."""
    partner = channel.get("partner") if isinstance(channel, dict) else _get(channel, "partner")
    if partner is None or isinstance(partner, list | str | int):
        return None, None
    return partner_key(partner), partner


_get = field_value


def _first_text(obj: Any, names: tuple[str, ...]) -> str | None:
    """The first non-blank text among `names` (already narrowed by `present_fields`)."""
    for name in names:
        value = _get(obj, name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
