"""SARIF 2.1.0, the format GitHub code scanning reads.

The rules go in `tool.driver.rules` with their help (rationale and remedy); each result
names its rule, level, message, a logical location (the item's node id, and the JSON path
in its profile), a physical location when the snapshot is a file (its path relative to the
working directory, and the line where the finding's profile starts, or the first profile
it names), and a partial fingerprint by which GitHub follows an alert from run to run.
A message quoting a name that reads as an embedded link (`[x](target)`) is escaped.
"""

from __future__ import annotations

from typing import Any

from ..._version import __version__
from ...support.jsonio import indented_json
from ...support.redact import redact_text
from ..finding import Finding
from ..rule import Rule
from .context import ReportContext

__all__ = ["sarif_report", "SARIF_SCHEMA", "LEVELS", "FINGERPRINT", "INFORMATION_URI"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/iptoolkit/iptoolkit"
"""The driver's `informationUri`: where a reader of an alert learns about the tool (GitHub
links it beside the alert; the multitool advises it, SARIF2005)."""
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
FINGERPRINT = "iptoolkitFinding/v1"
_SECURITY_SEVERITY = {"error": "8.0", "warning": "5.5", "info": "2.0"}
"""GitHub's `security-severity` (0-10: high from 7, medium from 4) of security rules."""
_LINK_ESCAPES = str.maketrans({"\\": "\\\\", "[": "\\[", "]": "\\]"})
"""A backslash before each backslash and square bracket: SARIF 2.1.0's escapes in link text."""


def sarif_report(context: ReportContext) -> str:
    rules = list(context.rules)
    index = {one.code: n for n, one in enumerate(rules)}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "iptoolkit",
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(one) for one in rules],
            }
        },
        "results": [_result(context, f, index) for f in context.found],
        "columnKind": "unicodeCodePoints",
    }
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return indented_json(document) + "\n"


def _rule(one: Rule) -> dict[str, Any]:
    tags = [one.family.lower(), {"SEC": "security"}.get(one.family, "integration")]
    properties: dict[str, Any] = {"tags": sorted(set(tags))}
    if one.family == "SEC":
        properties["security-severity"] = _SECURITY_SEVERITY[one.severity]
    thresholds = "".join(f"\n- `{name}` = {value!r}" for name, value in one.options.items())
    more = f"\n\nThresholds:{thresholds}" if thresholds else ""
    return {
        "id": one.code,
        "name": _pascal(one.name),
        "shortDescription": {"text": one.title},
        "fullDescription": {"text": one.rationale},
        "help": {
            "text": f"{one.rationale}\n\nRemedy: {one.remedy}",
            "markdown": f"{one.rationale}\n\n**Remedy:** {one.remedy}{more}",
        },
        "defaultConfiguration": {"level": LEVELS[one.severity]},
        "properties": properties,
    }


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _result(context: ReportContext, finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    logical = [{"name": redact_text(finding.item), "fullyQualifiedName": redact_text(finding.item),
                "kind": "resource"}]  # fmt: skip
    if finding.path and finding.profile is not None:
        logical.append(
            {
                "name": finding.path.rsplit(".", 1)[-1],
                "fullyQualifiedName": f"$[{finding.profile}]{finding.path[1:]}",
                "kind": "object",
            }
        )
    location: dict[str, Any] = {"logicalLocations": logical}
    at = context.position(finding)
    if context.uri:
        physical: dict[str, Any] = {"artifactLocation": {"uri": context.uri}}
        line, column = at if at else (1, 1)
        physical["region"] = {"startLine": line, "startColumn": column}
        location["physicalLocation"] = physical
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "level": LEVELS[finding.severity],
        "message": {"text": _message_text(redact_text(finding.text))},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT: finding.fingerprint},
    }
    if finding.code in index:
        result["ruleIndex"] = index[finding.code]
    return result


def _message_text(text: str) -> str:
    """`text` as a SARIF plain text message. SARIF 2.1.0 (§3.11.6) reads `[text](target)` in
    one as an embedded link, which a viewer may make a link (`javascript:` too): a name the
    text quotes must not make one. A text with `](` has its backslashes and brackets escaped,
    the spec's escapes in link text (CodeQL's viewer undoes them across a whole message);
    other text is kept as written, as the spec allows brackets and backslashes outside links."""
    return text.translate(_LINK_ESCAPES) if "](" in text else text
