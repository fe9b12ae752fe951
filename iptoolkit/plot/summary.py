"""`plot_summary`: the bar charts an analyst wants first, on one figure.

Profiles by input agent type, channels by type, what is active and what is not, and
profiles per group; each bar split into active and inactive, with its count written on it.
Long tails are folded into one "other" bar so the chart stays readable at any size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.nodes import is_active
from ..support.names import NO_TYPE, plural, type_label, unresolved_note
from ..support.printable import shorten
from ..topology.style import KIND_COLOURS, channel_colour
from ..topology.view import EstateOrGraph, channel_counts, graph_of
from .backend import literal_text, matplotlib_module

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_summary", "summary_counts"]

MAX_BARS = 20
_INACTIVE = "#C9CED6"
Tally = dict[str, tuple[int, int]]  # label -> (active, inactive)


def summary_counts(estate_or_graph: EstateOrGraph) -> dict[str, Tally]:
    """The numbers behind `plot_summary`: label -> (active, inactive), per chart.

    Types are counted under `names.type_label`, no type under `names.NO_TYPE`, as in
    `Estate.summary`; channels are the resolved ones (see `channel_counts`).
    """
    graph, _ = graph_of(estate_or_graph)
    agents: Counter[tuple[str, bool]] = Counter()
    channels: Counter[tuple[str, bool]] = Counter()
    groups: Counter[tuple[str, bool]] = Counter()
    states: Counter[tuple[str, bool]] = Counter()
    for _, data in graph.nodes(data=True):
        kind = data.get("kind")
        active = is_active(data)
        if kind == "profile":
            agent = data.get("agent_type")
            agents[(type_label(agent) if agent else NO_TYPE, active)] += 1
            group = data.get("group")
            groups[(group if isinstance(group, str) and group else "(no group)", active)] += 1
            states[("profiles", active)] += 1
        elif kind == "channel" and data.get("resolved") is not False:
            channel_type = data.get("type")
            channels[(type_label(channel_type) if channel_type else NO_TYPE, active)] += 1
            states[("channels", active)] += 1
        elif kind in ("agent", "response", "partner"):
            name = {"agent": "input agents", "response": "response units"}.get(kind, "partners")
            states[(name, active)] += 1
    order = ("profiles", "input agents", "response units", "channels", "partners")
    state_tally = {name: (states[(name, True)], states[(name, False)]) for name in order}
    return {
        "agent_types": _tally(agents),
        "channel_types": _tally(channels),
        "activity": {name: counts for name, counts in state_tally.items() if sum(counts)},
        "groups": _tally(groups),
    }


def _tally(counter: Counter[tuple[str, bool]]) -> Tally:
    labels = sorted({label for label, _ in counter})
    tally = {label: (counter[(label, True)], counter[(label, False)]) for label in labels}
    return dict(sorted(tally.items(), key=lambda item: (-sum(item[1]), item[0])))


@literal_text
def plot_summary(estate_or_graph: EstateOrGraph, *, title: str | None = None) -> Figure:
    """Four bar charts of an estate (or graph): agent types, channel types, activity, groups.

    Active counts are drawn dark, inactive ones pale; the figure is returned, not shown.
    """
    from .backend import detach, new_figure

    graph, _ = graph_of(estate_or_graph)
    counts = summary_counts(graph)
    top = min(max(len(counts["agent_types"]), len(counts["channel_types"]), 5), MAX_BARS)
    bottom = min(max(len(counts["groups"]), len(counts["activity"]), 5), MAX_BARS)
    height = 1.9 + 0.27 * (top + bottom)  # bars keep their thickness as the lists grow
    figure = new_figure(14.0, height)
    grid = figure.add_gridspec(
        2,
        2,
        left=0.16,
        right=0.97,
        top=1 - 0.85 / height,
        bottom=0.45 / height,
        hspace=0.3,
        wspace=0.5,
    )
    profiles = sum(counts["activity"].get("profiles", (0, 0)))
    channels, unresolved = channel_counts(graph)
    text = (
        title
        if title is not None
        else f"Estate summary: {plural(profiles, 'profile')}, "
        f"{plural(channels, 'channel')}{unresolved_note(unresolved)}"
    )
    if text:
        figure.suptitle(text, x=0.012, ha="left", fontsize=14, fontweight="bold")
    agent_colour = KIND_COLOURS["agent"]
    _bars(
        figure.add_subplot(grid[0, 0]),
        counts["agent_types"],
        "Profiles by input agent type",
        lambda _: agent_colour,
        noun="agent types",
    )
    _bars(
        figure.add_subplot(grid[0, 1]),
        counts["channel_types"],
        "Channels by type",
        channel_colour,
        noun="channel types",
    )
    colours = {
        "profiles": KIND_COLOURS["profile"],
        "input agents": KIND_COLOURS["agent"],
        "response units": KIND_COLOURS["response"],
        "channels": "#6A6A6A",
        "partners": KIND_COLOURS["partner"],
    }
    _bars(
        figure.add_subplot(grid[1, 0]),
        counts["activity"],
        "Share active",
        lambda name: colours.get(name, "#6A6A6A"),
        percent=True,
    )
    _bars(
        figure.add_subplot(grid[1, 1]),
        counts["groups"],
        "Profiles per group",
        lambda _: KIND_COLOURS["profile"],
        noun="groups",
    )
    _legend(figure)
    return detach(figure)


def _bars(
    ax: Axes,
    tally: Tally,
    title: str,
    colour: Any,
    *,
    noun: str = "",
    percent: bool = False,
) -> None:
    """Horizontal stacked bars (active, inactive), biggest on top, the tail folded."""
    items = list(tally.items())
    if len(items) > MAX_BARS:
        rest = items[MAX_BARS - 1 :]
        folded = (sum(a for _, (a, _) in rest), sum(i for _, (_, i) in rest))
        items = [*items[: MAX_BARS - 1], (f"{len(rest)} other {noun}", folded)]
    ax.set_title(title, loc="left", fontsize=11, fontweight="bold", color="#30363D")
    for spine in ("top", "right", "left"):
        ax.spines[spine].set_visible(False)
    ax.tick_params(axis="y", length=0, labelsize=9)
    ax.tick_params(axis="x", labelsize=8, colors="#59616B")
    ax.grid(axis="x", color="#E4E7EB", lw=0.8)
    ax.set_axisbelow(True)
    if not items:
        ax.text(
            0.5,
            0.5,
            "nothing to count",
            ha="center",
            va="center",
            color="#8A8F96",
            transform=ax.transAxes,
        )
        ax.set_yticks([])
        return
    labels = [shorten(label, 28) for label, _ in items]
    ys = list(range(len(items)))
    active = [a for _, (a, _) in items]
    inactive = [i for _, (_, i) in items]
    active_bar: Sequence[float]  # shares, or the counts themselves
    inactive_bar: Sequence[float]
    if percent:  # shares: kinds of very different counts side by side
        totals = [max(a + i, 1) for a, i in zip(active, inactive, strict=True)]
        active_bar = [100 * a / t for a, t in zip(active, totals, strict=True)]
        inactive_bar = [100 * i / t for i, t in zip(inactive, totals, strict=True)]
    else:
        active_bar, inactive_bar = active, inactive
    ax.barh(ys, active_bar, color=[colour(label) for label, _ in items], height=0.68)
    ax.barh(ys, inactive_bar, left=active_bar, color=_INACTIVE, height=0.68)
    ax.set_yticks(ys, labels)
    ax.set_ylim(max(len(items), 8) - 0.5, -0.5)  # a short list keeps thin bars, on top
    widest = max(a + i for a, i in zip(active_bar, inactive_bar, strict=True)) or 1
    ax.set_xlim(0, widest * (1.45 if percent else 1.35))
    if percent:
        ax.xaxis.set_major_formatter("{x:.0f} %")
        ax.set_xticks([0, 25, 50, 75, 100])
    ends = [a + i for a, i in zip(active_bar, inactive_bar, strict=True)]
    for y, a, i, end in zip(ys, active, inactive, ends, strict=True):
        if percent:
            note = f"{a:,} of {a + i:,} active" if a + i else "none"
        else:
            note = f"{a + i:,}" + (f" ({i:,} inactive)" if i else "")
        ax.text(end + widest * 0.01, y, note, va="center", fontsize=8, color="#30363D")


def _legend(figure: Figure) -> None:
    patches = matplotlib_module("patches")
    handles = [
        patches.Patch(color="#4D5B6A", label="active"),
        patches.Patch(color=_INACTIVE, label="inactive"),
    ]
    figure.legend(
        handles=handles,
        loc="upper right",
        bbox_to_anchor=(0.97, 1 - 0.12 / figure.get_figheight()),
        ncol=2,
        frameon=False,
        fontsize=9,
    )
