"""Hostile JSON text (issue 14, findings 13, 14 and 16): repeated keys, numbers beyond a
double, lone surrogates. Each is named with its JSON path; nothing is dropped unseen."""

from __future__ import annotations

import gzip
import json
from decimal import Decimal
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.models import DuplicateKey, loads_json, read_json
from iptoolkit.support.jsonio import dumps_json

GOOD = b'{"class": "core:IntegrationProfile", "id": "P3", "name": "fine"}'


def _listing(*profiles: bytes) -> bytes:
    return b"[" + b",".join(profiles) + b"]"


# -- 13. a key given twice ---------------------------------------------------------------


def test_a_repeated_key_in_a_profile_makes_it_a_problem_named_by_its_path(tmp_path):
    twice = b'{"class": "core:IntegrationProfile", "id": "P1", "id": "P2"}'
    path = tmp_path / "listing.json"
    path.write_bytes(_listing(twice, GOOD))
    for estate in (ipt.load(path), ipt.Estate.from_raw(path.read_bytes())):
        assert len(estate.raw_profiles) == 2  # nothing dropped
        [problem] = estate.problems
        assert problem.index == 0
        assert [issue.path for issue in problem.issues] == ["$[0].id"]
        assert '"id" is given 2 times' in problem.issues[0].message
        assert [record.id for record in estate.records if record.problem is None] == ["P3"]


def test_a_repeated_key_deep_in_a_wrapped_listing_is_reported_with_its_path():
    agent = b'{"class": "core:SFTPAgentSettings", "host": "a", "host": "b"}'
    profile = b'{"class": "core:IntegrationProfile", "id": "P1", "inputAgentSettings": '
    data = b'{"data": {"items": [' + GOOD + b"," + profile + agent + b"}]}}"
    [problem] = ipt.Estate.from_raw(data).problems
    assert problem.index == 1
    assert problem.issues[0].path == "$[1].inputAgentSettings.host"


def test_strict_loading_refuses_a_repeated_key_naming_the_file_and_path(tmp_path):
    path = tmp_path / "strict.json"
    path.write_bytes(_listing(GOOD, b'{"id": "P1", "name": "a", "name": "b"}'))
    with pytest.raises(ipt.ParseError) as caught:
        ipt.load(path, strict=True)
    assert "strict.json" in str(caught.value) and "$[1].name" in str(caught.value)
    with pytest.raises(ipt.ParseError, match=r"\$\[1\]\.name"):
        ipt.parse_profiles(path.read_bytes())


def test_a_profile_both_invalid_and_repeating_a_key_lists_both_issues():
    data = _listing(b'{"id": "P1", "id": "P2", "active": "yes"}')
    [problem] = ipt.Estate.from_raw(data).problems
    assert [issue.path for issue in problem.issues] == ["$[0].id", "$[0].active"]


@pytest.mark.parametrize("suffix", [".json", ".json.gz"])
def test_two_profiles_keys_never_lose_a_profile_unseen(tmp_path, suffix):
    # the first list (P1) used to vanish: two of three profiles loaded, "0 problems"
    text = (
        b'{"format": "iptoolkit.snapshot", "version": 1, "profiles": [{"id": "P1"}], '
        b'"profiles": [{"id": "P2"}, {"id": "P3"}]}'
    )
    path = tmp_path / f"twice{suffix}"
    path.write_bytes(gzip.compress(text) if suffix.endswith(".gz") else text)
    with pytest.raises(ipt.ParseError) as caught:
        ipt.load(path)
    message = str(caught.value)
    assert f"twice{suffix}" in message and "$.profiles" in message
    assert "2 times" in message and "arrays of 1 and 2 items" in message


def test_a_repeated_key_in_the_wrapper_is_refused_with_its_path():
    data = b'{"page": 1, "page": 2, "content": [{"id": "P1"}]}'
    with pytest.raises(ipt.ParseError, match=r"^\$\.page: the key \"page\" is given 2 times"):
        ipt.Estate.from_raw(data)


def test_a_repeated_key_inside_a_value_a_repeated_key_drops_is_named_too() -> None:
    """The first `inputAgentSettings` is dropped for the second; the `host` it repeats is
    still named, in the problem and in the refusal, not hidden by the outer repeat."""
    data = _listing(
        b'{"id": "P1", "inputAgentSettings": {"host": "a", "host": "b"}, '
        b'"inputAgentSettings": {"host": "c"}}'
    )
    paths = ["$[0].inputAgentSettings", "$[0].inputAgentSettings.host"]
    [problem] = ipt.Estate.from_raw(data).problems
    assert [issue.path for issue in problem.issues] == paths
    with pytest.raises(ipt.ParseError) as caught:
        ipt.parse_profiles(data)
    assert f'{paths[1]}: the key "host" is given 2 times' in str(caught.value)
    _, duplicates = read_json(b'{"a": [{"b": 1, "b": 2}], "a": []}')
    assert [(d.path, d.key) for d in duplicates] == [((), "a"), (("a", 0), "b")]


def test_a_repeated_secret_never_shows_its_values():
    data = _listing(b'{"id": "P1", "clientSecret": "s3cr3t-one", "clientSecret": "s3cr3t-two"}')
    [problem] = ipt.Estate.from_raw(data).problems
    with pytest.raises(ipt.ParseError) as caught:
        ipt.parse_profiles(data)
    for text in (str(problem), str(caught.value)):
        assert "clientSecret" in text and "s3cr3t" not in text


def test_loads_json_which_the_client_reads_responses_with_refuses_a_repeated_key():
    with pytest.raises(ipt.ParseError, match=r"\$\.content\[0\]\.id"):
        loads_json(b'{"content": [{"id": 1, "id": 2}]}')
    document, duplicates = read_json(b'{"a": {"b": [1, {"c": 1, "c": 2, "c": 3}]}}')
    assert document == {"a": {"b": [1, {"c": 3}]}}
    assert [(d.path, d.key, d.values) for d in duplicates] == [(("a", "b", 1), "c", (1, 2, 3))]


# -- 14. numbers beyond a double ---------------------------------------------------------


@pytest.mark.parametrize("number", ["1e400", "-1E+400", "1" + "0" * 400 + ".5", "2e308"])
def test_a_number_beyond_a_double_is_refused_with_its_path(tmp_path, number):
    text = f'[{{"id": "P1"}}, {{"id": "P2", "future": {{"limit": [1, {number}]}}}}]'
    path = tmp_path / "inf.json"
    path.write_text(text)
    for read in (lambda: ipt.load(path), lambda: ipt.parse_profiles(text)):
        with pytest.raises(ipt.ParseError, match=r"\$\[1\]\.future\.limit\[1\]: a number beyond"):
            read()


def test_a_number_beyond_a_double_is_found_in_a_value_a_repeated_key_dropped():
    with pytest.raises(ipt.ParseError, match=r"\$\[0\]\.x: a number beyond"):
        ipt.Estate.from_raw(b'[{"id": "P1", "x": 1e400, "x": 1}]')


CHANGED = {
    "3.14159265358979323846": "has more digits than a double holds: it would be saved as "
    "3.141592653589793",
    "1e-400": "is too small for a double: it would be saved as 0.0",
    "9007199254740993.0": "has more digits than a double holds: it would be saved as "
    "9007199254740992.0",
}


@pytest.mark.parametrize("number", list(CHANGED))
def test_a_number_a_double_would_change_is_refused_with_its_path(tmp_path, number):
    """Saving once turned these into other numbers without a word ("every profile exactly
    as received"): now reading refuses them as it refuses 1e400, with the path, from a file
    spaced or compact (the proof by writing again), and in a value a repeated key drops."""
    said = f"$[1].future.limit[1]: the number {number} {CHANGED[number]}; write it as a string"
    for spaced in (True, False):
        text = f'[{{"id": "P1"}}, {{"id": "P2", "future": {{"limit": [1.5, {number}]}}}}]'
        text = text if spaced else text.replace(" ", "")
        path = tmp_path / "numbers.json"
        path.write_text(text)
        for read, what in ((ipt.load, path), (ipt.parse_profiles, text)):
            with pytest.raises(ipt.ParseError) as caught:
                read(what)
            assert str(caught.value).endswith(said), caught.value
    with pytest.raises(ipt.ParseError, match=r"\$\[0\]\.x: the number "):
        ipt.Estate.from_raw(f'[{{"id": "P1", "x": 1, "x": {number}}}]')
    with pytest.raises(ipt.ParseError, match=r"in a value that a repeated key drops"):
        ipt.Estate.from_raw(f'[{{"id": "P1", "x": {number}, "x": 1}}]')


def test_a_number_spelled_otherwise_keeps_its_value_through_a_save(tmp_path):
    """`1E2` is saved as `100.0`, `1.50` as `1.5`: the same JSON number (as `\\u00e9` is
    `é`); the digits a double holds in 17 places and its exact value are read too."""
    numbers = ["1E2", "1.50", "0.10000000000000001", "5e-324", "-0.0", "2.5e-3",
               "0.1000000000000000055511151231257827021181583404541015625"]  # fmt: skip
    text = '[{"id": "P1", "n": [' + ", ".join(numbers) + "]}]"
    source = tmp_path / "numbers.json"
    source.write_text(text)
    saved = ipt.load(source).save(tmp_path / "saved.json")
    written = json.loads(saved.read_bytes(), parse_float=Decimal)["profiles"][0]["n"]
    assert [float(one) for one in written] == [float(one) for one in numbers]
    assert written[:2] == [Decimal("100.0"), Decimal("1.5")]


def test_large_but_finite_numbers_and_null_in_strings_load_exactly(tmp_path):
    # "null" inside strings and escaped letters must not be mistaken for infinity
    profile = {
        "id": "P1",
        "note": "null or null",
        "escaped": "nu\u006cl",
        "big": 1.7e308,
        "int": 10**40,
        "none": None,
    }
    text = json.dumps([profile], ensure_ascii=True).replace("nul", "\\u006eul", 1)
    estate = ipt.Estate.from_raw(text)
    assert estate.problems == () and list(estate.raw_profiles) == [profile]
    saved = estate.save(tmp_path / "round.json")
    assert list(ipt.load(saved).raw_profiles) == [profile]


# -- 16. lone surrogates ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("escaped", "named"),
    [("\\ud800", "\\ud800"), ("\\udc00", "\\udc00"), ("ok \\ud83d then", "\\ud83d")],
)
def test_a_lone_surrogate_is_named_with_its_path(tmp_path, escaped, named):
    text = '[{"id": "P1"}, {"id": "P2", "name": "' + escaped + '"}]'
    path = tmp_path / "surrogate.json"
    path.write_text(text)
    for read in (lambda: ipt.load(path), lambda: ipt.parse_profiles(text.encode())):
        with pytest.raises(ipt.ParseError) as caught:
            read()
        expected = f"$[1].name: lone surrogate {named}, not valid Unicode"
        assert expected in str(caught.value)


def test_a_surrogate_pair_is_one_character():
    [profile] = ipt.parse_profiles(b'[{"id": "P1", "name": "\\ud83d\\ude00"}]')
    assert profile.name == "\U0001f600"


@pytest.mark.parametrize(
    "document",
    [
        '[{"id":"P1","id":"P2"}]',
        '{"format":"iptoolkit.snapshot","profiles":[{"a":[1,{"b":1,"b":2}]}]}',
        '{"profiles":[{"id":"P"}],"profiles":[]}',
        '[{"id":"P","x":1e400}]',
        '[{"id":"P","x":123456789012345678901234567890}]',
        '[{"id":"P","x":[1.5,null,"\\u00e9"]}]\n',
        '{"format":"iptoolkit.snapshot","profiles":[\n{"id":"P1"},\n{"id":"P1","id":"P2"}\n]}\n',
        '{"profiles":[\n{"id":"P1","x":1e400}\n]}\n',
    ],
)
def test_compact_text_reads_as_the_same_text_with_spaces(document):
    # compact text (as orjson writes it) is proven free of repeated keys and infinities by
    # writing the document again; spaced text takes the search: both must agree
    outcomes: list[tuple[Any, list[DuplicateKey]] | str] = []  # what was read, or the error
    for text in (document.encode(), document.replace(":", ": ", 1).encode()):
        try:
            outcomes.append(read_json(text))
        except ipt.ParseError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1]
    if "1e400" not in document:
        assert outcomes[0][0] == json.loads(document)


def test_a_snapshot_as_saved_is_proven_by_writing_it_again(tmp_path):
    """A snapshot holds a profile per line (its profiles' lines are what SARIF points at);
    the proof that it repeats no key follows those line breaks instead of searching."""
    from iptoolkit.models import jsontext

    path = tmp_path / "snap.json"
    ipt.demo_estate(n_profiles=40, seed=3).save(path)
    text = path.read_bytes()
    assert text.count(b"\n") > 40
    assert jsontext._compact(text) and jsontext._written_as(json.loads(text), text)


def test_a_saved_snapshot_gives_each_profile_its_exact_text_and_spaced_json_none(tmp_path):
    """`read_snapshot_json(texts=True)` hands the archive each profile's text as the file
    holds it (read in place, not written again); text the proof does not cover gives
    none."""
    from iptoolkit.core.snapshot import read_snapshot_json
    from iptoolkit.models.jsontext import ItemSpans

    path = tmp_path / "snap.json.gz"
    estate = ipt.demo_estate(n_profiles=30, seed=4)
    estate.save(path)
    texts = read_snapshot_json(path, texts=True).texts
    assert texts is not None
    assert list(texts) == [dumps_json(raw) for raw in estate.raw_profiles]
    assert [bytes(texts.view(n)) for n in range(len(texts))] == list(texts)
    assert read_snapshot_json(path).texts is None
    # items that are not objects (faulty profiles; `null` is one shared object) give none
    odd = tmp_path / "odd.json"
    ipt.Estate.from_raw([estate.raw_profiles[0], None, estate.raw_profiles[1], None]).save(odd)
    assert read_snapshot_json(odd, texts=True).texts is None
    document = json.loads(gzip.decompress(path.read_bytes()))
    spaced = ItemSpans()
    read_json(json.dumps(document, indent=1).encode(), texts=spaced)
    assert spaced.spans == {} and spaced.text == b""


def test_profile_texts_find_a_token_in_the_profile_holding_it():
    from iptoolkit.core.profile_texts import ProfileTexts, as_profile_texts

    texts = as_profile_texts([b'{"a":"x://1"}', b'{"b":2}', b'{"c":"x://3"}'])
    assert as_profile_texts(texts) is texts
    assert [position for position, _ in texts.find_all(b"://")] == [0, 2]
    assert texts[1] == b'{"b":2}' and texts[-1] == b'{"c":"x://3"}'
    assert texts[0:2] == [b'{"a":"x://1"}', b'{"b":2}']
    assert isinstance(texts, ProfileTexts)  # as annotated, and so at run time
    assert len(texts) == 3
    # a text holding more than the profiles: what lies outside them, or across two, is
    # found in none
    whole = ProfileTexts(b'{"url":"x://h","p":[{"a":1},{"b":"x://2"}]}', [20, 28], [27, 41])
    assert list(whole) == [b'{"a":1}', b'{"b":"x://2"}']
    assert [p for p, _ in whole.find_all(b"://")] == [1]
    assert list(whole.find_all(b'},{"')) == []
