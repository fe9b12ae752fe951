"""What a rule is, and what it reads: `Rule` (code, severity, title, rationale, remedy,
thresholds and the check) and `AuditContext` (the estate's records and the shared lookups
every rule would otherwise rebuild).

A team's own rule is written the same way as the built-in ones (see `docs/rules.md`)::

    from iptoolkit.auditing import rule

    @rule("ACME001", "unnamed_profile", "warning", title="Profile without a name",
          rationale="People find profiles by name.", remedy="Name the profile.")
    def unnamed_profile(ctx):
        for record in ctx.records:
            if not record.name:
                yield ctx.finding(f"{record.node} has no name", record, path="$.name")

The decorator registers the rule (`registered`): once its module is imported, every audit
runs it, with no list to add it to. Importing `auditing.rules` registers the built-in ones;
a rule whose module has left `sys.modules` is forgotten, and a module imported again (or a
notebook cell run again) replaces its own rules of the same code.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.nodes import is_active
from .finding import SEVERITIES, Finding, Severity

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ChannelUse, ProfileRecord

__all__ = [
    "Rule",
    "rule",
    "registered",
    "threshold_problem",
    "AuditContext",
    "HeldChannel",
    "CODE",
    "FAMILIES",
]

CODE = re.compile(r"^[A-Z]{2,6}\d{3}$")
"""A rule code: a family prefix of capitals and three digits (`SEC006`, `ACME001`)."""
FAMILIES = {
    "SEC": "Security: encryption, cryptography, credentials, authentication",
    "OPS": "Operational risk: things that fail, or fail together",
    "DAT": "Data: what could not be read or does not agree with itself",
    "HYG": "Hygiene: housekeeping, nothing broken yet",
    "CFG": "Configuration of the audit itself",
}
"""The built-in families by prefix; a custom rule may use its own prefix."""

T = TypeVar("T")
Check = Callable[["AuditContext"], Iterable[Finding]]


@dataclass(frozen=True, eq=False)
class Rule:
    """One check with a stable `code`, its `name` (the findings' `kind`), a default
    severity, what it means and what to do, and the thresholds it takes (name -> default)."""

    code: str
    name: str
    severity: Severity
    title: str
    rationale: str
    remedy: str
    check: Check = field(repr=False, compare=False)
    options: Mapping[str, Any] = field(default_factory=dict)
    """Thresholds by name, with their defaults (`max-dependents = 50`)."""
    least: Mapping[str, int] = field(default_factory=dict)
    """The smallest value a numeric threshold may take, where 0 makes no sense (a herd of
    zero); 0 otherwise (see `threshold_problem`)."""

    def __post_init__(self) -> None:
        if not CODE.match(self.code):
            raise ValueError(f"rule code {self.code!r}: expected capitals and three digits")
        if self.severity not in SEVERITIES:
            raise ValueError(f"rule {self.code}: severity {self.severity!r} is not one of "
                             + ", ".join(SEVERITIES))  # fmt: skip

    @property
    def family(self) -> str:
        return self.code.rstrip("0123456789")

    def __call__(self, ctx: AuditContext) -> Iterable[Finding]:
        return self.check(ctx)


def rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    title: str,
    rationale: str,
    remedy: str,
    options: Mapping[str, Any] | None = None,
    least: Mapping[str, int] | None = None,
) -> Callable[[Check], Rule]:
    """Make a function `check(ctx) -> findings` a `Rule` and register it (the decorator of
    every rule): the audit runs it from then on (see `registered`). `options`: thresholds
    and their defaults; `least`: the smallest value of a numeric one, when not 0."""

    def make(check: Check) -> Rule:
        made = Rule(code, name, severity, title, rationale, remedy, check, dict(options or {}),
                    dict(least or {}))  # fmt: skip
        _register(made)
        return made

    return make


def threshold_problem(one: Rule, name: str, value: Any) -> str | None:
    """Why `value` cannot be rule `one`'s threshold `name`, None when it can: a value of its
    default's type, a number finite, whole when the default is, and at least `one.least`
    (0 unless the rule says), a list's elements each like the default's first. A value
    that passed here cannot make the rule fail later, far from the file that set it."""
    return _value_problem(f"{one.code}.{name}", value, one.options[name], one.least.get(name, 0))


def _value_problem(said: str, value: Any, default: Any, least: float | None) -> str | None:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(default, bool):
        wrong = None if isinstance(value, bool) else "true or false"
    elif isinstance(default, int):
        wrong = None if number and isinstance(value, int) else "a whole number"
    elif isinstance(default, float):
        wrong = None if number and math.isfinite(value) else "a finite number"
    elif isinstance(default, list | tuple):
        if not isinstance(value, list | tuple):
            return f"{said} must be a list like its default {list(default)!r}, not {value!r}"
        for n, item in enumerate(value if default else ()):
            problem = _value_problem(f"{said}[{n}]", item, default[0], None)
            if problem:
                return problem
        return None
    else:
        kind = type(default)
        wrong = None if isinstance(value, kind) else kind.__name__
    if wrong:
        return f"{said} must be {wrong} like its default {default!r}, not {value!r}"
    if number and least is not None and value < least:
        return f"{said} must be at least {least}, not {value!r}"
    return None


_REGISTERED: list[Rule] = []
"""Every rule the decorator made, in the order their modules ran it."""


def _module_of(one: Rule) -> str | None:
    return getattr(one.check, "__module__", None)


def _origin(one: Rule) -> tuple[str | None, str | None]:
    """Where a rule was written: its check's module and qualified name."""
    return _module_of(one), getattr(one.check, "__qualname__", None)


def _register(one: Rule) -> None:
    """Keep `one`; a rule of the same code, or of the same check function, from the same
    module is one it replaces (the module imported again, a notebook cell run again with
    the code changed)."""
    module, origin = _module_of(one), _origin(one)
    _REGISTERED[:] = [
        other
        for other in _REGISTERED
        if _module_of(other) != module or (other.code != one.code and _origin(other) != origin)
    ]
    _REGISTERED.append(one)


def registered() -> list[Rule]:
    """The rules `@rule` made whose module is still imported, in the order they were made
    (a module taken out of `sys.modules` takes its rules with it)."""
    return [one for one in _REGISTERED if _module_of(one) in sys.modules]


class HeldChannel:
    """A channel as a profile holds it: its key, node, JSON object and where it is held."""

    __slots__ = ("key", "node", "json", "record", "path", "role")

    def __init__(self, use: ChannelUse, record: ProfileRecord) -> None:
        self.key = use.key
        self.node = use.node
        self.json: dict[str, Any] = use.held if isinstance(use.held, dict) else {}
        self.record = record
        self.path = f"$.{use.path}"
        self.role = use.role

    @property
    def type(self) -> str:
        """The channel's type without the family prefix: `AS2`, `SFTP`."""
        cls = self.json.get("class")
        name = cls.split(":")[-1] if isinstance(cls, str) else ""
        return name.removeprefix("IntegrationPartnerChannel")

    @property
    def active(self) -> bool:
        return is_active(self.json)


class AuditContext:
    """What the rules read: the estate and its records, each channel once where it is first
    held, the thresholds of the rule being run, and `finding` to make a finding."""

    def __init__(
        self,
        estate: Estate,
        options: Mapping[str, Mapping[str, Any]],
        texts: Sequence[bytes] | None = None,
    ) -> None:
        self.estate = estate
        self.records = estate.records
        self.valid_records = estate.valid_records
        self.texts = texts
        """Each record's compact JSON (`jsonio.dumps_json`), when the caller has it at
        hand (the archive does, as a `ProfileTexts` of the snapshot file): the URL rules
        then need not write it again."""
        self._options = options
        self._rule: Rule | None = None
        self._held: list[HeldChannel] | None = None
        self._copies: list[HeldChannel] | None = None
        self._shared: dict[str, Any] = {}

    def run(self, one: Rule) -> list[Finding]:
        """Run one rule, its findings stamped with its code, kind and severity."""
        self._rule = one
        try:
            found = list(one.check(self))
        finally:
            self._rule = None
        for item in found:  # a team's rule may yield anything; the reports read Findings
            if not isinstance(item, Finding):
                shown = repr(item)[:80]
                raise TypeError(f"it yielded {shown} ({type(item).__name__}), not a Finding "
                                "(make one with ctx.finding)")  # fmt: skip
        return found

    def option(self, name: str) -> Any:
        """The current rule's threshold `name`: the configured value, else its default."""
        assert self._rule is not None, "option() is for a rule that is running"
        configured = self._options.get(self._rule.code, {})
        return configured.get(name, self._rule.options[name])

    def finding(
        self,
        text: str,
        record: ProfileRecord | None = None,
        *nodes: str,
        path: str | None = None,
        key: str | None = None,
        severity: Severity | None = None,
    ) -> Finding:
        """A finding of the running rule: its text, the profile it is in (its node comes
        after `nodes`), the JSON path in that profile, and `key` when the first node is not
        what identifies the finding."""
        assert self._rule is not None, "finding() is for a rule that is running"
        involved = tuple(dict.fromkeys((*nodes, *((record.node,) if record else ()))))
        return Finding(
            self._rule.name,
            severity or self._rule.severity,
            text,
            involved,
            self._rule.code,
            key or (involved[0] if involved else ""),
            record.index if record is not None else None,
            path,
        )

    def shared(self, name: str, build: Callable[[AuditContext], T]) -> T:
        """What several rules read, built once per audit (`build(ctx)`), kept by `name`."""
        if name not in self._shared:
            self._shared[name] = build(self)
        shared: T = self._shared[name]  # what `build` made under this name
        return shared

    @property
    def held_channels(self) -> list[HeldChannel]:
        """Every channel once, as first held by a profile (in listing order)."""
        if self._held is None:
            seen: set[Any] = set()
            held = []
            for record in self.valid_records:
                for use in record.uses:
                    if use.held is not None and use.key not in seen:
                        seen.add(use.key)
                        held.append(HeldChannel(use, record))
            self._held = held
        return self._held

    @property
    def channel_copies(self) -> list[HeldChannel]:
        """`held_channels`, and after each channel every copy of it that differs (DAT002),
        where first held: a profile holding a weaker copy runs with its settings."""
        if self._copies is None:
            varied = self.estate.varied_channels
            if not varied:
                self._copies = self.held_channels
            else:
                copies: dict[Any, list[HeldChannel]] = {}
                for record in self.valid_records:
                    for use in record.uses:
                        if use.held is None or (use.key in copies and use.key not in varied):
                            continue
                        seen = copies.setdefault(use.key, [])
                        if all(use.held != other.json for other in seen):
                            seen.append(HeldChannel(use, record))
                self._copies = [copy for seen in copies.values() for copy in seen]
        return self._copies

    def channels_of(self, *types: str) -> Iterator[HeldChannel]:
        """The held channels of these types (`AS2`, `SFTP`), each copy that differs too
        (`channel_copies`): a rule reporting a channel once keeps its first finding."""
        return (channel for channel in self.channel_copies if channel.type in types)
