"""One self-contained HTML file: the topology, its script and its style, nothing fetched.

`write_html` (`ipt.export(estate, "topology.html")`, `iptoolkit export SNAP -o x.html`)
writes the payload (`view.view_payload`) as JSON, gzip-compressed in base64
(`packed_json`), in a `<script>` element the browser does not run, the script
(`assets/topology.js`, with `FILE_SCRIPTS`: the findings toggle and the path view) and the
style (`assets/topology.css`) inline. The payload carries the audit's findings of the
estate written (`ipt.findings`) and its graph, which the path view walks. The page's
Content-Security-Policy allows no request at all (`default-src 'none'`): it opens from
disk, on an intranet, attached to a ticket, and a name that slipped through could load
nothing even then.

Names are hostile: the packed payload is base64, which holds no character HTML reads, and
JSON written as script (a docs site's `x.view.js`) escapes `<`, `>`, `&` and U+2028/U+2029
(`script_json`), so no name ends the script element or reads as markup; the script writes
every name with `textContent`, never as HTML; the title is `html.escape`d.
"""

from __future__ import annotations

import base64
import gzip
import html
import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..support.jsonio import dumps_json
from ..support.progress import progress_scope
from ..support.redact import redact_text, redact_url

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..comparing.comparison import Comparison
    from ..core.estate import Estate
    from ..viewmodel.change_marks import MarkedMap

__all__ = [
    "ASSETS",
    "FILE_SCRIPTS",
    "asset",
    "script_json",
    "packed_json",
    "html_document",
    "estate_lines",
    "write_html",
    "write_diff_html",
    "write_comparison_html",
    "written_page",
]

ASSETS = ("topology.js", "topology.css")
"""The script and style every offline view uses, package data of `iptoolkit.offline`."""
FILE_SCRIPTS = ("findings.js", "paths.js", "changes.js")
"""What an HTML file's view adds to the script: findings on the map, the path view, a
diff's marks (the docs site's script adds the last, for its changelog; each add-on does
nothing without its data)."""
POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


@cache
def asset(name: str) -> str:
    """The text of an asset (`ASSETS`)."""
    return resources.files("iptoolkit.offline").joinpath("assets", name).read_text("utf-8")


def script_json(payload: Any) -> str:
    """`payload` as JSON safe inside a `<script>` element: `<`, `>`, `&` and the two line
    separators JavaScript once refused are written as `\\uXXXX` escapes (they occur only
    inside strings, where JSON reads them back as the same characters). Written by
    `dumps_json` (orjson: the 14 MB of a 10,000-profile file in a fifth of the time)."""
    text = dumps_json(payload).decode("utf-8")
    for character, escape in _ESCAPES.items():
        text = text.replace(character, escape)
    return text


def packed_json(payload: Any) -> str:
    """`payload` as gzip-compressed JSON in base64: a sixth of the bytes of the JSON (the
    10,000-profile estate's 12 MB of levels and details are 2 MB), unpacked by the
    browser's own `DecompressionStream`; fixed gzip time, so the same bytes each run.
    Level 6, zlib's default: level 9 took three times as long for 3% fewer bytes.
    Base64 holds no character HTML reads, whatever the names: the JSON inside needs no
    escapes (`script_json`'s took 0.15 s of a 10,000-profile file)."""
    text = dumps_json(payload)
    return base64.b64encode(gzip.compress(text, compresslevel=6, mtime=0)).decode("ascii")


def html_document(payload: dict[str, Any]) -> str:
    """The whole page: the payload, the script and the style inline."""
    title = html.escape(str(payload.get("title", "Topology")))
    scripts = "\n".join(asset(name) for name in ("topology.js", *FILE_SCRIPTS))
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        f"<title>{title}</title>\n<style>{asset('topology.css')}</style></head>\n"
        "<body class='ipt-page'>\n<main class='ipt-view ipt-view-page'>"
        "<noscript><p>This topology is drawn by its script: allow JavaScript for this "
        "file to explore it.</p></noscript></main>\n"
        "<script type='application/octet-stream' class='ipt-view-data' data-encoding='gzip'>"
        f"{packed_json(payload)}</script>\n<script>{scripts}</script>\n"
        "</body></html>\n"
    )


def estate_lines(estate: Estate, counts: str) -> list[str]:
    """The lines under the title: the counts, and where the estate comes from and when
    (the source URL masked)."""
    info = estate.info
    source = ""
    if info.source_url:
        source = f"fetched from {redact_url(str(info.source_url))}"
    if info.fetched_at is not None:
        source += f" on {info.fetched_at:%Y-%m-%d %H:%M %Z}".rstrip()
    return [counts, *([redact_text(source.strip())] if source else [])]


def write_html(
    estate: Estate,
    path: str | os.PathLike[str],
    *,
    group_by: str | Literal[False] | None = None,
    title: str | None = None,
) -> Path:
    """Write the estate's topology as one interactive HTML file (see the module docstring).

    `group_by`: as `show_topology`: None lets the view choose as the Explorer does
    (`drill.auto_view`: node by node when it fits, else grouped), `"group"`,
    `"agent_type"` or `"partner"` always, False never (every node, in rows). Its long
    steps (the levels laid out, each item's details, counted) show on the command line's
    bar, or on one of their own in Jupyter or a terminal once the work has run 2 s."""
    from ..auditing.engine import findings
    from ..core.selection import Filter
    from ..plot.topology import check_options
    from ..viewmodel.explorer_model import ExplorerModel
    from .view import FILE_CANVAS, chosen_overview, view_payload

    check_options("auto", group_by)
    model = ExplorerModel(estate)
    graph = model.graph
    overview = chosen_overview(graph, group_by, FILE_CANVAS)
    counts = model.select(Filter()).counts_text()
    shown = redact_text(" ".join((title or "Integration estate topology").split()))
    with progress_scope(None) as progress:  # a command's bar, else one after 2 s (100k: 38 s)
        payload = view_payload(
            graph,
            model,
            title=shown,
            lines=estate_lines(estate, counts),
            overview=overview,
            findings=findings(estate),
            paths=True,
            progress=progress,
        )
        return written_page(payload, path)


def write_diff_html(
    diff: EstateDiff,
    path: str | os.PathLike[str],
    *,
    group_by: str | Literal[False] | None = None,
    title: str | None = None,
) -> Path:
    """Write what changed from `diff.old` to `diff.new` as one interactive HTML file: the
    map of both snapshots, each item coloured by what happened to it, its changes in its
    details (`changes_data`). `group_by` and `title` as `write_html` (the default title
    names the two snapshots, `diff_heading`; the line under it counts the changes)."""
    from ..plot.diff_diagram import diff_heading
    from ..viewmodel.change_marks import diff_map

    shown = title or diff_heading(diff)
    return _write_map(diff_map(diff, "build"), shown, diff.summary(), path, group_by)


def write_comparison_html(
    comparison: Comparison,
    path: str | os.PathLike[str],
    *,
    group_by: str | Literal[False] | None = None,
    title: str | None = None,
) -> Path:
    """Write how installation A differs from B (`ipt.compare`) as one interactive HTML
    file: both on one map, each item coloured by its kind of difference, what differs in
    its details (`changes_data`). `group_by` and `title` as `write_html` (the default
    title names the two installations; the line under it counts the differences)."""
    from ..viewmodel.compare_marks import comparison_map

    a, b = comparison.names
    shown = title or f"{a} vs {b}"
    return _write_map(comparison_map(comparison), shown, comparison.summary(), path, group_by)


def _write_map(
    shown: MarkedMap,
    title: str,
    summary: str,
    path: str | os.PathLike[str],
    group_by: str | Literal[False] | None,
) -> Path:
    """The map of change `shown` written to `path`, under `title` (one line, masked) and
    the lines of `summary`."""
    from ..plot.topology import check_options
    from .changes_data import map_payload

    check_options("auto", group_by)
    heading = redact_text(" ".join(title.split()))
    lines = [redact_text(line) for line in summary.splitlines() if line.strip()]
    payload = map_payload(shown, title=heading, lines=lines, group_by=group_by)
    return written_page(payload, path)


def written_page(payload: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """The page of `payload` (`html_document`) written to `path`, UTF-8, `\\n` line ends."""
    target = Path(path)
    target.write_text(html_document(payload), encoding="utf-8", newline="\n")
    return target
