"""Baselines: the findings a team has accepted, by fingerprint, so that only new ones fail
a pipeline (`--write-baseline FILE`, then `--baseline FILE`).

A fingerprint is the rule's code and the item the finding is about (`Finding.fingerprint`),
never its text or position: reordering the listing or editing an unrelated field changes
no fingerprint; a new risky channel adds one. The file is JSON, sorted, one finding per
entry with its code, item and text (masked) so that a review of it reads like a report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..support.redact import redact_text
from .finding import Finding, Findings

__all__ = ["Baseline", "BASELINE_FORMAT"]

BASELINE_FORMAT = "iptoolkit.audit-baseline"


@dataclass(frozen=True)
class Baseline:
    """The fingerprints of accepted findings."""

    fingerprints: frozenset[str]

    @classmethod
    def of(cls, found: Iterable[Finding]) -> Baseline:
        return cls(frozenset(f.fingerprint for f in found))

    def new_in(self, found: Findings) -> Findings:
        """The findings not in the baseline; `hidden` counts the others."""
        kept = Findings(f for f in found if f.fingerprint not in self.fingerprints)
        kept.suppressed = found.suppressed
        kept.hidden = found.hidden + len(found) - len(kept)
        return kept

    @staticmethod
    def write(found: Iterable[Finding], path: Path) -> int:
        """Write the findings' baseline to `path`; returns how many it holds."""
        entries = {
            f.fingerprint: {
                "fingerprint": f.fingerprint,
                "code": f.code,
                "item": redact_text(f.item),
                "text": redact_text(f.text),
            }
            for f in found
        }
        document = {
            "format": BASELINE_FORMAT,
            "version": 1,
            "findings": [entries[key] for key in sorted(entries)],
        }
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
        return len(entries)

    @classmethod
    def read(cls, path: Path) -> Baseline:
        """Read a baseline file; a file that is not one is an error naming it."""
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not a baseline (not JSON: {exc})") from None
        except UnicodeDecodeError as exc:
            from .config import not_utf8

            raise ValueError(f"{path}: not a baseline ({not_utf8(exc)})") from None
        if not isinstance(document, dict) or document.get("format") != BASELINE_FORMAT:
            raise ValueError(f'{path}: not a baseline (no "format": "{BASELINE_FORMAT}")')
        entries = document.get("findings")
        if not isinstance(entries, list):
            raise ValueError(f"{path}: $.findings must be a list")
        prints = []
        for n, entry in enumerate(entries):
            value = entry.get("fingerprint") if isinstance(entry, dict) else None
            if not isinstance(value, str):
                raise ValueError(f"{path}: $.findings[{n}].fingerprint is missing")
            prints.append(value)
        return cls(frozenset(prints))
