"""iptoolkit: explore an integration platform's profiles, partners and channels from Jupyter.

>>> import iptoolkit as ipt
>>> estate = ipt.demo_estate(n_profiles=50)          # or ipt.Client(...).fetch_estate()
>>> G = ipt.build_graph(estate)

Every public name loads its module on first use, so `import iptoolkit` stays cheap:
matplotlib, pandas, ipywidgets, httpx and the server load only when something needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

_CLIENT = "iptoolkit.client"
_EXPORTS: dict[str, str] = {
    # models and parsing
    "parse_profiles": "iptoolkit.models",
    "dump_profiles": "iptoolkit.models",
    "ParseError": "iptoolkit.models",
    "IntegrationProfile": "iptoolkit.models",
    "timestamp": "iptoolkit.models",
    # the estate, demo data
    "Estate": "iptoolkit.core.estate",
    "load": "iptoolkit.core.estate",
    "as_estate": "iptoolkit.core.estate",
    "demo_estate": "iptoolkit.demo",
    "demo_profiles": "iptoolkit.demo",
    "demo_changes": "iptoolkit.demo",
    "demo_environment": "iptoolkit.demo",
    # the client
    "Client": _CLIENT,
    "AsyncClient": _CLIENT,
    "ClientCredentials": _CLIENT,
    "SessionCookie": _CLIENT,
    "GuestLogin": _CLIENT,
    "BearerToken": _CLIENT,
    "Secret": _CLIENT,
    "ApiError": _CLIENT,
    "BadRequestError": _CLIENT,
    "AuthenticationError": _CLIENT,
    "PermissionDeniedError": _CLIENT,
    "NotFoundError": _CLIENT,
    "RateLimitError": _CLIENT,
    "InternalServerError": _CLIENT,
    "PagingError": _CLIENT,
    "ResponseParseError": _CLIENT,
    "ResponseTooLargeError": _CLIENT,
    "ApiTransportError": _CLIENT,
    "ApiConnectionError": _CLIENT,
    "ApiTimeoutError": _CLIENT,
    "DeadlineExceededError": _CLIENT,
    # graph, questions, selections, tables, findings
    "build_graph": "iptoolkit.query.graph",
    "where_used": "iptoolkit.query.reach",
    "impact": "iptoolkit.query.reach",
    "neighbourhood": "iptoolkit.query.reach",
    "paths": "iptoolkit.query.paths",
    "Paths": "iptoolkit.query.paths",
    "Impact": "iptoolkit.query.reach",
    "resolve_node": "iptoolkit.query.resolve",
    "UnknownItemError": "iptoolkit.query.resolve",
    "AmbiguousItemError": "iptoolkit.query.resolve",
    "Filter": "iptoolkit.query.filters",
    "audit": "iptoolkit.auditing",
    "findings": "iptoolkit.auditing",
    "Finding": "iptoolkit.auditing",
    "AuditConfig": "iptoolkit.auditing",
    # change over time
    "schema_report": "iptoolkit.change.drift",
    "SchemaReport": "iptoolkit.change.drift_report",
    "diff": "iptoolkit.change.diff",
    "EstateDiff": "iptoolkit.change.estate_diff",
    "Change": "iptoolkit.change.estate_diff",
    "history": "iptoolkit.estate_history",
    "History": "iptoolkit.estate_history",
    "Archive": "iptoolkit.archive",
    # two installations compared
    "compare": "iptoolkit.comparing",
    "Comparison": "iptoolkit.comparing",
    # pictures, files, the Explorer
    "plot_topology": "iptoolkit.plot",
    "plot_summary": "iptoolkit.plot",
    "plot_diff": "iptoolkit.plot",
    "plot_comparison": "iptoolkit.plot",
    "export": "iptoolkit.exporters",
    "write_docs": "iptoolkit.docsite",
    "Explorer": "iptoolkit.widgets",
    "show_topology": "iptoolkit.widgets",
    "TopologyView": "iptoolkit.widgets",
}
_SUBMODULES = ("client", "models", "server")
_NEED_AN_EXTRA = frozenset({"server", "Archive"})
"""Public names whose modules need an extra (`support/extras.py`): listed by `dir()`, left
out of `__all__`, so that `from iptoolkit import *` works on a plain install."""

__all__ = [
    "__version__",
    *(name for name in (*_SUBMODULES, *_EXPORTS) if name not in _NEED_AN_EXTRA),
]
"""Derived from `_SUBMODULES` and `_EXPORTS`, the one list of public names, less those
that need an extra; `tests/test_api.py` pins it and checks that the `TYPE_CHECKING` imports
below name the same things (those imports are for type checkers: pyproject.toml tells ruff
they are re-exports, F401)."""

if TYPE_CHECKING:
    from . import client, models, server
    from .archive import Archive
    from .auditing import AuditConfig, Finding, audit, findings
    from .change.diff import diff
    from .change.drift import schema_report
    from .change.drift_report import SchemaReport
    from .change.estate_diff import Change, EstateDiff
    from .client import (
        ApiConnectionError,
        ApiError,
        ApiTimeoutError,
        ApiTransportError,
        AsyncClient,
        AuthenticationError,
        BadRequestError,
        BearerToken,
        Client,
        ClientCredentials,
        DeadlineExceededError,
        GuestLogin,
        InternalServerError,
        NotFoundError,
        PagingError,
        PermissionDeniedError,
        RateLimitError,
        ResponseParseError,
        ResponseTooLargeError,
        Secret,
        SessionCookie,
    )
    from .comparing import Comparison, compare
    from .core.estate import Estate, as_estate, load
    from .demo import demo_changes, demo_environment, demo_estate, demo_profiles
    from .docsite import write_docs
    from .estate_history import History, history
    from .exporters import export
    from .models import IntegrationProfile, ParseError, dump_profiles, parse_profiles, timestamp
    from .plot import plot_comparison, plot_diff, plot_summary, plot_topology
    from .query.filters import Filter
    from .query.graph import build_graph
    from .query.paths import Paths, paths
    from .query.reach import Impact, impact, neighbourhood, where_used
    from .query.resolve import AmbiguousItemError, UnknownItemError, resolve_node
    from .widgets import Explorer, TopologyView, show_topology


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"iptoolkit.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'iptoolkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_NEED_AN_EXTRA})
