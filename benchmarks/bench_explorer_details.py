"""Click-through details and the Findings tab at 10,000 profiles, through their callbacks.

What an analyst waits for, each against a floor measured in the same run:

- opening an item's details (a click on a link): `detail_html` against the two queries it
  asks (`where_used` and `impact` of the item) alone;
- a key typed in the search box (suggestions over the whole estate, an exact name opening
  at once) against a bare scan of the same labels;
- the Findings tab: the first visit of a filter (audit of the selection and its HTML)
  against `ipt.findings` of the same selection alone; a revisit (from the cache);
- a filter change while the Findings tab is hidden (it waits for no audit) and while it
  is shown, against the same change with the tab hidden.

"First" figures are the first call in this process (the graph and the resolver's index
are made on first need); the others are the best of `--repeat` runs with the estate held
in memory.

    python benchmarks/bench_explorer_details.py [--profiles 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

from iptoolkit.audit import findings  # noqa: E402
from iptoolkit.demo import demo_estate  # noqa: E402
from iptoolkit.filters import Filter  # noqa: E402
from iptoolkit.queries import impact, where_used  # noqa: E402
from iptoolkit.widgets import Explorer  # noqa: E402
from iptoolkit.widgets.explorer import TABS  # noqa: E402
from iptoolkit.widgets.item_html import detail_html  # noqa: E402


def first(func: object) -> float:
    start = time.perf_counter()
    func()  # type: ignore[operator]
    return time.perf_counter() - start


def row(name: str, seconds: float, floor: float | None = None) -> None:
    ratio = f"{seconds / floor:>7.2f}" if floor else f"{'':>7}"
    base = f"{floor:>9.3f}" if floor is not None else f"{'':>9}"
    print(f"{name:46} {seconds:>9.3f} {base} {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    repeat = args.repeat

    estate = demo_estate(n_profiles=args.profiles)
    explorer = Explorer(estate, debounce=0, diagram=False)
    model, detail, pane = explorer.model, explorer.detail, explorer.findings
    print(f"{estate!r}\n")
    print(f"{'what':46} {'seconds':>9} {'floor s':>9} {'ratio':>7}")

    # details: the first opening builds the estate's graph; then a busy partner and channel
    used = Counter(key for record in estate.records for key in record.partners)
    partner = max(estate.partners, key=used.__getitem__)
    busiest = f"partner:{partner}"
    row("first details (graph built on first need)", first(lambda: explorer.show_detail(busiest)))
    channel = next(iter(estate.channels))
    inside = detail.inside
    for node in (busiest, f"channel:{channel}", model.profile_nodes[0]):
        opened = best_time(lambda node=node: detail_html(model, node, inside), repeat)
        floor = best_time(
            lambda node=node: (where_used(model.graph, node), impact(model.graph, node)), repeat
        )
        row(f"open {node[:36]} ({len(where_used(model.graph, node)):,} users)", opened, floor)

    # typing: suggestions over every profile label, and an exact name opening at once
    detail.kind.value = "profile"
    labels = list(detail.choices)

    def scan() -> list[str]:
        return [label for label in labels if "orders" in label.lower()]

    for word, what in (("orders", "a common word"), ("orders zq", "no match: every label read")):
        typed = best_time(
            lambda word=word: setattr(detail.search, "value", word),
            repeat,
            setup=lambda word=word: setattr(detail.search, "value", word[:-1]),
        )
        row(f"a key typed, {what}", typed, best_time(scan, repeat))
    detail.kind.value = "partner"
    name = estate.partners[partner].name
    row("first exact partner name typed (index made)", first(
        lambda: setattr(detail.search, "value", name.upper())))  # fmt: skip
    assert detail.node == busiest, detail.node

    # findings: first visit per filter, against the audit alone; a revisit
    steps = [Filter(), Filter(active=True), Filter(agent_types=["SFTPAgentSettings"])]
    for chosen in steps:
        explorer.tabs.selected_index = 0
        explorer.filter = chosen
        selection = explorer.selection
        shown = first(lambda: setattr(explorer.tabs, "selected_index", TABS.index("Findings")))
        alone = best_time(lambda s=selection: findings(s), repeat)
        row(f"findings tab, first visit: {len(selection):,} profiles", shown, alone)
    explorer.tabs.selected_index = 0
    explorer.filter = Filter()
    again = first(lambda: setattr(explorer.tabs, "selected_index", TABS.index("Findings")))
    row("findings tab, a filter seen before (cached)", again)

    # a filter change with the tab hidden, and shown (first visits: caches emptied)
    def forget() -> None:
        model._selections.clear()
        pane._cache.clear()

    def change(chosen: Filter) -> None:
        explorer.filter = chosen

    for tab in ("Table", "Findings"):
        explorer.tabs.selected_index = TABS.index(tab)
        took = best_time(
            lambda: change(Filter(active=True)), repeat, setup=lambda: (change(Filter()), forget())
        )
        if tab == "Table":
            hidden = took
        row(f"filter change, {tab} tab shown", took, hidden)
    print(
        "\nthe audit runs only while the Findings tab is shown, once per filter; a filter "
        "change with any other tab shown waits for none of it"
    )


if __name__ == "__main__":
    main()
