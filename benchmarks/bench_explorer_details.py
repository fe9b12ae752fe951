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

Then the memory details and findings keep beside the estate against its graph alone, and
the first details in a fresh process against loading the estate there.

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
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

from iptoolkit.auditing import findings  # noqa: E402
from iptoolkit.demo import demo_estate  # noqa: E402
from iptoolkit.models import IntegrationPartner  # noqa: E402
from iptoolkit.query.filters import Filter  # noqa: E402
from iptoolkit.query.reach import impact, where_used  # noqa: E402
from iptoolkit.viewmodel.explorer_model import TABS  # noqa: E402
from iptoolkit.viewmodel.item_html import detail_html  # noqa: E402
from iptoolkit.widgets import Explorer  # noqa: E402


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
        opened = best_time(partial(detail_html, model, node, inside), repeat)
        floor = best_time(
            partial(lambda n: (where_used(model.graph, n), impact(model.graph, n)), node), repeat
        )
        row(f"open {node[:36]} ({len(where_used(model.graph, node)):,} users)", opened, floor)

    # typing: suggestions over every profile label, and an exact name opening at once
    detail.kind.value = "profile"
    labels = list(detail.choices)

    def scan() -> list[str]:
        return [label for label in labels if "orders" in label.lower()]

    for word, what in (("orders", "a common word"), ("orders zq", "no match: every label read")):
        typed = best_time(
            partial(setattr, detail.search, "value", word),
            repeat,
            setup=partial(setattr, detail.search, "value", word[:-1]),
        )
        row(f"a key typed, {what}", typed, best_time(scan, repeat))
    detail.kind.value = "partner"
    chosen_partner = estate.partners[partner]
    assert isinstance(chosen_partner, IntegrationPartner) and chosen_partner.name, partner
    name: str = chosen_partner.name
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
        alone = best_time(partial(findings, selection), repeat)
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

    def afresh() -> None:
        change(Filter())
        forget()

    for tab in ("Table", "Findings"):
        explorer.tabs.selected_index = TABS.index(tab)
        took = best_time(lambda: change(Filter(active=True)), repeat, setup=afresh)
        if tab == "Table":
            hidden = took
        row(f"filter change, {tab} tab shown", took, hidden)
    print(
        "\nthe audit runs only while the Findings tab is shown, once per filter; a filter "
        "change with any other tab shown waits for none of it"
    )
    memory(estate)
    fresh_process(args.profiles)


def memory(estate: object) -> None:
    """What details and findings keep in memory beside the estate (the graph, the look-up
    index, the findings cache), against the graph alone, built in the same run."""
    import gc
    import tracemalloc

    from iptoolkit.query.graph import build_graph

    gc.collect()
    tracemalloc.start()
    graph = build_graph(estate)  # type: ignore[arg-type]
    graph_bytes = tracemalloc.get_traced_memory()[0]
    del graph
    gc.collect()
    tracemalloc.reset_peak()
    start = tracemalloc.get_traced_memory()[0]
    explorer = Explorer(estate, debounce=0, diagram=False)  # type: ignore[arg-type]
    explorer.show_detail(explorer.model.profile_nodes[0])
    explorer.detail.kind.value = "partner"
    explorer.detail.search.value = "zz"  # the look-up index
    explorer.tabs.selected_index = TABS.index("Findings")
    held = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    print(
        f"\nmemory: an Explorer with details and findings opened holds {held / 2**20:,.1f} MiB; "
        f"the estate's graph alone {graph_bytes / 2**20:,.1f} MiB (ratio {held / graph_bytes:.2f})"
    )
    explorer.close()


def fresh_process(profiles: int) -> None:
    """The first details in a fresh process, imports and the estate's graph included."""
    import subprocess

    code = (
        "import time; t0 = time.perf_counter()\n"
        "from iptoolkit.demo import demo_estate\n"
        "from iptoolkit.widgets import Explorer\n"
        f"estate = demo_estate(n_profiles={profiles})\n"
        "t1 = time.perf_counter()\n"
        "x = Explorer(estate, debounce=0, diagram=False)\n"
        "x.show_detail(x.model.profile_nodes[0])\n"
        "print(time.perf_counter() - t1, t1 - t0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    shown, loaded = float(out[-2]), float(out[-1])
    print(
        f"fresh process: imports and a {profiles:,}-profile demo estate {loaded:.2f} s, then "
        f"Explorer and the first details {shown:.2f} s (ratio {shown / loaded:.2f})"
    )


if __name__ == "__main__":
    main()
