"""The one pass `ipt.load` makes over each profile: proven, checked and indexed at once.

A load proves the text exactly as orjson writes it (`read_json`), finds the faulty profiles
(`fastcheck`) and builds the index (`records`). Done one step at a time, each step walked
every profile again, long after the processor's cache had let it go (10k profiles parse to
some 75 MB of objects). Done here profile by profile, as the proof reaches each one, the
same work takes less time (issue 25, 10k profiles: the whole load about 8% less CPU,
median of 16 paired fresh processes, with the same instructions but fewer cache misses).

When the text is not as orjson writes it (indented, a repeated key, a number beyond a
double, an integer beyond 64 bits), or the listing lies deeper than under a key of the top
object, the pass is void and the load takes the step-by-step road (`proven` False).
"""

from __future__ import annotations

from typing import Any

from ..models import ParseError
from ..models.fastcheck import profile_fault
from ..models.jsontext import ListingVisit
from ..support.progress import NO_PROGRESS, Progress
from .records import PENDING, RecordBuilder
from .snapshot import listing_in

__all__ = ["LoadPass"]


class LoadPass(ListingVisit):
    """Visits the profiles of a snapshot file as `read_snapshot_json(visit=)` proves them:
    the fast check's verdict, and the record (pending for a suspect, which pydantic
    judges once the pass is over); each profile indexed is one step of `progress`."""

    def __init__(self, progress: Progress = NO_PROGRESS) -> None:
        self.progress = progress
        self.items: list[Any] | None = None
        """The listing visited (the profiles as parsed)."""
        self.suspects: list[int] = []
        """The positions of the profiles the fast check found at fault."""
        self.records = RecordBuilder()

    def locate(self, document: Any) -> list[Any] | None:
        try:
            self.items = listing_in(document)[0]
        except ParseError:  # no listing: reading on says so
            return None
        self.progress.stage("Indexing profiles", total=len(self.items))
        return self.items

    def void(self) -> None:
        self.items, self.suspects, self.records = None, [], RecordBuilder()

    def item(self, index: int, item: Any) -> None:
        self.progress.advance()
        if profile_fault(item) is None:
            self.records.add(item)
        else:
            self.suspects.append(index)
            self.records.add(item, PENDING)
