"""The audit's configuration, kept in the repository: `[tool.iptoolkit.audit]` in
`pyproject.toml`, or `[audit]` in `iptoolkit.toml`, found upward from the working
directory (the first folder holding either; `iptoolkit.toml` wins in one folder); `EXAMPLE`
below holds every key (docs/rules.md shows it).

A wrong file is one error naming the file and line: an unknown key, code or threshold, a
wrong type. Read with the standard library's `tomllib`; it keeps no positions, so the line
of a key is found again in the text (a new dependency for that alone was not worth it).
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..support.names import did_you_mean
from .finding import SEVERITIES, Severity
from .registry import all_rules, check_selector
from .rule import Rule, threshold_problem

__all__ = [
    "AuditConfig",
    "Suppression",
    "ConfigError",
    "EXAMPLE",
    "FAIL_ON",
    "find_config",
    "load_config",
    "parse_config",
    "read_toml",
    "read_config_text",
    "not_utf8",
    "line_of",
]

EXAMPLE = """\
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
"""
"""A configuration with every key, as the rules reference (docs/rules.md) shows it."""

FAIL_ON = ("error", "warning", "info", "never")
OTHER_TABLES = ("compare", "environments")
"""Tables of `iptoolkit.toml` that other parts read (`comparing/config.py`)."""
_KEYS = ("select", "ignore", "fail-on", "plugins", "severity", "options", "suppress")
_SUPPRESS_KEYS = ("code", "item", "reason", "expires")


class ConfigError(ValueError):
    """A configuration the audit cannot use; the message names the file and line."""


@dataclass(frozen=True)
class Suppression:
    """Hide the finding of rule `code` on `item` (a node id it names), for `reason`, until
    `expires` (inclusive) when given."""

    code: str
    item: str
    reason: str
    expires: dt.date | None = None
    line: int | None = None
    """Where it is written (for the expired-suppression finding)."""

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and self.expires < today


@dataclass(frozen=True)
class AuditConfig:
    """What to check and how: selected and ignored rules, severities, thresholds,
    suppressions, rule modules, and the severity from which the command fails."""

    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    suppress: tuple[Suppression, ...] = ()
    plugins: tuple[str, ...] = ()
    fail_on: str = "warning"
    source: Path | None = None

    def rules(self) -> tuple[Rule, ...]:
        """Every known rule: built-in, from entry points and from `plugins`."""
        return all_rules(self.plugins)


def find_config(start: Path | None = None, *, table: str = "audit") -> Path | None:
    """The configuration file for a folder: the first `iptoolkit.toml`, or
    `pyproject.toml` with a `[tool.iptoolkit.<table>]` table, from `start` upward (the
    comparison of installations finds its `compare` table the same way)."""
    folder = (start or Path.cwd()).resolve()
    for here in (folder, *folder.parents):
        own = here / "iptoolkit.toml"
        if own.is_file():
            return own
        project = here / "pyproject.toml"
        if project.is_file() and _has_audit_table(project, table):
            return project
    return None


def _has_audit_table(path: Path, table: str = "audit") -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    pattern = rf"^\s*\[+\s*tool\.iptoolkit\.{re.escape(table)}\b"
    return re.search(pattern, text, re.M) is not None


def load_config(path: Path | str | None = None, *, start: Path | None = None) -> AuditConfig:
    """The configuration in `path`, else the one found upward from `start` (the working
    directory), else the defaults."""
    found = Path(path) if path is not None else find_config(start)
    if found is None:
        return AuditConfig()
    return parse_config(read_config_text(found), found)


def read_config_text(path: Path) -> str:
    """The text of a TOML file (a configuration, a mapping); a `ConfigError` naming the
    file when it cannot be read or is not UTF-8, as TOML must be (the codec's own message
    names no file)."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: {not_utf8(exc)}") from None


def not_utf8(exc: UnicodeDecodeError) -> str:
    """What is wrong with a file that is not UTF-8 text, where, without the codec's words."""
    return f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"


def parse_config(text: str, source: Path | str = "iptoolkit.toml") -> AuditConfig:
    """Read a configuration from TOML text; `source` names the file in errors and says
    which table holds it (`pyproject.toml`: `tool.iptoolkit.audit`, else `audit`)."""
    source = Path(source)
    document = read_toml(text, source)
    in_project = source.name == "pyproject.toml"
    section = ("tool", "iptoolkit", "audit") if in_project else ("audit",)
    table: Any = document
    for part in section:
        table = table.get(part, {}) if isinstance(table, dict) else {}
    reader = _Reader(text, source, ".".join(section))
    if not in_project:
        for key in document:
            if key not in ("audit", *OTHER_TABLES):
                reader.fail(key, f"unknown table {key!r} (the audit reads [audit])", header=True)
    return reader.read(table)


def read_toml(text: str, source: Path) -> dict[str, Any]:
    """TOML text as a document; a fault is a `ConfigError` naming the file and line."""
    try:
        return tomllib.loads(text)
    except RecursionError:  # tomllib reads each nested array or inline table by recursion
        raise ConfigError(f"{source}: arrays or inline tables nested too deeply to read") from None
    except tomllib.TOMLDecodeError as exc:
        said = str(exc)
        at = re.search(r" \(at line (\d+), column \d+\)", said)
        if at:
            raise ConfigError(f"{source}:{at.group(1)}: {said[: at.start()]}") from None
        if "end of document" in said:
            last = len(text.rstrip("\n").splitlines()) or 1
            raise ConfigError(f"{source}:{last}: {said.split(' (at')[0]}") from None
        raise ConfigError(f"{source}: {said}") from None


def line_of(text: str, token: str, section: str) -> int | None:
    """The line where `token` (a key, or a quoted value) is first written under the
    table `section` (dotted), else that table's header line: for the errors of another
    reader of the same files (the comparison's configuration)."""
    return _Reader(text, Path(), section).line_of(token, section)


class _Reader:
    """Checks a configuration table, each error with the line of what it names."""

    def __init__(self, text: str, source: Path, section: str) -> None:
        self.lines = text.splitlines()
        self.source = source
        self.section = section

    def fail(self, token: str, message: str, *, header: bool = False, within: str = "") -> None:
        line = self.line_of(token, within or self.section, header=header)
        where = f"{self.source}:{line}" if line else f"{self.source}"
        raise ConfigError(f"{where}: {message}")

    def line_of(self, token: str, within: str, *, header: bool = False) -> int | None:
        """The line where `token` (a key, or a quoted value) is first written under the
        table `within` (or a table inside it); the table's header line when not found."""
        escaped = re.escape(token)
        name = rf"(?:{escaped}|\"{escaped}\"|'{escaped}')"
        key = re.compile(rf"(?:^\s*|[{{,]\s*){name}\s*=")  # also inside an inline table
        value = re.compile(rf"[\"']{escaped}[\"']")
        table_line = None
        current = ""
        for number, text in enumerate(self.lines, 1):
            head = re.match(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?", text)
            if head:
                current = head.group(1).replace('"', "").replace(" ", "")
                if header and current.split(".")[0] == token:
                    return number
                if current == within and table_line is None:
                    table_line = number
                continue
            inside = (
                current == within
                or current.startswith(within + ".")
                or within.startswith(current + ".")  # an inline table or dotted key in it
            )
            if within == "" or inside:
                if key.search(text) or value.search(text):
                    return number
        return table_line

    def read(self, table: Mapping[str, Any]) -> AuditConfig:
        for key in table:
            if key not in _KEYS:
                self.fail(key, f"unknown key {key!r} in [{self.section}]"
                          f"{did_you_mean(key, _KEYS)}; known: {', '.join(_KEYS)}")  # fmt: skip
        plugins = tuple(self.strings(table, "plugins"))
        try:
            rules = all_rules(plugins)
        except ValueError as exc:
            self.fail("plugins", str(exc))
            raise
        select = tuple(self.strings(table, "select")) or ("ALL",)
        ignore = tuple(self.strings(table, "ignore"))
        for key, selectors in (("select", select if "select" in table else ()), ("ignore", ignore)):
            for selector in selectors:
                problem = check_selector(selector, rules)
                if problem:
                    self.fail(selector, f"{key}: {problem}")
        fail_on = table.get("fail-on", "warning")
        if fail_on not in FAIL_ON:
            self.fail("fail-on", f"fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
        return AuditConfig(
            select=select,
            ignore=ignore,
            severity=self.severities(table.get("severity", {}), rules),
            options=self.options(table.get("options", {}), rules),
            suppress=self.suppressions(table.get("suppress", []), rules),
            plugins=plugins,
            fail_on=fail_on,
            source=self.source,
        )

    def strings(self, table: Mapping[str, Any], key: str) -> list[str]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(key, f"{key} must be a list of strings")
        return list(value)

    def code_of(self, code: Any, rules: Sequence[Rule], within: str) -> Rule:
        by = {one.code: one for one in rules} | {one.name: one for one in rules}
        if code not in by:
            known = [one.code for one in rules]
            self.fail(str(code), f"unknown rule code {code!r}{did_you_mean(code, known)}",
                      within=within)  # fmt: skip
        return by[code]

    def severities(self, value: Any, rules: Sequence[Rule]) -> dict[str, Severity]:
        within = f"{self.section}.severity"
        if not isinstance(value, dict):
            self.fail("severity", "severity must be a table of code = severity")
        found: dict[str, Severity] = {}
        for code, severity in value.items():
            one = self.code_of(code, rules, within)
            if severity not in SEVERITIES:
                self.fail(code, f"severity of {code}: {severity!r} is not one of "
                          + ", ".join(SEVERITIES), within=within)  # fmt: skip
            found[one.code] = severity
        return found

    def options(self, value: Any, rules: Sequence[Rule]) -> dict[str, dict[str, Any]]:
        within = f"{self.section}.options"
        if not isinstance(value, dict):
            self.fail("options", "options must hold one table per rule code")
        found: dict[str, dict[str, Any]] = {}
        for code, settings in value.items():
            one = self.code_of(code, rules, within)
            here = f"{within}.{code}"
            if not isinstance(settings, dict):
                self.fail(code, f"options.{code} must be a table of thresholds", within=within)
            for name, setting in settings.items():
                if name not in one.options:
                    known = ", ".join(one.options) or "none"
                    self.fail(name, f"{code} has no threshold {name!r}"
                              f"{did_you_mean(name, list(one.options))}; its thresholds: "
                              f"{known}", within=here)  # fmt: skip
                problem = threshold_problem(one, name, setting)
                if problem:
                    self.fail(name, problem, within=here)
            found[one.code] = dict(settings)
        return found

    def suppressions(self, value: Any, rules: Sequence[Rule]) -> tuple[Suppression, ...]:
        within = f"{self.section}.suppress"
        if not isinstance(value, list):
            self.fail("suppress", "suppress must be an array of tables ([[...suppress]])")
        found = []
        for n, entry in enumerate(value):
            line = self._nth_header(within, n)
            where = f"{self.source}:{line}" if line else str(self.source)
            if not isinstance(entry, dict):
                raise ConfigError(f"{where}: each suppression is a table")
            for key in entry:
                if key not in _SUPPRESS_KEYS:
                    raise ConfigError(f"{where}: unknown key {key!r} in a suppression; known: "
                                      + ", ".join(_SUPPRESS_KEYS))  # fmt: skip
            for key in ("code", "item", "reason"):
                if not isinstance(entry.get(key), str) or not entry[key].strip():
                    raise ConfigError(f"{where}: a suppression needs {key} (text)")
            one = self.code_of(entry["code"], rules, within)
            expires = entry.get("expires")
            if isinstance(expires, dt.datetime):
                expires = expires.date()
            if expires is not None and not isinstance(expires, dt.date):
                raise ConfigError(f"{where}: expires must be a date (2027-03-31), "
                                  f"not {expires!r}")  # fmt: skip
            found.append(Suppression(one.code, entry["item"], entry["reason"], expires, line))
        return tuple(found)

    def _nth_header(self, within: str, n: int) -> int | None:
        seen = -1
        for number, text in enumerate(self.lines, 1):
            head = re.match(r"^\s*\[\[\s*([^\]]+?)\s*\]\]", text)
            if head and head.group(1).replace(" ", "") == within:
                seen += 1
                if seen == n:
                    return number
        return None
