"""The toolkit's version, in a module of its own so that any module can read it without
importing the package root (whose type-checking imports name every module: a circle)."""

from __future__ import annotations

__version__ = "0.1.0"
