"""The rules reference (`docs/rules.md`), generated from the built-in rules themselves:
code, name, default severity, title, rationale, remedy and thresholds of each, by family,
and how to configure the audit and write a rule of one's own.
`tests/test_rules_reference.py` fails when the committed file is stale.

    python -m iptoolkit.auditing.reference docs/rules.md     # or: make docs-reference
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..markdown import cell
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
[tool.iptoolkit.audit]
select = ["ALL"]            # codes, prefixes (SEC) or names
ignore = ["HYG002"]
fail-on = "warning"         # error, warning, info or never
plugins = ["acme_rules"]    # modules with a team's own rules

[tool.iptoolkit.audit.severity]
SEC009 = "info"

[tool.iptoolkit.audit.options.OPS003]
max-dependents = 50

[[tool.iptoolkit.audit.suppress]]
code = "SEC006"
item = "channel:4711"       # a node id the finding names
reason = "Partner moves to SHA256 in Q1"
expires = 2027-03-31        # optional; once past, the finding shows again (and CFG001)
```

An unknown key, code or threshold is an error naming its line.

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

Register it with an entry point of your package (the module's rules are all taken), or
name the module in `plugins`:

```toml
[project.entry-points."iptoolkit.rules"]
acme = "acme_rules"
```
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
                lines += [f"- `{name}` = `{value!r}`" for name, value in one.options.items()]
                lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the reference to the path given, or to standard output."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or (args and args[0].startswith("-")):
        print("usage: python -m iptoolkit.auditing.reference [OUTPUT.md]", file=sys.stderr)
        return 2
    text = render()
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
