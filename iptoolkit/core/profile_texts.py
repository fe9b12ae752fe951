"""Each profile's exact JSON text, kept as one text and where each profile sits in it.

A snapshot file holds its profiles one a line, as iptoolkit writes them. When reading it
proved that (`read_json(texts=)`), the file's own text serves whoever needs every
profile's JSON: the archive hashes and stores them, the URL audit rules and the archive's
schema search look for a substring in all of them at once. Nothing is written or joined
again (35 MB at 10,000 profiles); a list of texts from elsewhere is joined once.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import overload

__all__ = ["ProfileTexts", "as_profile_texts"]


class ProfileTexts(Sequence[bytes]):
    """The texts of a listing's profiles, in order, as slices of one text (which may hold
    more: a snapshot's header, the separators); `find_all` finds only what lies wholly
    inside one profile's text."""

    __slots__ = ("text", "starts", "ends")

    def __init__(self, text: bytes, starts: Sequence[int], ends: Sequence[int]) -> None:
        self.text = text
        self.starts = list(starts)
        self.ends = list(ends)

    @classmethod
    def joined(cls, texts: Sequence[bytes]) -> ProfileTexts:
        """Texts from elsewhere, joined with line breaks (compact JSON holds none)."""
        starts, ends, at = [], [], 0
        for text in texts:
            starts.append(at)
            at += len(text)
            ends.append(at)
            at += 1
        return cls(b"\n".join(texts), starts, ends)

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> bytes: ...
    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...
    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(len(self)))]
        return self.text[self.starts[index] : self.ends[index]]

    def take(self, positions: Sequence[int]) -> ProfileTexts:
        """The texts at `positions` (increasing, as a subset keeps them), sharing this text:
        nothing is copied. `holder` needs them in the order of the text."""
        starts = [self.starts[n] for n in positions]
        if any(later <= earlier for earlier, later in pairwise(starts)):  # -1 counts from the end
            raise ValueError("ProfileTexts.take: positions must be increasing")
        return ProfileTexts(self.text, starts, [self.ends[n] for n in positions])

    def view(self, index: int) -> memoryview:
        """The profile's text without a copy (for hashing)."""
        return memoryview(self.text)[self.starts[index] : self.ends[index]]

    def holder(self, offset: int, size: int = 1) -> int | None:
        """The position of the profile whose text holds the `size` bytes at `offset`;
        None when they lie outside every profile (a header, between two profiles)."""
        position = bisect.bisect_right(self.starts, offset) - 1
        if position < 0 or offset + size > self.ends[position]:
            return None
        return position

    def find_all(self, token: bytes) -> Iterator[tuple[int, int]]:
        """(profile position, offset in the whole text) of every occurrence of `token`
        inside one profile's text."""
        hit = self.text.find(token)
        while hit != -1:
            position = self.holder(hit, len(token))
            if position is not None:
                yield position, hit
            hit = self.text.find(token, hit + 1)


def as_profile_texts(texts: Sequence[bytes]) -> ProfileTexts:
    """`texts` as one text: itself when it is one already."""
    return texts if isinstance(texts, ProfileTexts) else ProfileTexts.joined(texts)
