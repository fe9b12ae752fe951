"""The Explorer's responsiveness at 10,000 profiles, driven through its callbacks (no browser).

For a series of filter changes made the way the front end makes them (setting a control's
value), it times:

- the change: what follows a click or a pause in typing (selection, counts, facets and
  the options relabelled with them, the table's payload for the front end, the header);
  target under 0.3 s;
- counts and facets: the selection's counts and every option's count in it (from the
  sets the filter's fields allow, `filters.field_matches`), the options relabelled with
  them: what the kernel does before the front end can show both, the table left out;
- the bare floor: `estate.subset(filter)` alone, and the ratio of the change to it;
- the diagram: drawing the selection's topology to PNG, which follows the change (debounced)
  and is cached per filter, so returning to a filter costs nothing.

Caches are emptied before each timed run, so every figure is a first visit.

    python benchmarks/bench_explorer.py [--profiles 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from iptoolkit.demo import demo_estate
from iptoolkit.query.filters import Filter
from iptoolkit.viewmodel.diagram import render_png
from iptoolkit.viewmodel.explorer_model import TABS
from iptoolkit.widgets import Explorer

TARGET = 0.3


def best_time(func: Callable[[], Any], repeat: int, before: Callable[[], None]) -> float:
    """The fastest of `repeat` runs, `before` run (untimed) ahead of each."""
    best = float("inf")
    for _ in range(repeat):
        before()
        gc.collect()
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-diagram", action="store_true", help="skip diagram timings")
    args = parser.parse_args()

    start = time.perf_counter()
    estate = demo_estate(n_profiles=args.profiles)
    print(f"demo estate: {estate!r} in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    explorer = Explorer(estate, debounce=0, diagram=False)
    explorer.tabs.selected_index = TABS.index("Table")  # the table follows while shown
    print(f"Explorer ready (facets, table, index) in {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    type(explorer.model.facet_index)(estate)
    print(
        f"the facet index (each option's profiles, once per estate) in "
        f"{time.perf_counter() - start:.2f} s\n"
    )

    panel = explorer.panel
    options = explorer.model.facets
    busiest_partner = max(options.partners, key=options.partners.__getitem__)
    top_group = next(g for g in options.groups if "/" not in g)

    def typed_orders() -> None:
        panel.set(Filter())
        panel.text.value = "orders"

    def inactive() -> None:
        panel.set(Filter())
        panel.active.value = False

    steps: list[tuple[str, Callable[[], None]]] = [
        ("agent type SFTP", lambda: setattr(panel.agent_types, "value", ("SFTPAgentSettings",))),
        ("+ active only", lambda: setattr(panel.active, "value", True)),
        ("+ channel type AS2", lambda: setattr(panel.channel_types, "value", (
            "IntegrationPartnerChannelAS2",))),
        ("reset", lambda: panel.set(Filter())),
        (f"group {top_group}", lambda: setattr(panel.groups, "value", (top_group,))),
        (f"partner {busiest_partner[:18]}", lambda: setattr(panel.partners, "value", [
            busiest_partner])),
        ("text 'orders'", typed_orders),
        ("inactive", inactive),
        ("everything", lambda: panel.set(Filter())),
    ]  # fmt: skip

    def forget() -> None:
        explorer.model._selections.clear()

    header = (
        f"{'filter change':26} {'profiles':>8} {'change s':>9} {'counts+facets s':>15} "
        f"{'subset s':>9} "
        f"{'ratio':>6}"
    )
    if not args.no_diagram:
        header += f" {'diagram s':>10}"
    print(header)
    worst = worst_facets = 0.0
    for name, step in steps:
        # the state before this step is whatever the previous steps left: as in a session
        previous = explorer.filter
        step()
        chosen = explorer.filter

        def replay(chosen: Filter = chosen) -> None:
            panel.set(chosen)

        def reset(previous: Filter = previous) -> None:
            panel.set(previous)  # back to where this step started, untimed
            forget()

        change = best_time(replay, args.repeat, reset)

        def counts_and_facets(chosen: Filter = chosen) -> None:
            selection = explorer.model.select(chosen)
            selection.counts_text()
            assert selection.facets is not None
            panel.show_facets(selection.facets)

        def relabel_before(previous: Filter = previous) -> None:
            forget()
            before = explorer.model.select(previous).facets
            assert before is not None
            panel.show_facets(before)
            forget()

        facets = best_time(counts_and_facets, args.repeat, relabel_before)
        bare = best_time(partial(estate.subset, chosen), args.repeat, lambda: None)
        worst = max(worst, change)
        worst_facets = max(worst_facets, facets)
        line = (
            f"{name:26} {len(explorer.selection):>8,} {change:>9.3f} {facets:>15.3f} "
            f"{bare:>9.3f} {change / bare:>6.2f}"
        )
        if not args.no_diagram:
            selection = explorer.selection
            drawn = best_time(partial(render_png, selection), 1, lambda: None)
            line += f" {drawn:>10.2f}"
        print(line)
    narrowing = best_time(
        lambda: setattr(panel.partner_search, "value", "pack"),
        args.repeat,
        lambda: setattr(panel.partner_search, "value", ""),
    )
    shown, every = len(panel.partners.options), len(explorer.model.facets.partners)
    print(
        f"\nnarrowing the partner list to 'pack' ({shown} of {every} partners shown, "
        f"no filter change): {narrowing:.4f} s"
    )
    verdict = "OK" if worst < TARGET else "TOO SLOW"
    print(f"\nslowest filter change: {worst:.3f} s (target < {TARGET} s): {verdict}")
    verdict = "OK" if worst_facets < TARGET else "TOO SLOW"
    print(f"slowest counts and facets: {worst_facets:.3f} s (target < {TARGET} s): {verdict}")
    print(
        "the diagram follows the change after a pause, from a cache when the filter was seen "
        "before; the counts and the table do not wait for it"
    )


if __name__ == "__main__":
    main()
