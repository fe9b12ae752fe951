"""`History.plot_history`: an estate's counts over time, breaking changes marked.

It draws what the history hands it (the timeline frame and the breaking changes of each
fetch), so the picture knows no `History` and the history reaches it only when asked.

Two panels sharing the time axis: what the estate holds (profiles, active profiles,
channels, partners) above, what deserves a look (problems, findings) below. A fetch that
brought breaking changes gets a red line across both panels and a red triangle on the
profiles line, labelled with how many.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..support.names import plural
from ..topology.style import KIND_COLOURS, STATUS_COLOURS
from .backend import detach, literal_text, matplotlib_module, new_figure

if TYPE_CHECKING:
    from datetime import datetime

    import pandas
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_history"]

_SIZE = ("profiles", "active_profiles", "channels", "partners")
_HEALTH = ("problems", "findings")
_COLOURS = {
    "profiles": KIND_COLOURS["profile"],
    "active_profiles": "#8C9BAB",
    "channels": "#0072B2",
    "partners": KIND_COLOURS["partner"],
    "problems": "#CC3311",
    "findings": "#E69F00",
}
_BREAKING = STATUS_COLOURS["removed"]


@literal_text
def plot_history(
    timeline: pandas.DataFrame,
    breaking: Sequence[int],
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Draw a history's counts over time (see the module docstring); return the figure.

    `timeline`: `History.timeline` (a row per snapshot, `fetched_at` and the counts);
    `breaking`: the breaking changes of each fetch after the first. `ax`: draw the estate's
    counts only, into these axes (the health panel needs a figure of its own); `title`:
    None for one naming the span, `""` for none.
    """
    own = ax is None
    if ax is None:
        figure = new_figure(10.0, 6.2)
        top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(2.2, 1.0))
    else:  # a SubFigure's axes give the SubFigure, drawn into and handed back as it is
        figure, top, bottom = cast("Figure", ax.figure), ax, None
    times = list(timeline["fetched_at"])
    for name in _SIZE:
        _line(top, times, list(timeline[name]), name)
    top.set_ylabel("count")
    top.set_ylim(bottom=0)
    if bottom is not None:
        for name in _HEALTH:
            _line(bottom, times, list(timeline[name]), name)
        bottom.set_ylabel("count")
        peak = max([1, *timeline["problems"], *timeline["findings"]])
        bottom.set_ylim(bottom=-0.04 * peak)  # a line at zero stays visible
    marks = [(times[i + 1], n) for i, n in enumerate(breaking) if n]
    profiles = dict(zip(times, timeline["profiles"], strict=True))
    for when, count in marks:
        for axes in (top, bottom):
            if axes is not None:
                axes.axvline(when, color=_BREAKING, lw=1.0, ls=(0, (4, 2)), alpha=0.7, zorder=1)
        top.scatter([when], [profiles[when]], marker="v", s=90, color=_BREAKING, zorder=4)
        top.annotate(
            f"{count:,} breaking",
            xy=(when, profiles[when]),
            xytext=(0, 9),
            textcoords="offset points",
            ha="center",
            fontsize=8.5,
            fontweight="bold",
            color=_BREAKING,
        )
    if marks:  # a legend entry for the marks
        top.plot([], [], marker="v", ls=(0, (4, 2)), color=_BREAKING, label="breaking changes")
    top.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    if bottom is not None:
        bottom.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    for axes in (top, bottom):
        if axes is not None:
            axes.grid(axis="y", color="#E3E6EA", lw=0.8)
            axes.spines[["top", "right"]].set_visible(False)
            axes.margins(x=0.06, y=0.15)
    _dates(bottom if bottom is not None else top, times)
    text = _title(times) if title is None else title
    if text:
        if own:
            figure.suptitle(text, x=0.01, ha="left", fontsize=12, fontweight="bold")
        else:
            top.set_title(text, loc="left", fontsize=11, fontweight="bold")
    if own:
        figure.tight_layout()
        return detach(figure)
    return figure


def _line(axes: Axes, times: list[Any], values: list[int], name: str) -> None:
    """One count's line. (`times` are datetimes, which matplotlib's date units convert;
    its type hints take numbers and arrays only, so they are typed `Any` here.)"""
    axes.plot(
        times,
        values,
        marker="o",
        markersize=4,
        lw=1.8,
        color=_COLOURS[name],
        label=name.replace("_", " "),
        ls="--" if name == "active_profiles" else "-",
    )


def _dates(axes: Axes, times: list[Any]) -> None:
    """A tick at each snapshot while they fit, else matplotlib's concise dates."""
    mdates = matplotlib_module("dates")

    if 0 < len(times) <= 10:
        same_day = len({time.date() for time in times}) < len(times)
        axes.set_xticks(times)
        axes.xaxis.set_major_formatter(
            mdates.DateFormatter("%Y-%m-%d\n%H:%M" if same_day else "%Y-%m-%d")
        )
        return
    locator = mdates.AutoDateLocator(minticks=3, maxticks=8)
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))


def _title(times: list[datetime]) -> str:
    if not times:
        return "History: no snapshot"
    first, last = times[0], times[-1]
    return (
        f"History of {plural(len(times), 'snapshot')}, "
        f"{first:%Y-%m-%d} to {last:%Y-%m-%d}: counts per snapshot"
    )
