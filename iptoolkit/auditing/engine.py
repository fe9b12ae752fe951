"""Running the audit: the selected rules over the estate, then the configuration's
severities and suppressions, then the baseline."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.estate import require_estate
from ..models import gc_paused
from ..support.arguments import texts
from ..support.progress import Progress, given
from .config import AuditConfig, ConfigError, load_config
from .finding import Finding, Findings, Severity, severity_rank
from .registry import EXPIRED_SUPPRESSION, check_selector, matches
from .rule import AuditContext, Rule, threshold_problem

if TYPE_CHECKING:
    from ..core.estate import Estate
    from .baseline import Baseline

__all__ = ["audit", "findings", "selected_rules", "RuleError"]


class RuleError(RuntimeError):
    """A rule (usually a team's own) raised: the message names it."""


def selected_rules(config: AuditConfig, select: Iterable[str] = (),
                   ignore: Iterable[str] = ()) -> list[Rule]:  # fmt: skip
    """The rules the configuration selects and does not ignore; `select` given here
    replaces the configuration's, `ignore` adds to it."""
    chosen = tuple(select) or config.select
    dropped = (*config.ignore, *ignore)
    return [
        one
        for one in config.rules()
        if any(matches(one, s) for s in chosen) and not any(matches(one, s) for s in dropped)
    ]


def audit(
    estate: Estate,
    config: AuditConfig | str | os.PathLike[str] | None = None,
    *,
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    baseline: Baseline | str | os.PathLike[str] | None = None,
    today: dt.date | None = None,
    texts: Sequence[bytes] | None = None,
    progress: Progress | None = None,
) -> Findings:
    """Audit the estate with every selected rule, most severe first.

    `config` is an `AuditConfig`, or the path of a TOML file (`pyproject.toml` or
    `iptoolkit.toml`); None is the defaults (every rule). `select` and `ignore` (codes,
    prefixes such as `SEC`, or names) narrow it further; `baseline` (a `Baseline` or its
    file) hides the findings it holds, and the result's `hidden` says how many. `texts`:
    each record's compact JSON when the caller has it (spares writing it again); None:
    the estate's own `texts`, when it kept them. `progress`: told of each rule run.
    """
    require_estate(estate, "audit")
    if config is None:
        config = AuditConfig()
    elif not isinstance(config, AuditConfig):
        config = load_config(Path(config))
    rules_known = config.rules()
    select = _selectors(select, "select", rules_known)
    ignore = _selectors(ignore, "ignore", rules_known)
    rules = selected_rules(config, select, ignore)
    _check_thresholds(config, rules)
    found: list[Finding] = []
    texts = texts if texts is not None else estate.texts
    context = AuditContext(estate, config.options, texts)
    shown = given(progress)
    shown.stage("Auditing (rules)", total=len(rules))
    with gc_paused():
        for one in rules:
            shown.advance()
            try:
                found += context.run(one)
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - named: a broken rule is not ours to hide
                raise RuleError(f"rule {one.code} ({one.name}) failed: "
                                f"{type(exc).__name__}: {exc}") from exc  # fmt: skip
    if config.severity:
        found = [_with_severity(f, config.severity.get(f.code)) for f in found]
    dropped = (*config.ignore, *ignore)  # an expired suppression shows unless ignored
    report_expired = not any(matches(EXPIRED_SUPPRESSION, s) for s in dropped)
    found, suppressed = _suppress(found, config, today or dt.date.today(), report_expired)
    result = Findings(sorted(found, key=lambda f: severity_rank(f.severity)))
    result.suppressed = suppressed
    if baseline is not None:
        from .baseline import Baseline

        known = baseline if isinstance(baseline, Baseline) else Baseline.read(Path(baseline))
        result = known.new_in(result)
    return result


def _check_thresholds(config: AuditConfig, rules: Sequence[Rule]) -> None:
    """A configuration built in Python meets the file's checks (`config.py`) before any rule
    runs: a threshold of the wrong kind fails here, naming it, not inside the rule."""
    for one in rules:
        for name, value in config.options.get(one.code, {}).items():
            problem = threshold_problem(one, name, value) if name in one.options else None
            if problem:
                raise ConfigError(f"options: {problem}")


def findings(estate: Estate, *, progress: Progress | None = None) -> Findings:
    """Audit the estate with every rule and the default configuration, most severe first."""
    require_estate(estate, "findings")
    return audit(estate, progress=progress)


def _selectors(given: Iterable[str], name: str, known: Sequence[Rule]) -> tuple[str, ...]:
    """`select` or `ignore` as given to `audit`: a str is one selector (`"SEC"`, not the
    letters S, E and C), and one that matches no rule is refused with close matches, as
    the command line and the configuration file refuse it (a typo would otherwise select
    nothing, or ignore nothing, and the audit look clean)."""
    selectors = texts(given, f"audit: {name}", "rule codes, prefixes or names (str)")
    for selector in selectors:
        problem = check_selector(selector, known)
        if problem:
            raise ValueError(f"audit: {name}: {problem}")
    return selectors


def _with_severity(finding: Finding, severity: Severity | None) -> Finding:
    if severity is None or severity == finding.severity:
        return finding
    from dataclasses import replace

    return replace(finding, severity=severity)


def _suppress(
    found: list[Finding], config: AuditConfig, today: dt.date, report_expired: bool
) -> tuple[list[Finding], int]:
    live = [s for s in config.suppress if not s.expired(today)]
    kept = []
    hidden = 0
    for finding in found:
        if any(s.code == finding.code and _names(finding, s.item) for s in live):
            hidden += 1
        else:
            kept.append(finding)
    if report_expired:
        where = config.source.name if config.source else "the configuration"
        for s in config.suppress:
            if s.expired(today):
                at = f"{where}:{s.line}" if s.line else where
                kept.append(
                    Finding(
                        EXPIRED_SUPPRESSION.name,
                        config.severity.get(EXPIRED_SUPPRESSION.code, "warning"),
                        f"the suppression of {s.code} on {s.item} ({at}) expired on "
                        f"{s.expires}: {s.reason}",
                        (s.item,),
                        EXPIRED_SUPPRESSION.code,
                        f"{s.code}:{s.item}",
                    )
                )
    return kept, hidden


def _names(finding: Finding, item: str) -> bool:
    return item == finding.key or item in finding.nodes
