"""Two installations compared by what things are, not by their ids: test against production.

>>> result = ipt.compare("test.json", "prod.json")    # or two estates
>>> print(result.summary())                           # "2 profiles only in test; ..."

Items are matched by natural keys (`rules.py`: a partner by name, a channel by partner,
type and name, a profile by group and name), references inside profiles translated through
the match (`normal.py`), so the same channel under another id is no difference. `items`
reads each installation's items, `matching` pairs them (manual, auto, ambiguous,
unmatched with the closest candidates), `engine` compares the pairs with the diff's walk,
masking and severity table (`change/`), `difference` and `model` hold the result,
`render` writes it as text, Markdown, JSON and CSV, `mapping` reads and writes the mapping
file. The command is `iptoolkit/cli/compare.py`. (The package is `comparing`, as the
audit's is `auditing`: `ipt.compare` is the function.)
"""

from __future__ import annotations

from .comparison import Comparison, Difference, FieldDiff, Match
from .engine import compare
from .rules import Rules

__all__ = ["compare", "Comparison", "Difference", "FieldDiff", "Match", "Rules"]
