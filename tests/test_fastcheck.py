"""The fast check (msgspec Structs made from the models) against pydantic, the authority.

On generated valid profiles and on the same with one value replaced (`mutated_profiles`),
each as JSON parses it (written with `dumps_json`, read back with `loads_json`),
the fast check must give pydantic's verdict and, for a faulty profile, the JSON path of
pydantic's fault; a load through the fast check must report the same problems, word for
word, as one through pydantic alone.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import iptoolkit as ipt
from iptoolkit.core.estate import Estate
from iptoolkit.models import validate_profiles
from iptoolkit.models.fastcheck import profile_fault
from iptoolkit.models.jsontext import loads_json
from iptoolkit.support.jsonio import dumps_json

from .strategies import model_strategy, mutated_profiles

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pydantic_paths(profile):
    """The JSON paths pydantic's problem names for one profile (empty: it is valid)."""
    _, problems = validate_profiles([profile])
    return [issue.path.replace("$[0]", "$", 1) for problem in problems for issue in problem.issues]


@SETTINGS
@given(model_strategy(ipt.models.IntegrationProfile))
def test_a_valid_generated_profile_passes_the_fast_check(profile):
    assert pydantic_paths(profile) == []
    assert profile_fault(loads_json(dumps_json(profile))) is None


@SETTINGS
@given(mutated_profiles())
def test_the_fast_check_gives_pydantics_verdict_and_path(profile):
    expected = pydantic_paths(profile)
    fault = profile_fault(loads_json(dumps_json(profile)))
    if not expected:
        assert fault is None
    else:
        assert fault is not None, expected
        assert fault.path == expected[0], (fault, expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutated_profiles() | model_strategy(ipt.models.IntegrationProfile), max_size=6))
def test_a_load_through_the_fast_check_reports_what_pydantic_reports(listing):
    fast = Estate.from_raw(dumps_json(listing))
    slow = Estate.from_raw(listing)
    assert [(p.index, p.issues) for p in fast.problems] == [
        (p.index, p.issues) for p in slow.problems
    ]
    assert list(fast.raw_profiles) == listing


@pytest.mark.parametrize(
    ("profile", "path"),
    [
        ({"name": 5}, "$.name"),
        ({"active": "true"}, "$.active"),
        ({"created": 1.5}, "$.created"),
        ({"created": True}, "$.created"),
        ({"created": 2**63}, "$.created"),
        ({"inputAgentSettings": {"class": "core:KafkaAgentSettings", "timeout": 2**31}}, None),
        ({"inputAgentSettings": []}, "$.inputAgentSettings"),
        ({"inputAgentSettings": {"class": "core:Brand", "timeout": "x"}}, None),
        ({"inputAgentSettings": {"class": 5, "channels": 3}}, None),
        ({"inputAgentSettings": {"typeName": "no class", "channels": 3}}, None),
        ({"responseSettings": {"units": [{"class": "core:Mail", "to": 1}, 4]}}, None),
        ({"mappingSettings": {"class": 5}}, "$.mappingSettings.class"),
    ],
)
def test_written_cases_match_pydantic(profile, path):
    if path is None:
        [path] = pydantic_paths(profile) or [None]
    assert pydantic_paths(profile) == ([path] if path else [])
    fault = profile_fault(json.loads(json.dumps(profile)))
    assert (fault.path if fault else None) == path


def test_a_python_name_is_left_to_pydantic_which_may_accept_it():
    accepted = {"input_agent_settings": None, "skip_mapping": True}
    refused = {"last_modified": "soon"}
    assert profile_fault(json.loads(json.dumps(accepted))) is not None  # not decided here
    estate = Estate.from_raw(json.dumps([accepted, refused]))
    assert [problem.index for problem in estate.problems] == [1]
    assert estate.problems[0].issues[0].path == "$[1].last_modified"
