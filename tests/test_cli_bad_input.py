"""Bad input the command line refuses up front, as one line and exit code 2, not after
the work (a fetch lost) or with a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from iptoolkit.cli import main
from iptoolkit.cli.serve import hash_secret_command


def test_hash_secret_refuses_more_iterations_than_hashlib_takes() -> None:
    result = CliRunner().invoke(
        hash_secret_command, ["--iterations", "99999999999999999999"], input="s3cret\n"
    )
    assert result.exit_code == 2, result.output
    assert "--iterations" in result.output
    assert not isinstance(result.exception, OverflowError)


@pytest.mark.parametrize("name", ["snapshot.xyz", "snapshot.csv", "snapshot"])
def test_fetch_refuses_a_suffix_that_is_no_snapshot_before_fetching(
    tmp_path: Path, name: str
) -> None:
    # nothing listens on port 9: were the fetch tried, it would fail with "connection failed"
    env = {"IPTOOLKIT_CLIENT_SECRET": "not-printed", "CI": "1"}
    args = ["fetch", "--base-url", "http://127.0.0.1:9", "--client-id", "c"]
    result = CliRunner().invoke(main, [*args, "-o", str(tmp_path / name)], env=env)
    assert result.exit_code == 2, result.output
    assert "connection" not in result.output
    assert name in result.output and ".json.gz" in result.output
    assert "not-printed" not in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["nan", "inf", "1e400"])
@pytest.mark.parametrize(
    "option", ["--token-ttl", "--header-timeout", "--send-timeout", "--body-timeout"]
)
def test_serve_refuses_seconds_a_clock_cannot_count(
    monkeypatch: pytest.MonkeyPatch, option: str, value: str
) -> None:
    # before: accepted, and (--token-ttl) every token request answered 500
    from iptoolkit.cli.serve import serve_command
    from iptoolkit.server import runner as runner_module

    monkeypatch.setattr(runner_module, "serve", lambda *args, **kwargs: None)
    result = CliRunner().invoke(serve_command, [option, value, "--port", "0"])
    assert result.exit_code == 2, result.output
    assert option in result.output


_SECRET = {"IPTOOLKIT_CLIENT_SECRET": "not-printed", "CI": "1"}


def test_demo_refuses_more_profiles_than_it_can_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    # before: no upper bound; 99999999999999 profiles was killed out of memory (137)
    from iptoolkit.demo import run as run_module

    ran: list[int] = []
    monkeypatch.setattr(
        run_module, "run_demo", lambda out, *, n_profiles, **kw: ran.append(n_profiles)
    )
    result = CliRunner().invoke(main, ["demo", "--profiles", "99999999999999"])
    assert result.exit_code == 2, result.output
    assert "--profiles" in result.output and ran == []
    result = CliRunner().invoke(main, ["demo", "--profiles", "1000000"])
    assert result.exit_code == 0, result.output
    assert ran == [1_000_000]


@pytest.mark.parametrize("output_format", ["sarif", "junit", "json"])
def test_audit_statistics_refuse_a_format_they_are_not_written_in(
    snapshot: Path, tmp_path: Path, output_format: str
) -> None:
    # before: the plain-text table was written into stats.sarif
    out = tmp_path / f"stats.{output_format}"
    args = ["audit", str(snapshot), "--statistics", "--format", output_format, "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "--statistics" in result.output and not out.exists()


def test_fetch_checks_the_archive_before_fetching(tmp_path: Path, no_sleep: list[float]) -> None:
    # before: fetched (here: tried 127.0.0.1:9), then "not a DuckDB file", the fetch lost
    archive = tmp_path / "text.duckdb"
    archive.write_text("not an archive, but text\n")
    args = ["fetch", "--base-url", "http://127.0.0.1:9", "--client-id", "c"]
    result = CliRunner().invoke(main, [*args, "--archive", str(archive)], env=_SECRET)
    assert result.exit_code == 2, result.output
    assert "not a DuckDB file" in result.output and "connection" not in result.output
    assert no_sleep == []


def _not_utf8(path: Path) -> Path:
    path.write_bytes(b'\xff\xfeformat = "x"\n')
    return path


@pytest.mark.parametrize("option", ["--config", "--baseline"])
def test_audit_names_a_file_that_is_not_utf8(snapshot: Path, tmp_path: Path, option: str) -> None:
    bad = _not_utf8(tmp_path / "bad.toml")
    result = CliRunner().invoke(main, ["audit", str(snapshot), option, str(bad)])
    assert result.exit_code == 2, result.output
    assert f"{bad}: " in result.output and "UTF-8" in result.output
    assert "codec" not in result.output


def test_compare_names_a_mapping_file_that_is_not_utf8(snapshot: Path, tmp_path: Path) -> None:
    bad = _not_utf8(tmp_path / "map.toml")
    args = ["compare", str(snapshot), str(snapshot), "--mapping", str(bad)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"{bad}: " in result.output and "codec" not in result.output


@pytest.mark.parametrize(
    ("name", "fmt", "refused"),
    [
        ("out.csv", "graphml", True),  # before: GraphML written into out.csv, silently
        ("out.json", "json.gz", True),
        ("out", "graphml", False),  # no suffix: --format says it
        ("out.gv", "dot", False),  # the suffix agrees
        ("o.CSV", "csv", False),
    ],
)
def test_export_takes_a_format_only_where_the_suffix_agrees_or_is_silent(
    snapshot: Path, tmp_path: Path, name: str, fmt: str, refused: bool
) -> None:
    out = tmp_path / name
    result = CliRunner().invoke(main, ["export", str(snapshot), "-o", str(out), "--format", fmt])
    if refused:
        assert result.exit_code == 2, result.output
        assert "--format" in result.output and not out.exists()
    else:
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0


def test_export_refuses_an_unknown_format_as_a_usage_error(snapshot: Path, tmp_path: Path) -> None:
    # before: exit 1, as if the export had failed
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["export", str(snapshot), "-o", str(out), "--format", "nonsense"]
    )
    assert result.exit_code == 2, result.output
    assert "--format" in result.output and "graphml" in result.output


def test_serve_says_what_is_wrong_in_a_principals_file_in_short(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # before: "3 validation errors for Principals ... https://errors.pydantic.dev/..."
    from iptoolkit.cli.serve import serve_command
    from iptoolkit.server import runner as runner_module

    monkeypatch.setattr(runner_module, "serve", lambda *args, **kwargs: None)
    principals = tmp_path / "pr.json"
    principals.write_text('{"roles": 5, "clients": [1, 2]}')
    result = CliRunner().invoke(serve_command, ["--principals", str(principals), "--port", "0"])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1
    assert "pydantic" not in result.output and "validation error" not in result.output
    assert "roles: " in result.output and "clients[0]: " in result.output
    assert str(principals) in result.output


@pytest.mark.parametrize(
    ("document", "said"),
    [
        ('{"partners": 5}', "partners: expected a list of strings"),
        ('{"partners": 5.5}', "partners: expected a list of strings"),
        ('{"tags": "x"}', "tags: expected a list of strings"),
        ('{"partners": [true]}', "partners: expected a list of strings"),
        ('{"groups": [1]}', "groups: expected a list of strings"),
        ('{"active": "yes"}', "active: expected true, false or null"),
        ('{"text": 5}', "text: expected a string"),
        ("[1]", "expected a JSON object"),
    ],
)
def test_a_filter_file_of_the_wrong_types_names_the_file_and_field(
    snapshot: Path, tmp_path: Path, document: str, said: str
) -> None:
    # before: {"partners": 5} was "--partner 5 matches none of the 50 profiles"
    filter_file = tmp_path / "f1.json"
    filter_file.write_text(document)
    result = CliRunner().invoke(main, ["summary", str(snapshot), "--filter-file", str(filter_file)])
    assert result.exit_code == 2, result.output
    assert f"--filter-file {filter_file}: {said}" in result.output


def test_a_filter_file_may_name_partners_by_id_or_name(snapshot: Path, tmp_path: Path) -> None:
    import iptoolkit as ipt

    partner = next(iter(ipt.load(snapshot).partners.values()))
    assert not isinstance(partner, dict)  # a partner read whole, with an id and a name
    for value in ([partner.id], [partner.name], [str(partner.id)]):
        filter_file = tmp_path / "f.json"
        filter_file.write_text(json.dumps({"partners": value}))
        args = ["summary", str(snapshot), "--filter-file", str(filter_file)]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output


def test_a_write_error_names_the_users_file_not_the_part_written(
    snapshot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # before: "Error: /proc/.x.csv.jd1bg3w7.tmp: No such file or directory"
    import errno
    import types

    from iptoolkit.support import replacing

    def refused(*, dir: str, prefix: str, suffix: str) -> tuple[int, str]:
        raise OSError(errno.EACCES, "Permission denied", f"{dir}/{prefix}abcd1234{suffix}")

    monkeypatch.setattr(replacing, "tempfile", types.SimpleNamespace(mkstemp=refused))
    out = tmp_path / "x.csv"
    result = CliRunner().invoke(main, ["export", str(snapshot), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert result.output == f"Error: {out}: Permission denied\n"


def test_an_error_writing_the_part_names_the_users_file(tmp_path: Path) -> None:
    import errno

    from iptoolkit.support.replacing import replaced_when_written

    out = tmp_path / "x.json"
    with pytest.raises(OSError) as caught:
        with replaced_when_written(out) as part:
            raise OSError(errno.ENOSPC, "No space left on device", str(part))
    assert caught.value.filename == str(out) and caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def archived(snapshot: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("duckdb")
    archive = tmp_path_factory.mktemp("archived") / "ar.duckdb"
    result = CliRunner().invoke(main, ["archive", "add", "--archive", str(archive), str(snapshot)])
    assert result.exit_code == 0, result.output
    return archive


def test_archive_add_makes_no_folder_without_mkdirs(snapshot: Path, tmp_path: Path) -> None:
    # before: nodir/ was made, as no other command does without -p
    pytest.importorskip("duckdb")
    for command in ("add", "import"):
        archive = tmp_path / "nodir" / "ar.duckdb"
        given = str(snapshot) if command == "add" else str(snapshot.parent)
        args = ["archive", command, "--archive", str(archive), given]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert "-p/--mkdirs" in result.output and not archive.parent.exists()
        result = CliRunner().invoke(main, [*args, "-p"])
        assert result.exit_code == 0, result.output
        assert archive.is_file()
        archive.unlink()
        archive.parent.rmdir()


@pytest.mark.parametrize("name", ["x.xyz", "x.csv", "x"])
def test_archive_export_writes_only_a_snapshot_suffix(
    archived: Path, tmp_path: Path, name: str
) -> None:
    # before: a JSON snapshot written as x.xyz, x.csv...
    out = tmp_path / name
    args = ["archive", "export", "--archive", str(archived), "--at", "1", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert ".json.gz" in result.output and not out.exists()
    result = CliRunner().invoke(main, [*args[:-1], str(tmp_path / "x.json.gz")])
    assert result.exit_code == 0, result.output


def test_diff_all_goes_with_plot(snapshot: Path) -> None:
    # before: accepted and ignored, where --details-file without --format md is refused
    result = CliRunner().invoke(main, ["diff", str(snapshot), str(snapshot), "--all"])
    assert result.exit_code == 2, result.output
    assert "--all" in result.output and "--plot" in result.output


@pytest.mark.parametrize("port", ["99999", "65536", "0"])
@pytest.mark.parametrize("command", ["fetch", "watch"])
def test_a_base_url_port_out_of_range_is_a_usage_error(
    tmp_path: Path, no_sleep: list[float], command: str, port: str
) -> None:
    # before: accepted, then the connection failed
    args = [command, "--base-url", f"http://127.0.0.1:{port}", "--client-id", "c"]
    if command == "watch":
        args += ["--archive", str(tmp_path / "ar.duckdb"), "--once"]
    else:
        args += ["-o", str(tmp_path / "s.json")]
    result = CliRunner().invoke(main, args, env=_SECRET)
    assert result.exit_code == 2, result.output
    assert "port" in result.output and "connection" not in result.output.lower()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_watch_refuses_a_lock_timeout_a_clock_cannot_count(
    tmp_path: Path, no_sleep: list[float], value: str
) -> None:
    args = ["watch", "--base-url", "http://127.0.0.1:9", "--client-id", "c", "--once"]
    args += ["--archive", str(tmp_path / "ar.duckdb"), "--lock-timeout", value]
    result = CliRunner().invoke(main, args, env=_SECRET)
    assert result.exit_code == 2, result.output
    assert "--lock-timeout" in result.output
