"""The audit: rules with stable codes that judge an estate, and what CI needs around them.

Every check is a `Rule` with a code by family (`SEC` security, `OPS` operational risk,
`DAT` data, `HYG` hygiene, `CFG` the audit's own configuration), a default severity, a
title, a rationale and a remedy (`docs/rules.md` lists them all). `audit` runs them with a
configuration (`config`: select, ignore, severities, thresholds, suppressions, a team's
own rules), and a baseline hides what a team has accepted; `reports` writes the result as
text, JSON, CSV, Markdown, SARIF 2.1.0 or JUnit XML.

>>> import iptoolkit as ipt
>>> found = ipt.findings(ipt.Estate.from_raw([{"id": "P1", "active": True}]))
>>> [(f.code, f.kind) for f in found]
[('OPS002', 'no_response_path')]
"""

from __future__ import annotations

from .baseline import Baseline
from .config import AuditConfig, ConfigError, Suppression, find_config, load_config
from .engine import RuleError, audit, findings, selected_rules
from .finding import SEVERITIES, Finding, Findings, Severity
from .registry import BUILTIN_RULES, ENTRY_POINT_GROUP, KINDS, all_rules
from .rule import AuditContext, Rule, rule

__all__ = [
    "audit",
    "findings",
    "Finding",
    "Findings",
    "Severity",
    "SEVERITIES",
    "KINDS",
    "Rule",
    "rule",
    "AuditContext",
    "AuditConfig",
    "Suppression",
    "ConfigError",
    "RuleError",
    "Baseline",
    "BUILTIN_RULES",
    "ENTRY_POINT_GROUP",
    "all_rules",
    "selected_rules",
    "find_config",
    "load_config",
]
