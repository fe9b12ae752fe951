"""The `iptoolkit` command, through click's runner and through its installed entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import click
import networkx as nx
import pandas as pd
import pytest

import iptoolkit as ipt
from iptoolkit.cli import main

ENTRY_POINT = Path(sys.executable).with_name("iptoolkit")


def test_help_lists_every_command(runner):
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in (
        "fetch",
        "summary",
        "plot",
        "export",
        "findings",
        "serve",
        "hash-secret",
        "demo",
    ):
        assert f"  {command} " in result.output


def test_help_does_not_load_the_server():
    code = (
        "import sys\n"
        "from iptoolkit.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'iptoolkit.server' not in sys.modules, 'server loaded for --help'\n"
        "assert 'matplotlib' not in sys.modules and 'pandas' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_server_commands_load_on_use(runner):
    result = runner.invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "--port" in result.output
    result = runner.invoke(main, ["hash-secret"], input="correct horse\n")
    assert result.exit_code == 0 and "correct horse" not in result.output


def test_summary_text_and_json(runner, snapshot):
    text = runner.invoke(main, ["summary", str(snapshot)])
    assert text.exit_code == 0, text.output
    assert "60  profiles" in text.output and "Findings" in text.output
    result = runner.invoke(main, ["summary", str(snapshot), "--json", "--group", "Finance"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    finance = ipt.load(snapshot).subset(ipt.Filter(groups=["Finance"]))
    assert document["profiles"] == len(finance) > 0
    assert document["filter"] == "group Finance"
    assert isinstance(document["findings"], dict)
    assert "filter: group Finance" in result.stderr


@pytest.mark.parametrize("output_format", ["table", "json", "csv"])
def test_findings_formats(runner, snapshot, output_format):
    result = runner.invoke(main, ["findings", str(snapshot), "--format", output_format])
    assert result.exit_code == 0, result.output
    expected = ipt.findings(ipt.load(snapshot))
    if output_format == "json":
        rows = json.loads(result.stdout)
        assert [row["kind"] for row in rows] == [f.kind for f in expected]
    elif output_format == "csv":
        from io import StringIO

        frame = pd.read_csv(StringIO(result.stdout))
        assert list(frame["kind"]) == [f.kind for f in expected]
    else:
        header, *rows = result.stdout.splitlines()
        assert header.split() == ["SEVERITY", "KIND", "TEXT"]
        assert len(rows) == len(expected)


def test_findings_by_severity(runner, snapshot):
    result = runner.invoke(
        main, ["findings", str(snapshot), "--format", "json", "--severity", "info"]
    )
    assert {row["severity"] for row in json.loads(result.stdout)} <= {"info"}


def test_plot_writes_the_diagram(runner, snapshot, tmp_path):
    from PIL import Image

    output = tmp_path / "topology.png"
    result = runner.invoke(
        main,
        ["plot", str(snapshot), "-o", str(output), "--partner", "Kestrel Chemicals GmbH & Co. KG"],
    )
    assert result.exit_code == 0, result.output
    with Image.open(output) as image:
        assert image.size[0] > 800
    result = runner.invoke(main, ["plot", str(snapshot), "-o", str(tmp_path / "t.graphml")])
    assert result.exit_code == 2 and "iptoolkit export" in result.output


def test_export_with_filters_holds_the_subset(runner, snapshot, tmp_path):
    filter_file = tmp_path / "filter.json"
    filter_file.write_text(ipt.Filter(groups=["Logistics"], active=True).to_json())
    output = tmp_path / "out" / "logistics.graphml"
    result = runner.invoke(
        main,
        ["export", str(snapshot), "-o", str(output), "-p", "--filter-file", str(filter_file)],
    )
    assert result.exit_code == 0, result.output
    subset = ipt.load(snapshot).subset(ipt.Filter(groups=["Logistics"], active=True))
    profiles = {n for n in nx.read_graphml(output) if n.startswith("profile:")}
    assert len(profiles) == len(subset) > 0
    # an option on the command line replaces the file's field
    result = runner.invoke(
        main,
        ["export", str(snapshot), "-o", str(tmp_path / "f.csv"), "--filter-file",
         str(filter_file), "--group", "Finance"],
    )  # fmt: skip
    frame = pd.read_csv(tmp_path / "f.csv")
    assert result.exit_code == 0 and frame["group"].str.startswith("Finance").all()


def test_mermaid_limits_are_a_warning_on_stderr(runner, tmp_path):
    big = tmp_path / "big.json"
    ipt.demo_estate(n_profiles=260).save(big)
    result = runner.invoke(
        main, ["export", str(big), "-o", str(tmp_path / "big.mmd"), "--group-by", "none"]
    )
    assert result.exit_code == 0
    assert result.stderr.startswith("warning:") and "GitHub" in result.stderr


def test_errors_are_one_line_with_an_exit_code(runner, snapshot, tmp_path):
    result = runner.invoke(main, ["export", str(snapshot), "-o", str(tmp_path / "x.nope")])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = runner.invoke(main, ["summary", str(broken)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    bad_filter = tmp_path / "bad.json"
    bad_filter.write_text('{"colour": "red"}')
    result = runner.invoke(main, ["summary", str(snapshot), "--filter-file", str(bad_filter)])
    assert result.exit_code == 2 and "colour" in result.stderr
    result = runner.invoke(main, ["plot", str(snapshot), "-o", str(tmp_path / "p.png"),
                                  "--highlight", "partner:nobody"])  # fmt: skip
    assert result.exit_code == 1 and "partner:nobody" in result.stderr


def test_debug_shows_the_traceback(runner, snapshot, tmp_path):
    result = runner.invoke(
        main, ["--debug", "export", str(snapshot), "-o", str(tmp_path / "x.nope")]
    )
    assert result.exit_code == 1 and isinstance(result.exception, ValueError)


def test_an_interrupt_and_an_abort_have_their_own_exit_codes(runner, monkeypatch):
    """Ctrl-C is `Aborted!` and `EXIT_INTERRUPTED` (130, as shells report SIGINT), not the 1
    that says "found something"; end of input at a prompt is an error (1)."""
    from iptoolkit.cli import host

    def interrupted() -> None:
        raise KeyboardInterrupt

    def asks() -> None:
        click.prompt("name")

    monkeypatch.setitem(
        main.commands, "interrupted", click.Command("interrupted", callback=interrupted)
    )
    monkeypatch.setitem(main.commands, "asks", click.Command("asks", callback=asks))
    result = runner.invoke(main, ["interrupted"])
    assert result.exit_code == host.EXIT_INTERRUPTED == 130 and "Aborted!" in result.stderr
    result = runner.invoke(main, ["asks"], input="")
    assert result.exit_code == host.EXIT_ERROR == 1 and "Aborted!" in result.stderr


# -- fetch against the reference server -----------------------------------------------------


@pytest.fixture(scope="module")
def server():
    from iptoolkit.server import running

    with running(ipt.demo_estate(n_profiles=25, seed=2)) as server:
        yield server


def _env(server, **extra: str) -> dict[str, str | None]:
    env: dict[str, str | None] = {
        name: None for name in os.environ if name.startswith("IPTOOLKIT_")
    }
    env.update({"IPTOOLKIT_BASE_URL": server.base_url, **extra})
    return env


def test_fetch_with_client_credentials_from_the_environment(runner, server, tmp_path):
    output = tmp_path / "fetched.json.gz"
    env = _env(
        server, IPTOOLKIT_CLIENT_ID=server.client_id, IPTOOLKIT_CLIENT_SECRET=server.client_secret
    )
    result = runner.invoke(main, ["fetch", "-o", str(output), "--no-progress"], env=env)
    assert result.exit_code == 0, result.output
    assert len(ipt.load(output)) == 25
    assert server.client_secret not in result.output


def test_fetch_reads_the_secret_from_stdin(runner, server, tmp_path):
    output = tmp_path / "fetched.json"
    env = _env(server)
    args = ["fetch", "-o", str(output), "--client-id", server.client_id, "--secret-stdin"]
    result = runner.invoke(
        main, [*args, "--no-progress"], env=env, input=server.client_secret + "\n"
    )
    assert result.exit_code == 0, result.output
    assert len(ipt.load(output)) == 25
    wrong = runner.invoke(main, args, env=env, input="not-the-secret\n")
    assert wrong.exit_code == 1
    assert "401" in wrong.stderr and "not-the-secret" not in wrong.output


def test_secret_stdin_wins_over_the_environment(runner, server, tmp_path):
    """Asked for, standard input is read even when the variable is set (a stale secret in
    the environment must not be used silently), either way round."""
    output = tmp_path / "fetched.json"
    args = ["fetch", "-o", str(output), "--client-id", server.client_id, "--secret-stdin"]
    stale = _env(server, IPTOOLKIT_CLIENT_SECRET="stale-secret")
    right = runner.invoke(main, args, env=stale, input=server.client_secret + "\n")
    assert right.exit_code == 0, right.output
    wrong = runner.invoke(main, args, env=_credentials(server), input="not-the-secret\n")
    assert wrong.exit_code == 1 and "401" in wrong.stderr


def test_secret_stdin_on_a_terminal_is_asked_for_hidden(monkeypatch):
    """Standard input a terminal: readline() waited without a word and echoed the secret as
    typed; it is asked for as the prompt without --secret-stdin asks, hidden."""
    from iptoolkit.cli import options

    class Terminal:
        def isatty(self) -> bool:
            return True

        def readline(self) -> str:
            raise AssertionError("read with echo")

    asked: list[bool] = []

    def prompt(text: str, hide_input: bool = False, err: bool = False) -> str:
        asked.append(hide_input)
        return "typed-secret"

    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setenv("IPTOOLKIT_BEARER_TOKEN", "stale")  # --secret-stdin still wins
    monkeypatch.setattr(click, "prompt", prompt)
    assert options._secret("bearer", secret_stdin=True) == "typed-secret"
    assert asked == [True]


def _credentials(server) -> dict[str, str | None]:
    return _env(
        server, IPTOOLKIT_CLIENT_ID=server.client_id, IPTOOLKIT_CLIENT_SECRET=server.client_secret
    )


def test_fetch_writes_dated_snapshots_into_folders_it_makes(runner, server, tmp_path):
    """A nightly `fetch -o 'snapshots/{date}.json.gz'`: the name is the recorded fetch date."""
    template = tmp_path / "history" / "nightly" / "{date}.json.gz"
    result = runner.invoke(
        main, ["fetch", "-p", "-o", str(template), "--no-progress"], env=_credentials(server)
    )
    assert result.exit_code == 0, result.output
    [written] = (tmp_path / "history" / "nightly").iterdir()
    fetched_at = _fetched_at(written)
    assert written.name == f"{fetched_at.astimezone(UTC):%Y-%m-%d}.json.gz"
    assert f"Wrote {written}" in result.output and "{date}" not in result.output
    assert len(ipt.load(written)) == 25


def _fetched_at(snapshot: Path) -> datetime:
    """The fetch time a snapshot records (`fetch` records one)."""
    fetched_at = ipt.load(snapshot).info.fetched_at
    assert fetched_at is not None, f"{snapshot} records no fetch time"
    return fetched_at


def test_fetch_with_datetime_keeps_every_snapshot(runner, server, tmp_path):
    template = str(tmp_path / "snapshots" / "{datetime}.json")
    names = set()
    for _ in range(2):
        result = runner.invoke(
            main, ["fetch", "-p", "-o", template, "--no-progress"], env=_credentials(server)
        )
        assert result.exit_code == 0, result.output
        names = {path.name for path in (tmp_path / "snapshots").iterdir()}
        time.sleep(1.05)  # {datetime} counts whole seconds
    assert len(names) == 2
    for name in names:
        fetched_at = _fetched_at(tmp_path / "snapshots" / name)
        assert name == f"{fetched_at.astimezone(UTC):%Y-%m-%dT%H%M%SZ}.json"


def test_a_dated_folder_needs_mkdirs_like_any_missing_folder(runner, server, tmp_path):
    template = str(tmp_path / "{date}" / "snapshot.json")
    args = ["fetch", "-o", template, "--no-progress"]
    refused = runner.invoke(main, args, env=_credentials(server))
    assert refused.exit_code == 2 and "-p/--mkdirs" in refused.stderr
    assert "{date}" not in refused.stderr and not any(tmp_path.iterdir())
    result = runner.invoke(main, [*args, "-p"], env=_credentials(server))
    assert result.exit_code == 0, result.output
    [folder] = tmp_path.iterdir()
    written = folder / "snapshot.json"
    assert folder.name == f"{_fetched_at(written).astimezone(UTC):%Y-%m-%d}"


def test_fetch_refuses_an_unknown_field_before_fetching(runner, server, tmp_path):
    template = str(tmp_path / "out" / "{day}.json")
    result = runner.invoke(main, ["fetch", "-o", template], env=_credentials(server))
    assert result.exit_code == 2
    assert "{day}" in result.stderr and "{date}, {time}, {datetime}" in result.stderr
    assert not (tmp_path / "out").exists()


def test_fetch_help_explains_the_name_fields(runner):
    result = runner.invoke(main, ["fetch", "--help"])
    text = " ".join(result.output.split())
    assert "{date} 2026-11-23, {time} 061500, {datetime} 2026-11-23T061500Z" in text


def test_fetch_without_credentials_says_what_to_set(runner, server, tmp_path):
    result = runner.invoke(main, ["fetch", "-o", str(tmp_path / "x.json")], env=_env(server))
    assert result.exit_code == 2 and "IPTOOLKIT_CLIENT_ID" in result.stderr


def test_client_secret_is_not_an_option(runner):
    result = runner.invoke(main, ["fetch", "--client-secret", "x"])
    assert result.exit_code == 2 and "No such option" in result.output


# -- demo and the installed entry point -------------------------------------------------------


def test_demo_is_wired_to_run_demo(runner, tmp_path, monkeypatch):
    import iptoolkit.demo.run as demo_run

    calls = []
    monkeypatch.setattr(demo_run, "run_demo", lambda *a, **k: calls.append((a, k)))
    result = runner.invoke(main, ["demo", "--output", str(tmp_path / "out"), "--profiles", "40"])
    assert result.exit_code == 0, result.output
    ((args, kwargs),) = calls
    assert args == (tmp_path / "out",) and kwargs["n_profiles"] == 40 and kwargs["seed"] == 0


def test_installed_entry_point(snapshot, tmp_path):
    assert ENTRY_POINT.exists(), f"{ENTRY_POINT} missing: `pip install -e .` installs it"
    version = subprocess.run([ENTRY_POINT, "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and ipt.__version__ in version.stdout
    summary = subprocess.run(
        [ENTRY_POINT, "summary", str(snapshot), "--json"], capture_output=True, text=True
    )
    assert summary.returncode == 0, summary.stderr
    assert json.loads(summary.stdout)["profiles"] == 60
    output = tmp_path / "estate.dot"
    export = subprocess.run(
        [ENTRY_POINT, "export", str(snapshot), "-o", str(output), "--inactive"],
        capture_output=True,
        text=True,
    )
    assert export.returncode == 0, export.stderr
    assert output.read_text().startswith("digraph topology {")
    failed = subprocess.run(
        [ENTRY_POINT, "summary", str(tmp_path / "missing.json")], capture_output=True, text=True
    )
    assert failed.returncode == 2 and "does not exist" in failed.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    big = tmp_path / "big.json"
    ipt.demo_estate(n_profiles=1500).save(big)  # far more than a pipe buffer
    process = subprocess.Popen(
        [ENTRY_POINT, "findings", str(big), "--format", "table"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()  # `| head -1`: read one line, then hang up
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.wait(timeout=60)
    assert stderr == ""
    assert process.returncode == 141


def test_a_wrong_option_is_one_line_on_stderr(snapshot):
    wrong = subprocess.run(
        [ENTRY_POINT, "export", str(snapshot), "-o", "x.csv", "--bogus"],
        capture_output=True,
        text=True,
    )
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.splitlines() == [
        "Error: No such option '--bogus'. (see 'iptoolkit export --help')"
    ]


def test_each_short_help_is_written_once_in_the_command_table(runner) -> None:
    """`iptoolkit --help` lists commands from the table without loading them; each command,
    once loaded, shows the same line (it reads it from the table, `host.short_help`)."""
    import click

    from iptoolkit.cli.host import COMMANDS

    listed = runner.invoke(main, ["--help"]).output
    ctx = click.Context(main)
    assert set(main.list_commands(ctx)) == set(COMMANDS)
    for name, where in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name, name
        assert command.short_help == where.short_help, name
        assert f"{name}  " in listed and where.short_help in listed, name


def test_every_command_offering_formats_calls_plain_text_text() -> None:
    import click

    from iptoolkit.cli.host import COMMANDS

    ctx = click.Context(main)
    offering = {}
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None, name
        for param in command.params:
            if param.name == "output_format" and isinstance(param.type, click.Choice):
                offering[name] = list(param.type.choices)
    assert {"findings", "diff", "drift"} <= offering.keys()
    assert all(choices[0] == "text" and "table" not in choices for choices in offering.values())


@pytest.mark.parametrize("module", ["iptoolkit", "iptoolkit.cli"])
def test_python_dash_m_runs_the_command(module: str, tmp_path: Path) -> None:
    """Where no console script is installed (a venv's bin not on PATH), `python -m`."""
    snapshot = ipt.demo_estate(5).save(tmp_path / "s.json")
    result = subprocess.run(
        [sys.executable, "-m", module, "summary", str(snapshot)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "5  profiles" in result.stdout
