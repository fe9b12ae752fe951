"""ipt.diff: identity, list matching, severities, links, masking, faulty profiles, outputs."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.change import pairing, schema_compare
from iptoolkit.change.links import edges
from iptoolkit.change.walk import Walk, pair_elements
from iptoolkit.support.redact import MASK
from tests.factories import ACME, GLOBEX, agent, channel, estate_of, profile, unit


def one(diff: ipt.EstateDiff, **wanted: object) -> ipt.Change:
    """The one change with these field values."""
    found = [c for c in diff if all(getattr(c, k) == v for k, v in wanted.items())]
    assert len(found) == 1, (wanted, diff.changes)
    return found[0]


def sftp(pid: str | None, ch: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    return profile(
        pid, agent=agent("SFTP", dir="/in", channels=[ch or channel(5, partner=ACME)]), **fields
    )


# -- identity --------------------------------------------------------------------------------


def test_the_same_estate_reordered_is_no_change():
    raw = ipt.demo_profiles(80, seed=3)
    shuffled = copy.deepcopy(raw)[::-1]
    result = ipt.diff(ipt.Estate.from_raw(raw), ipt.Estate.from_raw(shuffled))
    assert not result and len(result) == 0
    assert result.summary() == "No changes."


def test_profiles_are_matched_by_id_and_a_field_is_one_change_at_its_path():
    old = estate_of(sftp("P1"), sftp("P2"))
    new_p1 = sftp("P1")
    new_p1["inputAgentSettings"]["dir"] = "/out"
    result = ipt.diff(old, estate_of(sftp("P2"), new_p1))
    change = one(result, kind="profile")
    assert (change.key, change.op, change.path) == (
        "profile:P1",
        "changed",
        "$.inputAgentSettings.dir",
    )
    assert (change.old, change.new, change.severity) == ("/in", "/out", "notable")
    assert change.reason == "an endpoint changed (dir)"
    assert len(result) == 1


def test_profiles_without_id_are_matched_by_name_and_group_then_by_content():
    a = sftp(None, name="Orders", group="Sales")
    b = sftp(None, ch=channel(6, partner=GLOBEX), name="Invoices", group="Finance")
    old = estate_of(a, b)
    b2 = copy.deepcopy(b)
    b2["inputAgentSettings"]["dir"] = "/elsewhere"  # same name and group: matched by them
    a2 = copy.deepcopy(a)
    a2["name"] = "Orders (renamed)"  # name changed, content the same: matched by content
    result = ipt.diff(old, estate_of(b2, a2))
    assert {c.op for c in result} == {"changed"}
    renamed = one(result, path="$.name")
    assert (renamed.key, renamed.severity) == ("profile:#1", "cosmetic")  # the new node id
    moved = one(result, path="$.inputAgentSettings.dir")
    assert moved.key == "profile:#0"
    assert not result.of(kind="link")  # the id-less profiles' nodes were carried over


def test_profiles_sharing_an_id_reordered_are_no_change():
    # a listing with a duplicated id: the order is still never a change
    a = sftp("X", name="Orders")
    b = sftp("X", ch=channel(6, partner=GLOBEX), name="Invoices")
    assert not ipt.diff(estate_of(a, b), estate_of(copy.deepcopy(b), copy.deepcopy(a)))
    # and among them, one edited is matched by name and group, not by position
    b2 = copy.deepcopy(b)
    b2["inputAgentSettings"]["dir"] = "/elsewhere"
    result = ipt.diff(estate_of(a, b), estate_of(b2, copy.deepcopy(a)))
    change = one(result, kind="profile")
    assert (change.key, change.path, change.new) == (
        "profile:X",
        "$.inputAgentSettings.dir",
        "/elsewhere",
    )
    assert len(result) == 1


def test_list_items_are_matched_by_class_not_position():
    old = estate_of(
        profile(
            "P1",
            agent=agent("ManualUpload"),
            units=[
                unit("File", fileName="a.csv"),
                unit("Ftp", channel=channel(7, "FTP", partner=ACME)),
            ],
        )
    )
    new = estate_of(
        profile(
            "P1",
            agent=agent("ManualUpload"),
            units=[
                unit("Ftp", channel=channel(7, "FTP", partner=ACME)),
                unit("File", fileName="b.csv"),
                unit("Mail", to="ops@example.com"),
            ],
        )
    )
    result = ipt.diff(old, new)
    edited = one(result, path="$.responseSettings.units[1].fileName")  # index in the new list
    assert (edited.old, edited.new) == ("a.csv", "b.csv")
    added = one(result, path="$.responseSettings.units[2]")
    assert added.old is None and added.new["to"] == "ops@example.com"
    assert [c.key for c in result.of(kind="link")] == ["profile:P1 -> response:P1:2"]
    # a removed element is reported at its index in the old list
    back = ipt.diff(new, old)
    removed = one(back, path="$.responseSettings.units[2]")
    assert removed.new is None and removed.old["class"] == "core:MailProfileResponseUnit"


def test_an_element_inserted_before_others_of_its_class_is_one_change():
    files = [unit("File", fileName="a.csv"), unit("File", fileName="b.csv")]
    old = estate_of(profile("P1", agent=agent("ManualUpload"), units=files))
    inserted = [unit("File", fileName="new.csv"), *files]
    result = ipt.diff(old, estate_of(profile("P1", agent=agent("ManualUpload"), units=inserted)))
    assert [c.path for c in result.of(kind="profile")] == ["$.responseSettings.units[0]"]


def test_channels_in_a_list_reordered_are_no_change():
    channels = [channel(5, "AS2", partner=ACME), channel(6, "AS2", partner=GLOBEX)]
    old = estate_of(profile("P1", agent=agent("AS2", channels=channels)))
    new = estate_of(profile("P1", agent=agent("AS2", channels=channels[::-1])))
    assert not ipt.diff(old, new)


def test_units_reordered_and_edited_are_paired_by_their_channel_not_their_place():
    """Two units of one class, swapped and each edited: each is paired with the unit on its
    own channel, not the one at its place (that read as two rewirings, and each fileName
    compared with the other unit's)."""
    c5, c6 = channel(5, "FTP", partner=ACME), channel(6, "FTP", partner=ACME)
    old = [unit("Ftp", channel=c5, fileName="a"), unit("Ftp", channel=c6, fileName="b")]
    new = [unit("Ftp", channel=c6, fileName="b2"), unit("Ftp", channel=c5, fileName="a2")]
    result = ipt.diff(estate_of(profile("P1", units=old)), estate_of(profile("P1", units=new)))
    assert [(c.path, c.old, c.new) for c in result] == [
        ("$.responseSettings.units[0].fileName", "b", "b2"),
        ("$.responseSettings.units[1].fileName", "a", "a2"),
    ]


def test_a_field_null_on_one_side_and_missing_on_the_other_says_which():
    """Masked values show a missing field as null, so "null -> null" said nothing: the
    reason says which side does not send the field, in every output."""
    old = sftp("P1", description=None)
    new = sftp("P1", retryPolicy={"attempts": 3})
    result = ipt.diff(estate_of(old), estate_of(new))
    gone = one(result, kind="profile", path="$.description")
    came = one(result, kind="profile", path="$.retryPolicy")
    assert (gone.old, gone.new, gone.reason) == (None, None, "null before, now not sent")
    assert came.reason == "a setting changed (retryPolicy); a field not sent before"
    assert "null before, now not sent" in result.to_text()
    assert "null before, now not sent" in result.to_markdown()


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # orjson writes NaN as null: the None is the one equal to the old None
        ([None], [float("nan"), None], ([(0, 1)], [], [0])),
        # orjson refuses an integer beyond 64 bits: json tokens it, and it is found equal
        ([2**70], [1, 2**70], ([(0, 1)], [], [0])),
    ],
    ids=["nan is not null", "beyond 64 bits"],
)
def test_equal_list_elements_pair_whatever_the_json_writer_can_hold(old, new, expected):
    assert pair_elements(old, new) == expected


def test_a_member_equal_in_python_but_not_in_type_is_a_change():
    # 1 == True == 1.0 in Python; in JSON they are three values (the objects differ in c)
    old, new = {"a": 1, "b": 1.0, "c": "x"}, {"a": True, "b": 1, "c": "y"}
    changes = Walk(lambda name: False).compare(old, new).changes
    assert [(c.path, c.old, c.new) for c in changes] == [
        ("a", 1, True),
        ("b", 1.0, 1),
        ("c", "x", "y"),
    ]


# -- severities ------------------------------------------------------------------------------


def test_a_profile_deactivated_is_breaking_and_activated_notable():
    result = ipt.diff(estate_of(sftp("P1")), estate_of(sftp("P1", active=False)))
    change = one(result, path="$.active")
    assert (change.severity, change.reason) == ("breaking", "profile deactivated")
    back = one(
        ipt.diff(estate_of(sftp("P1", active=False)), estate_of(sftp("P1"))), path="$.active"
    )
    assert back.severity == "notable"


def test_a_channel_deactivated_under_active_profiles_is_breaking():
    old = estate_of(sftp("P1"), sftp("P2", active=False))
    off = channel(5, partner=ACME, active=False)
    result = ipt.diff(old, estate_of(sftp("P1", off), sftp("P2", off, active=False)))
    change = one(result, kind="channel")
    assert (change.key, change.path, change.severity) == ("channel:5", "$.active", "breaking")
    assert "P1" in change.reason and "P2" not in change.reason
    assert not result.of(kind="profile")  # reported once, on the channel, not per holder
    assert "1 channel deactivated" in result.summary()


def test_a_channel_deactivated_under_inactive_profiles_only_is_notable():
    old = estate_of(sftp("P2", active=False))
    new = estate_of(sftp("P2", channel(5, partner=ACME, active=False), active=False))
    change = one(ipt.diff(old, new), kind="channel")
    assert change.severity == "notable" and "no active profile" in change.reason


def test_a_channel_replaced_in_an_active_profile_is_a_rewiring_not_an_outage():
    # tests/test_rewire.py has the migrations of several profiles; this is the smallest
    old = estate_of(sftp("P1"))
    new = estate_of(sftp("P1", channel(9, partner=ACME)))
    result = ipt.diff(old, new)
    removed = one(result, key="channel:5", op="removed")
    assert removed.severity == "notable" and "rewired: P1" in removed.reason
    assert one(result, key="channel:9", op="added").severity == "notable"
    swap = one(result, kind="profile")
    assert swap.path == "$.inputAgentSettings.channels[0]"
    assert (swap.old["id"], swap.new["id"], swap.severity) == (5, 9, "notable")
    lost = one(result, key="agent:P1 -> channel:5")
    assert (lost.op, lost.severity, lost.cause) == ("removed", "notable", "profile:P1")
    assert "rewired from channel:5 to channel:9" in lost.reason
    assert not result.of(severity="breaking")


def test_a_channel_taken_from_an_active_profile_without_replacement_is_breaking():
    old = estate_of(sftp("P1"))
    new = estate_of(profile("P1", agent=agent("SFTP", dir="/in", channels=[])))
    result = ipt.diff(old, new)
    lost = one(result, key="agent:P1 -> channel:5")
    assert (lost.op, lost.severity) == ("removed", "breaking")
    assert "loses its input channel" in lost.reason
    gone = one(result, key="channel:5", op="removed")
    assert gone.severity == "breaking" and "left without it: P1" in gone.reason


def test_a_partner_left_when_its_channel_moved_to_another_is_notable():
    old = estate_of(sftp("P1"))
    new = estate_of(sftp("P1", channel(5, partner=GLOBEX)))
    result = ipt.diff(old, new)
    gone = one(result, key="partner:1", op="removed")
    assert gone.severity == "notable" and "rewired: P1" in gone.reason
    moved = one(result, key="channel:5", path="$.partner")
    assert moved.severity == "notable" and moved.new["name"] == "Globex"
    assert one(result, key="channel:5 -> partner:1").op == "removed"
    assert one(result, key="channel:5 -> partner:2").op == "added"


def test_an_active_profile_losing_a_response_path_is_breaking():
    ftp = unit("Ftp", channel=channel(7, "FTP", partner=ACME))
    old = estate_of(profile("P1", agent=agent("ManualUpload"), units=[ftp]))
    new = estate_of(profile("P1", agent=agent("ManualUpload"), units=[]))
    result = ipt.diff(old, new)
    lost = one(result, key="profile:P1 -> response:P1:0")
    assert lost.severity == "breaking" and "response path" in lost.reason
    # an inactive profile losing it: notable
    quiet = ipt.diff(
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[ftp], active=False)),
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[], active=False)),
    )
    assert one(quiet, key="profile:P1 -> response:P1:0").severity == "notable"


def test_a_response_unit_deactivated_in_an_active_profile_is_breaking():
    # the profile loses that response path, as when the unit is removed
    on = unit("Ftp", channel=channel(7, "FTP", partner=ACME))
    off = unit("Ftp", channel=channel(7, "FTP", partner=ACME), active=False)
    result = ipt.diff(
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[on])),
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[off])),
    )
    change = one(result, path="$.responseSettings.units[0].active")
    assert change.severity == "breaking" and "P1 loses a response path" in change.reason
    # in an inactive profile, or switched back on: notable
    quiet = ipt.diff(
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[on], active=False)),
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[off], active=False)),
    )
    assert one(quiet, path="$.responseSettings.units[0].active").severity == "notable"
    back = ipt.diff(
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[off])),
        estate_of(profile("P1", agent=agent("ManualUpload"), units=[on])),
    )
    assert one(back, path="$.responseSettings.units[0].active").severity == "notable"


@pytest.mark.parametrize(
    ("field", "old", "new", "severity", "reason"),
    [
        ("description", "a", "b", "cosmetic", ""),
        ("tags", "x", "x,y", "cosmetic", ""),
        ("lastModified", 1, 2, "cosmetic", ""),
        ("encoding", "UTF-8", "ISO-8859-1", "notable", "a setting changed (encoding)"),
        (
            "remoteCertificateId",
            "c1",
            "c2",
            "notable",
            "a certificate changed (remoteCertificateId)",
        ),
    ],
)
def test_profile_fields_by_severity(field, old, new, severity, reason):
    change = one(
        ipt.diff(estate_of(sftp("P1", **{field: old})), estate_of(sftp("P1", **{field: new}))),
        path=f"$.{field}",
    )
    assert (change.severity, change.reason) == (severity, reason)


def test_schedules_and_classes_are_notable():
    cron = profile("P1", agent=agent("CronFile", cronSchedule=["0 5 * * *"], directory="/d"))
    later = copy.deepcopy(cron)
    later["inputAgentSettings"]["cronSchedule"] = ["0 6 * * *"]
    schedule = one(ipt.diff(estate_of(cron), estate_of(later)), kind="profile")
    assert schedule.path == "$.inputAgentSettings.cronSchedule[0]"
    assert (schedule.severity, schedule.reason) == ("notable", "a schedule changed (cronSchedule)")
    other = copy.deepcopy(cron)
    other["inputAgentSettings"]["class"] = "core:CronSqlAgentSettings"
    klass = one(ipt.diff(estate_of(cron), estate_of(other)), path="$.inputAgentSettings.class")
    assert (klass.severity, klass.reason) == ("notable", "its class changed")


# -- links -----------------------------------------------------------------------------------


def test_links_are_the_graphs_edges():
    raw = ipt.demo_profiles(150, seed=5)
    raw[3]["inputAgentSettings"] = {"class": "core:KafkaAgentSettings", "timeout": "soon"}  # faulty
    estate = ipt.Estate.from_raw(raw)
    assert estate.problems and estate.unresolved
    graph = ipt.build_graph(estate)
    assert edges(estate) == {(u, v) for u, v, _ in graph.edges(keys=True)}


def test_link_keys_name_nodes_of_the_graphs():
    raw = ipt.demo_profiles(120, seed=2)
    new = copy.deepcopy(raw[5:]) + ipt.demo_profiles(3, seed=9)[:0]
    new[0].pop("responseSettings", None)
    old_estate, new_estate = ipt.Estate.from_raw(raw), ipt.Estate.from_raw(new)
    result = ipt.diff(old_estate, new_estate)
    old_graph, new_graph = ipt.build_graph(old_estate), ipt.build_graph(new_estate)
    assert result.of(kind="link", op="removed")
    for change in result.of(kind="link"):
        source, target = change.key.split(" -> ")
        graph = new_graph if change.op == "added" else old_graph
        assert graph.has_edge(source, target), change


# -- masking, faulty profiles, platforms --------------------------------------------------------


def test_a_secret_changed_shows_the_mask_never_the_value(tmp_path):
    def http(token: str, password: str) -> dict[str, Any]:
        settings = {
            "class": "core:HttpClientSettings",
            "host": "h",
            "headers": {"Authorization": token},
        }
        return profile("P1", agent=agent("CronHttp", httpSettings=settings, password=password))

    result = ipt.diff(
        estate_of(http("Bearer old-1", "hunter2")), estate_of(http("Bearer new-2", "swordfish"))
    )
    header = one(result, path="$.inputAgentSettings.httpSettings.headers.Authorization")
    assert (header.old, header.new) == (MASK, MASK)
    assert one(result, path="$.inputAgentSettings.password").new == MASK
    added = ipt.diff(estate_of(), estate_of(http("Bearer new-2", "swordfish")))
    shown = [result.to_json(), result.to_markdown(), result.to_text(), result._repr_html_()]
    shown += [added.to_json(), result.to_frame().to_csv()]
    for text in shown:
        for secret in ("old-1", "new-2", "hunter2", "swordfish"):
            assert secret not in text


def test_a_profile_that_became_faulty_is_a_change_and_is_kept():
    good = profile("P1", agent=agent("Kafka", timeout=100, topicName="t"))
    bad = copy.deepcopy(good)
    bad["inputAgentSettings"]["timeout"] = "soon"
    result = ipt.diff(estate_of(good), estate_of(bad))
    became = one(result, kind="profile", path=None)
    assert became.reason.startswith("became faulty") and "timeout" in became.new
    assert one(result, path="$.inputAgentSettings.timeout").new == "soon"
    assert any("faulty" in note for note in result.notes)
    fixed = one(ipt.diff(estate_of(bad), estate_of(good)), kind="profile", path=None)
    assert fixed.reason.startswith("fixed")
    added = one(ipt.diff(estate_of(good), estate_of(good, {**bad, "id": "P2"})), op="added")
    assert added.key == "profile:P2" and "faulty" in added.reason
    assert "$.inputAgentSettings.timeout" in added.reason  # a path inside the profile


def test_a_secret_that_made_a_profile_faulty_is_not_quoted():
    good = profile("P1", agent=agent("CronHttp", httpSettings={"host": "h"}, httpTimeOut=5))
    bad = copy.deepcopy(good)
    bad["inputAgentSettings"]["httpSettings"] = [{"password": "hunter2", "host": "h"}]
    bad["inputAgentSettings"]["httpTimeOut"] = "slow"
    result = ipt.diff(estate_of(good), estate_of(bad))
    became = one(result, kind="profile", path=None)
    assert '"slow"' in became.reason  # not a secret: quoted
    assert f"$.inputAgentSettings.httpSettings: expected a JSON object; got {MASK}" in became.new
    for text in (result.to_json(), result.to_text()):
        assert "hunter2" not in text


def test_snapshots_with_no_id_in_common_diff_and_say_so():
    old = estate_of(sftp("A1"), sftp("A2"))
    new = estate_of(sftp("B1", channel(50, partner=GLOBEX)))
    result = ipt.diff(old, new)
    assert result.counts()["profile"] == {"added": 1, "removed": 2, "changed": 0}
    assert result.notes and "no profile or channel id in common" in result.notes[0]
    assert "no profile or channel id in common" in result.summary()
    assert not ipt.diff(old, estate_of(sftp("A1"))).notes


def test_diff_loads_snapshot_paths_and_refuses_other_things(tmp_path):
    path = tmp_path / "s.json"
    estate_of(sftp("P1")).save(path)
    assert not ipt.diff(path, str(path))
    with pytest.raises(TypeError, match="old must be an Estate or a snapshot path, not int"):
        ipt.diff(3, path)  # type: ignore[arg-type]


# -- outputs ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def week() -> ipt.EstateDiff:
    """A profile deactivated, one renamed (with markup in its name), one removed, one added."""
    old = estate_of(sftp("P1", name="Orders"), sftp("P2", name="Invoices"), sftp("P3", name="Gone"))
    new = estate_of(
        sftp("P1", name="Orders", active=False),
        sftp("P2", name="Invoices <b>new</b>"),
        sftp("P4", ch=channel(5, partner=ACME), name="Fresh"),
    )
    return ipt.diff(old, new)


def test_summary_is_plan_style(week):
    assert week.summary() == (
        "1 profile added, 2 changed, 1 removed; 2 links added, 2 removed; "
        "1 profile deactivated; 2 breaking, 5 notable, 1 cosmetic"
    )


def test_json_shape(week):
    data = json.loads(week.to_json())
    assert set(data) == {"schema_version", "summary", "changes"}
    assert data["summary"]["severity"] == {"breaking": 2, "notable": 5, "cosmetic": 1}
    assert len(data["changes"]) == len(week)
    for change in data["changes"]:
        assert {"kind", "key", "op", "path", "old", "new", "severity"} <= set(change)
    assert data["changes"][0]["severity"] == "breaking"


def test_frame_has_one_row_per_change(week):
    frame = week.to_frame()
    assert len(frame) == len(week)
    assert list(frame.columns[:5]) == ["severity", "kind", "key", "name", "op"]
    added = frame[(frame["op"] == "added") & (frame["kind"] == "profile")].iloc[0]
    assert json.loads(added["new"])["id"] == "P4"  # objects as JSON text: the frame is flat


def test_markdown_is_a_changelog_breaking_first(week):
    text = week.to_markdown()
    assert text.startswith("# Changes")
    assert text.index("## Breaking (2)") < text.index("## Notable (5)") < text.index("## Cosmetic")
    assert "**profile added** Fresh (`profile:P4`)" in text
    assert "Invoices &lt;b\\>new&lt;/b\\>" in text  # names escaped


def test_markdown_nests_an_items_changes_as_mkdocs_and_github_read_it(week):
    """Python-Markdown (MkDocs) nests a list only under four spaces; two read as one flat
    list (issue 34). GitHub reads four as well."""
    import markdown

    text = week.to_markdown()
    assert "\n    - `$.name`: " in text
    html = markdown.markdown(text)
    item = html[html.index("Invoices") :]
    assert item.index("<ul>") < item.index("$.name") < item.index("</li>")  # inside its item


def test_markdown_names_two_snapshots_that_say_the_same_of_themselves_apart():
    """Two demo snapshots (same source, no fetch time) are the older and the newer, not
    "from demo:seed=0 to demo:seed=0" (issue 34); snapshots told apart keep their words."""
    old = ipt.demo_estate(30, seed=0)
    text = ipt.diff(old, ipt.demo_changes(old, seed=0)).to_markdown()
    line = text.splitlines()[2]
    assert line.startswith("From the older snapshot (30 profiles) to the newer (")
    assert line.endswith("both read from demo:seed=0, with no fetch time recorded.")
    # from_raw takes an estate's raw_profiles, a tuple, which its annotation leaves out
    other = ipt.Estate.from_raw(old.raw_profiles, source_url="https://ip.example.com/*x*")  # type: ignore[arg-type]
    text = ipt.diff(old, other).to_markdown()
    line = text.splitlines()[2]
    assert line == (
        "From demo:seed=0 (30 profiles) to https://ip.example.com/\\*x\\* (30 profiles)."
    )


def test_html_is_escaped_and_breaking_first(week):
    page = week._repr_html_()
    assert "<b>new</b>" not in page and "&lt;b&gt;new&lt;/b&gt;" in page
    assert page.index("breaking") < page.index("cosmetic")


def test_conflicting_copies_reordered_are_no_change():
    """Copies of channel 5 differ between profiles: which one comes first is not a change."""
    first, second = sftp("P1"), sftp("P2", channel(5, partner=ACME, host="other"))
    assert estate_of(first, second).conflicts
    assert not ipt.diff(estate_of(first, second), estate_of(second, first))
    # a copy that differs from the old one in every profile is a change of the channel
    moved = sftp("P1", channel(5, partner=ACME, host="third"))
    result = ipt.diff(estate_of(first), estate_of(moved, second))
    assert one(result, kind="channel").path == "$.host"


def test_schema_changes_are_counted_as_schema_elements():
    estate = estate_of(sftp("P1"))
    change = ipt.Change("schema", "schema:SFTPAgentSettings.retry", "added", "notable")
    result = ipt.EstateDiff(estate, estate, (change,))
    assert result.summary() == "1 schema element added; 1 notable"


def test_a_schema_change_shows_its_path_and_reason_without_values():
    """A field appearing in the schema has no old or new value: `null -> null` read as a
    change of nothing (a review found it on every schema row)."""
    old = estate_of(sftp("P1"))
    new = ipt.Estate.from_raw([{**sftp("P1"), "brandNewField": 5}])
    result = ipt.diff(old, new)
    schema = one(result, kind="schema")
    text = result.to_text().splitlines()
    line = next(line for line in text if line.strip().startswith("$.brandNewField  ["))
    assert "null" not in line and "appears" in line
    markdown = result.to_markdown()
    assert "`$.brandNewField` (field brandNewField" in markdown
    assert markdown.count("`null` → `null`") == 0
    assert "5" in next(line for line in text if line.strip().startswith("$.brandNewField:"))
    assert schema.old is None and schema.new is None  # the JSON keeps its shape


def test_a_name_or_source_holding_a_password_shows_the_mask_in_every_form():
    """Names are shown as people know them, and some hold a URL with a password; the
    snapshots' source URLs too: every form of a diff masks them (`redact_text`)."""
    secret = "pw-in-a-name"
    old = estate_of(sftp("P1"), sftp("P2"))
    named = sftp("P1", name=f"Orders from sftp://edi:{secret}@h.example.com/in")
    new = ipt.Estate.from_raw(
        [named, sftp("P3", name=f"New from ftp://u:{secret}@f.example.com")],
        source_url=f"https://api:{secret}@platform.example.com/api",
    )
    result = ipt.diff(old, new)
    assert one(result, key="profile:P1").name == f"Orders from sftp://edi:{MASK}@h.example.com/in"
    shown = [result.to_json(), result.to_markdown(), result.to_text(), result._repr_html_()]
    shown += [result.to_frame().to_csv()]
    for text in shown:
        assert secret not in text


def test_a_diff_of_two_files_searches_their_own_texts_for_the_schema(tmp_path, monkeypatch):
    # P1 gains retryPolicy; P2, equal on both sides, has it already: no field appears.
    # The equal P2 is found by searching its text, which the file holds (issue 45)
    new_p1 = sftp("P1")
    new_p1["inputAgentSettings"]["retryPolicy"] = {"attempts": 3}
    p2 = sftp("P2", description="x")
    p2["inputAgentSettings"]["retryPolicy"] = {"attempts": 2}
    old = estate_of(sftp("P1"), p2, sftp("P3", description="a"))
    new = estate_of(new_p1, p2, sftp("P3", description="b"))
    old.save(tmp_path / "old.json")
    new.save(tmp_path / "new.json")
    from_estates = ipt.diff(old, new)
    assert not from_estates.of(kind="schema")

    def written(record: Any) -> Any:
        raise AssertionError(f"{record.key} written again")

    monkeypatch.setattr(schema_compare, "_written", written)
    from_files = ipt.diff(tmp_path / "old.json", tmp_path / "new.json")
    assert from_files.changes == from_estates.changes


def test_equal_profiles_found_by_their_texts_are_the_ones_found_by_their_json(tmp_path):
    # the files' texts decide most pairs (issue 45); a text that differs but holds equal
    # JSON (keys in another order) still compares equal, and a subset keeps its texts
    raw = ipt.demo_profiles(60, seed=4)
    changed = ipt.demo_changes(ipt.Estate.from_raw(raw), seed=2).raw_profiles
    reordered = [dict(reversed(list(profile.items()))) if n == 3 else profile
                 for n, profile in enumerate(changed)]  # fmt: skip
    ipt.Estate.from_raw(raw).save(tmp_path / "old.json")
    ipt.Estate.from_raw(reordered).save(tmp_path / "new.json")
    by_json = ipt.diff(ipt.Estate.from_raw(raw), ipt.Estate.from_raw(reordered))
    old = ipt.load(tmp_path / "old.json", keep_texts=True)
    new = ipt.load(tmp_path / "new.json", keep_texts=True)
    same = pairing.same_texts(old, new)
    pairs = pairing.pair_profiles(old.records, new.records)[0]
    by_text = [(a.key, b.key) for a, b in pairs if same(a, b)]
    assert len(by_text) > len(pairs) // 2  # most equal pairs are decided by their texts
    assert (old.records[3].key, new.records[3].key) not in by_text  # its text differs ...
    assert old.records[3].raw == new.records[3].raw  # ... its JSON does not
    assert ipt.diff(old, new).changes == by_json.changes
    assert ipt.diff(tmp_path / "old.json", tmp_path / "new.json").changes == by_json.changes
    odd = [n for n in range(len(old)) if n % 2]
    subsets = old.take(odd), new.take(odd)
    assert subsets[0].texts is not None and subsets[1].texts is not None
    positions = {r.key: n for n, r in enumerate(subsets[1].records)}
    for a, b in pairing.pair_profiles(*(estate.records for estate in subsets))[0]:
        text = bytes(subsets[1].texts[positions[b.key]])
        assert pairing.same_texts(*subsets)(a, b) == (subsets[0].texts[odd.index(a.index)] == text)
    assert not any(pairing.same_texts(ipt.Estate.from_raw(raw), new)(a, b) for a, b in pairs)


def test_a_name_changed_only_in_its_unicode_form_says_so():
    """`Café` as one character, then as `e` and a combining accent: the two look the same,
    so the change says why it is one."""
    old = estate_of(sftp("P1", name="Caf\u00e9 orders"))
    new = estate_of(sftp("P1", name="Cafe\u0301 orders"))
    change = one(ipt.diff(old, new), path="$.name")
    assert (change.severity, change.reason) == ("cosmetic", "the same text in another Unicode form")
