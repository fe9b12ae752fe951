"""Every rule the audit knows: the built-in ones by family, every other rule `@rule` has
registered (a module imported, a notebook cell run), a team's own from the
`iptoolkit.rules` entry point group or from modules the configuration names, and the
lookups by code, family prefix or name (`kind`) that `select`, `ignore` and filters use.

No list names the rules: `@rule` registers each one as its module runs (`rule.registered`),
and importing `auditing.rules` runs every built-in family. The order is fixed whatever the
order of imports: the built-in rules by code (the audit's own configuration, `CFG`, last),
then the others by code.

An entry point (or a configured module) may name a `Rule`, a list of rules, or a module,
whose `Rule` attributes are taken (loading it registers its rules as well)::

    [project.entry-points."iptoolkit.rules"]
    acme = "acme_rules"
"""

from __future__ import annotations

import importlib
import importlib.metadata
import types
from collections.abc import Iterable, Sequence
from typing import Any

from ..support.names import did_you_mean
from . import rules as _builtin
from .finding import LEGACY_KINDS
from .rule import Rule, registered
from .rules.configuration import expired_suppression

__all__ = [
    "BUILTIN_RULES",
    "KINDS",
    "LEGACY_KINDS",
    "ENTRY_POINT_GROUP",
    "EXPIRED_SUPPRESSION",
    "all_rules",
    "rules_of",
    "check_selector",
    "matches",
]

ENTRY_POINT_GROUP = "iptoolkit.rules"

EXPIRED_SUPPRESSION = expired_suppression
"""CFG001: the engine makes its findings from the configuration."""


def _order(one: Rule) -> tuple[bool, str]:
    """The order of the rules (and of the reports): by code, the configuration's last."""
    return one.family == "CFG", one.code


def _is_builtin(one: Rule) -> bool:
    return str(getattr(one.check, "__module__", "")).startswith(f"{_builtin.__name__}.")


BUILTIN_RULES: tuple[Rule, ...] = tuple(sorted(filter(_is_builtin, registered()), key=_order))
"""The built-in rules (every `@rule` of the `auditing.rules` package), by family then code,
the audit's own configuration (`CFG`) last."""
KINDS = (*LEGACY_KINDS, *(r.name for r in BUILTIN_RULES if r.name not in LEGACY_KINDS))
"""Every built-in rule's name (a finding's `kind`): the old ones first."""


def all_rules(modules: Sequence[str] = ()) -> tuple[Rule, ...]:
    """The built-in rules, every other rule `@rule` registered, those of the entry point
    group, and those of `modules`, in a fixed order (see the module's docstring); a code or
    name given twice is an error naming both."""
    named: list[Rule] = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as exc:  # noqa: BLE001 - named and re-raised: a broken plugin
            raise ValueError(f"entry point {entry.name} = {entry.value!r} "
                             f"({ENTRY_POINT_GROUP}): {exc}") from exc  # fmt: skip
        named += _rules_in(loaded, f"entry point {entry.name} = {entry.value!r}")
    for name in modules:
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - named and re-raised: a broken plugin
            said = str(exc) if isinstance(exc, ImportError) else f"{type(exc).__name__}: {exc}"
            raise ValueError(f"plugins: cannot import the rule module {name!r}: {said}") from exc
        named += _rules_in(module, f"module {name!r}")
    own = [one for one in registered() if not _is_builtin(one)]  # loading registers too
    found = [*BUILTIN_RULES, *own, *named]
    by_code: dict[str, Rule] = {}
    by_name: dict[str, Rule] = {}
    for one in found:
        other = by_code.get(one.code) or by_name.get(one.name)
        if other is not None and other is not one:
            raise ValueError(f"two rules share the code or name of {one.code} ({one.name}): "
                             f"{other.code} ({other.name})")  # fmt: skip
        by_code[one.code] = by_name[one.name] = one
    others = sorted(dict.fromkeys(one for one in found if one not in BUILTIN_RULES), key=_order)
    return (*BUILTIN_RULES, *others)


def _rules_in(value: Any, where: str) -> list[Rule]:
    if isinstance(value, Rule):
        return [value]
    if isinstance(value, types.ModuleType):
        return [item for item in vars(value).values() if isinstance(item, Rule)]
    if isinstance(value, list | tuple) and all(isinstance(item, Rule) for item in value):
        return list(value)
    raise ValueError(f"{where}: expected a Rule, a list of rules or a module, "
                     f"not {type(value).__name__}")  # fmt: skip


def matches(one: Rule, selector: str) -> bool:
    """Whether a rule answers to a selector: `ALL`, its code, a prefix of its code
    (`SEC`, `SEC00`), or its name."""
    upper = selector.strip().upper()
    return upper == "ALL" or one.code.startswith(upper) or one.name == selector.strip()


def rules_of(rules: Iterable[Rule], selectors: Iterable[str]) -> list[Rule]:
    return [one for one in rules if any(matches(one, s) for s in selectors)]


def check_selector(selector: str, rules: Sequence[Rule]) -> str | None:
    """What is wrong with a selector (it matches no rule), with close matches; None if
    it matches one."""
    if any(matches(one, selector) for one in rules):
        return None
    known = [one.code for one in rules] + [one.name for one in rules]
    return f"no rule code, prefix or name {selector!r}{did_you_mean(selector, known)}"
