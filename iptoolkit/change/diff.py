"""`diff(old, new)`: what changed between two snapshots, read from their records.

Items and how they are matched (the order of a listing is never a change):

- **profiles** by id; profiles without an id (or sharing one) by name and group, then by
  content (their JSON without name, group, description, tags and timestamps), so a
  renamed id-less profile is one profile changed, not one removed and one added. Key: the
  node id in the new snapshot (`profile:P1`), the old one's for a profile removed. A faulty
  profile is compared as received; becoming faulty or being fixed is a change of its own.
- **channels** with an id, by id (`channel:17`), compared as their first copy in each
  snapshot (the registry's content). A channel without an id belongs to the profile
  holding it: its changes are that profile's.
- **partners** by their key (`partner:1003`, or `partner:name:<name>` when id-less).
- **links**: the graph's edges, `"source -> target"` with the graph's node ids
  (`links.py`), after carrying old node ids into the new snapshot's names.

A changed field is one change at its JSON path inside the item (`walk.py`): a field of a
list element at the element's index in the new item, a removed element at its index in
the old one. A channel copy held inside a profile is left to the channel's own diff when
both copies are the registry's (a channel deactivated is one change, not one per profile
holding it); a copy that differs from its registry's is compared inside the profile, so
nothing is lost. Values are masked (`redact.redact_fields`, and every value under a
secret-named field). Severity: `severity.py`.

Schema drift between the snapshots (`drift.schema_changes`) joins the changes, given the
profiles found equal so that only what differs is walked.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from ..core.estate import as_estate, load
from ..core.nodes import label, partner_node, partner_of
from ..core.references import usable_id
from ..models import gc_paused
from ..support.names import plural
from ..support.redact import MASK, is_secret_name, redact_fields, redact_text
from .estate_diff import KINDS, SEVERITIES, Change, ChangeKind, ChangeOp, EstateDiff, Severity
from .links import UNPAIRED, Edge, Renames, key_of, partner_edges, profile_edges
from .order import order_notes
from .pairing import (
    Users,
    first_channels,
    first_partners,
    pair_profiles,
    profile_json,
    same_texts,
    settle_conflicts,
)
from .rewire import kind_of, replacements
from .schema_compare import schema_changes
from .severity import field_severity, link_severity, rule
from .swaps import is_channel, replaced_channel, swaps
from .walk import ABSENT, FieldChange, Walk, json_path, shown, with_presence

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord
    from ..models import ProfileProblem

__all__ = ["diff", "items_diff", "in_order"]

_LISTED = 5
"""Profiles named in a reason ("active profiles P1, P2 and 3 more use it")."""


def diff(old: Estate | str | os.PathLike[str], new: Estate | str | os.PathLike[str]) -> EstateDiff:
    """What changed from `old` to `new` (estates, or snapshot paths to load).

    >>> d = diff(ipt.load("monday.json"), "tuesday.json")   # doctest: +SKIP
    >>> print(d.summary())                                   # doctest: +SKIP
    3 profiles added, 5 changed, 1 removed; 2 channels deactivated; 2 breaking
    """
    before, after = _estate(old, "diff: old"), _estate(new, "diff: new")
    with gc_paused():
        differ = _Differ(before, after)
        changes, notes = differ.run()
    changes.extend(schema_changes(before, after, same=differ.same))
    notes.extend(order_notes(before, after))
    return EstateDiff(before, after, tuple(in_order(changes)), tuple(notes))


def _estate(value: Estate | str | os.PathLike[str], what: str) -> Estate:
    """`as_estate`, a path loaded with each profile's text kept: equal profiles are found
    by their texts (`pairing.same_texts`), and the schema part searches the new side's
    equal profiles' texts, which then need not be written again (a third of a diff of two
    100k snapshots went there, issue 45)."""
    if isinstance(value, str | os.PathLike):
        return load(value, keep_texts=True)
    return as_estate(value, what)


def items_diff(old: Estate, new: Estate) -> tuple[list[Change], list[str]]:
    """What `diff` finds of the items (profiles, links, channels, partners) and its notes,
    without the schema changes (for the archive, which works those out itself)."""
    with gc_paused():
        changes, notes = _Differ(old, new).run()
    return changes, [*notes, *order_notes(old, new)]


def in_order(changes: Iterable[Change]) -> list[Change]:
    """Changes as `diff` lists them: most severe first, then by kind, key and path."""
    rank = {severity: n for n, severity in enumerate(SEVERITIES)}
    kind_rank = {kind: n for n, kind in enumerate(KINDS)}
    return sorted(changes, key=lambda c: (rank[c.severity], kind_rank[c.kind], c.key, c.path or ""))


class _Differ:
    """One comparison; each `_…` method adds the changes of one kind of item."""

    def __init__(self, old: Estate, new: Estate) -> None:
        self.old, self.new = old, new
        self.changes: list[Change] = []
        self.renames = Renames()
        self.changed: list[tuple[ProfileRecord, ProfileRecord]] = []
        """The pairs whose JSON differs."""
        self.same: list[tuple[ProfileRecord, ProfileRecord]] = []
        """The pairs whose JSON is equal."""
        self.pairs, self.removed, self.added = pair_profiles(old.records, new.records)
        self.same_text = same_texts(old, new)
        self.new_of = {old_record.index: new_record for old_record, new_record in self.pairs}
        self.old_channels = first_channels(old.records)
        self.new_channels = first_channels(new.records)
        settle_conflicts(self.old_channels, self.new_channels, old, new, "channel")
        self.lost: dict[str, set[str]] = {}
        """Channel node -> the active profiles (keys) that lost a link to it and gained
        none in its place (`_links`)."""
        self.rewired: dict[str, set[str]] = {}
        """Channel node -> the active profiles rewired from it to another channel."""

    def run(self) -> tuple[list[Change], list[str]]:
        self._profiles()
        self._links()
        self._channels()
        self._partners()
        return self.changes, self._notes()

    # -- profiles -------------------------------------------------------------------------

    def _profiles(self) -> None:
        for record in self.added:
            self._item("profile", record.node, "added", record, None, record)
        for record in self.removed:
            self._item("profile", record.node, "removed", record, record, None)
            self.renames.orphan(record)
        for old, new in self.pairs:
            self._profile_pair(old, new)

    def _item(
        self,
        kind: ChangeKind,
        key: str,
        op: ChangeOp,
        record: ProfileRecord,
        old: ProfileRecord | None,
        new: ProfileRecord | None,
    ) -> None:
        faulty = f" (faulty: {_problem_text(record.problem)})" if record.problem else ""
        stops = op == "removed" and record.active
        severity = rule("profile-stops" if stops else "added" if op == "added" else "inactive")
        self.changes.append(
            Change(
                kind,
                key,
                op,
                severity,
                None,
                redact_fields(profile_json(old)) if old is not None else None,
                redact_fields(profile_json(new)) if new is not None else None,
                f"{'active ' if stops else 'inactive ' if op == 'removed' else ''}profile "
                f"{op}{faulty}",
                record.name or "",
                (record.key,),
            )
        )

    def _profile_pair(self, old: ProfileRecord, new: ProfileRecord) -> None:
        key, name = new.node, new.name or ""
        if (old.problem is None) != (new.problem is None):
            problem = new.problem or old.problem
            message = _problem_text(problem) if problem is not None else ""
            became = new.problem is not None
            self.changes.append(
                Change(
                    "profile",
                    key,
                    "changed",
                    "notable",
                    None,
                    None if became else message,
                    message if became else None,
                    f"became faulty: {message}"
                    if became
                    else f"fixed: no longer faulty ({message})",
                    name,
                )
            )
        if old.raw is new.raw or self.same_text(old, new) or old.raw == new.raw:
            self.same.append((old, new))
            self.renames.add(old, new, None)
            return
        self.changed.append((old, new))
        skip = _SkipCopies(old, new, self.old_channels, self.new_channels)
        walk = Walk(is_secret_name, skip, replaced_channel).compare(
            profile_json(old), profile_json(new)
        )
        self.renames.add(old, new, walk)
        for field in swaps(walk.changes):
            if field.old is not ABSENT and field.new is not ABSENT and _both_channels(field):
                severity = rule("rewired")
                reason = f"rewired from {_channel_id(field.old)} to {_channel_id(field.new)}"
            else:
                severity, reason = field_severity(
                    field, "profile", lambda: new.key if new.active else ""
                )
            self._field("profile", key, field, severity, reason, name, (new.key,))

    def _field(
        self,
        kind: ChangeKind,
        key: str,
        field: FieldChange,
        severity: Severity,
        reason: str,
        name: str,
        profiles: tuple[str, ...] = (),
    ) -> None:
        self.changes.append(
            Change(
                kind,
                key,
                "changed",
                severity,
                json_path(field.path),
                shown(field.old, field.secret),
                shown(field.new, field.secret),
                with_presence(reason, field),
                name,
                profiles,
            )
        )

    # -- channels and partners ------------------------------------------------------------

    def _channels(self) -> None:
        old_users = Users(self.old.records, "channel")
        new_users = Users(self.new.records, "channel")
        self._registry("channel", self.old_channels, self.new_channels, old_users, new_users)

    def _partners(self) -> None:
        old_users = Users(self.old.records, "partner")
        new_users = Users(self.new.records, "partner")
        old_partners = first_partners(self.old_channels)
        new_partners = first_partners(self.new_channels)
        settle_conflicts(old_partners, new_partners, self.old, self.new, "partner")
        self._registry("partner", old_partners, new_partners, old_users, new_users)

    def _registry(
        self,
        kind: ChangeKind,
        old_items: dict[str, Any],
        new_items: dict[str, Any],
        old_users: Users,
        new_users: Users,
    ) -> None:
        for node, item in new_items.items():
            if node not in old_items:
                self._whole(kind, node, "added", "notable", None, item, f"{kind} added")
        for node, item in old_items.items():
            if node not in new_items:
                self._gone(kind, node, item, old_users, new_users)
        for node, new in new_items.items():
            old = old_items.get(node)
            if old is None or old is new or old == new:
                continue
            name = label(new, node.split(":", 1)[1])
            old, new = (
                self._moved_partner(node, old, new, name) if kind == "channel" else (old, new)
            )
            users = tuple(self._active_keys(new_users.of(node), side="new"))
            for field in Walk(is_secret_name).compare(old, new).changes:
                severity, reason = field_severity(field, kind, partial(_listed, users))
                self._field(kind, node, field, severity, reason, name, users)

    def _gone(
        self, kind: ChangeKind, node: str, item: Any, old_users: Users, new_users: Users
    ) -> None:
        """A channel or partner removed: breaking when an active profile still names it or
        lost it without a replacement, notable when every active user was rewired."""
        if kind == "channel":
            channels = [node]
        else:
            channels = [c for c, held in self.old_channels.items() if _partner_node(held) == node]
        left = set(self._active_keys(new_users.of(node), side="new"))
        for channel in channels:
            left |= self.lost.get(channel, set())
        used = list(self._active_keys(old_users.of(node), side="old"))
        rewired = [key for key in used if key not in left]
        left_keys = sorted(left, key=str)
        if left_keys:
            reason = f"{kind} removed; active profiles left without it: {_listed(left_keys)}"
            if rewired:
                reason += f"; rewired: {_listed(rewired)}"
            severity = rule("left-behind")
        elif rewired:
            reason = f"{kind} removed; every active profile using it was rewired: "
            reason += _listed(rewired)
            severity = rule("migrated")
        else:
            reason, severity = f"{kind} removed; no active profile used it", rule("migrated")
        self._whole(kind, node, "removed", severity, item, None, reason, (*left_keys, *rewired))

    def _moved_partner(
        self, node: str, old: dict[str, Any], new: dict[str, Any], name: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A channel's partner is the partner's own diff unless the channel moved to another
        partner: then one change at `$.partner`. Returns the channels without it."""
        old_key, old_partner = partner_of(old)
        new_key, new_partner = partner_of(new)
        if old_key != new_key:
            self.changes.append(
                Change(
                    "channel",
                    node,
                    "changed",
                    "notable",
                    "$.partner",
                    redact_fields(old_partner),
                    redact_fields(new_partner),
                    f"its partner changed: moves from partner {old_key} to {new_key}",
                    name,
                )
            )
        return (
            {k: v for k, v in old.items() if k != "partner"},
            {k: v for k, v in new.items() if k != "partner"},
        )

    def _whole(
        self,
        kind: ChangeKind,
        node: str,
        op: ChangeOp,
        severity: Severity,
        old: Any,
        new: Any,
        reason: str,
        profiles: tuple[str, ...] = (),
    ) -> None:
        item = new if new is not None else old
        self.changes.append(
            Change(
                kind,
                node,
                op,
                severity,
                None,
                redact_fields(old) if old is not None else None,
                redact_fields(new) if new is not None else None,
                reason,
                label(item, node.split(":", 1)[1]),
                profiles,
            )
        )

    def _active_keys(self, users: Iterable[ProfileRecord], *, side: str) -> list[str]:
        """The keys of those users (records of the `side` snapshot) that are in the new
        snapshot and active there, each once."""
        keys: dict[str, None] = {}
        for record in users:
            now = self.new_of.get(record.index) if side == "old" else record
            if now is not None and now.active:
                keys[str(now.key)] = None
        return list(keys)

    # -- links ----------------------------------------------------------------------------

    def _links(self) -> None:
        """Links added and removed: the edges of the profiles that changed (the others'
        are the same once renamed), and every channel's edges to partners. A removed link
        another one replaces is a rewiring (`rewire.py`), not a loss."""
        rename = self.renames.edge
        old_dirty = [*self.removed, *(old for old, _ in self.changed)]
        new_dirty = [*self.added, *(new for _, new in self.changed)]
        old_edges = {rename(edge) for edge in profile_edges(old_dirty)}
        old_edges |= {rename(edge) for edge in partner_edges(self.old)}
        new_edges = set(profile_edges(new_dirty)) | partner_edges(self.new)
        new_by_node = {record.node: record for record in self.new.records}
        added_nodes = {record.node for record in self.added}
        removed, added = old_edges - new_edges, new_edges - old_edges
        instead = replacements(
            removed,
            added,
            lambda node: _partner_node(self.old_channels.get(node)),
            lambda node: _partner_node(self.new_channels.get(node)),
        )
        for edge in sorted(removed):
            owner_node = _owner(edge[0])
            owner = new_by_node.get(owner_node)
            active = owner.key if owner is not None and owner.active else None
            replaced = instead.get(edge)
            severity, reason = link_severity(
                edge[0],
                edge[1],
                removed=True,
                active_owner=active,
                with_item=owner is None,
                replaced_by=replaced[1] if replaced is not None else None,
            )
            if active is not None and kind_of(edge[1]) == "channel":
                lost = self.lost if severity == "breaking" else self.rewired
                lost.setdefault(edge[1], set()).add(str(active))
            self._link(edge, "removed", severity, reason, owner_node or _owner(edge[0], True))
        for edge in sorted(added):
            owner_node = _owner(edge[0])
            severity, reason = link_severity(
                edge[0],
                edge[1],
                removed=False,
                active_owner=None,
                with_item=owner_node in added_nodes,
            )
            self._link(edge, "added", severity, reason, owner_node)

    def _link(self, edge: Edge, op: ChangeOp, severity: Severity, reason: str, owner: str) -> None:
        """One link change, caused by its profile's change or its channel's."""
        cause = owner or (edge[0] if edge[0].startswith("channel:") else None)
        profiles = (owner.partition(":")[2],) if owner else ()
        self.changes.append(
            Change(
                "link",
                key_of(edge),
                op,
                severity,
                reason=reason,
                profiles=profiles,
                cause=cause.removesuffix(UNPAIRED) if cause else None,
            )
        )

    # -- notes ----------------------------------------------------------------------------

    def _notes(self) -> list[str]:
        notes = []
        old_ids = {str(r.id) for r in self.old.records if r.id is not None}
        new_ids = {str(r.id) for r in self.new.records if r.id is not None}
        if (old_ids or self.old_channels) and (new_ids or self.new_channels):
            common = (old_ids & new_ids) or (self.old_channels.keys() & self.new_channels.keys())
            if not common:
                notes.append(
                    "the two snapshots have no profile or channel id in common: they may come "
                    "from different platforms, so every item shows as removed and added"
                )
        for which, estate in (("old", self.old), ("new", self.new)):
            if estate.problems:
                faulty = plural(len(estate.problems), "faulty profile")
                notes.append(f"the {which} snapshot has {faulty}, compared as received")
        return notes


class _SkipCopies:
    """Leave a channel copy held in a profile to the channel's own diff, when both copies
    are their registry's (see the module docstring)."""

    def __init__(
        self,
        old: ProfileRecord,
        new: ProfileRecord,
        old_channels: dict[str, Any],
        new_channels: dict[str, Any],
    ) -> None:
        self.old = _registry_copies(old, old_channels)
        self.new = _registry_copies(new, new_channels)

    def __call__(self, old_path: str, new_path: str, old: Any, new: Any) -> bool:
        ident = self.old.get(old_path)
        return ident is not None and ident == self.new.get(new_path)


def _registry_copies(record: ProfileRecord, channels: dict[str, Any]) -> dict[str, str]:
    """path -> channel node of the channels this profile holds that are their registry's."""
    found = {}
    for use in record.uses:
        held = use.held
        if held is None or usable_id(held.get("id") if isinstance(held, dict) else None) is None:
            continue
        first = channels.get(use.node)
        if first is held or first == held:
            found[use.path] = use.node
    return found


def _owner(node: str, unpaired: bool = False) -> str:
    """The profile node owning an agent, response or profile node ("" for others, and for
    an old node with no counterpart unless `unpaired`)."""
    if node.endswith(UNPAIRED):
        if not unpaired:
            return ""
        node = node.removesuffix(UNPAIRED)
    kind, _, rest = node.partition(":")
    if kind == "profile":
        return node
    if kind == "agent":
        return f"profile:{rest}"
    if kind == "response":
        return f"profile:{rest.rsplit(':', 1)[0]}"
    return ""


def _partner_node(channel: Any) -> str | None:
    """The partner node of a channel's JSON (None without one)."""
    if channel is None:
        return None
    key, _ = partner_of(channel)
    return partner_node(key) if key is not None else None


def _channel_id(channel: dict[str, Any]) -> str:
    return f"channel {usable_id(channel.get('id'))}"


def _both_channels(field: FieldChange) -> bool:
    """A channel put in another's place (`swaps.swaps`, `swaps.replaced_channel`)."""
    return is_channel(field.old) and is_channel(field.new)


def _problem_text(problem: ProfileProblem) -> str:
    """What is wrong with a faulty profile, paths inside the profile (`$.a.b`, not
    `$[3].a.b`), and no excerpt of a value under, or holding, a secret-named field."""
    parts = []
    for issue in problem.issues[:_LISTED]:
        path = problem.path_inside(issue) or issue.path
        message = issue.message
        steps = [step for step in _STEPS.split(path) if step]
        keys = _QUOTED_KEY.findall(message.partition("; got ")[2])
        if any(is_secret_name(name) for name in [*steps, *keys]):
            message = message.split("; got ", 1)[0] + f"; got {MASK}"
        parts.append(f"{path}: {redact_text(message)}")
    more = len(problem.issues) - _LISTED
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


_STEPS = re.compile(r"[.\[\]\"$]")
_QUOTED_KEY = re.compile(r'"([^"\\]+)"\s*:')
"""Keys of an object quoted in a problem's excerpt of the value."""


def _listed(keys: Sequence[str]) -> str:
    if len(keys) <= _LISTED:
        return ", ".join(keys)
    return f"{', '.join(keys[:_LISTED])} and {len(keys) - _LISTED} more"
