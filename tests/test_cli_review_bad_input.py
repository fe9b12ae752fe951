"""Bad input found by an exploratory review of the command line: each is refused up front,
as one line and exit code 2, not after the work or with a traceback."""

from __future__ import annotations

from click.testing import CliRunner

from iptoolkit.cli.serve import hash_secret_command


def test_hash_secret_refuses_more_iterations_than_hashlib_takes() -> None:
    result = CliRunner().invoke(
        hash_secret_command, ["--iterations", "99999999999999999999"], input="s3cret\n"
    )
    assert result.exit_code == 2, result.output
    assert "--iterations" in result.output
    assert not isinstance(result.exception, OverflowError)
