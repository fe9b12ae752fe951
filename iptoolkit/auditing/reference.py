"""The rules reference (`docs/rules.md`), generated from the built-in rules themselves:
code, name, default severity, title, rationale, remedy and thresholds of each, by family,
and how to configure the audit and write a rule of one's own.
`tests/test_rules_reference.py` fails when the committed file is stale.

    python -m iptoolkit.auditing.reference docs/rules.md     # or: make docs-reference
"""

from __future__ import annotations

from collections.abc import Sequence

from ..support.markdown import cell, write_reference
from .config import EXAMPLE
from .registry import BUILTIN_RULES
from .rule import FAMILIES, Rule

__all__ = ["render", "anchor", "main", "REGENERATE"]

REGENERATE = "make docs-reference (or: python -m iptoolkit.auditing.reference docs/rules.md)"


def anchor(code: str) -> str:
    """The anchor of a rule's section: its code in lower case (`sec006`), which GitHub and
    MkDocs both derive from a heading that starts with the code alone."""
    return code.lower()


_INTRODUCTION = f"""\
# Audit rules

<!-- Generated from the rules by iptoolkit/auditing/reference.py; do not edit by hand.
     Regenerate: {REGENERATE}.
     tests/test_rules_reference.py fails when this file is stale. -->

Every rule `iptoolkit audit` (and `ipt.audit`, the Explorer's Findings tab, the docs
site's findings page, the MCP `findings` tool) applies, by family. A finding's **code**
is stable: select, ignore, suppress and baseline by it. Its **kind** is the rule's name,
which the older `findings` command filtered by and still does.

Severities: **error** (cannot work, or is exposed), **warning** (likely misconfiguration
or risk), **info** (housekeeping). The command exits 1 when findings at or above
`--fail-on` (default: warning) remain, 2 when it cannot run.

## Configuration

In `pyproject.toml` (or as `[audit]` in `iptoolkit.toml`), found upward from the working
directory, or named with `--config FILE`:

```toml
{EXAMPLE}```

An unknown key, code or threshold is an error naming its file and line, and so is a
threshold unlike its default: a count is a whole number, finite, at least 0 (at least 1
where the rule says, below), so `nan`, `inf`, `2.5` and `-5` are refused before any rule
runs. `iptoolkit audit` gives exit code 2 for every such fault, as for a rule or plugin that
fails (raises as it is imported or run, or yields what is not a finding).

## A rule of your own

A rule is a function that receives the audit's context (the estate's `records`, each
channel once in `held_channels`, thresholds through `option`) and yields findings made
with `ctx.finding`:

```python
from iptoolkit.auditing import rule

@rule("ACME001", "unnamed_profile", "warning",
      title="Profile without a name",
      rationale="People find profiles by name.",
      remedy="Name the profile in the platform.")
def unnamed_profile(ctx):
    for record in ctx.records:
        if not record.name:
            yield ctx.finding(f"{{record.node}} has no name", record, path="$.name")
```

In Python, defining it is enough (importing its module, running its notebook cell):
`ipt.audit` runs it from then on. For the command line, register it with an entry point of
your package (the module's rules are all taken), or name the module in `plugins`:

```toml
[project.entry-points."iptoolkit.rules"]
acme = "acme_rules"
```

A threshold of your rule is an `options` entry with its default
(`options={{"min-length": 1}}`, read with `ctx.option("min-length")`), and `least` gives
the smallest value a number may take when 0 makes no sense (`least={{"min-length": 1}}`).
"""


def render(rules: Sequence[Rule] = BUILTIN_RULES) -> str:
    """The reference as Markdown; depends on nothing but the rules."""
    lines = [_INTRODUCTION, "## All rules", ""]
    lines += ["| Code | Name | Severity | Title |", "|---|---|---|---|"]
    lines += [
        f"| [{one.code}](#{anchor(one.code)}) | `{one.name}` | {one.severity} | {cell(one.title)} |"
        for one in rules
    ]
    lines.append("")
    for family, said in FAMILIES.items():
        of_family = [one for one in rules if one.family == family]
        if not of_family:
            continue
        lines += [f"## {family}: {said}", ""]
        for one in of_family:
            lines += [
                f"### {one.code}",
                "",
                f"**{one.title}** · `{one.name}` · default severity **{one.severity}**",
                "",
                one.rationale,
                "",
                f"**Remedy:** {one.remedy}",
                "",
            ]
            if one.options:
                lines.append("**Thresholds** (`[tool.iptoolkit.audit.options."
                             f"{one.code}]`):")  # fmt: skip
                lines.append("")
                lines += [f"- `{name}` = `{value!r}`{_least(one, name)}"
                          for name, value in one.options.items()]  # fmt: skip
                lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _least(one: Rule, name: str) -> str:
    default = one.options[name]
    if isinstance(default, bool) or not isinstance(default, int | float):
        return ""
    return f" (at least {one.least.get(name, 0)})"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the reference to the path given, or to standard output."""
    return write_reference("iptoolkit.auditing.reference", render, argv)


if __name__ == "__main__":
    raise SystemExit(main())
