"""`ipt.compare`: two installations matched by natural keys, not ids (and `demo_environment`,
which makes the second installation)."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import re
import unicodedata
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.auditing.config import Suppression
from iptoolkit.comparing import Rules
from iptoolkit.comparing.mapping import read_mapping, toml_string, write_mapping

from .factories import ACME, GLOBEX, agent, channel, profile, unit

HOSTS = ((".test.example.", ".example."),)
SECRET = "planted-1-s3cr3t"


@pytest.fixture(scope="module")
def prod() -> ipt.Estate:
    return ipt.demo_estate(300)


@pytest.fixture(scope="module")
def test_env(prod: ipt.Estate) -> ipt.Estate:
    return ipt.demo_environment(prod, plant=True)


def _outputs(result: ipt.Comparison) -> dict[str, str]:
    return {
        "text": result.to_text(),
        "md": result.to_markdown(),
        "json": result.to_json(),
        "csv": result.to_csv(),
    }


@pytest.mark.parametrize(
    "size",
    [300, pytest.param(10_000, marks=pytest.mark.no_cover)],  # 300 measures the code
)
def test_same_estate_under_new_ids_compares_equal(size: int, prod: ipt.Estate) -> None:
    estate = prod if size == 300 else ipt.demo_estate(size)
    other = ipt.demo_environment(estate, hosts={}, seed=size)
    a_ids = {r.id for r in estate.records}
    assert not a_ids & {r.id for r in other.records}  # new ids everywhere
    assert not set(estate.channels) & set(other.channels)
    result = ipt.compare(estate, other)
    assert not result, result.to_text()[:2000]
    counts = result.counts()
    assert counts["matched"]["profile"] == {"auto": len(estate)}
    assert counts["matched"]["channel"]["auto"] == len(
        {u.node for r in estate.records for u in r.uses if u.held is not None and u.held.get("id")}
    )
    assert "match" in result.summary()


def test_planted_differences_each_found_and_nothing_else(
    prod: ipt.Estate, test_env: ipt.Estate
) -> None:
    planted = test_env.info.extra["planted"]
    assert [p["plant"] for p in planted] == list(ipt.demo.environment.PLANTS)
    result = ipt.compare(prod, test_env, rules=Rules(substitute=HOSTS), names=("prod", "test"))
    found = {(d.kind, d.status, d.key) for d in result.differences}
    wanted = {(p["kind"], p["status"], tuple(p["key"])) for p in planted}
    assert found == wanted, result.to_text()
    by_status = {d.status: d for d in result.differences if d.kind == "profile"}
    assert by_status["only-in-a"].severity == "breaking"  # an active profile removed
    assert by_status["active-differs"].fields[0].path == "$.active"
    wired = by_status["wired-differently"].fields
    assert [f.wired for f in wired] == [True] and "units[" in wired[0].path
    secret = next(d for d in result.differences if any(f.secret for f in d.fields))
    assert secret.fields[0].b == "**********" and "secret" in secret.reason
    (channel,) = result.of(kind="channel")
    assert [f.path for f in channel.fields] == ["$.encryptionAlgorithm"]
    for name, text in _outputs(result).items():
        assert SECRET not in text, name
        assert "Bearer" not in text, name
    document = json.loads(result.to_json())
    assert len(document["differences"]) == len(planted)
    only_b = next(d for d in document["differences"] if d["status"] == "only-in-b")
    assert only_b["a"] is None and only_b["b"].startswith("profile:E-")
    changed = next(d for d in document["differences"] if d["kind"] == "channel")
    assert changed["fields"][0]["path"] == "$.encryptionAlgorithm"


def test_host_substitution_silences_the_hosts_and_nothing_else(
    prod: ipt.Estate, test_env: ipt.Estate
) -> None:
    plain = ipt.demo_environment(prod)
    loud = ipt.compare(prod, plain)
    assert len(loud) > 50 and loud.ignored == 0
    for difference in loud.differences:
        assert difference.status == "changed"
        for f in difference.fields:
            assert ".test.example." in json.dumps(f.b) and ".test.example." not in json.dumps(f.a)
    assert not ipt.compare(prod, plain, substitute=HOSTS)
    backwards = Rules(substitute=((".example.", ".test.example."),))
    assert not ipt.compare(plain, prod, rules=backwards)
    # the planted differences stay with the substitution on (one is a secret, one a name)
    assert len(ipt.compare(prod, test_env, rules=Rules(substitute=HOSTS))) == 7
    ignored = Rules(substitute=HOSTS, ignore=("profile:$.inputAgentSettings.cronSchedule*",))
    assert len(ipt.compare(prod, test_env, rules=ignored)) == 6


def test_substitutions_apply_in_one_pass_and_cannot_grow_without_bound(
    prod: ipt.Estate,
) -> None:
    """Issue 44, item 11: each pair replaced the text the pairs before it wrote, so 24 pairs
    like ("a", "aa") doubled a text 24 times (a MemoryError on real names)."""
    doubling = Rules(substitute=(("a", "aa"),) * 24)
    assert doubling.substituted("a" * 10) == "a" * 20
    chained = Rules(substitute=(("T_", "P_"), ("P_", "Q_"), ("Tx", "never")))
    assert chained.substituted({"n": ["T_x", "P_y"]}) == {"n": ["P_x", "Q_y"]}  # read once
    assert chained.same_after_substitution("T_a", "P_a")
    raw = [dict(r.raw) for r in prod.records]
    raw[0]["name"] = "ab" * 2_000
    grown = ipt.Estate.from_raw(raw)
    result = ipt.compare(prod, grown, substitute=[("a", "aa"), ("aa", "aaaa")] * 12)
    assert result.counts()["matched"]["profile"]["auto"] == len(prod) - 1


def test_renames_through_the_mapping_file(prod: ipt.Estate, tmp_path: Path) -> None:
    raw = [dict(r.raw) for r in prod.records]
    first = raw[0]
    first["name"] = "T_" + first["name"]
    renamed = ipt.Estate.from_raw(raw)
    unmatched = ipt.compare(prod, renamed)
    statuses = sorted(d.status for d in unmatched.differences)
    assert statuses == ["only-in-a", "only-in-b"]
    only_a = unmatched.of(status="only-in-a")[0]
    assert only_a.candidates[0] == (first["group"], first["name"])  # the closest in B
    mapping = tmp_path / "mapping.toml"
    assert write_mapping(unmatched, mapping) == len(unmatched.matches) == len(prod) - 1 + 65 + 25
    text = mapping.read_text()
    assert "# [[profile]]" in text  # the rename, suggested, commented out
    text = text.replace("# [[profile]]\n# a = ", "[[profile]]\na = ").replace("\n# b = ", "\nb = ")
    mapping.write_text(text)
    manual = read_mapping(mapping, Rules())
    result = ipt.compare(prod, renamed, manual=manual)
    assert not result, result.to_text()
    assert result.counts()["matched"]["profile"] == {"auto": len(prod) - 1, "manual": 1}
    # the substitution pairs the same rename without a mapping
    assert not ipt.compare(prod, renamed, rules=Rules(substitute=(("T_", ""),)))
    mapping.write_text('format = "iptoolkit.compare-mapping"\n[[profile]]\na = ["x", "y"]\nb = 3\n')
    with pytest.raises(ValueError, match=r"mapping.toml:2: profile\[0\].b must be a list"):
        read_mapping(mapping, Rules())


def test_a_mapping_file_masks_a_password_in_a_name_and_still_pairs_by_it(
    prod: ipt.Estate, tmp_path: Path
) -> None:
    """The file is for a pull request: a name holding a URL's password is written masked,
    as every other output says it, and a masked key still names its item when read."""
    secret = "s3cr3tPW"
    raw = [dict(r.raw) for r in prod.records]
    raw[0]["name"] = f"Orders from ftp://edi:{secret}@ftp.example.com/in"
    before = ipt.Estate.from_raw(raw)
    raw = [dict(r) for r in raw]
    raw[0]["name"] = f"Orders (new) from ftp://edi:{secret}@ftp.example.com/in"
    renamed = ipt.Estate.from_raw(raw)
    mapping = tmp_path / "mapping.toml"
    write_mapping(ipt.compare(before, renamed), mapping)
    text = mapping.read_text(encoding="utf-8")
    assert secret not in text and "ftp://edi:**********@ftp.example.com/in" in text
    text = text.replace("# [[profile]]\n# a = ", "[[profile]]\na = ").replace("\n# b = ", "\nb = ")
    mapping.write_text(text, encoding="utf-8")
    result = ipt.compare(before, renamed, manual=read_mapping(mapping, Rules()))
    assert result.counts()["matched"]["profile"]["manual"] == 1, result.notes
    assert not result.of(status="only-in-a") and not result.of(status="only-in-b")


def test_toml_strings_hold_any_name() -> None:
    import tomllib

    hostile = 'a"b\\c\n\x00\x7f\t]] = 1\n[evil]'
    assert tomllib.loads(f"x = {toml_string(hostile)}")["x"] == hostile


def test_known_differences_hide_until_they_expire(prod: ipt.Estate, test_env: ipt.Estate) -> None:
    planted = {p["plant"]: p for p in test_env.info.extra["planted"]}
    schedule = "profile:" + " / ".join(planted["schedule"]["key"])
    algorithm = "channel:" + " / ".join(planted["algorithm"]["key"])
    known = (
        Suppression("changed", schedule, "test runs every weekday", dt.date(2027, 1, 31)),
        Suppression("*", algorithm, "partner moves in Q3", dt.date(2026, 10, 1)),
        Suppression("*", "profile:Nowhere / *", "gone long ago"),
    )
    rules = Rules(substitute=HOSTS, known=known)
    result = ipt.compare(prod, test_env, rules=rules, on=dt.date(2026, 11, 27))
    assert [d.key for d, _ in result.known] == [tuple(planted["schedule"]["key"])]
    (expired,) = [d for d in result.differences if d.expired]
    assert expired.kind == "channel" and expired.expired is not None
    assert "expired on 2026-10-01" in expired.expired
    assert any("expired on 2026-10-01" in note for note in result.notes)
    assert any("matches nothing" in note for note in result.notes)
    assert "expired" in result.to_text() and "(1 known, hidden)" in result.summary()
    # a note is one sentence: "... remove it?" was printed "remove it?."
    assert not re.search(r"[.?!]\.$", result.summary(), re.MULTILINE), result.summary()
    later = ipt.compare(prod, test_env, rules=rules, on=dt.date(2027, 2, 1))
    assert not later.known


def test_an_ambiguous_key_is_reported_never_paired(prod: ipt.Estate) -> None:
    raw = [dict(r.raw) for r in prod.records]
    twin = dict(raw[1], id="TWIN", active=not raw[1].get("active"))
    twin.update(name=raw[0]["name"], group=raw[0]["group"])
    doubled = ipt.Estate.from_raw([*raw, twin])
    result = ipt.compare(prod, doubled)
    (ambiguous,) = result.differences
    assert ambiguous.status == "ambiguous" and ambiguous.a == raw_node(prod, 0)
    assert set(ambiguous.nodes) == {
        raw_node(prod, 0),
        "profile:" + str(raw[0]["id"]),
        "profile:TWIN",
    }
    assert not [m for m in result.matches if m.a_node == raw_node(prod, 0)]


def raw_node(estate: ipt.Estate, index: int) -> str:
    return estate.records[index].node


def test_hostile_names_are_escaped_in_every_format(prod: ipt.Estate) -> None:
    raw = [dict(r.raw) for r in prod.records]
    raw[0]["name"] = '=HYPERLINK("http://evil.example")|<img src=x>**b**'
    hostile = ipt.Estate.from_raw(raw)
    result = ipt.compare(prod, hostile, names=("<b>prod</b>", "test"))
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    names = {row["name"] for row in rows}
    assert '\'=HYPERLINK("http://evil.example")|<img src=x>**b**' in names
    assert not any(cell.startswith("=") for row in rows for cell in row.values())
    markdown = result.to_markdown()
    assert not re.search(r"(?<!\\)<(img|b>)", markdown)
    assert "&lt;img src=x\\>" in markdown and "\\*\\*b\\*\\*" in markdown
    assert dataclasses.asdict(result.differences[0])["kind"] == "profile"


def _holding(copies: list[dict[str, object]]) -> list[dict[str, object]]:
    """A profile per copy of one channel (id 5), each named after its position."""
    return [
        profile(f"P{n}", name=f"Orders {n}", group="Sales", agent=agent("SFTP", channels=[held]))
        for n, held in enumerate(copies)
    ]


def test_a_channel_copy_unlike_its_first_is_compared_in_any_part_of_an_estate() -> None:
    """A copy of a channel that differs from the first copy is compared in full, also in a
    part (`take`) whose own conflicts no longer name the channel: the part keeps its
    parent's `varied_channels`, which `compare` reads to skip the alike copies."""
    plain, changed = channel(5, partner=ACME), channel(5, partner=ACME, port=2222)
    whole = ipt.Estate.from_raw(_holding([plain, changed, plain, changed]))
    assert 5 in whole.varied_channels
    part = whole.take([2, 3])  # P2 (as the first), P3 (the other copy)
    assert not part.conflicts and 5 in part.varied_channels
    alike = ipt.Estate.from_raw(_holding([plain] * 4)).take([2, 3])
    assert 5 not in alike.varied_channels

    (difference,) = ipt.compare(part, alike).differences
    assert difference.key == ("Sales", "Orders 3"), difference
    copy = [field.a for field in difference.fields if isinstance(field.a, dict)]
    assert copy and copy[0]["port"] == 2222, difference.fields  # the copy in full
    assert not ipt.compare(alike, alike).differences


def test_a_partner_only_a_varied_copy_names_is_compared() -> None:
    """Later copies of a channel are read for their partner only when the channel's copies
    vary: a partner named by the second copy alone is still an item of the comparison."""
    from iptoolkit.comparing.keyed_items import items_of

    globex_copy = channel(5, partner=GLOBEX)
    estate = ipt.Estate.from_raw(_holding([channel(5, partner=ACME), globex_copy, globex_copy]))
    nodes = [item.node for item in items_of(estate, "partner", Rules())]
    assert nodes == ["partner:1", "partner:2"]


def test_copies_of_one_node_under_an_int_and_a_text_id_are_compared() -> None:
    """The ids 5 and "5" are two registry keys (never compared with each other at load)
    but one channel node: a copy under "5" is compared in full with the node's first copy,
    so what differs inside it is found (a channel type the toolkit does not know keeps a
    text id)."""
    made_up = {"class": "core:IntegrationPartnerChannelMadeUp", "partner": dict(ACME)}

    def side(port: int) -> ipt.Estate:
        return ipt.Estate.from_raw(
            _holding([{**made_up, "id": 5}, {**made_up, "id": "5", "port": port}])
        )

    a, b = side(2222), side(2223)
    assert not a.problems and not a.varied_channels
    (difference,) = ipt.compare(a, b).differences
    assert difference.key == ("Sales", "Orders 1"), difference
    assert [(f.path, f.a, f.b) for f in difference.fields] == [
        ("$.inputAgentSettings.channels[0].port", 2222, 2223)
    ]


def test_units_listed_in_another_order_pair_by_their_channel_under_a_substitution() -> None:
    """Production lists a profile's two FTP units in another order than test, each with its
    host: each unit is compared with the unit on the same channel, so the substitution
    silences the hosts (paired by place, it read as two channels wired differently)."""

    def side(pid: str, ids: tuple[int, int], hosts: str, order: slice) -> ipt.Estate:
        units = [
            unit("Ftp", channel=channel(i, "FTP", name=n, partner=ACME), remotePath=f"//{n}{hosts}")
            for i, n in zip(ids, ("a", "b"), strict=True)
        ]
        return ipt.Estate.from_raw([profile(pid, name="X", group="G", units=units[order])])

    test, prod = (
        side("P1", (5, 6), ".test.example.com/out", slice(None)),
        side("Q1", (16, 15), ".example.com/out", slice(None, None, -1)),
    )
    assert not ipt.compare(test, prod, substitute=HOSTS)
    (difference,) = ipt.compare(test, prod).differences
    assert difference.status == "changed", difference
    assert sorted(f.path for f in difference.fields) == [
        "$.responseSettings.units[0].remotePath",
        "$.responseSettings.units[1].remotePath",
    ]


def test_names_in_another_unicode_form_are_the_same_names() -> None:
    """`Café` typed as one code point in test and as `e` + a combining accent in production
    is one name (NFC): the items are paired, not `only in` each side with a candidate that
    reads exactly like them, and the forms are no difference (case and spaces still are)."""
    composed = "Caf\u00e9 Orders"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed

    def side(name: str, partner_name: str, ids: int) -> ipt.Estate:
        held = channel(ids, name=name, partner={**ACME, "id": ids, "name": partner_name})
        return ipt.Estate.from_raw(
            [profile(f"P{ids}", name=name, group="G", agent=agent("SFTP", channels=[held]))]
        )

    result = ipt.compare(side(composed, composed, 5), side(decomposed, decomposed, 9))
    assert not result, result.to_text()
    assert result.counts()["matched"] == {k: {"auto": 1} for k in ("profile", "channel", "partner")}
    spaced = ipt.compare(side(composed, "Acme", 5), side(composed + " ", "Acme", 9))
    assert spaced.counts()["profile"]["only-in-a"] == 1


def test_a_faulty_profile_on_one_side_is_said_in_a_note() -> None:
    """A profile production holds faulty is compared as received (the diff says so of a
    snapshot): the report says which side holds faulty profiles and which, so a reader
    knows why its channels show as only in the other installation."""
    good = profile(
        "P1", name="X", group="G", agent=agent("SFTP", channels=[channel(5, partner=ACME)])
    )
    faulty = {**good, "id": "Q7", "active": "yes"}
    result = ipt.compare(
        ipt.Estate.from_raw([good]), ipt.Estate.from_raw([faulty]), names=("test", "prod")
    )
    (note,) = [n for n in result.notes if "faulty" in n]
    assert note.startswith("prod has 1 faulty profile (Q7)") and "compared as received" in note
    assert note in result.to_text() and note in json.loads(result.to_json())["summary"]["notes"]
    same = ipt.Estate.from_raw([good])
    assert not ipt.compare(same, same).notes


def test_a_field_null_in_one_installation_and_missing_in_the_other_says_which() -> None:
    a = ipt.Estate.from_raw([profile("P1", name="X", group="G", description=None)])
    b = ipt.Estate.from_raw([profile("Q1", name="X", group="G", timeout=30)])
    (difference,) = ipt.compare(a, b).differences
    by_path = {f.path: f for f in difference.fields}
    assert by_path["$.description"].reason == "null before, now not sent"
    assert by_path["$.timeout"].reason == "a setting changed (timeout); a field not sent before"


def test_a_str_is_one_ignore_glob_and_bad_shapes_name_their_argument() -> None:
    """`ignore="description"` was read letter by letter (the difference stayed, silently);
    `substitute="ab"` failed to unpack and `["ab"]` was taken as ("a", "b")."""
    a = ipt.Estate.from_raw([profile("P1", name="Orders", description="old words")])
    b = ipt.Estate.from_raw([profile("Q1", name="Orders", description="new words")])
    assert len(ipt.compare(a, b)) == 1
    assert not ipt.compare(a, b, ignore="description")
    assert not ipt.compare(a, b, ignore=["description"])
    assert not ipt.compare(a, b, substitute=("old", "new"))  # one pair on its own
    assert not ipt.compare(a, b, substitute=[("old", "new")])
    for wrong, error, said in (
        ({"ignore": 3}, TypeError, "compare: ignore takes .* not int: 3"),
        ({"ignore": [3]}, TypeError, "compare: ignore takes .* not int: 3"),
        ({"substitute": "ab"}, TypeError, "compare: substitute takes .* not str: 'ab'"),
        ({"substitute": ["ab"]}, TypeError, "compare: substitute takes .* not str: 'ab'"),
        (
            {"substitute": [("a", "b", "c")]},
            ValueError,
            r"compare: substitute .* \('a', 'b', 'c'\)",
        ),
        ({"rules": "x"}, TypeError, "compare: rules must be .*Rules, not str"),
        ({"manual": [1]}, TypeError, r"compare: manual takes .* not list: \[1\]"),
        ({"manual": {"profiles": []}}, ValueError, "compare: manual: unknown kind 'profiles'"),
        ({"manual": {"profile": [1]}}, ValueError, r"compare: manual\['profile'\] .* not 1"),
    ):
        with pytest.raises(error, match=said):
            ipt.compare(a, b, **wrong)


def test_the_summary_writes_every_count_with_thousands_separators(prod, test_env) -> None:
    """It read "3,658 profiles changed ... 4068 notable": one format throughout."""
    result = ipt.compare(prod, test_env, rules=Rules(substitute=HOSTS))
    changed = next(d for d in result.differences if d.status == "changed")
    only = next(d for d in result.differences if d.status != "changed")
    many = dataclasses.replace(result, differences=(changed,) * 3658 + (only,) * 1200)
    line = many.summary().splitlines()[0]
    assert "1,200 " in line and "3,658 " in line
    assert not re.search(r"\d{4}", line), line


def test_markdown_titles_and_wiring_read_as_sentences(
    prod: ipt.Estate, test_env: ipt.Estate
) -> None:
    """One channel *differs*, several profiles *differ*; a rewiring names the two channels
    with an arrow between them, since their keys hold ` / ` themselves."""
    result = ipt.compare(test_env, prod, rules=Rules(substitute=HOSTS), names=("test", "prod"))
    markdown = result.to_markdown()
    assert "<summary>1 channel differs</summary>" in markdown
    assert "<summary>6 profiles differ</summary>" in markdown
    (wired,) = [d for d in result.differences if d.status == "wired-differently"]
    assert wired.reason.startswith("wired differently: channel ")
    assert " -> channel " in wired.reason and " / channel " not in wired.reason


def test_the_side_by_side_titles_count_what_differs_apart_from_what_it_touches(
    prod: ipt.Estate, test_env: ipt.Estate
) -> None:
    """The planted AS2 channel brings the profiles on it into the picture (faded): they
    do not differ themselves, and the titles say so instead of counting them as differing."""
    from iptoolkit.plot.backend import detach

    plot_comparison = ipt.plot_comparison  # public, as ipt.plot_diff

    result = ipt.compare(test_env, prod, rules=Rules(substitute=HOSTS), names=("test", "prod"))
    figure = detach(plot_comparison(result))
    titles = [ax.get_title("left") for ax in figure.axes]
    assert titles == [
        "test: 5 profiles that differ, 4 on a channel or partner that differs",
        "prod: 5 profiles that differ, 4 on a channel or partner that differs",
    ]
    # one above the other, each the figure's width: side by side, each half of it, the
    # names were cut to some 20 characters and the columns' heads ran into each other
    upper, lower = (ax.get_position() for ax in figure.axes)
    assert upper.y0 >= lower.y1 and min(upper.width, lower.width) > 0.75
    drawn = {text.get_text() for ax in figure.axes for text in ax.texts}
    assert "Cost centers from the AS/400 (Data queue) - DE" in drawn
    assert "Agents (9) · responses (10)" in drawn


def test_the_side_by_side_draws_the_worst_first_and_says_of_how_many(
    prod: ipt.Estate, test_env: ipt.Estate
) -> None:
    """Without the hosts' substitution nearly every profile differs and a panel has room for
    `limit`: it drew the first in listing order, left out the one breaking difference (an
    active profile only in test) and titled the panel "6 profiles that differ" of 115."""
    from iptoolkit.plot.backend import detach

    result = ipt.compare(test_env, prod, names=("test", "prod"))
    (worst,) = [d for d in result.differences if d.severity == "breaking"]
    differ = {d.a for d in result.differences} & {r.node for r in test_env.records}
    assert len(differ) > 100
    figure = detach(ipt.plot_comparison(result, limit=12))
    upper = figure.axes[0]
    assert upper.get_title("left") == f"test: 12 of {len(differ)} profiles that differ"
    drawn = [text.get_text() for text in upper.texts]
    assert any(text.startswith(worst.name[:30]) for text in drawn), drawn
