"""The filter panel: one control per `Filter` field, read and written as a `Filter`.

The panel knows nothing of selections: it turns controls into a `Filter` (`.filter`), sets
controls from one, and calls back when the analyst changes something. Fields without a
control (`channels`, `tags`) are kept as they were set and shown in a note, so a saved
filter survives a round trip through the panel unchanged. `show_facets` relabels every
option with its count in the selection (`facets.py`), keeping what is chosen. The partner
list, long on big estates, has a box above it that narrows which partners it shows (by a
part of the name); narrowing is a view of the list, not a change of the filter.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..core.selection import Filter
from ..support.names import type_label, type_matches
from ..support.printable import shorten
from ..support.redact import redact_text
from ..viewmodel.facets import Facets

__all__ = ["FilterPanel"]

_ACTIVE = (("all", None), ("active", True), ("inactive", False))
PARTNER_CHARS = 30
"""A partner's name is cut to this many characters in the list, so that its count stays
in view: a list box cannot scroll sideways (the narrowing box matches the whole name)."""
_KEEP = object()
"""`_relabel`'s default: keep the control's value (None is a value: the toggle's "all")."""


def _title(text: str) -> W.HTML:
    return W.HTML(f"<b>{text}</b>", layout=W.Layout(margin="6px 0 0 0"))


class FilterPanel:
    """Controls for agent types, channel types, partners, groups, activity and free text."""

    def __init__(self, facets: Facets, on_change: Callable[[], None]) -> None:
        self._on_change = on_change
        self._quiet = False
        self.typing = False
        """True when the last change was typed text: the caller waits for a pause then."""
        self._extra: dict[str, Any] = {}
        self._facets = facets
        wide = W.Layout(width="100%")
        self.text = W.Text(
            description="Search",
            placeholder="words in names, groups, hosts, URLs…",
            continuous_update=True,
            layout=wide,
        )
        self.active = W.ToggleButtons(
            options=_active_options(facets),
            value=None,
            style={"button_width": "auto"},
            layout=W.Layout(width="100%"),
        )
        # each list is named by its title (its label, for assistive technology: a list
        # without one is axe's critical "select-name"); `EXPLORER_CSS` shows the bold
        # title above it and keeps the label for screen readers only
        self.agent_types = W.SelectMultiple(
            options=_type_options(facets.agent_types),
            rows=7,
            layout=wide,
            description="Input agent types",
        )
        self.channel_types = W.SelectMultiple(
            options=_type_options(facets.channel_types),
            rows=5,
            layout=wide,
            description="Channel types",
        )
        self.partner_search = W.Text(
            placeholder="narrow the partners…",
            continuous_update=True,
            layout=wide,
            description="Narrow the partners",
        )
        self.partner_search.add_class("ipt-partner-search")
        self.partner_search.observe(lambda _: self._show_partners(), "value")
        self.partners = W.SelectMultiple(
            options=_partner_options(facets, ""), rows=7, layout=wide, description="Partners"
        )
        self.groups = W.SelectMultiple(
            options=_group_options(facets), rows=7, layout=wide, description="Groups"
        )
        self.reset = W.Button(description="Reset", icon="undo", tooltip="Select everything")
        self.note = W.HTML()
        self.refusals = {name: W.HTML() for name in _PICKABLE}
        """Beside each control whose options carry counts: why the option just picked
        was not applied (counted 0), empty otherwise."""
        for name, refusal in self.refusals.items():
            refusal.add_class("ipt-refusal")
            refusal.add_class(f"ipt-refusal-{name.replace('_', '-')}")
        self.reset.on_click(lambda _: self.set(Filter()))
        for name, control in self._controls().items():
            control.observe(lambda change, name=name: self._changed(name, change["old"]), "value")
            control.add_class(f"ipt-f-{name.replace('_', '-')}")  # for people and tests
        self.widget = W.VBox(
            [
                _title("Search"),
                self.text,
                _title("Profiles"),
                self.active,
                self.refusals["active"],
                _title("Input agent types"),
                self.agent_types,
                self.refusals["agent_types"],
                _title("Channel types"),
                self.channel_types,
                self.refusals["channel_types"],
                _title("Partners"),
                self.partner_search,
                self.partners,
                self.refusals["partners"],
                _title("Groups"),
                self.groups,
                self.refusals["groups"],
                self.note,
                self.reset,
            ],
            layout=W.Layout(width="270px", min_width="270px", padding="0 12px 0 0"),
        )
        self.widget.add_class("ipt-filters")

    def _controls(self) -> dict[str, W.ValueWidget]:
        """Filter field -> its control."""
        return {
            "text": self.text,
            "active": self.active,
            "agent_types": self.agent_types,
            "channel_types": self.channel_types,
            "partners": self.partners,
            "groups": self.groups,
        }

    def show_facets(self, facets: Facets) -> None:
        """Relabel every option with how many profiles it would keep now, without calling
        back: the chosen values stay chosen (ipywidgets resets a selection widget's value
        when its options change: it is put back in the same message to the front end)."""
        self._facets = facets
        self._quiet = True
        try:
            _relabel(self.active, _active_options(facets))
            _relabel(self.agent_types, _type_options(facets.agent_types))
            _relabel(self.channel_types, _type_options(facets.channel_types))
            _relabel(self.groups, _group_options(facets))
            self._show_partners()
        finally:
            self._quiet = False

    def _show_partners(self, chosen: tuple[str, ...] | None = None) -> None:
        """List the partners whose name holds the narrowing text, the chosen ones always
        (a choice never disappears), each with its count; `chosen` replaces the choice.
        No call back: neither narrowing nor relabelling changes the filter."""
        value = self.partners.value if chosen is None else chosen
        quiet, self._quiet = self._quiet, True
        try:
            _relabel(
                self.partners,
                _partner_options(self._facets, self.partner_search.value, keep=value),
                value,
            )
        finally:
            self._quiet = quiet

    def _changed(self, name: str, old: Any = None) -> None:
        if self._quiet:
            return
        if self._refuse_empty(name, old):
            return
        self.typing = name == "text"
        if self._extra.pop(name, None) is not None:  # the analyst took over this field
            self.note.value = _note(self._extra)
        self._on_change()

    def counts(self, name: str) -> dict[Any, int]:
        """Option value -> the profiles choosing it would keep now (the facets shown)."""
        return dict(getattr(self._facets, name))

    def _refuse_empty(self, name: str, old: Any) -> bool:
        """An option counted (0) is listed but cannot be picked: choosing it would select
        nothing (or, among other values of its field, add nothing). It is unpicked at once,
        and a note beside its control says why; True when something was refused."""
        if name not in _PICKABLE:
            return False
        control = self._controls()[name]
        counts = self.counts(name)
        value = control.value
        chosen = value if isinstance(value, tuple) else (value,)
        refused = [v for v in chosen if v is not None and counts.get(v, 1) == 0]
        if not refused:
            self._clear_refusals()  # a note said no to an earlier pick: no longer news
            return False
        kept = tuple(v for v in chosen if v not in refused) if isinstance(value, tuple) else old
        self._quiet = True
        try:
            control.value = kept
        finally:
            self._quiet = False
        self._clear_refusals()
        self.refusals[name].value = _refusal_html(name, refused)
        return True

    def _clear_refusals(self) -> None:
        for refusal in self.refusals.values():
            refusal.value = ""

    @property
    def filter(self) -> Filter:
        """The filter the controls show, with the fields they cannot show kept."""
        fields: dict[str, Any] = {
            "agent_types": list(self.agent_types.value),
            "channel_types": list(self.channel_types.value),
            "partners": list(self.partners.value),
            "groups": list(self.groups.value),
            "active": self.active.value,
            "text": self.text.value or None,
        }
        fields.update(self._extra)
        return Filter(**fields)

    def set(self, selection: Filter) -> None:
        """Show `selection` in the controls, then call back once (not once per control).

        Values the estate does not offer (a partner unknown here, a group with no profile)
        stay in the filter and are listed in the note rather than dropped.
        """
        self._quiet = True
        extra: dict[str, Any] = {}
        try:
            self.text.value = selection.text or ""
            self.active.value = selection.active
            for name, control in (
                ("agent_types", self.agent_types),
                ("channel_types", self.channel_types),
                ("groups", self.groups),
            ):
                known = {value for _, value in control.options}
                wanted = [
                    _known_type(v, known) if name != "groups" else v
                    for v in getattr(selection, name)
                ]
                control.value = tuple(v for v in wanted if v in known)
                if any(v not in known for v in wanted):
                    extra[name] = wanted  # keep them all, the order too
            known_partners = self._facets.partners
            wanted_partners = [str(p) for p in selection.partners]
            self.partner_search.value = ""
            self._show_partners(tuple(p for p in wanted_partners if p in known_partners))
            if any(p not in known_partners for p in wanted_partners):
                extra["partners"] = list(selection.partners)
            if selection.channels:
                extra["channels"] = list(selection.channels)
            if selection.tags:
                extra["tags"] = list(selection.tags)
            self._extra = extra
            self._clear_refusals()
            self.note.value = _note(extra)
        finally:
            self._quiet = False
        self._on_change()


def _relabel(
    control: W.ToggleButtons | W.SelectMultiple,
    options: list[tuple[str, Any]],
    value: Any = _KEEP,
) -> None:
    """New labels for the same values, the value kept (or replaced by `value`): one
    update, no flicker."""
    value = control.value if value is _KEEP else value
    if [tuple(option) for option in control.options] == options and control.value == value:
        return
    with control.hold_sync():
        control.options = options
        control.value = value


def _active_options(facets: Facets) -> list[tuple[str, bool | None]]:
    return [(f"{word} ({facets.active[value]:,})", value) for word, value in _ACTIVE]


def _type_options(counts: dict[str, int]) -> list[tuple[str, str]]:
    return [(f"{type_label(kind)} ({count:,})", kind) for kind, count in counts.items()]


def _group_options(facets: Facets) -> list[tuple[str, str]]:
    return [(_group_label(group, count), group) for group, count in facets.groups.items()]


def _partner_options(
    facets: Facets, narrow: str, keep: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """The partners whose name holds `narrow` (any case) and those in `keep`, with counts:
    each labelled masked (a name can hold a URL's password or a token), valued as named."""
    part = narrow.strip().casefold()
    return [
        (f"{shorten(redact_text(name), PARTNER_CHARS)} ({count:,})", name)
        for name, count in facets.partners.items()
        if part in name.casefold() or name in keep
    ]


def _group_label(group: str, count: int) -> str:
    """The group's last part, indented by its depth, masked as its whole path reads (a URL
    in a group name spans parts: `Ops/https://user:pw@host`)."""
    depth = group.count("/")
    name = redact_text(group).rsplit("/", 1)[-1]
    return "\u00a0\u00a0\u00a0" * depth + f"{name} ({count:,})"


def _note(extra: dict[str, Any]) -> str:
    if not extra:
        return ""
    said = "; ".join(
        f"{name.replace('_', ' ')}: {', '.join(map(str, values))}" for name, values in extra.items()
    )
    return f"<div class='ipt-note'>Also filtered by {html.escape(redact_text(said))}</div>"


def _refusal_html(name: str, refused: list[Any]) -> str:
    """Why an option counted (0) was not applied, said beside its control."""
    names = ", ".join(_said_value(name, v) for v in refused)
    why = (
        f"{names} (0): no profile the other filters keep has it, so it is not applied. "
        "Widen them, or Reset, to reach it."
    )
    return f"<div class='ipt-note ipt-refused'>{html.escape(redact_text(why))}</div>"


_PICKABLE = ("agent_types", "channel_types", "partners", "groups", "active")
"""The fields whose options carry counts (and so can be refused when counted 0)."""


def _said_value(name: str, value: Any) -> str:
    if name == "active":
        return "inactive" if value is False else "active"
    if name in ("agent_types", "channel_types"):
        return type_label(value)
    return str(value)


def _known_type(wanted: str, known: set[str]) -> str:
    """A type as the panel lists it: `AS2` (from an address or the command line) is the
    estate's `IntegrationPartnerChannelAS2` when it names exactly one listed type."""
    if wanted in known:
        return wanted
    found = [kind for kind in known if type_matches(kind, wanted)]
    return found[0] if len(found) == 1 else wanted
