"""The profiles a server holds, serialised once, and each caller's view of them.

Profiles are served exactly as stored: every raw profile (faulty ones included) is turned
into JSON bytes once, at start, and responses are built by joining those bytes. A view (the
profiles that match one set of group patterns) is computed once per pattern set and kept,
so a listing costs a dictionary lookup, or one join for a page.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from ..support.jsonio import dumps_json
from .principals import group_matches

__all__ = ["Catalogue", "View", "raw_profiles_of"]


def raw_profiles_of(estate: Any) -> list[Any]:
    """The raw profiles of an `Estate` (its `raw_profiles`) or of a plain list of them."""
    raw = getattr(estate, "raw_profiles", None)
    if raw is None and isinstance(estate, Sequence) and not isinstance(estate, str | bytes):
        raw = estate
    if raw is None:
        raise TypeError(
            f"expected an Estate or a list of raw profiles, got {type(estate).__name__}"
        )
    return list(raw)


@dataclass(frozen=True)
class View:
    """The profiles one set of group patterns selects, ready to send."""

    parts: tuple[bytes, ...]
    body: bytes
    """The bare JSON array of every profile in the view."""

    def __len__(self) -> int:
        return len(self.parts)

    def page(self, number: int, size: int) -> bytes:
        """A Spring-style page object: `content` plus the numbers a pager needs."""
        total = len(self.parts)
        pages = -(-total // size)
        start = number * size
        content = self.parts[start : start + size] if start < total else ()
        meta = orjson.dumps(
            {
                "number": number,
                "size": size,
                "numberOfElements": len(content),
                "totalElements": total,
                "totalPages": pages,
                "first": number == 0,
                "last": number >= pages - 1,
                "empty": not content,
            }
        )
        return b'{"content":[' + b",".join(content) + b"]," + meta[1:]


class Catalogue:
    """Every stored profile as JSON bytes, with a cached view per pattern set."""

    def __init__(self, raw_profiles: Iterable[Any]) -> None:
        raw = list(raw_profiles)
        self._parts = tuple(dumps_json(profile) for profile in raw)
        self._groups = tuple(
            profile.get("group") if isinstance(profile, dict) else None for profile in raw
        )
        self._views: dict[tuple[str, ...], View] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._parts)

    def view(self, patterns: Sequence[str]) -> View:
        """The profiles whose group matches one of the patterns, in stored order."""
        key = tuple(sorted(set(patterns)))
        view = self._views.get(key)
        if view is None:
            with self._lock:
                view = self._views.get(key)
                if view is None:
                    view = self._views[key] = self._select(key)
        return view

    def _select(self, patterns: tuple[str, ...]) -> View:
        if "*" in patterns:
            parts = self._parts
        else:
            parts = tuple(
                part
                for part, group in zip(self._parts, self._groups, strict=True)
                if group_matches(group, patterns)
            )
        return View(parts, b"[" + b",".join(parts) + b"]")
