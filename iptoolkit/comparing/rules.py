"""What a comparison of two installations expects to differ: the `Rules`.

- **Natural keys** per kind (`keys`): a partner by its name, a channel by its partner's
  name, type and name, a profile by its group and name. A key part is a top-level field
  of the item's JSON, or `partner` (a channel's partner's name) or `type` (its class
  without `core:`).
- **Ignored fields**: every field named in `ignore_names` (ids and the three timestamps,
  by default), and every JSON path a glob of `ignore` matches (`inputAgentSettings.*Url`,
  `channel:$.remoteCertificateId`: a `kind:` prefix limits a glob to one kind).
- **Substitutions** (`substitute`): pairs `(a, b)`, each `a` read as `b` (plain text
  replacement in one pass: what a pair wrote is not read again, so pairs such as
  `("a", "aa")` cannot grow a text without bound; where two pairs match at the same place,
  the one given first wins) in the natural keys of both sides, and in values: two
  values are the same when one substituted equals the other, or both substituted are
  equal, so `test.example.com <-> example.com` and `T_ <-> P_` work whichever side is
  test.
- **Known differences** (`known`): the audit's suppressions (`auditing.config.Suppression`)
  with `code` a status (`changed`, `only-in-a`, ...) or `*`, and `item` a glob over
  `kind:key` (`profile:Sales/EDI / Orders in`); with a reason and an optional expiry,
  after which the difference shows again, saying so.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..auditing.config import Suppression
    from .difference import Difference

__all__ = ["Rules", "DEFAULT_KEYS", "DEFAULT_IGNORED", "KEY_KINDS"]

KEY_KINDS = ("profile", "channel", "partner")
DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = {
    "profile": ("group", "name"),
    "channel": ("partner", "type", "name"),
    "partner": ("name",),
}
DEFAULT_IGNORED = ("id", "created", "lastModified", "lastModifiedGUI")
"""Fields every installation sets its own way: ids, and the three timestamps."""


@dataclass(frozen=True)
class Rules:
    """The keys, ignore rules, substitutions and known differences of one comparison."""

    keys: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_KEYS))
    ignore: tuple[str, ...] = ()
    ignore_names: tuple[str, ...] = DEFAULT_IGNORED
    substitute: tuple[tuple[str, str], ...] = ()
    known: tuple[Suppression, ...] = ()
    mapping: Path | None = None
    """The mapping file the configuration names (manual matches), if any."""
    source: Path | None = None
    """The configuration file read, if any."""
    _names: frozenset[str] = field(init=False, repr=False, compare=False)
    _globs: dict[str, list[re.Pattern[str]]] = field(init=False, repr=False, compare=False)
    _replacing: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _replacement: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = frozenset(self.ignore_names)
        globs: dict[str, list[re.Pattern[str]]] = {kind: [] for kind in KEY_KINDS}
        for glob in self.ignore:
            kind, colon, path = glob.partition(":")
            limited = colon and kind in KEY_KINDS
            pattern = re.compile(fnmatch.translate(_bare(path if limited else glob)))
            for target in [kind] if limited else KEY_KINDS:
                globs[target].append(pattern)
        object.__setattr__(self, "_names", names)
        object.__setattr__(self, "_globs", globs)
        replacement = {old: new for old, new in reversed(self.substitute) if old}  # first wins
        olds = [old for old, _ in self.substitute if old in replacement]
        replacing = re.compile("|".join(map(re.escape, dict.fromkeys(olds)))) if olds else None
        object.__setattr__(self, "_replacing", replacing)
        object.__setattr__(self, "_replacement", replacement)

    def with_options(
        self,
        *,
        ignore: tuple[str, ...] = (),
        substitute: tuple[tuple[str, str], ...] = (),
        mapping: Path | None = None,
    ) -> Rules:
        """These rules with more ignore globs and substitutions (the command line's)."""
        return replace(
            self,
            ignore=(*self.ignore, *ignore),
            substitute=(*self.substitute, *substitute),
            mapping=mapping or self.mapping,
        )

    def ignores(self, kind: str, path: str, name: str) -> bool:
        """Whether a field that differs at `path` (walk form, no `$`) is expected to."""
        if name in self._names:
            return True
        return any(glob.match(path) for glob in self._globs[kind])

    def same_after_substitution(self, a: Any, b: Any) -> bool:
        """Whether two values that differ are the same once substituted (see above)."""
        if not self.substitute:
            return False
        a_sub: object = self.substituted(a)
        b_sub: object = self.substituted(b)
        return a_sub == b or b_sub == a or a_sub == b_sub

    def substituted(self, value: Any) -> Any:
        """A value with every substitution applied to each text in it."""
        if not self.substitute:
            return value
        if isinstance(value, str):
            if self._replacing is None:
                return value
            return self._replacing.sub(lambda match: self._replacement[match[0]], value)
        if isinstance(value, dict):
            return {key: self.substituted(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.substituted(item) for item in value]
        return value

    def known_for(self, difference: Difference) -> Suppression | None:
        """The known-difference rule that covers `difference`, if any (expired or not)."""
        item = f"{difference.kind}:{difference.key_text}"
        for rule in self.known:
            if rule.code not in ("*", difference.status):
                continue
            if fnmatch.fnmatchcase(item, rule.item) or rule.item in (difference.a, difference.b):
                return rule
        return None


def _bare(path: str) -> str:
    """A path glob as walks write paths: without the leading `$.`."""
    path = path.strip()
    if path.startswith("$."):
        return path[2:]
    return path[1:] if path.startswith("$") else path


def today() -> dt.date:
    """The date known differences expire against (UTC)."""
    return dt.datetime.now(dt.UTC).date()
