"""`Indexed`: what a view reads of an estate, as a protocol the `Estate` satisfies.

The `Estate` offers two views as methods (`subset`, `to_frame`), which import `filters` and
`tables` when called. Those two read the estate through this protocol instead of naming
the `Estate` class, so no import, not even for type checking, runs from them back to
`estate.py`: the facade calls down into its views, and nothing calls back up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

if TYPE_CHECKING:
    from ..models import ProfileProblem
    from .records import ChannelKey, ChannelModel, PartnerKey, PartnerModel, ProfileRecord
    from .snapshot import SnapshotInfo

__all__ = ["Indexed"]

T = TypeVar("T")


class Indexed(Protocol):
    """An estate as its views read it: records, registries, what is cached on it."""

    @property
    def records(self) -> tuple[ProfileRecord, ...]: ...
    @property
    def problems(self) -> tuple[ProfileProblem, ...]: ...
    @property
    def channels(self) -> Mapping[ChannelKey, ChannelModel]: ...
    @property
    def partners(self) -> Mapping[PartnerKey, PartnerModel]: ...
    @property
    def info(self) -> SnapshotInfo: ...
    @property
    def valid_records(self) -> tuple[ProfileRecord, ...]: ...
    @property
    def conflicted(self) -> frozenset[tuple[str, Any]]: ...
    @property
    def unresolved(self) -> Mapping[ChannelKey, tuple[str, ...]]: ...

    def derived(self, name: str, build: Callable[[Self], T]) -> T:
        """`build(self)`, computed once per estate and name."""
        ...

    def take(self, positions: Sequence[int], *, info: SnapshotInfo | None = None) -> Self:
        """A new estate of the records at `positions`."""
        ...
