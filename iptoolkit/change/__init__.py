"""Change over time: what changed between two snapshots, schema drift, an estate's history.

>>> diff = ipt.diff(old_estate, new_estate)      # or two snapshot paths
>>> print(diff.summary())                         # "3 profiles added, ...; 2 breaking"
>>> report = ipt.schema_report(estate)            # what the spec does not describe

`model` holds the data types (`Change`, `EstateDiff`); `diff` computes a diff (with `walk`
comparing two items field by field, `links` the graph's edges from the records and
`severity` the rules of breaking, notable and cosmetic); `render` writes it as text,
Markdown, HTML, a frame or JSON. The `iptoolkit diff` command is `iptoolkit/cli/diff.py`.
"""

from __future__ import annotations

from .estate_diff import Change, EstateDiff

__all__ = ["Change", "EstateDiff"]
