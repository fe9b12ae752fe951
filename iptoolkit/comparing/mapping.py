"""The mapping file: which item of A is which item of B, reviewable in a pull request.

TOML, as the project's configuration (read with `tomllib`, errors with file and line by
the audit's reader). One array of tables per kind, each entry A's natural key and B's:

    format = "iptoolkit.compare-mapping"
    version = 1

    [[profile]]
    a = ["Sales/EDI", "T_Orders in"]      # group, name in A
    b = ["Sales/EDI", "P_Orders in"]      # in B: a rename

`write_mapping` starts one from a comparison: every match it made, then the unmatched
items of A as commented-out entries with their closest candidate in B, so that a reviewer
uncomments what is a rename. Every string is written as a TOML basic string, escaped
here (there is no TOML writer among the dependencies, and a name may hold any character).
A key is written masked (`redact_text`: a name may hold a URL's password, and the file is
for a pull request); `pair_items` finds an item by its masked key too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..support.redact import redact_text
from .difference import KINDS

if TYPE_CHECKING:
    from ..core.estate import Estate
    from .comparison import Comparison
    from .engine import Manual
    from .rules import Rules

__all__ = ["MAPPING_FORMAT", "compare_configured", "read_mapping", "write_mapping", "toml_string"]

MAPPING_FORMAT = "iptoolkit.compare-mapping"
_KEYS = ("format", "version", "a", "b", *KINDS)


def compare_configured(a: Estate, b: Estate, rules: Rules, names: tuple[str, str]) -> Comparison:
    """`compare` as a project configures it: its rules and, when they name one, its mapping
    file of manual matches; the command line and the MCP tool both ask this."""
    from .engine import compare

    manual = read_mapping(rules.mapping, rules) if rules.mapping is not None else None
    return compare(a, b, rules=rules, manual=manual, names=names)


def read_mapping(path: Path, rules: Rules | None = None) -> Manual:
    """The manual matches of a mapping file, by kind; a wrong file is a `ConfigError`
    naming the file and line."""
    from ..auditing.config import ConfigError, line_of, read_config_text, read_toml

    text = read_config_text(path)
    document = read_toml(text, path)

    def fail(token: str, message: str, section: str = "") -> NoReturn:
        line = line_of(text, token, section)
        raise ConfigError(f"{path}:{line}: {message}" if line else f"{path}: {message}")

    if document.get("format") != MAPPING_FORMAT:
        fail("format", f'not a mapping file: it needs format = "{MAPPING_FORMAT}"')
    for name in document:
        if name not in _KEYS:
            fail(name, f"unknown key {name!r}; known: {', '.join(_KEYS)}")
    found: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for kind in KINDS:
        entries = document.get(kind, [])
        if not isinstance(entries, list):
            fail(kind, f"{kind} must be an array of tables ([[{kind}]])")
        parts = rules.keys[kind] if rules is not None else None
        for n, entry in enumerate(entries):
            pair: list[tuple[str, ...]] = []
            for side in ("a", "b"):
                key = entry.get(side) if isinstance(entry, dict) else None
                where = f"{kind}[{n}].{side}"
                if not isinstance(key, list) or not all(isinstance(p, str) for p in key):
                    fail(kind, f"{where} must be a list of strings (the natural key)", kind)
                if parts is not None and len(key) != len(parts):
                    fail(key[0] if key else kind, f"{where} has {len(key)} parts; a {kind} "
                         f"key has {len(parts)} ({', '.join(parts)})", kind)  # fmt: skip
                pair.append(tuple(key))
            found.setdefault(kind, []).append((pair[0], pair[1]))
    return found


def write_mapping(result: Comparison, path: Path) -> int:
    """Write the mapping of a comparison to `path` (see the module docstring); returns
    how many matches it holds."""
    a_name, b_name = result.names
    lines = [
        f"# Natural-key matches between {_comment(a_name)} (a) and {_comment(b_name)} (b),",
        "# written by `iptoolkit compare --write-mapping`. Each entry pairs a's key with b's;",
        "# edit b (or uncomment a suggestion) to state a rename, then compare with",
        "# --mapping FILE.",
        f"format = {toml_string(MAPPING_FORMAT)}",
        "version = 1",
        f"a = {toml_string(a_name)}",
        f"b = {toml_string(b_name)}",
    ]
    count = 0
    for kind in KINDS:
        for match in sorted(
            (m for m in result.matches if m.kind == kind), key=lambda m: (m.how, m.a_key)
        ):
            lines += ["", f"[[{kind}]]", f"a = {_array(match.a_key)}"]
            lines.append(
                f"b = {_array(match.b_key)}" + ("  # manual" if match.how == "manual" else "")
            )
            count += 1
        for d in result.of(kind=kind, status="only-in-a"):
            if d.candidates:
                lines += [
                    "",
                    f"# only in {_comment(a_name)}; closest in {_comment(b_name)}: uncomment "
                    "if it is a rename",
                    f"# [[{kind}]]",
                    f"# a = {_array(d.key)}",
                    f"# b = {_array(d.candidates[0])}",
                ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return count


def toml_string(text: str) -> str:
    """Any text as a TOML basic string: quotes, backslashes and control characters
    escaped; a lone surrogate (not text TOML can hold) becomes U+FFFD."""
    out = ['"']
    for char in text:
        point = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif point < 0x20 or point == 0x7F:
            out.append(f"\\u{point:04x}")
        elif 0xD800 <= point <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _array(key: tuple[str, ...] | Any) -> str:
    return "[" + ", ".join(toml_string(redact_text(part)) for part in key) + "]"


def _comment(text: str) -> str:
    """Text for a TOML comment: one line, no control characters."""
    return "".join(c if c.isprintable() else " " for c in text)
