"""Files read no more than a limit (issue 14, finding 15): a large file, a gzip bomb, an
endless fifo and /dev/zero end in one clear error that names the size and how to raise it."""

from __future__ import annotations

import gzip
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import iptoolkit as ipt
from iptoolkit.cli import main
from iptoolkit.support import env
from iptoolkit.support.reading import DEFAULT_MAX_SIZE, format_size, load_limit, parse_size

LISTING = b'[{"class": "core:IntegrationProfile", "id": "P1", "name": "' + b"x" * 2000 + b'"}]'


def _assert_names_the_limit(message: str, limit: str) -> None:
    assert f"past the limit of {limit}" in message
    assert "max_size=" in message and "--max-size" in message and env.MAX_LOAD_SIZE in message


def test_a_file_larger_than_the_limit_is_refused_saying_its_size(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(LISTING)
    with pytest.raises(ipt.ParseError) as caught:
        ipt.load(path, max_size=1000)
    assert "big.json: the file is 2.1 kB" in str(caught.value)
    _assert_names_the_limit(str(caught.value), "1.0 kB")
    assert len(ipt.load(path, max_size=len(LISTING)).raw_profiles) == 1  # the limit itself loads


def test_a_gzip_bomb_stops_at_the_limit(tmp_path):
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b"[" + b" " * 50_000_000 + b"]", compresslevel=9))
    assert path.stat().st_size < 100_000
    with pytest.raises(ipt.ParseError) as caught:
        ipt.load(path, max_size="1MB")
    assert "decompresses to more than 1.0 MB" in str(caught.value)
    _assert_names_the_limit(str(caught.value), "1.0 MB")


def test_a_compressed_snapshot_within_the_limit_loads(tmp_path):
    path = ipt.Estate.from_raw(LISTING).save(tmp_path / "ok.json.gz")
    assert len(ipt.load(path, max_size="1MB").raw_profiles) == 1


@pytest.mark.parametrize("compressed", [False, True])
def test_an_endless_fifo_stops_at_the_limit(tmp_path, compressed):
    fifo = tmp_path / ("endless.json.gz" if compressed else "endless.json")
    os.mkfifo(fifo)
    stop = threading.Event()

    def write_forever() -> None:
        chunk = gzip.compress(b" " * 1_000_000) if compressed else b" " * 65536
        try:
            with fifo.open("wb") as sink:
                sink.write(b"[")
                while not stop.is_set():  # gzip members one after another: valid, endless
                    sink.write(chunk)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    try:
        with pytest.raises(ipt.ParseError, match="more than 2 MiB"):
            ipt.load(fifo, max_size="2MiB")
    finally:
        stop.set()
        writer.join(timeout=10)
    assert not writer.is_alive()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_summary_of_dev_zero_is_one_line_naming_the_limit():
    result = CliRunner().invoke(main, ["summary", "/dev/zero", "--max-size", "1MiB"])
    assert result.exit_code == 1
    assert "/dev/zero: the file holds more than 1 MiB" in result.output
    assert "Traceback" not in result.output and "MemoryError" not in result.output


def test_the_limit_comes_from_the_environment_and_the_option_wins(tmp_path, monkeypatch):
    path = tmp_path / "listing.json"
    path.write_bytes(LISTING)
    monkeypatch.setenv(env.MAX_LOAD_SIZE, "1kB")
    with pytest.raises(ipt.ParseError, match="past the limit of 1.0 kB"):
        ipt.load(path)
    assert CliRunner().invoke(main, ["summary", str(path)]).exit_code == 1
    assert CliRunner().invoke(main, ["summary", str(path), "--max-size", "1MB"]).exit_code == 0
    monkeypatch.setenv(env.MAX_LOAD_SIZE, "lots")
    result = CliRunner().invoke(main, ["summary", str(path)])
    assert result.exit_code == 2 and "not a size: 'lots'" in result.output


def test_a_junk_size_in_the_environment_names_the_variable(tmp_path, monkeypatch):
    """No --max-size was given: the error names the variable the value came from."""
    path = tmp_path / "listing.json"
    path.write_bytes(LISTING)
    monkeypatch.setenv(env.MAX_LOAD_SIZE, "junk")
    result = CliRunner().invoke(main, ["summary", str(path)])
    assert result.exit_code == 2
    assert f"Invalid value for {env.MAX_LOAD_SIZE} (the environment variable)" in result.stderr
    assert "'--max-size'" not in result.stderr and "not a size: 'junk'" in result.stderr


MORE_THAN_ONE_KIB = {
    "diff": ["diff", "{big}", "{big}"],
    "compare": ["compare", "{big}", "{big}"],
    "archive add": ["archive", "add", "{big}", "--archive", "{folder}/a.duckdb"],
    "archive import": ["archive", "import", "{folder}", "--archive", "{folder}/i.duckdb"],
    "mcp": ["mcp", "{big}"],
    "serve": ["serve", "--snapshot", "{big}", "--port", "0"],
}


@pytest.mark.parametrize("command", list(MORE_THAN_ONE_KIB))
def test_every_command_that_loads_a_snapshot_takes_max_size(tmp_path, command):
    """The "too large" error tells people to raise --max-size: each command reading a
    snapshot takes it, and its loads keep to it (an archive's add, the MCP store's, the
    server's), for that command alone."""
    pytest.importorskip("duckdb" if command.startswith("archive") else "click")
    path = ipt.demo_estate(5, seed=1).save(tmp_path / "big.json")
    args = [arg.format(big=path, folder=tmp_path) for arg in MORE_THAN_ONE_KIB[command]]
    result = CliRunner().invoke(main, [*args, "--max-size", "1KiB"])
    assert result.exit_code in (1, 2), result.output
    assert "past the limit of 1 KiB" in result.output, result.output
    assert "Traceback" not in result.output
    assert len(ipt.load(path)) == 5, "the limit outlived its command"


def test_sizes_are_read_and_written_as_people_do():
    assert load_limit() == DEFAULT_MAX_SIZE == parse_size("1GiB")
    assert [parse_size(s) for s in ("4GiB", "500 MB", "1.5kb", "123")] == [
        4 << 30,
        500_000_000,
        1500,
        123,
    ]
    assert [format_size(n) for n in (1 << 30, 350_200_000, 999)] == [
        "1 GiB",
        "350.2 MB",
        "999 bytes",
    ]
    for bad in ("", "0", "-1MB", "4 parsecs"):
        with pytest.raises(ValueError):
            parse_size(bad)


def test_a_size_of_many_digits_is_a_size_not_a_traceback(tmp_path):
    """Its float was infinite, and int() of it an OverflowError out of the command."""
    assert parse_size("9" * 400) > 10**399  # near enough: it only bounds a read
    assert parse_size("0.5KiB") == 512
    path = tmp_path / "listing.json"
    path.write_bytes(LISTING)
    result = CliRunner().invoke(main, ["summary", str(path), "--max-size", "9" * 400 + "TiB"])
    assert result.exit_code == 0, result.output
