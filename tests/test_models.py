"""The models: every spec type present, aliases, strict types, unknown classes, lossless dumps."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import TypeAdapter, ValidationError

import iptoolkit as ipt
from iptoolkit import models
from iptoolkit.models import (
    AGENT_TYPES,
    CHANNEL_TYPES,
    CONTENT_TYPES,
    RESPONSE_UNIT_TYPES,
    Channel,
    InputAgentSettings,
    IntegrationProfile,
    Timestamp,
    UnknownAgentSettings,
    UnknownChannel,
    gc_paused,
    routed_errors,
)
from iptoolkit.support.jsonio import dumps_json

from .strategies import profiles

SPEC_TYPES = Path(__file__).parent / "fixtures" / "spec_types.txt"
"""The spec's types and their JSON fields, extracted once (the file's header says from where)."""

SPEC_FAMILIES = {
    "ProfileInputAgentSettings": AGENT_TYPES,
    "IntegrationPartnerChannel": CHANNEL_TYPES,
    "ProfileResponseUnit": RESPONSE_UNIT_TYPES,
    "ResponseContentType": CONTENT_TYPES,
}


def spec_types() -> dict[str, tuple[str, list[str]]]:
    """Type name -> (its family, `-` for none; the JSON fields the spec gives it)."""
    types = {}
    for line in SPEC_TYPES.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            family, name, *fields = line.split()
            types[name] = (family, fields)
    return types


def test_every_type_of_the_spec_has_a_model_in_its_family():
    types = spec_types()
    assert len(types) == 74
    for family, members in SPEC_FAMILIES.items():
        named = {name for name, (of, _) in types.items() if of == family}
        assert named == {member.__name__ for member in members}, family
    for name in types:
        assert isinstance(getattr(models, name, None), type), name


def test_every_field_of_the_spec_and_no_other_is_declared_by_its_model():
    for name, (_, fields) in spec_types().items():
        declared = {
            info.alias or field for field, info in getattr(models, name).model_fields.items()
        }
        assert declared == set(fields), name


def test_family_sizes_match_the_spec():
    assert len(AGENT_TYPES) == 35
    assert len(CHANNEL_TYPES) == 11
    assert len(RESPONSE_UNIT_TYPES) == 5
    assert len(CONTENT_TYPES) == 8
    for name in [
        "IntegrationProfile",
        "HttpClientSettings",
        "IntegrationPartner",
        "CSVFileMetadata",
        "ProfileIntegrationSettings",
        "XMLCreationIU",
        "JsonCreationIU",
        "EdifactCreationIU",
        "MappingSettings",
        "MappingLink",
        "SourceDataStructure",
        "DestinationDataStructure",
        "DataStructureItem",
        "ProfileResponseSettings",
        "ErrorInfo",
    ]:
        assert hasattr(models, name), name


def test_camel_case_aliases_and_snake_case_names_both_accepted():
    by_alias = IntegrationProfile.model_validate({"lastModifiedGUI": 5, "skipMapping": True})
    by_name = IntegrationProfile.model_validate({"last_modified_gui": 5, "skip_mapping": True})
    assert by_alias.last_modified_gui == by_name.last_modified_gui == 5
    assert by_alias.to_json_dict() == {"lastModifiedGUI": 5, "skipMapping": True}
    agent = TypeAdapter(InputAgentSettings).validate_python(
        {"class": "core:HttpAgentSettings", "acceptREST": True}
    )
    assert agent.accept_rest is True
    unit = models.MailProfileResponseUnit.model_validate({"from": "ops@example.com"})
    assert unit.from_ == "ops@example.com"


def test_i64_above_2_pow_53_survives_exactly():
    big = 2**53 + 1
    [profile] = ipt.parse_profiles(
        f'[{{"inputAgentSettings": {{"class": "core:KafkaAgentSettings", '
        f'"registryChannelId": {big}}}}}]'
    )
    kafka = profile.input_agent_settings
    assert isinstance(kafka, models.KafkaAgentSettings) and kafka.registry_channel_id == big
    assert ipt.dump_profiles([profile])[0]["inputAgentSettings"]["registryChannelId"] == big


@pytest.mark.parametrize(
    "raw",
    [
        {"class": "core:SomethingNew", "id": "x", "nested": {"a": [1, 2]}},
        {"typeName": "no class at all", "port": "not even an int"},
    ],
)
def test_unknown_or_missing_class_parses_into_the_fallback(raw):
    agent = TypeAdapter(InputAgentSettings).validate_python(raw)
    assert isinstance(agent, UnknownAgentSettings)
    assert agent.to_json_dict() == raw
    channel = TypeAdapter(Channel).validate_python(raw)
    assert isinstance(channel, UnknownChannel)


def test_unknown_fields_on_known_classes_are_kept():
    raw = {"class": "core:IntegrationPartnerChannelAS2", "id": 3, "brandNew": {"x": 1}}
    channel = TypeAdapter(Channel).validate_python(raw)
    assert isinstance(channel, models.IntegrationPartnerChannelAS2)
    assert channel.brandNew == {"x": 1}  # type: ignore[attr-defined]  # kept, not declared
    assert channel.to_json_dict() == raw


@pytest.mark.parametrize(
    ("field", "value"),
    [("active", "true"), ("active", 1), ("id", 5), ("created", 1.5), ("created", "12")],
)
def test_strict_types_refuse_coercion(field, value):
    with pytest.raises(ipt.ParseError):
        ipt.parse_profiles([{field: value}])


def test_i32_range_is_enforced():
    with pytest.raises(ipt.ParseError, match="timeout"):
        ipt.parse_profiles(
            [{"inputAgentSettings": {"class": "core:KafkaAgentSettings", "timeout": 2**31}}]
        )


def test_null_is_kept_and_missing_stays_missing():
    raw = [{"id": "P1", "description": None, "inputAgentSettings": None}]
    assert ipt.dump_profiles(ipt.parse_profiles(raw)) == raw


def test_repr_shows_only_what_was_sent():
    [profile] = ipt.parse_profiles([{"id": "P1", "name": "Orders"}])
    assert repr(profile) == "IntegrationProfile(id='P1', name='Orders')"


def _stamp(value: int) -> Timestamp:
    """`ipt.timestamp` of a number (None is only for None)."""
    stamp = ipt.timestamp(value)
    assert stamp is not None
    return stamp


def test_timestamp_guesses_the_unit():
    assert _stamp(1_700_000_000).unit == "s"
    assert _stamp(1_700_000_000_000).unit == "ms"
    assert _stamp(1_700_000_000_000).datetime.year == 2023
    assert _stamp(1_700_000_000_000_000).unit == "us"
    assert ipt.timestamp(None) is None
    with pytest.raises(ValueError, match="beyond the dates"):
        ipt.timestamp(2**62)
    [profile] = ipt.parse_profiles([{"created": 1_700_000_000_000}])
    created = profile.created_at
    assert created is not None and created.datetime.tzinfo is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profiles())
def test_round_trip_loses_nothing_for_generated_profiles(raw):
    assert ipt.dump_profiles(ipt.parse_profiles(raw)) == raw


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profiles())
def test_generated_profiles_parse_alike_from_json_text(raw):
    text = dumps_json(raw)
    assert ipt.parse_profiles(text) == ipt.parse_profiles(raw)
    assert ipt.dump_profiles(ipt.parse_profiles(text)) == raw


def test_objects_built_while_the_collector_is_paused_end_in_the_oldest_generation():
    with gc_paused():
        built = [[index] for index in range(1000)]
    assert gc.isenabled()
    assert not any(item is built for item in gc.get_objects(generation=0))
    assert any(item is built for item in gc.get_objects(generation=2))


def test_gc_paused_leaves_objects_the_program_froze_frozen():
    # Counting frozen objects is flaky (a frozen object freed by another thread lowers the
    # count), so follow one object the program froze: unfreezing would move it back.
    kept_frozen = [object()]
    gc.freeze()
    try:
        with gc_paused():
            [[index] for index in range(100)]
        assert gc.get_freeze_count() > 0
        assert not any(item is kept_frozen for item in gc.get_objects())
    finally:
        gc.unfreeze()


def test_a_faulty_known_object_read_from_json_is_one_error_once_the_branches_are_dropped():
    adapter = TypeAdapter(InputAgentSettings)
    with pytest.raises(ValidationError) as caught:
        adapter.validate_json('{"class": "core:KafkaAgentSettings", "timeout": "x"}')
    errors = routed_errors(caught.value.errors())
    assert [(error["loc"], error["type"]) for error in errors] == [
        (("core:KafkaAgentSettings", "timeout"), "int_type")
    ]
