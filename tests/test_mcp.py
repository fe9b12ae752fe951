"""`iptoolkit mcp`, driven as an assistant drives it: the SDK's own client, over stdio, with
the server a subprocess (`iptoolkit mcp a.json b.json`).

One server session per module runs a script of calls (starting a server costs seconds);
each test then compares what came back with what the Python API says of the same
snapshot. The demo estate holds no credentials, so the fixture plants some where real
ones hide (secret-named fields, a password in a URL) and every answer is searched for them.
"""

from __future__ import annotations

import base64
import copy
import io
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest

import iptoolkit as ipt
from iptoolkit.core.estate import Estate
from iptoolkit.core.snapshot import SnapshotInfo
from iptoolkit.query.filters import select
from iptoolkit.support.redact import MASK, is_secret_name, redact_fields

mcp = pytest.importorskip("mcp")
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

T = TypeVar("T")

IPTOOLKIT = str(Path(sys.executable).parent / "iptoolkit")
PASSED_ON = ("PYTHONPATH", "COVERAGE_PROCESS_CONFIG")
"""Variables a stdio server gets beside the SDK's short list (see `_run`)."""
TOOLS = {
    "summary",
    "find_profiles",
    "get_item",
    "where_used",
    "impact",
    "neighbourhood",
    "paths",
    "findings",
    "draw_topology",
    "schema_report",
}
PLANTED = (
    "pw-PLANTED-0001",
    "tok-PLANTED-0002",
    "url-PLANTED-0003",
    "hdr-PLANTED-0004",
    "name-PLANTED-0005",
)


def _planted_profiles() -> list[dict[str, Any]]:
    """The demo's profiles with credentials where real estates carry them."""
    raw = copy.deepcopy(list(ipt.demo_estate(300).raw_profiles))
    raw[0]["inputAgentSettings"]["password"] = PLANTED[0]
    raw[1]["loginToken"] = PLANTED[1]
    held = next(p for p in raw if isinstance(p["inputAgentSettings"].get("channel"), dict))
    channel = held["inputAgentSettings"]["channel"]
    channel["url"] = f"https://edi:{PLANTED[2]}@gateway.example.com/in"
    raw[2]["inputAgentSettings"]["httpHeaders"] = {"Authorization": f"Bearer {PLANTED[3]}"}
    raw[3]["name"] = f"Orders from sftp://edi:{PLANTED[4]}@sftp.example.com/in"
    return raw


def _secrets(estate: Estate) -> set[str]:
    """Every value of a secret-named field in the estate, found by the one rule."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if is_secret_name(str(key)) and isinstance(item, str) and item:
                    found.add(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for raw in estate.raw_profiles:
        walk(raw)
    return found


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two snapshots: `older` (an earlier fetch) and `newer`, the planted one, current."""
    folder = tmp_path_factory.mktemp("mcp")
    older = ipt.demo_estate(60, seed=3)
    newer = Estate.from_raw(
        _planted_profiles(),
        source_url="https://platform.example.com/api/preview/profiles",
        fetched_at=datetime(2026, 11, 22, 10, 0, tzinfo=UTC),
    )
    older_info = SnapshotInfo(source_url="demo", fetched_at=datetime(2026, 1, 1, tzinfo=UTC))
    older = older.take(range(len(older)), info=older_info)
    # the newer one is named first: "current" goes by fetch time, not by order
    newer.save(folder / "newer.json")
    older.save(folder / "older.json.gz")
    newer = ipt.load(folder / "newer.json")
    return {
        "paths": [folder / "newer.json", folder / "older.json.gz"],
        "estate": newer,
        "older": ipt.load(folder / "older.json.gz"),
        "graph": ipt.build_graph(newer),
    }


def _run(
    args: list[str],
    script: Callable[[ClientSession], Awaitable[T]],
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> T:
    """Start `iptoolkit mcp ARGS` (in `cwd`) and run `script` with a client session on it. The SDK
    passes the server a short list of variables; PYTHONPATH is added, so that a worktree's
    tests run its own code, and COVERAGE_PROCESS_CONFIG, so that `make test` measures the
    server too."""
    passed = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    if passed:
        from mcp.client.stdio import get_default_environment

        env = {**get_default_environment(), **passed, **(env or {})}

    async def main() -> T:
        params = StdioServerParameters(command=IPTOOLKIT, args=["mcp", *args], env=env, cwd=cwd)
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await script(session)

    return anyio.run(main)


CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "summary": ("summary", {}),
    "summary_older": ("summary", {"snapshot": "older"}),
    "by_partner": ("find_profiles", {"filter": {"partners": ["Lumen Packaging Ltd"]}}),
    "sftp_active": ("find_profiles", {"filter": {"agent_types": "SFTP", "active": True}}),
    "item_bare": ("get_item", {"id": "40047"}),
    "item_node": ("get_item", {"id": "channel:40047"}),
    "item_name": ("get_item", {"id": "lumen packaging http"}),
    "item_profile": ("get_item", {"id": "P-000001"}),
    "item_cut": ("get_item", {"id": "P-000001", "max_chars": 300}),
    "item_rest": ("get_item", {"id": "P-000001", "max_chars": 300, "offset": 300}),
    "where_used": ("where_used", {"id": "partner:1017", "limit": 5}),
    "where_used_type": ("where_used", {"type": "AS2", "limit": 200}),
    "impact": ("impact", {"id": "Lumen Packaging HTTP", "limit": 3}),
    "neighbourhood": ("neighbourhood", {"id": "partner:1017", "depth": 2, "limit": 200}),
    "paths": ("paths", {"a": "P-000002", "b": "P-000209", "limit": 1}),
    "paths_rest": ("paths", {"a": "P-000002", "b": "P-000209", "limit": 1, "cursor": "1"}),
    "findings": ("findings", {"limit": 3}),
    "findings_kind": ("findings", {"kind": "duplicate_endpoint", "limit": 200}),
    "drift": ("schema_report", {"limit": 200}),
    "diff": ("diff", {"limit": 200, "kind": "profile"}),
    "drift_fields": ("schema_report", {"kind": "unknown_field", "limit": 2}),
    "draw": ("draw_topology", {"filter": {"partners": ["1017"]}, "highlight": "channel:40047"}),
    # bad arguments: tool errors, and the server lives on
    "unknown_id": ("get_item", {"id": "Lumen Packagin HTTP"}),
    "limit_zero": ("find_profiles", {"limit": 0}),
    "bad_cursor": ("find_profiles", {"cursor": "not-a-cursor"}),
    "bad_filter": ("find_profiles", {"filter": {"partner": "Acme"}}),
    "unknown_argument": ("find_profiles", {"partner": "Lumen Packaging Ltd"}),
    "bad_kind": ("findings", {"kind": "nonsense"}),
    "findings_code": ("findings", {"code": "SEC", "limit": 5}),
    "bad_code": ("findings", {"code": "SEC999"}),
    "bad_snapshot": ("summary", {"snapshot": "nwer"}),
    "both_forms": ("where_used", {"id": "partner:1017", "type": "AS2"}),
    "deep": ("neighbourhood", {"id": "partner:1017", "depth": 99}),
    "bad_drift_kind": ("schema_report", {"kind": "unknown"}),
    "draw_outside": ("draw_topology", {"filter": {"partners": ["1017"]}, "highlight": "P-000002"}),
    "none_matches": ("find_profiles", {"filter": {"partners": ["Lumen Packagin Ltd"]}}),
    "none_together": ("find_profiles", {"filter": {"partners": ["1017"], "agent_types": "Fax"}}),
    "unknown_type": ("where_used", {"type": "SFPT"}),
    "long_id": ("get_item", {"id": "Lumen" * 20_000}),
    "after_errors": ("summary", {}),
    # where the planted secrets live
    "secret_agent": ("get_item", {"id": "agent:P-000001"}),
    "secret_profile": ("get_item", {"id": "P-000002"}),
    "secret_header": ("get_item", {"id": "P-000003"}),
    "secret_text": ("find_profiles", {"filter": {"text": "gateway.example.com"}}),
}


@pytest.fixture(scope="module")
def session_results(snapshots: dict[str, Any]) -> dict[str, Any]:
    """Every call of `CALLS` (and the listings) over one stdio session."""

    async def script(session: ClientSession) -> dict[str, Any]:
        results: dict[str, Any] = {"tools": await session.list_tools()}
        results["resources"] = await session.list_resources()
        results["templates"] = await session.list_resource_templates()
        for uri in ("iptoolkit://summary", "iptoolkit://data-model"):
            results[uri] = await session.read_resource(uri)
        results["type"] = await session.read_resource("iptoolkit://data-model/sftpagentsettings")
        results["rule"] = await session.read_resource("iptoolkit://rules/SEC006")
        for key, (name, arguments) in CALLS.items():
            results[key] = await session.call_tool(name, arguments)
        pages, cursor = [], None
        while True:  # every page of a filter, as an assistant reads it
            arguments = {"filter": {"active": True}, "limit": 50}
            page = await session.call_tool("find_profiles", {**arguments, "cursor": cursor})
            pages.append(page)
            cursor = page.structured_content["next_cursor"]
            if cursor is None:
                break
        results["pages"] = pages
        return results

    return _run([str(path) for path in snapshots["paths"]], script)


def _ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    content = result.structured_content
    assert isinstance(content, dict), content
    return content


def _error(result: Any) -> str:
    assert result.is_error, result.structured_content
    text = result.content[0].text
    assert isinstance(text, str), text
    return text


def test_the_tools_are_listed_with_schemas_and_read_only(session_results):
    tools = {tool.name: tool for tool in session_results["tools"].tools}
    assert set(tools) == TOOLS | {"diff", "compare"}, "diff, compare with two snapshots"
    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 40, name
        assert tool.annotations.read_only_hint is True, name
        if name != "draw_topology":
            assert tool.output_schema is not None, name
    assert "partners" in json.dumps(tools["find_profiles"].input_schema)
    assert all(t.input_schema["additionalProperties"] is False for t in tools.values())


def _choices(schema: dict[str, Any], argument: str) -> list[Any]:
    """The values an argument's JSON Schema allows (its `enum`, beside `null`)."""
    shape = schema["properties"][argument]
    found = [value for option in shape.get("anyOf", [shape]) for value in option.get("enum", [])]
    return found


def test_arguments_with_fixed_values_list_them_in_the_schema(session_results):
    """An assistant reads the choices from the schema, not from prose in a description."""
    schemas = {tool.name: tool.input_schema for tool in session_results["tools"].tools}
    assert _choices(schemas["findings"], "severity") == ["error", "warning", "info"]
    assert "channel_conflict" in _choices(schemas["findings"], "kind")
    assert _choices(schemas["diff"], "severity") == ["breaking", "notable", "cosmetic"]
    assert "schema" in _choices(schemas["diff"], "kind")
    assert "wired-differently" in _choices(schemas["compare"], "status")
    assert _choices(schemas["compare"], "kind") == ["profile", "channel", "partner"]
    assert "never_present" in _choices(schemas["schema_report"], "kind")


def test_summary_is_the_current_snapshot_counted_as_the_python_api_does(session_results, snapshots):
    estate = snapshots["estate"]
    answer = _ok(session_results["summary"])
    assert answer["snapshot"] == "newer", "the latest fetch is current, whatever the order"
    assert answer["snapshots"] == ["newer", "older"]
    counts = estate.summary()
    for key in ("profiles", "active_profiles", "channels", "partners", "unresolved_channels"):
        assert answer[key] == counts[key], key
    assert answer["agent_types"] == counts["agent_types"]
    assert answer["findings"] == ipt.findings(estate).counts()
    shown = answer["profiles_by_group"]
    assert set(shown) == {  # the 20 largest of the 21 groups: `HR/Directory` (2) is cut
        "Logistics/EDI/Inbound", "Sales/Orders", "Finance/GL", "Finance/AP", "IT/Archive",
        "Logistics/Transport", "HR/Payroll", "Logistics/Warehouse", "Finance/AR",
        "IT/Monitoring", "Production/Shopfloor", "Procurement/Suppliers",
        "Logistics/EDI/Outbound", "Procurement/Catalogs", "Sales/Portal", "Finance/Treasury",
        "Production/Quality", "Sales/Pricing", "Sales/Backoffice", "IT/Test",
    }  # fmt: skip
    groups = [record.group for record in estate.records]
    assert shown == {group: groups.count(group) for group in shown}
    assert list(shown.values()) == sorted(shown.values(), reverse=True), "largest first"
    assert "profiles_by_group (21)" in answer["note"]
    older = _ok(session_results["summary_older"])
    assert older["snapshot"] == "older" and older["profiles"] == len(snapshots["older"])
    assert json.loads(session_results["iptoolkit://summary"].contents[0].text) == answer
    text = session_results["summary"].content[0].text
    assert json.loads(text) == answer and "\n" not in text, "the same answer, compact, as text"


def test_find_profiles_pages_through_what_the_filter_selects(session_results, snapshots):
    estate = snapshots["estate"]
    expected = [estate.records[i].node for i in select(estate, ipt.Filter(active=True))]
    pages = [_ok(page) for page in session_results["pages"]]
    assert len(pages) == -(-len(expected) // 50) > 1
    assert [row["node"] for page in pages for row in page["items"]] == expected
    assert all(page["total"] == len(expected) for page in pages)

    by_partner = _ok(session_results["by_partner"])
    chosen = estate.subset(ipt.Filter(partners=["Lumen Packaging Ltd"]))
    assert by_partner["total"] == len(chosen)
    row = by_partner["items"][0]
    record = chosen.records[0]
    assert row["node"] == record.node and row["agent_type"] == record.agent_type
    assert {p["node"] for p in row["partners"]} == {f"partner:{k}" for k in record.partners}
    assert "partner:1017" in {p["node"] for p in row["partners"]}
    sftp = _ok(session_results["sftp_active"])
    assert sftp["total"] == len(estate.subset(ipt.Filter(agent_types="SFTP", active=True)))


def test_get_item_takes_any_id_form_and_masks_the_json(session_results, snapshots):
    answers = [_ok(session_results[key]) for key in ("item_bare", "item_node", "item_name")]
    assert {answer["node"] for answer in answers} == {"channel:40047"}
    channel = answers[0]
    graph = snapshots["graph"]
    assert channel["used_by"] == len(ipt.where_used(graph, "channel:40047"))
    assert channel["partner"]["node"] == "partner:1017"
    expected = redact_fields(graph.nodes["channel:40047"]["model"].to_json_dict())
    assert channel["json"] == expected

    profile = _ok(session_results["item_profile"])
    record = snapshots["estate"].records[0]
    assert profile["json"] == redact_fields(record.raw)
    assert {c["node"] for c in profile["channels"]} == {f"channel:{k}" for k in record.channel_keys}


def test_a_long_json_comes_in_parts_with_a_note(session_results, snapshots):
    first, rest = _ok(session_results["item_cut"]), _ok(session_results["item_rest"])
    assert first["json"] is None and len(first["json_text"]) == 300
    assert "offset=300" in first["note"]
    whole = json.dumps(
        redact_fields(snapshots["estate"].records[0].raw), ensure_ascii=False, separators=(",", ":")
    )
    assert whole.startswith(first["json_text"] + rest["json_text"])


def test_where_used_impact_and_neighbourhood_are_the_python_answers(session_results, snapshots):
    graph = snapshots["graph"]
    used = ipt.where_used(graph, "partner:1017")
    answer = _ok(session_results["where_used"])
    assert answer["total"] == len(used) > 5
    assert [item["node"] for item in answer["items"]] == used[:5]
    assert answer["next_cursor"] == "5"
    by_type = _ok(session_results["where_used_type"])
    assert [item["node"] for item in by_type["items"]] == ipt.where_used(graph, type="AS2")

    hit = ipt.impact(graph, "channel:40047")
    answer = _ok(session_results["impact"])
    assert answer["node"] == "channel:40047" and answer["text"] == str(hit)
    for name in ("lose_input", "partial_input", "lose_response", "responses", "partners"):
        assert answer[name]["total"] == len(getattr(hit, name)), name
        assert [i["node"] for i in answer[name]["items"]] == getattr(hit, name)[:3], name

    near = ipt.neighbourhood(graph, "partner:1017", 2)
    answer = _ok(session_results["neighbourhood"])
    assert [n["node"] for n in answer["nodes"]] == list(near)
    assert answer["total_edges"] == len(answer["edges"]) == near.number_of_edges()


def test_paths_are_the_python_answer_a_page_at_a_time(session_results, snapshots):
    found = ipt.paths(snapshots["graph"], "P-000002", "P-000209", limit=200)
    first, rest = _ok(session_results["paths"]), _ok(session_results["paths_rest"])
    assert first["from"] == "profile:P-000002" and first["to"] == "profile:P-000209"
    assert first["total"] == len(found) > 1 and first["next_cursor"] == "1"
    assert [n["node"] for n in first["paths"][0]["nodes"]] == found.paths[0]
    assert [n["node"] for n in rest["paths"][0]["nodes"]] == found.paths[1]
    assert [s["forward"] for s in first["paths"][0]["steps"]] == [s.forward for s in found.steps[0]]


def test_findings_are_the_audit_filtered_by_kind(session_results, snapshots):
    found = ipt.findings(snapshots["estate"])
    answer = _ok(session_results["findings"])
    assert answer["total"] == len(found) and answer["counts"] == found.counts()
    assert [item["text"] for item in answer["items"]] == [f.text for f in found[:3]]
    duplicates = found.of(kind="duplicate_endpoint")
    answer = _ok(session_results["findings_kind"])
    assert answer["total"] == len(duplicates) > 0
    assert {item["kind"] for item in answer["items"]} == {"duplicate_endpoint"}


def test_findings_carry_codes_titles_and_their_rules_explanation(session_results, snapshots):
    found = ipt.findings(snapshots["estate"])
    answer = _ok(session_results["findings_code"])
    security = found.of(code="SEC")
    assert answer["total"] == len(security) > 0
    assert answer["by_code"] == found.by_code()
    first = answer["items"][0]
    assert first["code"] == security[0].code and first["title"]
    assert first["rule"] == f"iptoolkit://rules/{first['code']}"
    assert {item["code"][:3] for item in answer["items"]} == {"SEC"}
    assert "SEC999" in _error(session_results["bad_code"])
    summary = _ok(session_results["summary"])
    by_code = {row["code"]: row for row in summary["findings_by_code"]}
    assert {code: row["count"] for code, row in by_code.items()} == found.by_code()
    assert by_code["SEC006"]["title"].startswith("AS2 signing")
    rule = session_results["rule"].contents[0].text
    assert rule.startswith("# SEC006: AS2 signing") and "Remedy:" in rule


def test_schema_report_is_the_python_report_paged(session_results, snapshots):
    report = ipt.schema_report(snapshots["estate"])
    answer = _ok(session_results["drift"])
    assert answer["summary"] == report.summary() and answer["counts"] == report.counts()
    assert answer["items"] == [item.to_dict() for item in report.items][:200]
    fields = _ok(session_results["drift_fields"])
    planted = {row.field for row in report.of("unknown_field")}
    assert {"password", "loginToken", "httpHeaders"} <= planted
    assert fields["total"] == len(report.of("unknown_field")) > 2
    assert [row["path"] for row in fields["items"]] == [
        row.path for row in report.of("unknown_field")[:2]
    ]


def test_diff_over_stdio_is_the_current_snapshot_against_the_older(session_results, snapshots):
    expected = ipt.diff(snapshots["older"], snapshots["estate"])
    answer = _ok(session_results["diff"])
    assert (answer["old"], answer["new"]) == ("older", "newer")
    assert answer["summary"] == expected.summary()
    assert answer["total"] == len(expected.of(kind="profile")) > 200


def test_draw_topology_is_a_png_image(session_results):
    from PIL import Image

    result = session_results["draw"]
    assert not result.is_error, result.content
    image, text = result.content
    assert image.type == "image" and image.mime_type == "image/png"
    picture = Image.open(io.BytesIO(base64.b64decode(image.data)))
    assert picture.format == "PNG" and 600 < max(picture.size) <= 2000
    assert "channel:40047 highlighted" in text.text
    width, height = picture.size  # the size said is the picture's (once a pixel off)
    assert f"; {width}x{height} px" in text.text, (text.text, picture.size)


def test_bad_arguments_are_tool_errors_and_the_server_lives_on(session_results):
    assert "channel:40047 (Lumen Packaging HTTP)" in _error(session_results["unknown_id"])
    assert "limit" in _error(session_results["limit_zero"])
    assert "cursor 'not-a-cursor'" in _error(session_results["bad_cursor"])
    assert "partner" in _error(session_results["bad_filter"])
    unknown = _error(session_results["unknown_argument"])  # not all 300 as if unfiltered
    assert "find_profiles takes no argument 'partner'" in unknown and "filter" in unknown
    assert "duplicate_endpoint" in _error(session_results["bad_kind"])
    assert "did you mean 'newer'" in _error(session_results["bad_snapshot"])
    assert "exactly one" in _error(session_results["both_forms"])
    assert "depth" in _error(session_results["deep"])
    assert "unknown_field" in _error(session_results["bad_drift_kind"])
    assert "profile:P-000002 is not in the diagram" in _error(session_results["draw_outside"])
    assert _ok(session_results["after_errors"])["profiles"] == 300


def test_an_error_about_a_long_argument_stays_small(session_results):
    """An error names the argument it refuses, cut: a 100,000-character id is not echoed."""
    text = _error(session_results["long_id"])
    assert "nothing in the graph is named 'LumenLumen" in text
    assert len(text) < 1200 and "cut at 1,000 of" in text


def test_the_data_model_is_a_resource_in_parts(session_results):
    uris = {str(resource.uri) for resource in session_results["resources"].resources}
    assert uris == {"iptoolkit://summary", "iptoolkit://data-model"}
    templates = session_results["templates"].resource_templates
    assert sorted(t.uri_template for t in templates) == [
        "iptoolkit://data-model/{name}",
        "iptoolkit://rules/{code}",
    ]
    contents = session_results["iptoolkit://data-model"].contents[0].text
    assert "iptoolkit://data-model/SFTPAgentSettings" in contents and len(contents) < 20_000
    section = session_results["type"].contents[0].text
    assert section.startswith("### SFTPAgentSettings") and "| JSON name |" in section


def test_no_secret_of_the_estate_appears_in_any_answer(session_results, snapshots):
    secrets = _secrets(snapshots["estate"])
    assert all(any(p in s for s in secrets) for p in PLANTED[:2] + PLANTED[3:4]), "the rule"
    everything = []
    for result in session_results.values():
        results = result if isinstance(result, list) else [result]
        everything += [r.model_dump_json() for r in results]
    text = "\n".join(everything)
    assert not [secret for secret in secrets | set(PLANTED) if secret in text]
    # and the items that hold them were answered, masked
    assert _ok(session_results["secret_agent"])["json"]["password"] == MASK
    assert _ok(session_results["secret_profile"])["json"]["loginToken"] == MASK
    header = _ok(session_results["secret_header"])["json"]["inputAgentSettings"]["httpHeaders"]
    assert header == {"Authorization": MASK}
    assert _ok(session_results["secret_text"])["total"] == 1
    named = _ok(session_results["pages"][0])["items"][3]
    assert named["name"] == f"Orders from sftp://edi:{MASK}@sftp.example.com/in"


def test_compare_reads_the_projects_configuration_and_computes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44, item 12: the MCP compare tool ignored `[compare]` (thousands of differences
    where the command line reports the few that matter) and compared again for every page."""
    from click.testing import CliRunner

    from iptoolkit.cli.host import main
    from iptoolkit.mcp import Store, changes

    prod = ipt.demo_estate(120, seed=2)
    prod.save(tmp_path / "prod.json")
    ipt.demo_environment(prod, plant=True).save(tmp_path / "test.json")
    (tmp_path / "iptoolkit.toml").write_text(
        '[compare]\nsubstitute = [[".test.example.", ".example."]]\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)  # the CLI finds the configuration where it runs, as the server
    said = CliRunner().invoke(main, ["compare", "prod.json", "test.json", "--format", "json"])
    configured = len(json.loads(said.stdout)["differences"])
    plain = len(ipt.compare(tmp_path / "prod.json", tmp_path / "test.json"))
    assert 0 < configured < plain

    async def script(session: ClientSession) -> Any:
        named = await session.call_tool("compare", {"a": "prod", "b": "test", "limit": 1})
        return named, await session.call_tool("compare", {"limit": 1})  # two loaded: those

    named, unnamed = _run(["prod.json", "test.json"], script, cwd=tmp_path)
    answer = _ok(named)
    assert answer["total"] == configured
    assert _ok(unnamed) == answer
    from iptoolkit.comparing import mapping

    store = Store.from_paths([tmp_path / "prod.json", tmp_path / "test.json"])
    calls: list[tuple[str, str]] = []
    original = mapping.compare_configured

    def counted(a: Any, b: Any, rules: Any, names: tuple[str, str]) -> Any:
        calls.append(names)
        return original(a, b, rules, names)

    monkeypatch.setattr(mapping, "compare_configured", counted)
    first = changes.compare(store, "prod", "test", None, None, 2, None)
    second = changes.compare(store, "prod", "test", None, None, 2, first.next_cursor)
    assert calls == [("prod", "test")]  # the second page is a slice of the first answer
    assert first.items != second.items and first.total == second.total == plain
    one_named = changes.compare(store, None, "test", None, None, 2, None)
    assert (one_named.a, one_named.b) == ("prod", "test") and calls == [("prod", "test")]
    three = Store.from_paths([tmp_path / name for name in ("prod.json", "test.json", "prod.json")])
    with pytest.raises(ValueError, match="name a and b: 3 snapshots are loaded"):
        changes.compare(three, None, None, None, None, 2, None)


def test_without_a_snapshot_or_from_env_the_command_says_what_to_name() -> None:
    result = subprocess.run([IPTOOLKIT, "mcp"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "name at least one snapshot file, or use --from-env" in result.stderr


def test_from_env_fetches_the_live_estate_and_offers_refresh(tmp_path: Path) -> None:
    from iptoolkit.server import running

    estate = ipt.demo_estate(40, seed=5)
    older = tmp_path / "older.json"
    ipt.demo_estate(20, seed=6).save(older)

    async def script(session: ClientSession) -> dict[str, Any]:
        tools = await session.list_tools()
        return {
            "tools": {tool.name for tool in tools.tools},
            "summary": await session.call_tool("summary", {}),
            "refresh": await session.call_tool("refresh", {}),
            "older": await session.call_tool("summary", {"snapshot": "older"}),
        }

    with running(estate) as server:
        assert server.client_id is not None and server.client_secret is not None
        variables = {
            "IPTOOLKIT_BASE_URL": server.base_url,
            "IPTOOLKIT_CLIENT_ID": server.client_id,
            "IPTOOLKIT_CLIENT_SECRET": server.client_secret,
        }
        results = _run([str(older), "--from-env"], script, variables)
        secret = server.client_secret
    assert results["tools"] == TOOLS | {"refresh", "diff", "compare"}
    live = _ok(results["summary"])
    assert live["snapshot"] == "live" and live["profiles"] == 40
    assert live["snapshots"] == ["older", "live"]
    assert live["source_url"] == server.base_url + "/api/preview/profiles"
    refreshed = _ok(results["refresh"])
    assert refreshed["profiles"] == 40 and refreshed["fetched_at"] > live["fetched_at"]
    assert _ok(results["older"])["profiles"] == 20
    answers = [results[key].model_dump_json() for key in ("summary", "refresh", "older")]
    assert secret not in "".join(answers)


def test_http_serves_the_same_tools_on_loopback_to_the_token_holder_only(
    snapshots: dict[str, Any],
) -> None:
    """`--http` once answered any local user; now it keeps the app's rule: the address it
    prints carries a token (here the one `IPTOOLKIT_MCP_TOKEN` sets), which an MCP client
    uses as printed or as an `Authorization: Bearer` header; over real HTTP a request with
    no token gets 401 (with `WWW-Authenticate`), a wrong one 403, before the SDK answers."""
    import httpx
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    token = "t0k-" + "x" * 40
    process = subprocess.Popen(
        [IPTOOLKIT, "mcp", str(snapshots["paths"][1]), "--http", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "IPTOOLKIT_MCP_TOKEN": token},
    )
    try:
        assert process.stderr is not None
        address = ""
        while not address.startswith("http://"):
            line = process.stderr.readline()
            assert line, "the server stopped before printing its address"
            address = line.removeprefix("iptoolkit mcp: ").strip()
        base = address.split("?")[0]
        assert base.startswith("http://127.0.0.1:") and address == f"{base}?token={token}"

        async def session_on(url: str, headers: dict[str, str]) -> tuple[set[str], dict[str, Any]]:
            async with httpx2.AsyncClient(headers=headers) as http:
                async with streamable_http_client(url, http_client=http) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        tools = await session.list_tools()
                        answer = await session.call_tool("summary", {})
                        return {tool.name for tool in tools.tools}, _ok(answer)

        for url, headers in ((address, {}), (base, {"Authorization": f"Bearer {token}"})):
            names, answer = anyio.run(session_on, url, headers)
            assert names == TOOLS
            assert answer["snapshot"] == "older" and answer["profiles"] == len(snapshots["older"])
        hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        accept = {"Accept": "application/json, text/event-stream"}
        for url, headers, status in (
            (base, {}, 401),
            (f"{base}?token=wrong", {}, 403),
            (base, {"Authorization": "Bearer wrong"}, 403),
            (base, {"Authorization": f"Basic {token}"}, 401),
        ):
            refused = httpx.post(url, json=hello, headers={**accept, **headers}, timeout=30)
            assert refused.status_code == status, (url, headers, refused.text)
            assert token not in refused.text and "mcp-session-id" not in refused.headers
        assert (
            httpx.post(base, json=hello, headers=accept)
            .headers["www-authenticate"]
            .startswith("Bearer")
        )
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_http_prints_its_address_only_once_the_port_takes_connections(
    snapshots: dict[str, Any],
) -> None:
    """The address line once came out when the port was bound but not yet listening (uvicorn
    had still to start), so a client that connected on reading it was refused; now it is
    printed once the server listens, and a connection made at once is accepted."""
    import socket
    from urllib.parse import urlsplit

    process = subprocess.Popen(
        [IPTOOLKIT, "mcp", str(snapshots["paths"][1]), "--http", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        address = ""
        while not address.startswith("http://"):
            line = process.stderr.readline()
            assert line, "the server stopped before printing its address"
            address = line.removeprefix("iptoolkit mcp: ").strip()
        where = urlsplit(address)
        assert where.hostname is not None and where.port is not None
        with socket.create_connection((where.hostname, where.port), timeout=10):
            pass
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_each_http_start_makes_a_new_token_unless_one_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from iptoolkit.mcp.http import token_from_env

    monkeypatch.delenv("IPTOOLKIT_MCP_TOKEN", raising=False)
    first, second = token_from_env(), token_from_env()
    assert first != second and len(first) >= 43
    monkeypatch.setenv("IPTOOLKIT_MCP_TOKEN", " kept ")
    assert token_from_env() == "kept"


# -- the parts, in process ----------------------------------------------------------------


def test_a_tool_names_every_candidate_of_an_ambiguous_name() -> None:
    from iptoolkit.mcp.store import Loaded
    from iptoolkit.query.resolve import AmbiguousItemError, UnknownItemError

    raw = copy.deepcopy(list(ipt.demo_estate(30).raw_profiles))
    raw[4]["name"] = raw[7]["name"] = "Orders In"
    loaded = Loaded("demo", Estate.from_raw(raw))
    with pytest.raises(AmbiguousItemError, match="could be a profile") as caught:
        loaded.resolve("orders in")  # profile names count for an assistant
    assert caught.value.nodes == (f"profile:{raw[4]['id']}", f"profile:{raw[7]['id']}")
    assert loaded.resolve(f"profile:{raw[4]['id']}") == f"profile:{raw[4]['id']}"
    partner = next(n for n in loaded.graph if n.startswith("partner:"))
    name = loaded.graph.nodes[partner]["name"]
    assert loaded.resolve(f"partner:{name.upper()}") == partner
    with pytest.raises(UnknownItemError) as unknown:  # a fragment finds the names holding it
        loaded.resolve(name.split()[0][:5])
    assert isinstance(unknown.value, ValueError), "the server turns ValueErrors into tool errors"
    assert any(choice.startswith(partner) for choice in unknown.value.choices)


def test_paging_refuses_a_cursor_it_did_not_give_and_cut_says_how_to_read_on() -> None:
    from iptoolkit.mcp.cursors import cut, page

    assert page(list(range(5)), 2, None) == ([0, 1], "2")
    assert page(list(range(5)), 2, "4") == ([4], None)
    for cursor in ("6", "-1", "x"):
        with pytest.raises(ValueError, match="is not one this list gave"):
            page(list(range(5)), 2, cursor)
    assert cut("abcdef", 4, again="t") == (
        "abcd",
        "cut at 4 of 6 characters: call t and offset=4 for the rest",
    )
    assert cut("abcdef", 4, 4, again="t") == ("ef", None)


def test_a_snapshot_is_named_by_its_file_and_unknown_types_suggest(tmp_path: Path) -> None:
    from iptoolkit.mcp import datamodel
    from iptoolkit.mcp.store import Store

    for name in ("a.json", "b.json.gz"):
        ipt.demo_estate(5).save(tmp_path / name)
    store = Store.from_paths([tmp_path / "a.json", tmp_path / "b.json.gz"])
    assert store.names == ["a", "b"] and store.current.name == "b", "equal times: the last"
    assert store.get("b.json.gz") is store.get("b") is store.current
    with pytest.raises(ValueError, match="start the server with --from-env"):
        store.refresh()
    with pytest.raises(ValueError, match="did you mean 'SFTPAgentSettings'"):
        datamodel.section("SFTPAgentSetings")


def test_a_failed_refresh_is_a_tool_error_and_the_last_fetch_stays(monkeypatch) -> None:
    from mcp import Client

    from iptoolkit.cli.mcp import _fetch_live
    from iptoolkit.mcp import Store, build_server
    from iptoolkit.server import running

    with running(ipt.demo_estate(10)) as server:
        assert server.client_id is not None and server.client_secret is not None
        monkeypatch.setenv("IPTOOLKIT_BASE_URL", server.base_url)
        monkeypatch.setenv("IPTOOLKIT_CLIENT_ID", server.client_id)
        monkeypatch.setenv("IPTOOLKIT_CLIENT_SECRET", server.client_secret)
        store = Store.from_paths([], fetch=_fetch_live)
    # the platform has gone away

    async def main() -> tuple[Any, Any]:
        async with Client(build_server(store)) as client:
            return await client.call_tool("refresh", {}), await client.call_tool("summary", {})

    refreshed, summary = anyio.run(main)
    assert "refresh failed, the last fetch is still served: connection failed" in _error(refreshed)
    assert server.client_secret not in _error(refreshed)
    assert _ok(summary)["profiles"] == 10 and _ok(summary)["snapshot"] == "live"


def test_diff_is_offered_with_two_snapshots_and_is_the_python_diff(tmp_path: Path) -> None:
    from mcp import Client

    from iptoolkit.mcp import Store, build_server

    raw = _planted_profiles()[:60]
    changed = copy.deepcopy(raw)
    changed[0]["active"] = False
    changed[1]["name"] = "Renamed"
    changed[2]["inputAgentSettings"]["password"] = "pw-PLANTED-CHANGED"
    del changed[5]
    changed.append({**copy.deepcopy(raw[9]), "id": "P-NEW-1"})
    for name, profiles, month in (("old", raw, 1), ("new", changed, 2)):
        when = datetime(2026, month, 1, tzinfo=UTC)
        Estate.from_raw(profiles, fetched_at=when).save(tmp_path / f"{name}.json")
    store = Store.from_paths([tmp_path / "new.json", tmp_path / "old.json"])
    expected = ipt.diff(store.get("old").estate, store.get("new").estate)

    async def main() -> dict[str, Any]:
        async with Client(build_server(store)) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            return {
                "names": names,
                "all": await client.call_tool("diff", {"limit": 200}),
                "page": await client.call_tool("diff", {"kind": "profile", "limit": 1}),
                "back": await client.call_tool("diff", {"old": "new", "new": "old"}),
                "same": await client.call_tool("diff", {"old": "new"}),
                "bad": await client.call_tool("diff", {"severity": "fatal"}),
            }

    results = anyio.run(main)
    assert results["names"] == TOOLS | {"diff", "compare"}
    answer = _ok(results["all"])
    assert (answer["old"], answer["new"]) == ("old", "new"), "default: current and the one before"
    assert answer["summary"] == expected.summary() and answer["total"] == len(expected)
    assert [(c["key"], c["path"]) for c in answer["items"]] == [
        (c.key, c.path) for c in expected.changes
    ]
    removed = next(c for c in answer["items"] if c["op"] == "removed")
    assert "cut at 300" in removed["old"] and "snapshot='old'" in removed["old"]
    page = _ok(results["page"])
    assert page["total"] == len(expected.of(kind="profile")) and page["next_cursor"] == "1"
    assert (_ok(results["back"])["old"], _ok(results["back"])["new"]) == ("new", "old")
    assert "same snapshot" in _error(results["same"])
    assert (
        "diff: severity: input should be 'breaking', 'notable' or 'cosmetic', not 'fatal'"
        == _error(results["bad"])
    )
    answers = [result.model_dump_json() for key, result in results.items() if key != "names"]
    assert "pw-PLANTED" not in "".join(answers)


def test_a_filter_or_type_matching_nothing_says_which_and_what_is_close(session_results):
    """An empty answer reads as "nothing uses it": say which value matched nothing."""
    none = _ok(session_results["none_matches"])
    assert none["total"] == 0
    assert (
        "partners 'Lumen Packagin Ltd'" in none["note"] and "'Lumen Packaging Ltd'" in none["note"]
    )
    together = _ok(session_results["none_together"])
    assert together["total"] == 0 and "together they match none" in together["note"]
    assert _ok(session_results["by_partner"])["note"] is None
    assert "did you mean 'SFTP'" in _error(session_results["unknown_type"])


def test_a_cut_or_deeply_nested_request_gets_no_reply_and_the_server_lives_on(
    snapshots: dict[str, Any],
) -> None:
    """What README says of malformed requests (the SDK's stdio transport drops them): no
    answer to them, and the next request is answered."""
    import select

    process = subprocess.Popen(
        [IPTOOLKIT, "mcp", str(snapshots["paths"][0])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip

    def send(line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def reply(timeout: float) -> dict[str, Any] | None:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        return json.loads(process.stdout.readline()) if ready else None

    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {},
                 "clientInfo": {"name": "t", "version": "1"}}  # fmt: skip
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        assert reply(120)["id"] == 1  # type: ignore[index]
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        nested = "[" * 250 + "]" * 250
        send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"summary",'
             f'"arguments":{{"x":{nested}}}}}}}')  # fmt: skip
        send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"summ')
        call = {"name": "summary", "arguments": {}}
        send(json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": call}))
        answer = reply(60)
        assert answer is not None and answer["id"] == 4, answer
        assert answer["result"]["structuredContent"]["profiles"] > 0
    finally:
        process.kill()
        process.wait()
