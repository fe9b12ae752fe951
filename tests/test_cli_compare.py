"""`iptoolkit compare`: files, archive references and configured environments; formats,
exit codes, the configuration's `[compare]` and `[environments]` tables, `fetch --env`."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli.host import main

SECRET = "planted-1-s3cr3t"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("installations")
    prod = ipt.demo_estate(300)
    paths = {"prod": folder / "prod.json", "test": folder / "test.json"}
    prod.save(paths["prod"])
    ipt.demo_environment(prod, plant=True).save(paths["test"])
    ipt.demo_environment(prod, hosts={}, seed=5).save(folder / "same.json")
    paths["same"] = folder / "same.json"
    return paths


def _run(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def test_compare_files_formats_and_exit_codes(files: dict[str, Path], tmp_path: Path) -> None:
    code, out, _ = _run("compare", str(files["prod"]), str(files["same"]))
    assert code == 0 and "prod and same match: 300 profiles" in out
    hosts = "--substitute=.test.example.=.example."
    code, out, _ = _run("compare", str(files["prod"]), str(files["test"]), hosts)
    assert code == 1
    assert out.index("only in prod") < out.index("breaking  profile")  # counts first
    outputs = {"text": out}
    for name in ("md", "json", "csv"):
        code, outputs[name], _ = _run(
            "compare", str(files["prod"]), str(files["test"]), hosts, "--format", name
        )
        assert code == 1
    assert all(SECRET not in text for text in outputs.values())
    document = json.loads(outputs["json"])
    assert {d["status"] for d in document["differences"]} == {
        "only-in-a", "only-in-b", "changed", "active-differs", "wired-differently"
    }  # fmt: skip
    assert all({"kind", "status", "a", "b", "fields"} <= set(d) for d in document["differences"])
    assert outputs["md"].startswith("## prod vs test:")
    assert '<details markdown="1"><summary>' in outputs["md"]
    rows = list(csv.DictReader(io.StringIO(outputs["csv"])))
    assert {row["status"] for row in rows} >= {"only-in-a", "wired-differently"}
    mapping = tmp_path / "m.toml"
    code, _, err = _run("compare", str(files["prod"]), str(files["test"]), hosts,
                        "--write-mapping", str(mapping))  # fmt: skip
    assert code == 1 and "mapping of" in err and mapping.read_text().count("[[profile]]") > 290
    picture = tmp_path / "side.png"
    code, _, err = _run("compare", str(files["prod"]), str(files["test"]), hosts,
                        "--plot", str(picture))  # fmt: skip
    assert code == 1 and picture.read_bytes().startswith(b"\x89PNG")
    code, _, err = _run("compare", str(files["prod"]), str(files["test"]), "--plot", "x.gif")
    assert code == 2 and "--plot: x.gif" in err
    code, _, err = _run("compare", str(files["prod"]))
    assert code == 2 and "two installations" in err
    pytest.importorskip("duckdb")
    archive = ipt.Archive(tmp_path / "estate.duckdb")
    first, second = archive.add(files["prod"]), archive.add(files["same"])
    references = [f"{tmp_path / 'estate.duckdb'}@{n}" for n in (first, second)]
    code, out, err = _run("compare", *references)
    assert code == 0, err
    assert f"estate.duckdb@{first} and estate.duckdb@{second} match" in out
    code, _, err = _run("compare", str(files["prod"]), str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json" in err


def test_two_files_of_one_name_are_told_apart_by_their_folders(
    files: dict[str, Path], tmp_path: Path
) -> None:
    """`test/snapshot.json` and `prod/snapshot.json` were both called `snapshot` ("2 only
    in snapshot, 3 only in snapshot"); the same file twice is A and B."""
    for side, source in (("prod", files["prod"]), ("test", files["test"])):
        (tmp_path / side).mkdir()
        (tmp_path / side / "snapshot.json").write_bytes(source.read_bytes())
    a, b = (str(tmp_path / side / "snapshot.json") for side in ("prod", "test"))
    _, out, _ = _run("compare", a, b)
    assert out.startswith("prod/snapshot vs test/snapshot:") and "only in prod/snapshot" in out
    _, out, _ = _run("compare", a, a)
    assert "snapshot (A) and snapshot (B) match" in out
    _, out, _ = _run("compare", a, b, "--name-a", "live", "--name-b", "staging")
    assert out.startswith("live vs staging:")


def test_the_library_refuses_two_sides_of_one_name(files: dict[str, Path]) -> None:
    """A report naming both sides `x` could not tell them apart."""
    with pytest.raises(ValueError, match=r"compare: names must be two different names"):
        ipt.compare(files["prod"], files["test"], names=("x", "x"))


def test_two_names_no_folder_tells_apart_are_their_paths_as_given() -> None:
    """`snap.json` and `snap.json.gz` were both `snap`: no folder separates them."""
    from iptoolkit.cli.compare import _names_of

    assert _names_of(("snap.json", "snap.json.gz")) == ["snap.json", "snap.json.gz"]
    assert _names_of(("a/x.json", "b/x.json")) == ["a/x", "b/x"]
    assert _names_of(("x.json", "./x.json")) == ["x (A)", "x (B)"]
    assert _names_of(("x.json", "d/../x.json")) == ["x (A)", "x (B)"]  # one file


def test_the_plot_draws_more_differences_than_it_has_room_for(
    files: dict[str, Path], tmp_path: Path
) -> None:
    """Unsubstituted hosts make every profile differ (as at 10,000 profiles, where
    `--plot` exited 2 on "highlight: no node 'profile:E-001399'"): each panel draws as many
    profiles as it has room for and highlights the differing items it holds, not those of
    profiles left out."""
    from iptoolkit.plot.backend import detach
    from iptoolkit.plot.compare_diagram import plot_comparison

    from .plot_helpers import haloed

    picture = tmp_path / "side.png"
    code, _, err = _run("compare", str(files["prod"]), str(files["test"]), "--plot", str(picture))
    assert code == 1, err
    assert picture.read_bytes().startswith(b"\x89PNG")
    result = ipt.compare(ipt.load(files["prod"]), ipt.load(files["test"]))
    assert len({d.a for d in result.differences} - {None}) > 100  # far more than it draws
    figure = detach(plot_comparison(result, limit=5))  # closed: later tests count figures
    assert all(haloed(ax) > 0 for ax in figure.axes)
    for ax in figure.axes:  # 5 drawn: those that differ and those only on a channel that does
        counts = re.findall(
            r"\b(\d+) (?:of [\d,]+ )?(?:profiles? that differs?|on a channel)",
            ax.get_title("left"),
        )
        assert sum(map(int, counts)) == 5, ax.get_title("left")


def test_html_writes_both_installations_on_one_map(files: dict[str, Path], tmp_path: Path) -> None:
    from .test_offline import payload_of

    target = tmp_path / "prod-vs-test.html"
    hosts = "--substitute=.test.example.=.example."
    code, out, err = _run(
        "compare", str(files["prod"]), str(files["test"]), hosts, "--html", str(target)
    )
    assert code == 1 and "only in prod" in out
    assert f"map written to {target}" in err
    payload = payload_of(target)
    marked = {entry[1] for level in payload["levels"] for entry in level["changes"]}
    names = [row[0] for row in payload["changes"]["statuses"]]
    assert {names[index] for index in marked} == {
        "only-in-a", "only-in-b", "changed", "active-differs", "wired-differently"
    }  # fmt: skip
    assert SECRET not in target.read_text(encoding="utf-8")
    code, out, err = _run("compare", str(files["prod"]), str(files["test"]), "--html", "x.htm")
    assert code == 2 and out == "" and "--html x.htm: the file name must end in .html" in err


def test_configuration_silences_hosts_and_expires_known_differences(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted = {p["plant"]: p for p in ipt.load(files["test"]).info.extra["planted"]}
    schedule = " / ".join(planted["schedule"]["key"])
    (tmp_path / "iptoolkit.toml").write_text(
        f"""
[compare]
substitute = [[".test.example.", ".example."]]
ignore = ["channel:$.encryptionAlgorithm"]

[[compare.known]]
status = "changed"
item = {json.dumps("profile:" + schedule)}
reason = "test runs on weekdays"
expires = 2020-01-31

[audit]
ignore = ["HYG002"]
""",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run("compare", str(files["prod"]), str(files["test"]), "--format", "json")
    document = json.loads(out)
    assert code == 1
    assert not [d for d in document["differences"] if d["kind"] == "channel"]  # ignored
    (expired,) = [d for d in document["differences"] if d["expired"]]
    assert "2020-01-31" in expired["expired"] and len(document["differences"]) == 6
    from iptoolkit.auditing.config import load_config

    assert load_config().ignore == ("HYG002",)  # the audit still reads the same file
    for wrong, said in [
        ('[compare]\nsubstitute = [["x"]]\n', "iptoolkit.toml:2: substitute holds pairs"),
        ("[compare]\nsubstitute = 5\n", "iptoolkit.toml:2: substitute holds pairs"),
        ("compare = 5\n", "[compare] must be a table"),
        ("environments = 5\n", "[environments] must be a table of tables"),
    ]:
        (tmp_path / "iptoolkit.toml").write_text(wrong)
        pair = [str(files["prod"]), str(files["test"])]
        args = ["--env", "a", "--env", "b"] if wrong.startswith("environments") else pair
        code, _, err = _run("compare", *args)
        assert code == 2 and said in err and "Traceback" not in err, (wrong, err)


@pytest.fixture(scope="module")
def two_servers():
    from iptoolkit.server import running

    prod = ipt.demo_estate(40, seed=3)
    with running(prod) as prod_server, running(ipt.demo_environment(prod, hosts={})) as test:
        yield prod_server, test


def test_environments_are_fetched_and_compared(
    two_servers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prod, test = two_servers
    config = tmp_path / "pyproject.toml"
    config.write_text(
        f"""
[tool.iptoolkit.environments.prod]
base-url = "{prod.base_url}"
client-id-env = "PROD_ID"
secret-env = "PROD_SECRET"

[tool.iptoolkit.environments.test]
base-url = "{test.base_url}"
auth = "client"
client-id-env = "TEST_ID"
secret-env = "TEST_SECRET"
""",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    env: dict[str, str | None] = {n: None for n in os.environ if n.startswith("IPTOOLKIT_")}
    env |= {"PROD_ID": prod.client_id, "PROD_SECRET": prod.client_secret,
            "TEST_ID": test.client_id, "TEST_SECRET": test.client_secret}  # fmt: skip
    code, out, err = _run("compare", "--env", "test", "--env", "prod", env=env)
    assert code == 0, out + err
    assert "test and prod match: 40 profiles" in out
    assert prod.client_secret not in out + err
    code, out, err = _run("fetch", "--env", "prod", "-o", "prod.json", "--no-progress", env=env)
    assert code == 0, err
    assert len(ipt.load(tmp_path / "prod.json")) == 40
    code, _, err = _run("compare", "--env", "prod", "--env", "stage", env=env)
    assert code == 2 and "no environment 'stage'" in err
    code, out, err = _run("compare", "--env", "prod", "--env", "prod", env=env)
    assert code == 0 and "prod (A) and prod (B) match" in out, out + err
    code, _, err = _run("fetch", "--env", "prod", "--secret-stdin", "-o", "x.json", env=env)
    assert code == 2 and "--secret-stdin and --env prod" in err  # was ignored
    del env["PROD_SECRET"]
    code, _, err = _run("fetch", "--env", "prod", "-o", "x.json", env=env)
    assert code == 1 and "secret-env names is not set" in err and "PROD_SECRET" not in err
    env |= {"PROD_SECRET": prod.client_secret, "PROD_ID": None}  # no secret: named
    code, _, err = _run("fetch", "--env", "prod", "-o", "x.json", env=env)
    assert code == 1 and "the variable PROD_ID (client-id-env) is not set" in err
    config.write_text(  # the secret written where its variable's name goes: not shown
        '[tool.iptoolkit.environments.prod]\nbase-url = "x"\nclient-id-env = "PROD_ID"\n'
        'secret-env = "s3cr3t-Value!"\n'
    )
    code, _, err = _run("fetch", "--env", "prod", "-o", "x.json", env=env)
    assert code == 1 and "is it the secret itself?" in err and "s3cr3t-Value!" not in err
    config.write_text('[tool.iptoolkit.environments.prod]\nbase-url = "x"\nclient-secret = "s"\n')
    code, _, err = _run("fetch", "--env", "prod", env=env)
    assert code == 1 and "pyproject.toml:3" in err and "never a secret in the file" in err


def test_a_secret_env_that_looks_like_a_variable_name_is_never_echoed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A secret written where its variable's name goes may look like a name
    (`SK_LIVE_...`): the error says secret-env's variable is not set, and names it not."""
    from iptoolkit.comparing.config import load_environments

    planted = "SK_LIVE_4EC3T9ZX"
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[tool.iptoolkit.environments.prod]\nbase-url = "https://ip.example"\n'
        f'client-id-env = "PROD_ID"\nsecret-env = "{planted}"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    env: dict[str, str | None] = {n: None for n in os.environ if n.startswith("IPTOOLKIT_")}
    env |= {planted: None, "PROD_ID": "client-1"}
    for args, exit_code in (
        (["fetch", "--env", "prod", "-o", "x.json"], 1),
        (["compare", "--env", "prod", "--env", "prod"], 2),
    ):
        code, out, err = _run(*args, env=env)
        assert code == exit_code, err
        assert "secret-env names is not set" in err and planted not in out + err
    assert planted not in repr(load_environments(config)["prod"])


def test_the_mcp_compare_tool_is_the_python_comparison(files: dict[str, Path]) -> None:
    import anyio

    pytest.importorskip("mcp")
    from mcp import Client

    from iptoolkit.mcp import Store, build_server

    store = Store.from_paths([files["prod"], files["test"]])
    expected = ipt.compare(ipt.load(files["prod"]), ipt.load(files["test"]), names=("prod", "test"))

    async def main() -> dict[str, Any]:
        async with Client(build_server(store)) as client:
            return {
                "all": await client.call_tool("compare", {"a": "prod", "b": "test"}),
                "wired": await client.call_tool(
                    "compare", {"a": "prod", "b": "test", "status": "wired-differently"}
                ),
                "bad": await client.call_tool("compare", {"a": "prod", "b": "prod"}),
            }

    results = anyio.run(main)
    answer = results["all"].structured_content
    assert answer["summary"] == expected.summary() and answer["total"] == len(expected)
    assert [(d["kind"], d["status"], d["a"]) for d in answer["items"][:20]] == [
        (d.kind, d.status, d.a) for d in expected.differences[:20]
    ]
    assert results["wired"].structured_content["total"] == 1
    assert results["bad"].is_error
    assert SECRET not in "".join(r.model_dump_json() for r in results.values())


def test_the_docs_site_gets_a_page_of_the_differences(tmp_path: Path) -> None:
    prod = ipt.demo_estate(30, seed=4)
    prod.save(tmp_path / "prod.json")
    ipt.demo_environment(prod, plant=["deactivated", "secret-header"]).save(tmp_path / "test.json")
    site = tmp_path / "site"
    code, _, err = _run("docs", str(tmp_path / "prod.json"), "-o", str(site), "--jobs", "1",
                        "--compare", str(tmp_path / "test.json"))  # fmt: skip
    assert code == 0, err
    page = (site / "docs" / "compare.md").read_text()
    assert page.startswith("# Compared with test.json") and "active in one only" in page
    assert "planted-1-s3cr3t" not in page
    assert "compare.md" in (site / "mkdocs.yml").read_text()
    code, _, err = _run("docs", str(tmp_path / "prod.json"), "-o", str(site), "--jobs", "1")
    assert code == 0 and not (site / "docs" / "compare.md").exists()  # stale page removed


def test_a_pipe_is_read_as_a_file_and_a_folder_is_named_one(
    files: dict[str, Path], tmp_path: Path
) -> None:
    """`compare <(gunzip -c a.json.gz) b.json` works as `diff` does: a fifo is a file."""
    import threading

    fifo = tmp_path / "piped.json"
    os.mkfifo(fifo)
    data = files["prod"].read_bytes()
    writer = threading.Thread(target=lambda: fifo.write_bytes(data), daemon=True)
    writer.start()
    code, out, err = _run("compare", str(fifo), str(files["same"]))
    writer.join(timeout=10)
    assert code == 0, err
    assert "piped and same match: 300 profiles" in out
    code, _, err = _run("compare", str(tmp_path), str(files["same"]))
    assert code == 2 and "is a folder, not a snapshot file" in err


def test_write_mapping_into_a_missing_folder_needs_p(
    files: dict[str, Path], tmp_path: Path
) -> None:
    """Checked before the comparison, as --plot's folder; -p creates it."""
    mapping = tmp_path / "new" / "mapping.toml"
    code, out, err = _run("compare", str(files["prod"]), str(files["same"]),
                          "--write-mapping", str(mapping))  # fmt: skip
    assert code == 2 and out == "" and "--write-mapping" in err and "-p/--mkdirs" in err
    code, _, err = _run("compare", str(files["prod"]), str(files["same"]),
                        "--write-mapping", str(mapping), "-p")  # fmt: skip
    assert code == 0, err
    assert mapping.is_file()
