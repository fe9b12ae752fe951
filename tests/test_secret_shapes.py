"""Every shape of a secret (`secret_shapes.SHAPES`, issue 44) planted in an estate's profiles,
agents and partners, through every surface that shows an item's fields: the HTML file and
its packed view data, the docs site (its pages and each diagram's `x.view.js`), GraphML,
`compare` in text, Markdown, JSON and CSV (two estates differing in every secret), the MCP
`get_item` answers, and `iptoolkit summary` of a snapshot whose source URL holds a password
and a `loginToken`. No secret shows; the fields that only look like secrets
(`secret_shapes.ORDINARY`) do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli.host import main
from iptoolkit.support.secret_names import is_secret_name

from .factories import channel, partner, profile, unit
from .secret_shapes import ORDINARY_SHOWN, SHAPES, secret_estate, secrets
from .test_offline import payload_of


def _leaked(text: str) -> list[str]:
    """The shapes whose secret (either side's) `text` shows."""
    return [
        f"{shape.name} ({side})"
        for side in "ab"
        for shape, secret in zip(SHAPES, secrets(side), strict=True)
        if secret in text
    ]


def _hidden(text: str) -> list[str]:
    """What of the ordinary fields `text` does not show."""
    return [marker for marker in ORDINARY_SHOWN if marker not in text]


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both sides saved: `a` and `b` differ in every secret's value, nothing else."""
    folder = tmp_path_factory.mktemp("secret-shapes")
    paths = {side: folder / f"{side}.json" for side in "ab"}
    for side, path in paths.items():
        secret_estate(side).save(path)
    return paths


@pytest.fixture(scope="module")
def estate(planted: dict[str, Path]) -> ipt.Estate:
    return ipt.load(planted["a"])


def test_the_html_file_shows_no_secret(estate: ipt.Estate, tmp_path: Path) -> None:
    path = ipt.export(estate, tmp_path / "x.html")
    text = path.read_text(encoding="utf-8")
    text += json.dumps(payload_of(path), ensure_ascii=False)  # as the browser unpacks it
    assert _leaked(text) == []
    assert _hidden(text) == []


def test_graphml_shows_no_secret(estate: ipt.Estate, tmp_path: Path) -> None:
    text = ipt.export(estate, tmp_path / "x.graphml").read_text(encoding="utf-8")
    assert "edi.example" in text  # the URLs are there, masked
    assert _leaked(text) == []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, planted: dict[str, Path]) -> Path:
    folder = tmp_path_factory.mktemp("secret-docs") / "site"
    result = CliRunner().invoke(main, ["docs", str(planted["a"]), "-o", str(folder), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return folder


def test_the_docs_site_and_its_view_data_show_no_secret(site: Path) -> None:
    views = sorted(site.rglob("*.view.js"))
    assert views, "no view data written"
    view_text = "".join(path.read_text(encoding="utf-8") for path in views)
    assert _leaked(view_text) == []
    assert _hidden(view_text) == []
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".md", ".yml", ".csv", ".svg", ".js", ".json"):
            assert _leaked(path.read_text(encoding="utf-8")) == [], path


@pytest.mark.parametrize("fmt", ["text", "md", "json", "csv"])
def test_compare_shows_no_secret(planted: dict[str, Path], fmt: str) -> None:
    result = CliRunner().invoke(
        main, ["compare", str(planted["a"]), str(planted["b"]), "--format", fmt]
    )
    assert result.exit_code == 1, result.output  # they differ
    assert _leaked(result.stdout) == []
    if fmt == "json":  # every shape's profile and partner differs, field by field
        changed = {d["a"] for d in json.loads(result.stdout)["differences"] if d["fields"]}
        assert {f"profile:S-{n:02d}" for n in range(len(SHAPES))} <= changed
        assert {f"partner:{700 + n}" for n in range(len(SHAPES))} <= changed


def test_mcp_get_item_shows_no_secret(planted: dict[str, Path]) -> None:
    import anyio

    pytest.importorskip("mcp")
    from mcp import Client

    from iptoolkit.mcp import Store, build_server

    store = Store.from_paths([planted["a"]])
    ids = [f"S-{n:02d}" for n in range(len(SHAPES))]
    ids += [f"channel:{7000 + n}" for n in range(len(SHAPES))]
    ids += [f"partner:{700 + n}" for n in range(len(SHAPES))]

    async def ask() -> list[Any]:
        async with Client(build_server(store)) as client:
            return [await client.call_tool("get_item", {"id": id}) for id in [*ids, "ORDINARY"]]

    *answers, ordinary = anyio.run(ask)
    for id, answer in zip(ids, answers, strict=True):
        assert not answer.is_error, (id, answer)
        assert _leaked(answer.model_dump_json()) == [], id
    assert _hidden(json.dumps(ordinary.structured_content, ensure_ascii=False)) == []


def test_summary_masks_the_source_urls_password_and_login_token(tmp_path: Path) -> None:
    source = "https://svc:Pw-0f-summary@platform.example/api/preview/profiles?loginToken=Tk-0f-sum"
    path = tmp_path / "fetched.json"
    ipt.Estate.from_raw([], source_url=source).save(path)
    for args in (["summary", str(path)], ["summary", str(path), "--json"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert "platform.example/api/preview/profiles?loginToken=" in result.stdout
        assert "Pw-0f-summary" not in result.output and "Tk-0f-sum" not in result.output


def test_the_models_reprs_show_no_secret(estate: ipt.Estate) -> None:
    """A notebook cell ending in a profile shows its repr (IPython's text/plain): masked as
    every other surface, nested settings, channels and partners with it."""
    from IPython.core.formatters import PlainTextFormatter

    from iptoolkit.models.channels import IntegrationPartner

    shown = PlainTextFormatter()
    texts = [text for p in estate.profiles for text in (repr(p), str(p), shown(p))]
    partner = {"class": "core:IntegrationPartner", "id": 1, "name": "P", **SHAPES[0].fields("x")}
    texts.append(repr(IntegrationPartner.model_validate(partner, strict=False)))
    assert _leaked("\n".join(texts)) == []
    assert "password='x'" not in texts[-1] and "**********" in texts[-1]


def test_the_tables_a_notebook_shows_show_no_secret() -> None:
    """`estate.to_frame(kind)` is shown as it is (its HTML in a notebook): its texts masked
    as the CSV and Excel files of it are. Every shape written as text stands in a profile's
    description, its channel's URL and name, and its partner's name."""
    texts = [
        (n, value)
        for n, (shape, secret) in enumerate(zip(SHAPES, secrets("a"), strict=True))
        for name, value in shape.fields(secret).items()
        if isinstance(value, str) and not is_secret_name(name)  # the secret's name in it
    ]
    raws = []
    for n, text in texts:
        owner = partner(900 + n, text)
        used = channel(9000 + n, "HTTP", partner=owner, name=text, url=text)
        raws.append(profile(f"T-{n}", name=f"T {n}", description=text, units=[unit(channel=used)]))
    estate = ipt.Estate.from_raw(raws)
    shown = [estate.to_frame(kind) for kind in ("profiles", "channels", "partners", "responses")]
    text = "\n".join(frame.to_csv() + frame.to_html() for frame in shown)  # as shown
    assert "edi.example" in text and len(texts) > 30
    assert _leaked(text) == []


def test_a_basic_credential_in_prose_is_masked() -> None:
    """Basic's credential is `user:password` in base64: masked when it decodes to one."""
    from base64 import b64encode

    from iptoolkit.support.redact import redact_text

    login = b64encode(b"svc:Qz99aS3cr3tV4lu3").decode()
    assert login not in redact_text(f"send Basic {login} with it")
    assert (
        redact_text("Basic auth, or Basic authentication") == "Basic auth, or Basic authentication"
    )


def test_a_parse_error_quotes_no_secret() -> None:
    """A profile refused for a field of the wrong type quotes the value it got, masked:
    the message is shown, logged and written to `problems`."""
    from iptoolkit.models import ParseError, parse_profiles

    faulty = [
        {"id": "P1", "name": "p", "active": True, "created": shape.fields(secret)}
        for shape, secret in zip(SHAPES, secrets("a"), strict=True)
    ]
    with pytest.raises(ParseError) as caught:
        parse_profiles(faulty)
    assert "created" in str(caught.value)
    assert _leaked(str(caught.value)) == []
    estate = ipt.Estate.from_raw(faulty)
    assert _leaked(repr(estate.problems)) == []
