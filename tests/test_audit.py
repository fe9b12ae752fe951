"""Findings: each check on an estate made to trigger it, and a clean estate with none."""

from __future__ import annotations

import pandas as pd
import pytest

import iptoolkit as ipt
from iptoolkit.auditing import KINDS, SEVERITIES, Finding, Findings, findings
from iptoolkit.query.graph import build_graph

from .factories import ACME, GLOBEX, agent, channel, estate_of, partner, profile, unit

LIVE = channel(10, "SFTP", partner=ACME, host="sftp.acme.test", keyFingerprint="SHA256:x")
DEAD = channel(11, "FTP", partner=GLOBEX, active=False)
ANSWER = unit("File", fileName="out.xml")


def only(found: Findings, kind: str) -> list[Finding]:
    return [f for f in found if f.kind == kind]


def test_a_clean_estate_has_no_findings():
    estate = estate_of(
        profile("A", agent=agent("SFTP", channels=[LIVE]), units=[ANSWER]),
        profile("B", agent=agent("Fax", channelIds=[10]), units=[ANSWER]),
    )
    assert findings(estate) == []
    assert findings(estate).to_frame().empty


def test_parse_problems_are_errors():
    found = findings(estate_of({"id": "X", "created": "soon"}))
    [problem] = only(found, "parse_problem")
    assert problem.severity == "error"
    assert "$[0].created" in problem.text and problem.nodes == ("profile:X",)
    assert problem.path == "$.created"  # where in the profile, as every finding says it


def test_inactive_profiles_holding_active_channels():
    found = findings(
        estate_of(profile("A", active=False, agent=agent("SFTP", channels=[LIVE, DEAD])))
    )
    [finding] = only(found, "inactive_profile_active_channel")
    assert finding.severity == "info"
    assert finding.nodes == ("profile:A", "channel:10")  # not the inactive one
    assert "1 active channel" in finding.text


def test_active_profiles_on_inactive_channels():
    estate = estate_of(
        profile(
            "A",
            agent=agent("SFTP", channels=[DEAD]),
            units=[unit("Ftp", channel=DEAD), unit("Ftp", channel=DEAD, active=False)],
        ),
        profile("B", active=False, agent=agent("SFTP", channels=[DEAD]), units=[ANSWER]),
    )
    [finding] = only(findings(estate), "active_profile_inactive_channel")
    assert (finding.severity, finding.nodes) == ("warning", ("profile:A", "channel:11"))


def test_channels_named_by_id_but_held_nowhere():
    estate = estate_of(
        profile("A", agent=agent("Fax", channelIds=[10, 77]), units=[ANSWER]),
        profile("B", agent=agent("Message", comChannelId=77), units=[ANSWER]),
        profile("C", agent=agent("SFTP", channels=[LIVE]), units=[ANSWER]),
    )
    [finding] = only(findings(estate), "unresolved_channel")
    assert finding.nodes == ("channel:77", "profile:A", "profile:B")
    assert "2 profiles" in finding.text


def test_partners_without_an_active_channel():
    estate = estate_of(profile("A", agent=agent("SFTP", channels=[LIVE, DEAD]), units=[ANSWER]))
    [finding] = only(findings(estate), "partner_without_active_channel")
    assert finding.nodes == ("partner:2", "channel:11")
    assert "Globex" in finding.text


def test_conflicting_copies_of_a_channel_and_a_partner():
    renamed = dict(LIVE, name="another name")
    estate = estate_of(
        profile("A", agent=agent("SFTP", channels=[LIVE]), units=[ANSWER]),
        profile("B", agent=agent("SFTP", channels=[renamed]), units=[ANSWER]),
        profile("C", agent=agent("SFTP", channels=[channel(12, partner=partner(1, "ACME Inc"))])),
    )
    found = findings(estate)
    [conflict] = only(found, "channel_conflict")
    assert conflict.nodes == ("channel:10", "profile:A", "profile:B")
    [renamed_partner] = only(found, "partner_conflict")
    assert renamed_partner.nodes == ("partner:1", "profile:A", "profile:C")


def test_profiles_without_a_response_path():
    estate = estate_of(
        profile("A", agent=agent("ManualUpload")),
        profile("B", agent=agent("ManualUpload"), units=[unit("File", active=False)]),
        profile("C", active=False, agent=agent("ManualUpload")),  # inactive: nothing to say
    )
    found = only(findings(estate), "no_response_path")
    assert [f.nodes for f in found] == [("profile:A",), ("profile:B",)]
    assert "none active" in found[1].text


def test_duplicate_endpoints_across_agents():
    estate = estate_of(
        profile("A", agent=agent("Http", url="/api/orders"), units=[ANSWER]),
        profile("B", agent=agent("Http", url="/API/orders/"), units=[ANSWER]),
        profile("C", agent=agent("Kafka", topicName="orders"), units=[ANSWER]),
        profile("D", active=False, agent=agent("Kafka", topicName="orders"), units=[ANSWER]),
        profile("E", agent=agent("MQTT", topic="orders"), units=[ANSWER]),  # other broker
        profile("F", agent=agent("DataQueue", host="db.example.net"), units=[ANSWER]),
    )
    found = only(findings(estate), "duplicate_endpoint")
    assert [(f.severity, f.nodes) for f in found] == [
        ("warning", ("agent:A", "agent:B", "profile:A", "profile:B")),
        ("info", ("agent:C", "agent:D", "profile:C", "profile:D")),  # one of them active
    ]
    assert "topic 'orders' (KafkaAgentSettings)" in found[1].text


def test_one_host_with_different_urls_or_queues_is_no_duplicate_endpoint():
    """Two HTTP polls of different URIs, or two queues, on one server compete for nothing;
    a queue shared on it is one finding (its queue), not a second one for the host."""

    def http(uri: str) -> dict[str, object]:
        return {"class": "core:HttpClientSettings", "host": "api.acme.test", "uri": uri}

    estate = estate_of(
        profile("A", agent=agent("CronHttp", httpSettings=http("/orders")), units=[ANSWER]),
        profile("B", agent=agent("CronHttp", httpSettings=http("/invoices")), units=[ANSWER]),
        profile("C", agent=agent("DataQueue", host="as400.test", queue="ORDERS"), units=[ANSWER]),
        profile("D", agent=agent("DataQueue", host="as400.test", queue="STOCK"), units=[ANSWER]),
        profile("E", agent=agent("DataQueue", host="as400.test", queue="STOCK"), units=[ANSWER]),
    )
    found = only(findings(estate), "duplicate_endpoint")
    assert [f.key for f in found] == ["topic:STOCK (DataQueueAgentSettings)"]


def test_profile_ids_missing_or_repeated():
    estate = estate_of(
        profile("A", agent=agent("ManualUpload"), units=[ANSWER]),
        profile("A", agent=agent("ManualUpload"), units=[ANSWER]),
        profile(None, agent=agent("ManualUpload"), units=[ANSWER]),
    )
    found = findings(estate)
    assert [f.nodes for f in only(found, "duplicate_profile_id")] == [("profile:A", "profile:A#1")]
    assert [f.nodes for f in only(found, "profile_without_id")] == [("profile:#2",)]


def test_order_table_and_helpers():
    estate = estate_of(
        profile("A", agent=agent("Fax", channelIds=[5])),
        {"id": "B", "created": "x"},
    )
    found = findings(estate)
    assert [f.severity for f in found] == sorted((f.severity for f in found), key=SEVERITIES.index)
    assert found[0].kind == "parse_problem"
    frame = found.to_frame()
    assert list(frame.columns) == ["severity", "kind", "text", "nodes", "code", "item", "path"]
    assert isinstance(frame, pd.DataFrame)  # as annotated, and so at run time
    assert len(frame) == len(found)
    assert found.counts() == {"parse_problem": 1, "unresolved_channel": 1, "no_response_path": 1}
    assert [f.kind for f in found.of(severity="error")] == ["parse_problem"]
    assert str(found).startswith("DAT001 [error] ")
    assert found.by_code() == {"DAT001": 1, "DAT004": 1, "OPS002": 1}
    assert [f.kind for f in found.of(code="DAT")] == ["parse_problem", "unresolved_channel"]


@pytest.fixture(scope="module")
def demo() -> ipt.Estate:
    return ipt.demo_estate(n_profiles=400, seed=11)


def test_demo_findings_name_nodes_of_the_graph(demo):
    found = findings(demo)
    graph = build_graph(demo)
    assert found and set(found.counts()) <= set(KINDS)
    for finding in found:
        assert finding.severity in SEVERITIES and finding.text
        assert set(finding.nodes) <= set(graph), finding
    # the demo names some channels by ids that exist nowhere, and has inactive profiles
    assert {"unresolved_channel", "inactive_profile_active_channel"} <= set(found.counts())
    unresolved = {f.nodes[0] for f in found.of(kind="unresolved_channel")}
    assert unresolved == {n for n, a in graph.nodes(data=True) if a.get("resolved") is False}


def test_ipt_findings_is_the_function_even_after_the_module_was_imported():
    import iptoolkit.auditing  # noqa: F401  a module named like the function would shadow it

    found = ipt.findings(estate_of({"id": "X", "created": "soon"}))
    assert [f.kind for f in found] == ["parse_problem"]


def test_profile_texts_given_to_the_audit_find_the_same(tmp_path):
    """The archive hands the audit each profile's JSON it already wrote; the URL rules read
    it instead of writing their own, and find exactly the same (faulty profiles between)."""
    from iptoolkit.auditing import audit
    from iptoolkit.support.jsonio import dumps_json

    raw = list(ipt.demo_estate(300, seed=2).raw_profiles)
    raw[1] = {**raw[1], "active": "yes", "description": "http://faulty.example.com/"}
    raw[4] = {**raw[4], "description": "http://plain.example.com/x"}  # SEC001
    estate = ipt.Estate.from_raw(raw)
    texts = [dumps_json(record.raw) for record in estate.records]
    given = audit(estate, texts=texts)
    assert list(given) == list(findings(estate))
    assert any("plain.example.com" in finding.text for finding in given)
    assert not any("faulty.example.com" in finding.text for finding in given)
    # and the texts of a snapshot file, read in place
    from iptoolkit.core.snapshot import read_snapshot_json

    file_texts = read_snapshot_json(estate.save(tmp_path / "s.json"), texts=True).texts
    assert file_texts is not None
    assert list(audit(estate, texts=file_texts)) == list(given)


def test_an_estate_loaded_keeping_its_texts_audits_from_them(tmp_path, monkeypatch):
    """`load(keep_texts=True)` (the auditing commands, the MCP server) keeps each profile's
    text as the file holds it; the audit's URL rules read it instead of writing every
    profile again, and a subset keeps the texts of its own profiles."""
    import json

    from iptoolkit.auditing.rules import urls
    from iptoolkit.core.snapshot import SnapshotInfo, write_snapshot
    from iptoolkit.support.jsonio import dumps_json

    raw = list(ipt.demo_estate(120, seed=3).raw_profiles)
    raw[1] = {**raw[1], "active": "yes", "description": "http://faulty.example.com/"}
    raw[4] = {**raw[4], "description": "http://plain.example.com/x"}  # SEC001
    path = write_snapshot(tmp_path / "s.json", raw, SnapshotInfo())
    expected = list(findings(ipt.load(path)))
    assert ipt.load(path).texts is None  # a notebook's estate does not hold the file twice

    estate = ipt.load(path, keep_texts=True)
    assert estate.texts is not None
    assert list(estate.texts) == [dumps_json(record.raw) for record in estate.records]

    def written_again(value):
        raise AssertionError("the URL rules wrote a profile again")

    monkeypatch.setattr(urls, "dumps_json", written_again)
    assert list(findings(estate)) == expected
    assert any("plain.example.com" in finding.text for finding in expected)

    chosen = [0, 1, 4, 7, 30]
    part = estate.take(chosen)
    assert part.texts is not None
    assert list(part.texts) == [dumps_json(record.raw) for record in part.records]
    monkeypatch.undo()
    assert list(findings(part)) == list(findings(ipt.load(path).take(chosen)))
    assert estate.take([4, 0]).texts is None  # out of the file's order: let go
    assert estate.take([-1, 4]).texts is None  # -1 is the last profile
    with pytest.raises(ValueError, match="increasing"):
        estate.texts.take([4, 4])
    # positions read once (Estate.take's annotation says Sequence: too narrow)
    once = estate.take(iter(chosen))  # type: ignore[arg-type]
    assert once.texts is not None and list(once.texts) == list(part.texts)

    indented = tmp_path / "indented.json"
    indented.write_text(json.dumps(raw, indent=2))
    assert ipt.load(indented, keep_texts=True).texts is None  # not proven: nothing kept


def test_a_findings_repr_is_short_counted_and_masked() -> None:
    """The 10,000-profile demo's findings showed 413 KB in a notebook: now counts by
    severity and code, the first few, and where the rest is; texts masked and escaped."""
    from .hostile_estate import SCRIPT, SECRETS

    hostile = f"channel {SCRIPT} at https://user:{SECRETS[0]}@host.example/x\x1b[31m red"
    many = Findings(
        [Finding("k", "error", hostile, code="SEC001")]
        + [Finding("k", "warning", f"item {n}", code="OPS002") for n in range(3000)]
        + [Finding("k", "info", "note", code="HYG001")]
    )
    text, page = repr(many), many._repr_html_()
    assert len(text) < 2000 and len(page) < 3000
    assert text.startswith("<Findings: 3,002 (1 error, 3,000 warnings, 1 info)")
    assert "by code: OPS002 3,000, HYG001 1, SEC001 1" in text
    assert "2,997 more; .to_frame() for a table, or iterate" in text and "item 3" in text
    assert "item 4 " not in text + "\n" and "<Findings" in text and text.endswith(">")
    for shown in (text, page):
        assert SECRETS[0] not in shown and "\x1b" not in shown
    assert SCRIPT not in page and "&lt;img src=x" in page and "Findings</b>: 3,002" in page
    assert "\\x1b" in text and "SEC001 [error] channel <img" in text
    assert repr(Findings()) == "<Findings: none>" and "none" in Findings()._repr_html_()
    assert str(many).count("\n") == 3001  # print() still lists every finding
