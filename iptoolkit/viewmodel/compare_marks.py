"""A comparison of two installations on the map (issue 43): `comparison_map`.

The map is B's topology with A's items drawn into it where the comparison matched them
(`topology.comparestatus`), each marked by its kind of difference in the comparison's own
words. A click on an item lists what differs of it (`difference_section`): the ids it has
in each installation, each field path that differs with both values (masked when the
difference was made, cut around where they differ as the reports cut them), or what is
missing or ambiguous, each with its severity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..comparing.render import status_words, value_pair
from ..support.printable import escape_unprintable
from ..support.redact import redact_text
from ..topology.comparestatus import Comparison, comparison_graph
from .change_marks import MarkedMap
from .item_html import Section

if TYPE_CHECKING:
    from ..comparing.difference import Difference

__all__ = ["comparison_map", "difference_section"]


def comparison_map(comparison: Comparison) -> MarkedMap:
    """The map of a comparison (see the module docstring); an item's own details come
    from B, or from A for what only A holds."""
    from .diagram import comparison_png

    marked = comparison_graph(comparison)
    found: dict[str, list[Difference]] = {}
    for difference in comparison.differences:
        drawn = difference.b or (difference.a and _drawn(difference.a, marked.a_ids))
        for node in dict.fromkeys([drawn, *difference.nodes]):
            if node:
                found.setdefault(node, []).append(difference)
    sections = {
        node: difference_section(differences, comparison.names)
        for node, differences in found.items()
    }
    estates = (comparison.b, comparison.a)
    return MarkedMap(marked, sections, estates, marked.a_ids, lambda: comparison_png(comparison))


def _drawn(a_node: str, a_ids: dict[str, str]) -> str:
    """The union's node of A's item `a_node` (its own id, unless B uses it: see
    `comparestatus`)."""
    return next((drawn for drawn, own in a_ids.items() if own == a_node), a_node)


def difference_section(differences: list[Difference], names: tuple[str, str]) -> Section:
    """What differs of one item, as a table (see the module docstring)."""
    rows: dict[str, str] = {}
    for difference in differences:
        rows[f"{names[0]} / {names[1]}"] = f"{difference.a or '-'} / {difference.b or '-'}"
        said = f"{status_words(difference.status, names)} ({difference.severity})"
        rows[f"{difference.kind} {difference.status}"] = f"{said}: {difference.reason}"
        for field in difference.fields:
            old, new = value_pair(field.a, field.b)
            rows[field.path] = f"{old} \u2192 {new} ({field.severity})"
    return Section(
        "Differences",
        fields={
            escape_unprintable(redact_text(field)): escape_unprintable(redact_text(text))
            for field, text in rows.items()
        },
    )
