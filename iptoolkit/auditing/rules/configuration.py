"""Configuration of the audit itself (CFG): what the engine reports about the configuration
rather than about the estate."""

from __future__ import annotations

from collections.abc import Iterable

from ..finding import Finding
from ..rule import AuditContext, rule

__all__ = ["expired_suppression"]


@rule(
    "CFG001", "expired_suppression", "warning",
    title="Suppression past its expiry date",
    rationale="A suppression with an expiry date was meant to be looked at again by then; "
    "once expired it no longer hides its finding, and says so (whatever `select` says, "
    "unless this code is ignored).",
    remedy="Fix the finding, or renew the suppression with a new date and reason.",
)  # fmt: skip
def expired_suppression(ctx: AuditContext) -> Iterable[Finding]:
    return ()  # the engine makes these findings from the configuration
