"""The schema drift report: what a snapshot holds that the spec does not describe.

Plain data and its renderings (text, Markdown, HTML, a frame, JSON); `drift.py` computes it.
A row is a `Drift` of one kind:

- `unknown_class`: a `class` a polymorphic family does not know (the models route it to the
  family's fallback); `type` is the family, `found` the class;
- `unknown_field`: a field a type does not declare, at its JSON path pattern
  (`$.inputAgentSettings.channels[*].retryPolicy`);
- `type_mismatch`: a value whose JSON type (or integer range) is not the declared one, in a
  valid profile or a faulty one (`faulty` counts those);
- `always_null`: a declared field sent in this snapshot, but only ever as null;
- `never_present`: a declared field of a type the snapshot holds, never sent.

Values are never shown but for a type mismatch's example, and a secret-named field's example
is masked: the report is safe to paste anywhere.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..support.markdown import escape
from ..support.names import plural

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pandas

__all__ = ["DriftKind", "DRIFT_KINDS", "Drift", "SchemaReport"]

DriftKind = Literal[
    "unknown_class", "unknown_field", "type_mismatch", "always_null", "never_present"
]
DRIFT_KINDS: dict[DriftKind, tuple[str, str]] = {
    "unknown_class": ("unknown class", "unknown classes"),
    "unknown_field": ("unknown field", "unknown fields"),
    "type_mismatch": ("type mismatch", "type mismatches"),
    "always_null": ("field always null", "fields always null"),
    "never_present": ("field never present", "fields never present"),
}
"""Each kind, in report order: what one row is, and many (a section's heading too)."""

COLUMNS = (
    "kind",
    "type",
    "field",
    "path",
    "count",
    "profiles",
    "faulty",
    "examples",
    "expected",
    "found",
    "example",
)


@dataclass(frozen=True, slots=True)
class Drift:
    """One thing the snapshot holds that the spec does not describe.

    `count` is how many values (objects for a class, objects of the type for a field never
    present) and `profiles` how many profiles hold one; `faulty` how many of those profiles
    failed validation; `examples` the keys of the first few of them (`P-000012`, `#7`).
    """

    kind: DriftKind
    type: str
    """The type (`SFTPAgentSettings`), or the family of an unknown class."""
    field: str | None
    path: str
    count: int
    profiles: int
    faulty: int = 0
    examples: tuple[str, ...] = ()
    expected: str | None = None
    found: str | None = None
    """The class of an unknown class; the JSON type found in a mismatch."""
    example: str | None = None
    """A value of a mismatch, as JSON text, shortened and masked when secret."""

    @property
    def name(self) -> str:
        """`SFTPAgentSettings.retryPolicy`, or `InputAgentSettings[core:FtpsAgentSettings]`."""
        if self.kind == "unknown_class":
            return f"{self.type}[{self.found}]"
        return f"{self.type}.{self.field}"

    def to_dict(self) -> dict[str, Any]:
        """The machine form, keys in `COLUMNS` order, examples as a list."""
        row = asdict(self)
        row["examples"] = list(self.examples)
        return {column: row[column] for column in COLUMNS}

    def describe(self) -> str:
        """One line in words, as the text report shows it."""
        where = f"{plural(self.profiles, 'profile')}"
        if self.examples:
            more = ", ..." if self.profiles > len(self.examples) else ""
            where += f" ({', '.join(self.examples)}{more})"
        if self.faulty:
            where += f", {self.faulty:,} faulty"
        if self.kind == "unknown_class":
            return f"{self.name}: class {self.found} at {self.path}, in {where}"
        if self.kind == "type_mismatch":
            shown = f" (e.g. {self.example})" if self.example is not None else ""
            return (
                f"{self.name} at {self.path}: expected {self.expected}, found {self.found}"
                f"{shown}, in {where}"
            )
        if self.kind == "never_present":
            return f"{self.name}: never sent, in {plural(self.count, 'object')} of the type"
        return f"{self.name} at {self.path}: {plural(self.count, 'value')}, in {where}"


@dataclass(frozen=True)
class SchemaReport:
    """Schema drift of one snapshot: the `Drift` rows, in the order of `DRIFT_KINDS`.

    >>> report = ipt.schema_report(estate)
    >>> print(report.summary())
    >>> report.of("unknown_field")
    """

    items: tuple[Drift, ...]
    profiles: int
    """How many profiles were read (faulty ones included)."""
    faulty: int
    """How many of them failed validation (their raw JSON was read all the same)."""

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Drift]:
        return iter(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def of(self, kind: DriftKind) -> tuple[Drift, ...]:
        """The rows of one kind."""
        return tuple(item for item in self.items if item.kind == kind)

    def counts(self) -> dict[str, int]:
        """Rows per kind, every kind named (0 when none)."""
        found = Counter(item.kind for item in self.items)
        return {kind: found[kind] for kind in DRIFT_KINDS}

    def summary(self) -> str:
        """One line: `Schema drift in 300 profiles (2 faulty): 1 unknown class, ...`."""
        faulty = f" ({self.faulty:,} faulty)" if self.faulty else ""
        head = f"Schema drift in {plural(self.profiles, 'profile')}{faulty}"
        counts = self.counts()
        parts = [
            f"{n:,} {one if n == 1 else many}"
            for kind, (one, many) in DRIFT_KINDS.items()
            if (n := counts[kind])
        ]
        return f"{head}: {', '.join(parts)}" if parts else f"{head}: none, the spec describes all"

    def to_dict(self) -> dict[str, Any]:
        """`{"summary": {...}, "items": [...]}`: what `--format json` prints."""
        return {
            "summary": {"profiles": self.profiles, "faulty": self.faulty, **self.counts()},
            "items": [item.to_dict() for item in self.items],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_frame(self) -> pandas.DataFrame:
        """One row per drift, the columns of `COLUMNS` (`examples` as a list)."""
        import pandas as pd

        return pd.DataFrame([item.to_dict() for item in self.items], columns=list(COLUMNS))

    def __str__(self) -> str:
        """The text report: the summary, then each kind's rows, one line each."""
        lines = [self.summary()]
        for kind, heading in _HEADINGS.items():
            rows = self.of(kind)
            if rows:
                lines.append(f"\n{heading}:")
                lines.extend(f"  {item.describe()}" for item in rows)
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """A page section per kind, with a table each: fit for documentation."""
        lines = ["# Schema drift", "", self.summary() + "."]
        for kind, heading in _HEADINGS.items():
            rows = self.of(kind)
            if not rows:
                continue
            columns = _SHOWN[kind]
            lines += ["", f"## {heading}", ""]
            lines.append("| " + " | ".join(columns) + " |")
            lines.append("|" + "---|" * len(columns))
            for item in rows:
                cells = (escape(value) for value in _cells(item, columns))
                lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        parts = [f"<div class='iptoolkit-drift'><b>{html.escape(self.summary())}</b>"]
        for kind, heading in _HEADINGS.items():
            rows = self.of(kind)
            if not rows:
                continue
            columns = _SHOWN[kind]
            head = "".join(f"<th>{html.escape(column)}</th>" for column in columns)
            body = "".join(
                "<tr>"
                + "".join(f"<td>{html.escape(str(v))}</td>" for v in _cells(item, columns))
                + "</tr>"
                for item in rows
            )
            parts.append(
                f"<details{' open' if kind != 'never_present' else ''}>"
                f"<summary>{html.escape(heading)} ({len(rows)})</summary>"
                f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>"
            )
        return "".join(parts) + "</div>"


_HEADINGS = {kind: many.capitalize() for kind, (_, many) in DRIFT_KINDS.items()}

_SHOWN: dict[DriftKind, tuple[str, ...]] = {
    "unknown_class": ("family", "class", "path", "profiles", "examples"),
    "unknown_field": ("type", "field", "path", "profiles", "examples"),
    "type_mismatch": ("type", "field", "path", "expected", "found", "example", "profiles"),
    "always_null": ("type", "field", "path", "profiles", "examples"),
    "never_present": ("type", "field", "objects of the type"),
}
"""The columns each kind's section shows in Markdown and HTML."""


def _cells(item: Drift, columns: tuple[str, ...]) -> list[str]:
    values = {
        "family": item.type,
        "class": item.found,
        "type": item.type,
        "field": item.field,
        "path": item.path,
        "expected": item.expected,
        "found": item.found,
        "example": item.example,
        "profiles": f"{item.profiles:,}" + (f" ({item.faulty:,} faulty)" if item.faulty else ""),
        "examples": ", ".join(item.examples),
        "objects of the type": f"{item.count:,}",
    }
    return ["" if values[column] is None else str(values[column]) for column in columns]
