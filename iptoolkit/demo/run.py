"""The main job (`make demo`, `iptoolkit demo`): the whole toolkit end to end over real HTTP.

Starts the reference server on a free loopback port with a demo estate, fetches the estate
through `Client` with client credentials, prints a summary and the findings, writes a
snapshot, diagrams and exports into the output folder, stops the server, and says where
everything is. Then a week passes (`demo_changes`): the server serves the changed estate,
it is fetched again, and what changed is written as a changelog (`changes.md`), a
diagram (`changes.png`) and the interactive map of both weeks (`changes.html`). No input,
no credentials of anyone's: the server makes its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..auditing.finding import Findings
    from ..core.estate import Estate

__all__ = ["run_demo"]

_BREAKING_SHOWN = 5
"""Breaking changes printed one per line; changes.md lists them all."""


def run_demo(
    output: str | Path = "demo-output",
    *,
    n_profiles: int = 300,
    seed: int = 0,
    echo: Callable[[str], None] = print,
) -> list[Path]:
    """Run the demo; return the files written."""
    from ..auditing import findings
    from ..exporters import export
    from ..exporters.table_files import csv_safe_frame, write_frame_csv
    from ..plot import plot_summary, plot_topology
    from .estate import demo_estate

    started = time.perf_counter()
    estate = _served_and_fetched(demo_estate(n_profiles=n_profiles, seed=seed), echo)
    output = Path(output)  # made once the server ran: without the extra, nothing is written
    output.mkdir(parents=True, exist_ok=True)
    echo("")
    _print_summary(estate, echo)
    found = findings(estate)
    echo("")
    echo(f"Findings ({len(found)}), by rule code as `iptoolkit audit --statistics` says them:")
    for line in _by_code(found).splitlines():
        echo(line)

    written = [estate.save(output / "estate.json")]
    overview = plot_topology(estate, title=f"Integration topology ({len(estate)} profiles)")
    written.append(_save_figure(overview, output / "topology.png"))
    written.append(_save_figure(plot_summary(estate), output / "summary.png"))
    for name in ("topology.svg", "profiles.csv", "estate.graphml", "estate.dot"):
        written.append(export(estate, output / name))
    written.extend(_busiest_partner(estate, output, echo))
    written.append(write_frame_csv(csv_safe_frame(found.to_frame()), output / "findings.csv"))
    written.extend(_a_week_later(estate, output, seed, echo))
    echo("")
    echo(f"Wrote {len(written)} files to {output}/ in {time.perf_counter() - started:.1f} s:")
    for path in written:
        echo(f"  {path}")
    return written


def _served_and_fetched(source: Estate, echo: Callable[[str], None]) -> Estate:
    """Serve `source` on the reference server and fetch it over HTTP, as a client would."""
    from ..client import Client, ClientCredentials
    from ..server import running

    with running(source) as server:
        echo(f"Reference server listening on {server.base_url}")
        demo = server.credentials  # running() without principals: the demo ones, known
        assert demo is not None
        auth = ClientCredentials(demo.client_id, demo.client_secret)
        with Client(server.base_url, auth=auth) as client:
            estate = client.fetch_estate(progress=False)
    echo("Reference server stopped.")
    return estate


def _a_week_later(
    estate: Estate, output: Path, seed: int, echo: Callable[[str], None]
) -> list[Path]:
    """Serve the estate as it is a week later, fetch it again, and write what changed.

    The week passes in a second: both snapshots carry their true fetch times.
    """
    from ..change.diff import diff
    from ..exporters import export
    from .week import demo_changes

    echo("")
    echo("A week later (ipt.demo_changes): the server serves the changed estate.")
    later = _served_and_fetched(demo_changes(estate, seed=seed), echo)
    changes = diff(estate, later)
    echo(f"Changes: {changes.summary()}")
    breaking = changes.of(severity="breaking")
    for change in breaking[:_BREAKING_SHOWN]:
        named = change.kind == "link" and change.reason  # a link's reason names both ends
        echo(f"  breaking: {change.reason if named else f'{change.key}: {change.reason}'}")
    if len(breaking) > _BREAKING_SHOWN:
        echo(f"  ... and {len(breaking) - _BREAKING_SHOWN} more (see changes.md)")
    severity = changes.counts()["severity"]
    title = (
        f"What changed in a week (demo): {severity['breaking']} breaking, "
        f"{severity['notable']} notable, {severity['cosmetic']} cosmetic changes"
    )
    return [
        later.save(output / "estate-next-week.json"),
        export(changes, output / "changes.md"),
        # only the changed items and their neighbours: a week's changes drawn one by one
        export(changes, output / "changes.png", only_changed=True, title=title),
        export(changes, output / "changes.html", title=title),  # explored offline
    ]


def _by_code(found: Findings) -> str:
    """The findings counted per rule code, most first, with severity and title: the
    audit's own `--statistics` report (one wording of a finding everywhere)."""
    from ..auditing.registry import all_rules
    from ..auditing.reports.context import ReportContext
    from ..auditing.reports.rows import statistics

    return statistics(ReportContext(found, all_rules()))


def _print_summary(estate: Estate, echo: Callable[[str], None]) -> None:
    summary = estate.summary()
    echo(f"Fetched {summary['profiles']} profiles from {summary['source_url']}")
    echo(
        f"  {summary['active_profiles']} active, {summary['problems']} problems, "
        f"{summary['channels']} channels, {summary['partners']} partners, "
        f"{summary['conflicts']} conflicts"
    )
    from ..support.names import named_type

    echo("Profiles by input agent type:")
    for agent_type, count in summary["agent_types"].items():
        echo(f"  {named_type(agent_type):<56} {count:>5}")


def _busiest_partner(estate: Estate, output: Path, echo: Callable[[str], None]) -> list[Path]:
    """Answer the everyday questions for the partner most profiles depend on."""
    from ..exporters import export
    from ..query.filters import Filter
    from ..query.graph import build_graph
    from ..query.reach import impact
    from ..support.names import agreeing, plural

    partners = estate.to_frame("partners").sort_values(["profiles", "id"], ascending=[False, True])
    top = partners.iloc[0]
    graph = build_graph(estate)
    lost = impact(graph, top["node"])
    echo("")
    echo(f"Partner most profiles depend on: {top['name']} ({top['profiles']} profiles)")
    echo(
        f"  if it goes away: {plural(len(lost.lose_input), 'profile')} "
        f"{agreeing(len(lost.lose_input), 'lose')} their input, "
        f"{len(lost.lose_response)} {agreeing(len(lost.lose_response), 'lose')} a response path"
    )
    selection = estate.subset(Filter(partners=[str(top["id"])]))
    stem = "partner-" + "".join(ch if ch.isalnum() else "-" for ch in str(top["name"])).strip("-")
    return [export(selection, output / f"{stem}.md"), export(selection, output / f"{stem}.png")]


def _save_figure(figure: Figure, path: Path) -> Path:
    from ..plot.backend import pyplot

    figure.savefig(path, dpi=110, bbox_inches="tight")
    pyplot().close(figure)
    return path
