"""schemathesis against the served OpenAPI document: no 5xx, every response as documented.

Bounded: a handful of examples per operation, over a real loopback socket. Run once
without credentials and once with a live bearer token and session cookie, so that the
listing's 200 bodies (bare array and page object) are checked against the profile schemas.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from iptoolkit.server import RunningServer, running
from iptoolkit.server.app import PROFILES_PATH, SESSION_COOKIE, SESSION_TOKEN_PATH, TOKEN_PATH

from .server_data import SECRETS, make_principals, request_token

ROOT = Path(__file__).resolve().parent.parent

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


def test_the_document_states_servers_licence_and_who_needs_no_token(
    schema_server: RunningServer,
) -> None:
    """What Redocly's recommended rules found missing (issue 35, finding 16), over HTTP."""
    document = httpx.get(schema_server.base_url + "/openapi.json").json()
    assert document["servers"] == [
        {"url": "/", "description": document["servers"][0]["description"]}
    ]
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert document["info"]["license"]["identifier"] == pyproject["project"]["license"]
    security = {
        (path, method.upper()): operation.get("security")
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    }
    assert security[(TOKEN_PATH, "POST")] == [] and security[("/", "POST")] == []
    assert security[(PROFILES_PATH, "GET")] == [{"bearerToken": []}]


@pytest.mark.slow
def test_redocly_recommended_rules_pass_but_the_logins_redirect(
    schema_server: RunningServer, tmp_path: Path
) -> None:
    """Redocly's CLI (another reader than schemathesis) with its recommended rules: one
    warning is left, and it is the spec's: `POST /` is the web UI's login form, whose only
    success is a 303 to `/` with the session cookie (a 200 would be a lie the server
    never tells)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    installed = subprocess.run(
        [npm, "install", "--prefix", str(tmp_path), "--no-audit", "--no-fund", "@redocly/cli@2"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    tool = tmp_path / "node_modules" / ".bin" / "redocly"
    if installed.returncode != 0 or not tool.exists():
        pytest.skip(f"@redocly/cli could not be installed: {installed.stderr[-300:]}")
    path = tmp_path / "openapi.json"
    path.write_bytes(httpx.get(schema_server.base_url + "/openapi.json").content)
    ran = subprocess.run(
        [str(tool), "lint", "--extends", "recommended", "--format", "json", str(path)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    problems = [
        (problem["ruleId"], problem["severity"], problem["location"][0]["pointer"])
        for problem in json.loads(ran.stdout)["problems"]
    ]
    assert problems == [("operation-2xx-response", "warn", "#/paths/~1/post/responses")]
    assert ran.returncode == 0, ran.stderr
