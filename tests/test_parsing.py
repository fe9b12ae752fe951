"""parse_profiles: every wrapping, and clear errors that name the profile and the JSON path."""

from __future__ import annotations

import json

import pytest

import iptoolkit as ipt

PROFILE = {
    "class": "core:IntegrationProfile",
    "id": "P-1",
    "name": "Inbound ORDERS",
    "inputAgentSettings": {
        "class": "core:AS2AgentSettings",
        "typeName": "AS2",
        "channels": [
            {
                "class": "core:IntegrationPartnerChannelAS2",
                "id": 10,
                "name": "AS2 Acme",
                "active": True,
                "partner": {"class": "core:IntegrationPartner", "id": 1, "name": "Acme"},
                "mdnMode": 1,
            }
        ],
    },
    "responseSettings": {
        "class": "core:ProfileResponseSettings",
        "units": [
            {
                "class": "core:HttpProfileResponseUnit",
                "active": True,
                "contentType": {"class": "core:ResponseContentType_ORIG"},
                "httpSettings": {
                    "class": "core:HttpClientSettings",
                    "headers": {"A": ["b"]},
                    "httpMethod": "POST",
                    "uri": "/in",
                },
            }
        ],
    },
}


@pytest.mark.parametrize(
    "wrapped",
    [
        [PROFILE],
        PROFILE,
        {"data": [PROFILE]},
        {"items": [PROFILE], "total": 1},
        {"content": [PROFILE], "number": 0, "last": True},
        {"whatever": [PROFILE], "count": 1},
        {"data": {"items": [PROFILE]}},
        {"_embedded": {"profiles": [PROFILE]}},
    ],
)
def test_every_wrapping_unwraps(wrapped):
    for form in (wrapped, json.dumps(wrapped), json.dumps(wrapped).encode()):
        [profile] = ipt.parse_profiles(form)
        assert profile.id == "P-1"
        assert ipt.dump_profiles([profile]) == [PROFILE]


def test_error_names_profile_index_id_and_path():
    bad = json.loads(json.dumps(PROFILE))
    bad["id"] = "P-9"
    bad["inputAgentSettings"]["channels"][0]["mdnMode"] = "one"
    with pytest.raises(ipt.ParseError) as caught:
        ipt.parse_profiles([PROFILE, PROFILE, PROFILE, bad])
    message = str(caught.value)
    assert "profile 3 (id 'P-9')" in message
    assert "$[3].inputAgentSettings.channels[0].mdnMode" in message
    assert "valid integer" in message and '"one"' in message
    assert caught.value.issues[0].path == "$[3].inputAgentSettings.channels[0].mdnMode"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'[{"id": "P1"', "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"", "not JSON"),
        (b'"just a string"', "no list of profiles"),
        (b'{"a": 1, "b": 2}', "no list of profiles"),
        (b"[1]", "$[0]: expected a JSON object"),
        (b'[{"inputAgentSettings": []}]', "$[0].inputAgentSettings"),
        (b'[{"responseSettings": {"units": {}}}]', "$[0].responseSettings.units"),
        (b'[{"name": 5}]', "$[0].name"),
    ],
)
def test_bad_input_gives_a_clear_parse_error(data, expected):
    with pytest.raises(ipt.ParseError) as caught:
        ipt.parse_profiles(data)
    assert expected in str(caught.value)


def test_counts_further_faulty_profiles():
    with pytest.raises(ipt.ParseError, match=r"\(2 more faulty profiles\)"):
        ipt.parse_profiles([{"id": 1}, {"id": 2}, {"id": 3}])


def test_huge_integers_beyond_64_bits_survive_in_unknown_fields():
    text = '[{"id": "P", "future": 123456789012345678901234567890}]'
    assert (
        ipt.dump_profiles(ipt.parse_profiles(text))[0]["future"] == 123456789012345678901234567890
    )


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),  # Notepad, PowerShell 5 Out-File
        lambda text: text.encode("utf-16"),  # PowerShell 5's `>` redirection: UTF-16 with a BOM
        lambda text: b"\xfe\xff" + text.encode("utf-16-be"),
        lambda text: "\ufeff" + text,
    ],
)
def test_a_byte_order_mark_is_not_an_error(encode, tmp_path):
    # RFC 8259 lets a parser ignore a BOM; Windows tools write one, and the file is JSON
    data = encode(json.dumps([PROFILE]))
    assert ipt.dump_profiles(ipt.parse_profiles(data)) == [PROFILE]
    if isinstance(data, bytes):
        path = tmp_path / "listing.json"
        path.write_bytes(data)
        assert list(ipt.load(path).raw_profiles) == [PROFILE]


def test_json_nested_beyond_the_parsers_limit_is_called_that_not_invalid():
    deep = '{"children":[' * 150 + "{}" + "]}" * 150
    text = f'[{{"id": "P", "mappingSettings": {{"sourceStructure": {{"nodes": [{deep}]}}}}}}]'
    json.loads(text)  # valid JSON
    with pytest.raises(ipt.ParseError) as caught:
        ipt.parse_profiles(text)
    assert "nested too deeply" in str(caught.value) and "not JSON" not in str(caught.value)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_in_text_or_bytes(token):
    text = f'[{{"id": "P", "future": {token}}}]'
    for form in (text, text.encode()):
        with pytest.raises(ipt.ParseError, match="not JSON"):
            ipt.parse_profiles(form)


def test_text_parses_as_the_same_objects_do():
    listing = [
        PROFILE,
        {"id": "U", "inputAgentSettings": {"class": "core:Brand", "x": [1, {"y": None}]}},
        {"id": "M", "inputAgentSettings": {"typeName": "no class", "channel": 3}},
        {"id": "N", "inputAgentSettings": None, "future": 2**70},
    ]
    text = json.dumps(listing)
    from_objects = ipt.parse_profiles(listing)
    assert ipt.parse_profiles(text) == from_objects
    assert ipt.parse_profiles(text.encode()) == from_objects
    assert [type(p.input_agent_settings).__name__ for p in from_objects] == [
        "AS2AgentSettings",
        "UnknownAgentSettings",
        "UnknownAgentSettings",
        "NoneType",
    ]
    assert ipt.dump_profiles(ipt.parse_profiles(text.encode())) == listing


@pytest.mark.parametrize(
    ("agent", "path", "words"),
    [
        ({"class": "core:KafkaAgentSettings", "timeout": "x"}, ".timeout", "valid integer"),
        (5, "", "expected a JSON object"),
        ([], "", "expected a JSON object"),
        (
            {"class": "core:AS2AgentSettings", "channels": [{"class": "core:AS2", "mdnMode": 1}]},
            None,
            None,
        ),
        (
            {
                "class": "core:AS2AgentSettings",
                "channels": [{"class": "core:IntegrationPartnerChannelAS2", "mdnMode": "one"}],
            },
            ".channels[0].mdnMode",
            "valid integer",
        ),
    ],
)
def test_a_faulty_polymorphic_object_is_reported_once_from_text_or_objects(agent, path, words):
    listing = [PROFILE, {"id": "P-2", "inputAgentSettings": agent}]
    forms = (listing, json.dumps(listing), json.dumps(listing).encode())
    if path is None:  # valid: an unknown channel class inside a known agent
        for form in forms:
            agent_settings = ipt.parse_profiles(form)[1].input_agent_settings
            assert agent_settings is not None
            [channel] = agent_settings.channels
            assert type(channel).__name__ == "UnknownChannel" and channel.mdnMode == 1
        return
    for form in forms:
        with pytest.raises(ipt.ParseError) as caught:
            ipt.parse_profiles(form)
        [issue] = caught.value.issues
        assert issue.path == "$[1].inputAgentSettings" + path
        assert words in issue.message


def test_ctrl_c_while_checking_a_listing_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a fetch's indexing ended in 'AssertionError: profile 25446 failed
    validation in the list only': the lenient validator had taken the interrupt for a
    fault. Here a validator stands for the signal, striking the second item once."""
    from typing import Annotated

    from pydantic import AfterValidator, TypeAdapter

    from iptoolkit.models import parsing

    struck: list[int] = []

    def signal(value: int) -> int:
        if value == 2 and not struck:
            struck.append(value)
            raise KeyboardInterrupt
        return value

    item = Annotated[int, AfterValidator(signal)]
    monkeypatch.setattr(parsing, "_list_adapter", lambda: TypeAdapter(list[item]))
    lenient = TypeAdapter(list[Annotated[item, parsing._NoneIfFaulty()]])
    monkeypatch.setattr(parsing, "_lenient_adapter", lambda: lenient)
    with pytest.raises(KeyboardInterrupt):
        parsing.check_profiles([1, 2, 3])


def test_validate_profiles_keeps_the_good_and_names_each_faulty_one():
    bad = json.loads(json.dumps(PROFILE))
    bad["inputAgentSettings"]["channels"][0]["mdnMode"] = "one"
    items = [PROFILE, bad, {"id": "U", "inputAgentSettings": {"class": "core:Brand"}}, 7]
    models, problems = ipt.models.validate_profiles(items)
    assert [model is None for model in models] == [False, True, False, True]
    assert [problem.index for problem in problems] == [1, 3]
    assert problems[0].raw is bad and problems[0].profile_id == "P-1"
    assert [str(issue.path) for issue in problems[0].issues] == [
        "$[1].inputAgentSettings.channels[0].mdnMode"
    ]
    assert "expected a JSON object" in problems[1].message
    with pytest.raises(ipt.ParseError) as caught:
        ipt.parse_profiles(items)
    assert caught.value.issues == problems[0].issues


@pytest.mark.parametrize("key", ["items", "data", "values", "list"])
def test_one_profile_with_an_unknown_list_named_like_a_wrapper_is_that_profile(key):
    """The spec lets a profile carry fields it does not list (kept as unknown fields); one
    holding a list under a wrapper's key (`items`) is still the profile, not a wrapper."""
    single = {**PROFILE, key: [{"sku": 1}]}
    [profile] = ipt.parse_profiles(json.dumps(single))
    assert profile.id == "P-1"
    assert ipt.dump_profiles([profile]) == [single]
