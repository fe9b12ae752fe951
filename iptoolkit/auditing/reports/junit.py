"""JUnit XML for CI dashboards: one test case per rule that ran, failed when the rule has
findings at or above `--fail-on`, its findings listed in the failure (or, below it, in
the case's output).

ElementTree writes any character it is given, and XML 1.0 cannot hold most control
characters (an id with an ESC or a NUL made the file unreadable): every text goes through
`shown` (control characters as escapes) and then `drop_unprintable` (what XML 1.0 refuses
and `shown` leaves, such as U+FFFF), attributes included."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from ...support.printable import drop_unprintable
from .context import ReportContext, shown

if TYPE_CHECKING:
    from ..finding import Finding

__all__ = ["junit_report"]


def junit_report(context: ReportContext) -> str:
    by_code: dict[str, list[Finding]] = {}
    for finding in context.found:
        by_code.setdefault(finding.code, []).append(finding)
    suites = ET.Element("testsuites", name="iptoolkit audit")
    suite = ET.SubElement(suites, "testsuite", name="iptoolkit audit")
    failures = 0
    for one in context.rules:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"iptoolkit.audit.{one.family}",
            name=_xml(shown(f"{one.code} {one.name}: {one.title}")),
        )
        found = by_code.get(one.code, [])
        if not found:
            continue
        lines = "\n".join(
            _xml(f"{shown(context.where(f))}: [{f.severity}] {shown(f.text)}") for f in found
        )
        failing = [f for f in found if context.fails(f)]
        if failing:
            failures += 1
            worst = min((f.severity for f in failing), key=("error", "warning", "info").index)
            ET.SubElement(
                case,
                "failure",
                message=_xml(shown(f"{len(found)} finding(s) of {one.code}: {one.title}")),
                type=worst,
            ).text = lines
        else:
            ET.SubElement(case, "system-out").text = lines
    for element in (suites, suite):
        element.set("tests", str(len(context.rules)))
        element.set("failures", str(failures))
        element.set("errors", "0")
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _xml(text: str) -> str:
    """Text XML 1.0 can hold (`drop_unprintable`), for an element or an attribute."""
    return drop_unprintable(text)
