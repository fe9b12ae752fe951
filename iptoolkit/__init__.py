"""iptoolkit: explore an integration platform's profiles, partners and channels from Jupyter.

>>> import iptoolkit as ipt
>>> estate = ipt.demo_estate(n_profiles=50)          # or ipt.Client(...).fetch_estate()
>>> G = ipt.build_graph(estate)

Every public name loads its module on first use, so `import iptoolkit` stays cheap:
matplotlib, pandas, ipywidgets and the server load only when something needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # models and parsing
    "parse_profiles": "iptoolkit.models",
    "dump_profiles": "iptoolkit.models",
    "ParseError": "iptoolkit.models",
    "IntegrationProfile": "iptoolkit.models",
    "timestamp": "iptoolkit.models",
    # the estate
    "Estate": "iptoolkit.estate",
    "load": "iptoolkit.estate",
    "demo_estate": "iptoolkit.demo",
    "demo_profiles": "iptoolkit.demo",
}

__all__ = [
    "__version__",
    "parse_profiles",
    "dump_profiles",
    "ParseError",
    "IntegrationProfile",
    "timestamp",
    "Estate",
    "load",
    "demo_estate",
    "demo_profiles",
]

if TYPE_CHECKING:
    from .demo import demo_estate, demo_profiles
    from .estate import Estate, load
    from .models import IntegrationProfile, ParseError, dump_profiles, parse_profiles, timestamp


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'iptoolkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
