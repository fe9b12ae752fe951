"""The app's first view (`iptoolkit.app.first_view`): the overview drawn on the server and
sent in the page, every name escaped, the counts those of the estate; which addresses get
it (`server.opens_overview`); the child process that draws it; the page template's room
for it. The page as served is tested in `test_app.py` (the real command), the drawing in a
browser in `browser/test_app_team_browser.py`."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.app import first_view
from iptoolkit.core.snapshot import SnapshotInfo
from iptoolkit.support import env
from iptoolkit.viewmodel.drill import auto_view
from iptoolkit.viewmodel.topology_fit import Canvas
from iptoolkit.widgets.topology.view import TopologyView

from .factories import agent, channel, partner, profile, unit
from .hostile_estate import SECRETS, hostile_estate

SCRIPT_GROUP = "<script>alert(1)</script>"
SVG = "{http://www.w3.org/2000/svg}"


def _estate() -> ipt.Estate:
    """Fifty profiles, twenty of them in a group named like a script, a partner named with
    markup, the snapshot fetched from a URL with a password."""
    raws = []
    for n in range(50):
        owner = partner(100 + n % 3, ["Acme & Sons", 'Q"uote <b>Ltd</b>', "Zeta"][n % 3])
        ch = channel(4000 + n, "AS2" if n % 2 else "SFTP", partner=owner, name=f"ch {n}")
        raws.append(
            profile(
                f"P{n}",
                name=f"profile {n}",
                group=SCRIPT_GROUP if n < 20 else ("Finance" if n < 40 else "HR"),
                agent=agent("SFTP", channels=[ch]),
                units=[unit("Ftp", channel=ch)],
            )
        )
    info = SnapshotInfo(source_url="https://bob:hunter2@platform.example/api?token=abc")
    return ipt.Estate.from_raw(raws, info=info)


def _svg(fragment: str) -> ET.Element:
    """The fragment's first SVG, parsed as XML: it fails on any name left unescaped."""
    return _svgs(fragment)[0]


def _svgs(fragment: str) -> list[ET.Element]:
    """The fragment's SVGs (one per window width), each parsed as XML."""
    found = re.findall(r"<svg.*?</svg>", fragment, flags=re.S)
    assert found, fragment[:500]
    return [ET.fromstring(text) for text in found]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def _tags(fragment: str) -> list[str]:
    parser = _Tags()
    parser.feed(fragment)
    return parser.tags


def test_the_first_view_draws_the_explorers_overview_with_every_name_escaped(
    tmp_path: Path,
) -> None:
    estate = _estate()
    fragment = first_view.first_view_html(estate, tmp_path / "estate.json")
    svg = _svg(fragment)
    # HTML: one element, no script anywhere (the group's name is text, not a tag)
    assert fragment.startswith(f'<div id="{first_view.ELEMENT_ID}"')
    assert "script" not in _tags(fragment) and "b" not in _tags(fragment)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in fragment
    assert "<script>" not in fragment and "<b>Ltd" not in fragment
    # the same view as the Explorer's in each window width's canvas: one circle per item,
    # the labels its labels (a second line, where one would not do, is a port's label)
    drawings = _svgs(fragment)
    assert len(drawings) == len(first_view.WINDOW_WIDTHS)
    for window, drawing in zip(first_view.WINDOW_WIDTHS, drawings, strict=True):
        canvas = Canvas.of(first_view.canvas_px(window), first_view.CANVAS_HEIGHT, lines=2)
        data = auto_view(ipt.build_graph(estate), canvas=canvas)
        nodes = [a for _, a in data.graph.nodes(data=True)]
        items = [a for a in nodes if a["kind"] != "port"]
        texts = [text.text or "" for text in drawing.iter(f"{SVG}text")]
        assert sorted(texts) == sorted(a["label"] for a in nodes if a.get("label")), window
        assert len(list(drawing.iter(f"{SVG}circle"))) == len(items)
        assert len(list(drawing.iter(f"{SVG}line"))) == data.graph.number_of_edges()
        assert drawing.get("viewBox", "").split()[2:] == [
            f"{float(v):.1f}" for v in data.size or ()
        ], "drawn for its canvas, as the live view is laid out for it"
    texts = [text.text or "" for text in svg.iter(f"{SVG}text")]
    # the line above the canvas: as the live view's (its ports, no items, not counted)
    live = repr(TopologyView(estate, height=first_view.CANVAS_HEIGHT, aspect=2.0))
    assert f"{len(items)} items, grouped by group" in live
    assert f"<strong>{len(items)} items, grouped by group</strong>" in fragment
    assert any(SCRIPT_GROUP in text for text in texts), texts  # drawn whole, as text
    assert any('Q"uote <b>Ltd</b>' in text for text in texts), texts
    # the counts: each profile in its group once; the caption and the header say 50
    groups = sorted(t for t in texts if t.startswith("\u25a0"))
    assert groups == sorted(
        ["\u25a0 Finance (20)", "\u25a0 HR (10)", f"\u25a0 {SCRIPT_GROUP} (20)"]
    )
    assert "Overview of 50 profiles, drawn when the app started" in fragment
    assert "50 of 50 profiles, 3 partners, 50 channels" in fragment
    # the source named, its credentials masked
    assert "platform.example" in fragment
    assert "hunter2" not in fragment and "token=abc" not in fragment


def test_a_grouped_overview_counts_every_profile_once() -> None:
    estate = ipt.demo_estate(n_profiles=3000, seed=7)
    fragment = first_view.first_view_html(estate, None)
    texts = [text.text or "" for text in _svg(fragment).iter(f"{SVG}text")]
    groups = [t for t in texts if t.startswith("\u25a0")]
    assert 2 < len(groups) <= 14, groups  # grouped, as the Explorer's overview at 3,000
    counts = [re.search(r"\(([\d,]+)", t) for t in groups]
    assert all(counts), groups  # every group label says its count
    counted = [int(c.group(1).replace(",", "")) for c in counts if c]
    assert sum(counted) == 3000
    assert "a demo estate of 3,000 profiles" in fragment
    assert "Overview of 3,000 profiles" in fragment


def test_a_hostile_estate_draws_escaped_and_masked() -> None:
    estate = hostile_estate()
    fragment = first_view.first_view_html(estate, None)
    _svg(fragment)  # well-formed XML: every name escaped
    tags = _tags(fragment)
    assert "script" not in tags and "img" not in tags and "b" not in tags, tags
    for secret in SECRETS:
        assert secret not in fragment


@pytest.mark.parametrize(
    ("query", "drawn"),
    [
        ("", ipt.Filter()),
        ("token=abc", ipt.Filter()),
        ("token=abc&unknown=1", ipt.Filter()),  # the app says it cannot read it: the overview
        ("group=Finance", ipt.Filter(groups=["Finance"])),
        ("token=abc&partner=Mosel+Retail", ipt.Filter(partners=["Mosel Retail"])),
        ("active", ipt.Filter(active=True)),
        ("text=acme", ipt.Filter(text="acme")),
        ("item=channel:40003", None),  # an item in Details: not an overview
        ("group=Finance&item=channel:40003", None),
        ("drill=Finance", None),
        ("from=P-1&to=partner:1", None),
        ("view=AS2+partners", None),
    ],
)
def test_an_address_gets_the_first_view_of_the_filter_it_applies(
    query: str, drawn: ipt.Filter | None
) -> None:
    pytest.importorskip("voila")
    from iptoolkit.app.server import drawn_filter, opens_overview

    assert drawn_filter(query) == drawn
    assert opens_overview(query) is (drawn is not None and drawn.is_empty())


def test_a_filtered_first_view_draws_what_the_filter_keeps() -> None:
    estate = _estate()
    chosen = ipt.Filter(groups=["Finance"])
    fragment = first_view.first_view_html(estate, None, chosen=chosen)
    assert "20 of 50 profiles, 3 partners, 20 channels" in fragment
    assert "filter: group Finance" in fragment and "Overview of 20 of 50 profiles" in fragment
    for drawing in _svgs(fragment):
        texts = " ".join(text.text or "" for text in drawing.iter(f"{SVG}text"))
        assert "HR" not in texts and "alert" not in texts, texts  # only Finance's items


def test_a_filtered_first_view_says_its_filter_masked() -> None:
    """An address naming a partner whose name holds a URL's password: the map masked it,
    the filter line under the counts did not."""
    url = "https://user:pw-in-a-name-5e1@edi.example/x"
    owner = partner(7, url)
    estate = ipt.Estate.from_raw(
        [profile("P1", agent=agent("SFTP", channels=[channel(5, "SFTP", partner=owner)]))]
    )
    fragment = first_view.first_view_html(estate, None, chosen=ipt.Filter(partners=[url]))
    assert "filter: partner https://user:**" in fragment
    assert "pw-in-a-name-5e1" not in fragment


def _draw_in_child(snapshot: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "iptoolkit.app.first_view"],
        capture_output=True,
        env={**_environ(), env.APP_SNAPSHOT: str(snapshot)},
        timeout=300,
        check=False,
    )


def test_the_child_process_prints_the_first_view_of_the_apps_snapshot(tmp_path: Path) -> None:
    snapshot = tmp_path / "estate.json"
    _estate().save(snapshot)
    done = _draw_in_child(snapshot)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")
    assert text.startswith(f'<div id="{first_view.ELEMENT_ID}"') and "estate.json" in text
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    done = _draw_in_child(broken)
    assert done.returncode == 1 and done.stdout == b""
    assert b"no first view:" in done.stderr and b"broken.json" in done.stderr


def _environ() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if not key.startswith("IPTOOLKIT_")}


def test_a_filters_first_view_is_asked_once_and_never_too_many_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`FirstView.for_filter`: the zygote is asked once per filter (the next page of it gets
    the drawing kept), never more than `FILTERED_AT_ONCE` at a time (a page asking beyond
    goes without), and nothing is asked without a zygote."""
    import threading

    pytest.importorskip("voila")
    from iptoolkit.app import server

    asked: list[str] = []
    release = threading.Event()

    def zygote_request(address: str, message: dict[str, str], timeout: float) -> dict[str, str]:
        asked.append(message["filter"])
        if "Slow" in message["filter"]:
            release.wait(30)
        return {"html": f"<div>{message['filter']}</div>"}

    monkeypatch.setattr(server, "zygote_request", zygote_request)
    first = server.FirstView("/nowhere/zygote")
    finance = ipt.Filter(groups=["Finance"])
    assert first.for_filter(finance) == f"<div>{finance.to_json()}</div>"
    assert first.for_filter(finance) == f"<div>{finance.to_json()}</div>"
    assert asked == [finance.to_json()]  # kept: asked once
    slow = [ipt.Filter(groups=[f"Slow {n}"]) for n in range(server.FILTERED_AT_ONCE)]
    threads = [threading.Thread(target=first.for_filter, args=(each,)) for each in slow]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while len(asked) < 1 + len(slow) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert first.for_filter(ipt.Filter(groups=["HR"])) is None  # too many at once
    release.set()
    for thread in threads:
        thread.join(30)
    assert ipt.Filter(groups=["HR"]).to_json() not in asked
    assert first.for_filter(ipt.Filter(groups=["HR"])) is not None  # its turn now
    assert server.FirstView(None).for_filter(finance) is None
