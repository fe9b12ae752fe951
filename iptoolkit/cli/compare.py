"""`iptoolkit compare A B`: two installations compared by natural keys (test against prod).

A and B are snapshot files, or `ARCHIVE@DATE` (or `@ID`): a snapshot an archive holds, as
`docs --previous` reads them (`options.load_reference`), or `--env NAME` twice
(environments of the configuration, fetched now). Exit codes as
`diff`'s: 0 when the installations match (after the ignore rules and known differences),
1 when they differ, 2 when they could not be compared (a missing file, a wrong option or
configuration, a fetch that failed).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..support.names import plural
from .host import (
    EXIT_FINDINGS,
    EXIT_TROUBLE,
    CommandError,
    keep_until_exit,
    one_line_errors,
    short_help,
)
from .options import (
    check_details_file,
    check_map_file,
    comment_markdown,
    details_file_option,
    format_option,
    load_reference,
    map_file_option,
    max_size_option,
    reference_file,
    write_map_file,
)
from .outputs import check_outputs, config_input, output_folder_option
from .progress import command_progress, end_progress, progress_option

if TYPE_CHECKING:
    from ..comparing import Comparison
    from ..comparing.rules import Rules
    from ..core.estate import Estate

__all__ = ["compare_command"]


@click.command("compare", short_help=short_help("compare"))
@click.argument("sources", nargs=-1, metavar="[A] [B]")
@click.option(
    "--env",
    "environments",
    multiple=True,
    metavar="NAME",
    help="Fetch this environment of the configuration ([tool.iptoolkit.environments.NAME]); "
    "twice to compare two live installations.",
)
@format_option(
    "md",
    "json",
    "csv",
    help="text (counts first), md (for a pull request: summary, details folded), json "
    "(the machine form) or csv (one row per field).",
)
@click.option(
    "--mapping",
    "mapping_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Manual matches and renames (TOML; default: the configuration's `mapping`).",
)
@click.option(
    "--write-mapping",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the matches made (and rename suggestions) to this file, to review.",
)
@click.option(
    "--ignore",
    "ignore",
    multiple=True,
    metavar="GLOB",
    help="Ignore fields whose JSON path matches (`*.remotePath`, `channel:$.host`); "
    "repeatable, added to the configuration's.",
)
@click.option(
    "--substitute",
    multiple=True,
    metavar="OLD=NEW",
    help="Read OLD as NEW in values and keys (test.example.com=example.com, T_=P_); "
    "repeatable, added to the configuration's.",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The configuration file (default: iptoolkit.toml or pyproject.toml, found upward).",
)
@click.option("--name-a", help="What A is called in the report (default: its file or env).")
@click.option("--name-b", help="What B is called in the report.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also draw the differing items of A above those of B into this PNG/SVG/PDF file.",
)
@map_file_option(
    "both installations on one map (each item coloured by its kind of difference, what "
    "differs first in its details)"
)
@max_size_option
@progress_option
@details_file_option
@output_folder_option
def compare_command(
    sources: tuple[str, ...],
    environments: tuple[str, ...],
    output_format: str,
    mapping_path: Path | None,
    write_mapping: Path | None,
    ignore: tuple[str, ...],
    substitute: tuple[str, ...],
    config_path: Path | None,
    name_a: str | None,
    name_b: str | None,
    plot_path: Path | None,
    html_path: Path | None,
    details_file: Path | None,
    mkdirs: bool,
) -> None:
    """Compare two installations (A, B) by what things are, not their ids: partners by
    name, channels by partner, type and name, profiles by group and name.

    \b
      iptoolkit compare test.json prod.json
      iptoolkit compare test.json prod.json --substitute test.example.com=example.com
      iptoolkit compare --env test --env prod --format md > COMPARE.md
      iptoolkit compare test.json prod.json --format md --details-file all.md
      iptoolkit compare estate.duckdb@2026-11-01 estate.duckdb@2026-11-20
      iptoolkit compare test.json prod.json --write-mapping mapping.toml
      iptoolkit compare test.json prod.json --html test-vs-prod.html

    Exit 0 when they match, 1 when they differ, 2 when they could not be compared.
    """
    check_details_file(details_file, output_format)
    check_map_file(html_path)
    outputs = {"--plot": plot_path, "--html": html_path, "--details-file": details_file}
    outputs["--write-mapping"] = write_mapping
    check_outputs(mkdirs, outputs, _inputs(sources, mapping_path, config_path))
    pairs = _pairs(substitute)
    command_progress()  # a fetch of --env reports to the command's bars
    if len(sources) + len(environments) != 2:
        raise CommandError(
            "compare needs two installations: A and B (files or ARCHIVE@DATE), "
            "or --env NAME twice, or one of each",
            EXIT_TROUBLE,
        )
    with one_line_errors(EXIT_TROUBLE):
        rules = _rules(config_path, ignore, pairs, mapping_path)
        named = zip(_names_of(sources), sources, strict=True)
        loaded = [(name, load_reference(source, "A/B")) for name, source in named]
        loaded += [_fetch(name, config_path) for name in environments]
        command_progress().stage("Comparing the installations")
        result = _compare(loaded, rules, (name_a, name_b))
        end_progress()
    keep_until_exit(result)  # the two estates: the process ends without freeing them
    if write_mapping is not None:
        from ..comparing.mapping import write_mapping as write

        with one_line_errors(EXIT_TROUBLE, prefix="--write-mapping: "):
            count = write(result, write_mapping)
        click.echo(f"mapping of {count:,} matches written to {write_mapping}", err=True)
    if plot_path is not None:
        with one_line_errors(EXIT_TROUBLE, prefix="--plot: "):
            from ..plot.backend import detach
            from ..plot.compare_diagram import plot_comparison

            command_progress().stage(f"Drawing {plot_path.name}")
            detach(plot_comparison(result, path=plot_path))  # written: not left open
            end_progress()
        click.echo(f"diagram written to {plot_path}", err=True)
    if html_path is not None:
        write_map_file(result, html_path)
    command_progress().stage("Writing the report")
    if output_format == "md":
        text = comment_markdown(result.to_markdown, details_file)
    else:
        text = {"text": result.to_text, "json": result.to_json, "csv": result.to_csv}[
            output_format
        ]()
    end_progress()
    click.echo(text.rstrip("\n"))
    if result.differences:
        sys.exit(EXIT_FINDINGS)


def _inputs(
    sources: tuple[str, ...], mapping_path: Path | None, config_path: Path | None
) -> dict[str, Path | None]:
    """What the comparison reads, which no output may overwrite: A and B (an archive for
    `ARCHIVE@DATE`), the mapping and the configuration (given, or found)."""
    inputs: dict[str, Path | None] = {
        name: reference_file(source) for name, source in zip("AB", sources, strict=False)
    }
    inputs["--mapping"] = mapping_path
    return inputs | config_input(config_path, "compare")


def _pairs(substitute: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for given in substitute:
        old, equals, new = given.partition("=")
        if not equals or not old:
            raise click.BadParameter(
                f"{given!r} is not OLD=NEW (test.example.com=example.com)",
                param_hint="--substitute",
            )
        pairs.append((old, new))
    return tuple(pairs)


def _rules(
    config_path: Path | None,
    ignore: tuple[str, ...],
    pairs: tuple[tuple[str, str], ...],
    mapping_path: Path | None,
) -> Rules:
    from ..comparing.config import load_rules

    return load_rules(config_path).with_options(
        ignore=ignore, substitute=pairs, mapping=mapping_path
    )


def _names_of(sources: tuple[str, ...]) -> list[str]:
    """What each snapshot is called in the report: its file's name without `.json` (or
    the archive reference as given); two of one name by as much of their folders as tells
    them apart (`test/snapshot`, `prod/snapshot`), else by their paths as given
    (`snap.json`, `snap.json.gz`), the same file twice as `A` and `B`."""
    names = [_name_of(source) for source in sources]
    if len(names) < 2 or names[0] != names[1]:
        return names
    if Path(sources[0]).resolve() == Path(sources[1]).resolve():  # `a.json`, `../rc/a.json`
        return _a_and_b(names[0])
    deepest = max(len(Path(source).parts) for source in sources)
    for depth in range(2, deepest + 1):
        names = [_name_of(source, depth) for source in sources]
        if names[0] != names[1]:
            return names
    return list(sources) if sources[0] != sources[1] else _a_and_b(names[0])


def _a_and_b(name: str) -> list[str]:
    """Two sides of one name, told apart."""
    return [f"{name} (A)", f"{name} (B)"]


def _name_of(source: str, depth: int = 1) -> str:
    """A snapshot's file name without `.json` and `depth - 1` of its folders before it."""
    parts = Path(source).parts[-depth:]
    name = "/".join(parts)
    for suffix in (".json.gz", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _fetch(name: str, config_path: Path | None) -> tuple[str, Estate]:
    from ..comparing.config import environment, load_environments

    if config_path is not None:
        known = load_environments(config_path)
        if name not in known:
            raise ValueError(f"no environment {name!r} in {config_path}")
        found = known[name]
    else:
        found = environment(name)
    estate = found.fetch()
    end_progress()
    click.echo(f"Fetched {plural(len(estate), 'profile')} from environment {name}", err=True)
    return name, estate


def _compare(
    loaded: list[tuple[str, Estate]], rules: Rules, names: tuple[str | None, str | None]
) -> Comparison:
    from ..comparing.mapping import compare_configured

    (a_name, a), (b_name, b) = loaded
    first, second = names[0] or a_name, names[1] or b_name
    if first == second:  # `--env prod --env prod`, or one name given as the other
        first, second = _a_and_b(first)
    return compare_configured(a, b, rules, (first, second))
