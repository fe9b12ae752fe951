"""The MCP tools' answers stay small and masked whatever the platform's free text holds:
names of any length, and arguments the SDK refuses before a tool runs. In process, no
subprocess: `build_server` over a `Store` of a hostile estate."""

from __future__ import annotations

import copy
import json
from typing import Any

import anyio
import pytest

import iptoolkit as ipt
from iptoolkit.core.estate import Estate

pytest.importorskip("mcp")
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402

from iptoolkit.mcp import Loaded, Store, build_server  # noqa: E402
from iptoolkit.mcp.tools import STRING_LIMIT, Tools  # noqa: E402

HUGE = 100_000
TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"


@pytest.fixture(scope="module")
def store() -> Store:
    raw = copy.deepcopy(list(ipt.demo_estate(120).raw_profiles))
    for profile in raw[:40]:
        profile["name"] = "N" * HUGE
    raw[40]["group"] = "G" * HUGE
    for index, profile in enumerate(raw[41:]):  # each its own agent class: 79 types
        profile["inputAgentSettings"]["class"] = f"core:Odd{index}AgentSettings"
    held = next(p for p in raw if isinstance(p["inputAgentSettings"].get("channel"), dict))
    held["inputAgentSettings"]["channel"]["name"] = "C" * HUGE
    held["inputAgentSettings"]["channel"]["partner"]["name"] = "P" * HUGE
    return Store(loaded=[Loaded("hostile", Estate.from_raw(raw))])


def _size(result: Any) -> int:
    return len(json.dumps(result.structured_content)) + len(result.content[0].text)


def test_a_page_of_profiles_with_huge_names_stays_small(store):
    page = Tools(store).find_profiles(limit=200)
    assert _size(page) < 2_000_000, "200 rows, cut names: well under a megabyte a side"
    names = [row["name"] for row in page.structured_content["items"]]
    assert all(len(name) < STRING_LIMIT + 100 for name in names)
    assert f"of {HUGE:,} characters" in names[0], "a cut says so"


def test_get_item_answer_is_bounded_as_its_note_says(store):
    tools = Tools(store)
    answer = tools.get_item(id="P-000001")
    assert _size(answer) < 40_000
    assert answer.structured_content["json_text"] is not None, "the JSON keeps its own bound"
    assert len(answer.structured_content["json_text"]) == 6000


def test_every_tool_answer_about_huge_names_is_bounded(store):
    tools = Tools(store)
    graph = store.current.graph
    partner = next(n for n, d in graph.nodes(data=True) if len(d.get("name") or "") == HUGE)
    answers = [
        tools.summary(),
        tools.where_used(id=partner, limit=200),
        tools.impact(id=partner, limit=200),
        tools.neighbourhood(id=partner, depth=4, limit=200),
        tools.get_item(id=partner),
        tools.find_profiles(filter=ipt.Filter(text="Q" * HUGE)),
    ]
    for answer in answers:
        assert _size(answer) < 100_000, str(answer.content[0])[:200]


def test_summary_types_are_cut_with_a_note_beyond_a_hundred():
    raw = copy.deepcopy(list(ipt.demo_estate(300).raw_profiles))
    for index, profile in enumerate(raw):
        profile["inputAgentSettings"]["class"] = f"core:Odd{index}AgentSettings"
    answer = Tools(Store(loaded=[Loaded("odd", Estate.from_raw(raw))])).summary()
    content = answer.structured_content
    assert len(content["agent_types"]) == 100
    assert "agent_types (300)" in content["note"]


def _call(store: Store, name: str, arguments: dict[str, Any]) -> str:
    server = build_server(store)

    async def main() -> str:
        with pytest.raises(ToolError) as caught:
            await server.call_tool(name, arguments)
        return str(caught.value)

    return anyio.run(main)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("find_profiles", {"filter": {"active": "sftp://edi:pa55word@sftp.example.com/in"}}),
        ("get_item", {"id": "P-000001", "offset": f"Bearer {TOKEN}"}),
    ],
)
def test_the_sdks_refusals_of_an_argument_are_masked(store, name, arguments):
    text = _call(store, name, arguments)
    for piece in ("pa55word", "eyJhbGciOiJIUzI1", "eyJzdWIiOiJ4In0", "c2lnbmF0dXJl"):
        assert piece not in text, text
    assert name in text, "still names the tool and the argument"


def test_the_sdks_refusals_are_cut(store):
    text = _call(store, "get_item", {"id": "P-000001", "offset": "9" * 50_000 + "x"})
    assert len(text) < 1_200, len(text)
