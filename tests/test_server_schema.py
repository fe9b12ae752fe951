"""schemathesis against the served OpenAPI document: no 5xx, every response as documented.

Bounded: a handful of examples per operation, over a real loopback socket. Run once
without credentials and once with a live bearer token and session cookie, so that the
listing's 200 bodies (bare array and page object) are checked against the profile schemas.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from iptoolkit.server import RunningServer, running
from iptoolkit.server.app import PROFILES_PATH, SESSION_COOKIE, SESSION_TOKEN_PATH, TOKEN_PATH

from .server_data import SECRETS, make_principals, request_token

VALID_PROFILES: list[dict[str, Any]] = [
    {
        "class": "core:IntegrationProfile",
        "id": "S1",
        "group": "Finance/AP",
        "active": True,
        "created": 1_766_546_869_304,
        "inputAgentSettings": {
            "class": "core:AS2AgentSettings",
            "typeName": "AS2",
            "channels": [
                {
                    "class": "core:IntegrationPartnerChannelAS2",
                    "id": 12,
                    "active": True,
                    "partner": {"class": "core:IntegrationPartner", "id": 3, "name": "ACME"},
                    "mdnMode": 1,
                }
            ],
        },
        "responseSettings": {
            "class": "core:ProfileResponseSettings",
            "units": [
                {
                    "class": "core:FileProfileResponseUnit",
                    "active": True,
                    "fileName": "out.xml",
                    "contentType": {"class": "core:ResponseContentType_ORIG"},
                }
            ],
        },
        "mappingSettings": {
            "class": "core:MappingSettings",
            "sourceStructure": {
                "class": "core:SourceDataStructure",
                "nodes": [{"class": "core:DataStructureItem", "name": "a", "children": []}],
            },
        },
    },
    {
        "class": "core:IntegrationProfile",
        "id": "S2",
        "inputAgentSettings": {"class": "core:SomethingNew", "whatever": [1, {"x": None}]},
        "futureField": {"kept": True},
    },
    {"class": "core:IntegrationProfile", "id": "S3", "group": "Logistics", "tags": None},
]


@pytest.fixture(scope="module")
def schema_server() -> Iterator[RunningServer]:
    with running(VALID_PROFILES, make_principals()) as server:
        yield server


@pytest.fixture(scope="module")
def api_schema(schema_server: RunningServer) -> Any:
    """The document the server serves, loaded over HTTP."""
    return schemathesis.openapi.from_url(schema_server.base_url + "/openapi.json")


@pytest.fixture(scope="module")
def credentials(schema_server: RunningServer) -> dict[str, dict[str, str]]:
    """A live bearer token and a live session cookie."""
    with httpx.Client(base_url=schema_server.base_url) as http:
        token = request_token(http, "analytics").json()["access_token"]
        http.post("/", data={"username": "lena", "password": SECRETS["lena"]})
        assert http.get(SESSION_TOKEN_PATH).status_code == 200
        cookie = http.cookies[SESSION_COOKIE]
    return {"headers": {"Authorization": f"Bearer {token}"}, "cookies": {SESSION_COOKIE: cookie}}


OPERATIONS = [
    (TOKEN_PATH, "POST"),
    ("/", "GET"),
    ("/", "POST"),
    (SESSION_TOKEN_PATH, "GET"),
    (PROFILES_PATH, "GET"),
]


def test_the_operations_are_all_tested(api_schema: Any) -> None:
    served = {
        (operation.path, operation.method.upper())
        for operation in (result.ok() for result in api_schema.get_all_operations())
    }
    assert served == set(OPERATIONS)


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_api_conforms(
    api_schema: Any,
    schema_server: RunningServer,
    credentials: dict[str, dict[str, str]],
    path: str,
    method: str,
    mode: GenerationMode,
    signed_in: bool,
) -> None:
    if signed_in and mode is GenerationMode.NEGATIVE and path == SESSION_TOKEN_PATH:
        pytest.skip("nothing left to break: the operation's only input is the session cookie")
    operation = api_schema[path][method]
    strategy = operation.as_strategy(mode, **(credentials if signed_in else {}))

    @given(case=strategy)
    @settings(
        max_examples=12,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        case.call_and_validate(base_url=schema_server.base_url)

    run()
