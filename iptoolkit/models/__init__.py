"""Typed, lossless pydantic models of every resource in the API specification.

Each model is importable here under the spec's own type name. Polymorphic families route
unknown `class` values to a generic `Unknown*` model that keeps every field.
"""

from __future__ import annotations

from .agents import *  # noqa: F403
from .agents import __all__ as _agents
from .base import *  # noqa: F403
from .base import __all__ as _base
from .channels import *  # noqa: F403
from .channels import __all__ as _channels
from .error_envelope import *  # noqa: F403
from .error_envelope import __all__ as _error_envelope
from .formats import *  # noqa: F403
from .formats import __all__ as _formats
from .http import *  # noqa: F403
from .http import __all__ as _http
from .integration import *  # noqa: F403
from .integration import __all__ as _integration
from .mapping import *  # noqa: F403
from .mapping import __all__ as _mapping
from .parsing import *  # noqa: F403
from .parsing import __all__ as _parsing
from .profile import *  # noqa: F403
from .profile import __all__ as _profile
from .responses import *  # noqa: F403
from .responses import __all__ as _responses
from .timestamps import *  # noqa: F403
from .timestamps import __all__ as _timestamps

__all__ = [
    *_base,
    *_agents,
    *_channels,
    *_error_envelope,
    *_formats,
    *_http,
    *_integration,
    *_mapping,
    *_parsing,
    *_profile,
    *_responses,
    *_timestamps,
]
