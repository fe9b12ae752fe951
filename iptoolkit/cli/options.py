"""What the `iptoolkit` commands share: filter options, loading a snapshot, credentials.

Filter options mirror `ipt.Filter` field by field, so a selection made on the command line
reads like one made in a notebook, and `--filter-file` takes the JSON that `Filter.to_json`
writes. Secrets never come from the command line (shell history and `ps` would show them):
they come from `IPTOOLKIT_*` environment variables, standard input (`--secret-stdin`) or a
hidden prompt.
"""

from __future__ import annotations

import functools
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast, overload

import click

from ..support import env
from ..support.error_line import one_line
from .outputs import remember_input
from .progress import command_progress, progress_option

if TYPE_CHECKING:
    import httpx

    from ..core.estate import Estate
    from ..query.filters import Filter

    # what the two parameter types below give; at run time the bases go unsubscripted, as
    # click takes type arguments only from 8.2 (Choice) and 8.4 (ParamType) on
    _ChoiceOfStr = click.Choice[str]
    _ParamTypeOfInt = click.ParamType[int]
    _FloatRange = click.FloatRange
else:
    _ChoiceOfStr, _ParamTypeOfInt, _FloatRange = click.Choice, click.ParamType, click.FloatRange

__all__ = [
    "Seconds",
    "format_option",
    "filter_options",
    "snapshot_argument",
    "chosen_max_size",
    "max_size_option",
    "load_estate",
    "auth_from_options",
    "check_connection",
    "details_file_option",
    "check_details_file",
    "comment_markdown",
]

F = TypeVar("F", bound=Callable[..., Any])

PLAIN_TEXT = "text"
"""The one name of the plain-text format in every command that offers formats."""


class _FormatChoice(_ChoiceOfStr):
    """A format name; `table`, the old name of `text` in `findings`, still reads as `text`."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        return super().convert(PLAIN_TEXT if value == "table" else value, param, ctx)


def format_option(*formats: str, help: str = "Output format.") -> Callable[[F], F]:
    """`--format` with the plain-text format first, named `text`, and the default."""
    choices = (PLAIN_TEXT, *(name for name in formats if name != PLAIN_TEXT))
    return click.option(
        "--format",
        "output_format",
        type=_FormatChoice(choices),
        default=PLAIN_TEXT,
        show_default=True,
        help=help,
    )


_SECRET_NAMES = {
    "client": "client secret",
    "guest": "guest login token",
    "session": "session cookie (name=value)",
    "bearer": "bearer token",
}

_REPEATABLE = (  # (option, Filter field, help): the Filter's list fields
    (
        "--partner",
        "partners",
        "Partner id, node id (partner:17) or name; repeat for several (any of them).",
    ),
    ("--agent-type", "agent_types", "Input agent type, e.g. SFTPAgentSettings; repeatable."),
    (
        "--channel-type",
        "channel_types",
        "Channel type, e.g. AS2 or IntegrationPartnerChannelAS2; repeatable.",
    ),
    ("--channel", "channels", "Channel id, node id (channel:40003) or name; repeatable."),
    ("--group", "groups", "Group with its subgroups (Finance) or a pattern (*/EDI/*); repeatable."),
    ("--tag", "tags", "Tag or pattern; repeatable."),
)
_FIELDS = tuple(field for _, field, _ in _REPEATABLE)

_FILTER_OPTIONS = (
    *(click.option(flag, field, multiple=True, help=text) for flag, field, text in _REPEATABLE),
    click.option(
        "--active/--inactive",
        "active",
        default=None,
        help="Only active profiles, or only the others.  [default: both]",
    ),
    click.option("--text", default=None, help="Words that must all occur (id, name, URL...)."),
    click.option(
        "--filter-file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="A saved ipt.Filter (JSON); options given here replace its fields.",
    ),
    click.option(
        "--allow-empty",
        is_flag=True,
        help="Accept a filter that selects no profile (otherwise an error: exit 1, or 2 where "
        "1 means found something).",
    ),
)
_FLAGS = {field: flag for flag, field, _ in _REPEATABLE} | {"active": "--active", "text": "--text"}
_ALLOW_EMPTY_KEY = "iptoolkit.allow_empty"


def filter_options(func: F) -> F:
    """Add the filter options to a command; it receives one `selection: Filter` instead."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in (*_FIELDS, "active", "text")}
        context = click.get_current_context(silent=True)
        allow_empty = kwargs.pop("allow_empty")
        if context is not None:
            context.meta[_ALLOW_EMPTY_KEY] = allow_empty
        filter_file = kwargs.pop("filter_file")
        remember_input("--filter-file", filter_file)  # no output of the command may be it
        kwargs["selection"] = _selection(values, filter_file)
        return func(*args, **kwargs)

    for option in reversed(_FILTER_OPTIONS):
        wrapper = option(wrapper)
    return cast(F, wrapper)  # a click command: click calls it with the options


def _selection(values: dict[str, Any], filter_file: Path | None) -> Filter:
    from pydantic import ValidationError

    from ..query.filters import Filter

    fields: dict[str, Any] = {}
    if filter_file is not None:
        try:
            saved = Filter.model_validate(_filter_file_fields(filter_file))
        except ValidationError as exc:
            raise click.BadParameter(_first_error(exc), param_hint="--filter-file") from None
        fields = saved.model_dump(exclude_defaults=True)
    for name in _FIELDS:
        if values[name]:
            fields[name] = list(values[name])
    if values["active"] is not None:
        fields["active"] = values["active"]
    if values["text"]:
        fields["text"] = values["text"]
    return Filter(**fields)


_ID_FIELDS = ("partners", "channels")
"""The Filter's fields that take ids (numbers) beside names."""


def _filter_file_fields(path: Path) -> dict[str, Any]:
    """The fields of a saved `ipt.Filter`, each of its type, else a usage error naming the
    file and the field. The Filter reads a lone value as a list (`partners=5` is `[5]`),
    so `{"partners": 5}` was "--partner 5 matches none", an option never given; a file
    holds lists, as `Filter.to_json` writes them."""
    import json

    from ..query.filters import Filter

    def refuse(problem: str) -> NoReturn:
        raise click.UsageError(f"--filter-file {path}: {problem}")

    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:  # JSON, or UTF-8, that does not decode
        refuse(f"not a saved ipt.Filter ({one_line(exc)})")
    if not isinstance(document, dict):
        refuse("expected a JSON object, as ipt.Filter.to_json writes")
    for key, value in document.items():
        if key not in Filter.model_fields:
            refuse(f"unknown field {key!r}; the fields are {', '.join(Filter.model_fields)}")
        if key == "active" and not (value is None or isinstance(value, bool)):
            refuse("active: expected true, false or null")
        if key == "text" and not (value is None or isinstance(value, str)):
            refuse("text: expected a string")
        if key not in ("active", "text") and not _strings(value, ids=key in _ID_FIELDS):
            refuse(f"{key}: expected a list of strings" + (" or ids" if key in _ID_FIELDS else ""))
    return document


def _strings(value: Any, *, ids: bool) -> bool:
    """A list of strings (and integer ids, when `ids`), as `Filter.to_json` writes."""
    kinds = (str, int) if ids else (str,)
    if not isinstance(value, list):
        return False
    return all(isinstance(v, kinds) and not isinstance(v, bool) for v in value)


def _first_error(exc: Any) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error.get("loc", ())) or "the file"
    return f"{where}: {error.get('msg', 'invalid')} (not a saved ipt.Filter?)"


class Seconds(_FloatRange):
    """A number of seconds (above 0; from 0 with `zero`, up to a year) that a clock can
    count: not nan or inf, which a range lets through (nan compares false to its bounds)
    and which broke every token request of `serve --token-ttl nan`."""

    def __init__(self, *, zero: bool = False) -> None:
        super().__init__(min=0, min_open=not zero, max=365 * 86400.0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return number


class _Size(_ParamTypeOfInt):
    """A size such as 4GiB, 500MB or 1000000 (bytes)."""

    name = "size"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from ..support.reading import parse_size

        try:
            return parse_size(value)
        except ValueError as exc:
            if param is not None and _from_environment(ctx, param):
                raise click.BadParameter(
                    str(exc), ctx, param_hint=f"{param.envvar} (the environment variable)"
                ) from None
            self.fail(str(exc), param, ctx)


def _from_environment(ctx: click.Context | None, param: click.Parameter) -> bool:
    """The value came from the option's environment variable: an error names it, since no
    option was given."""
    from click.core import ParameterSource

    if ctx is None or param.name is None:
        return False
    return ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT


_MAX_SIZE_KEY = "iptoolkit.max_size"


def _remember_max_size(ctx: click.Context, param: click.Parameter, value: int | None) -> None:
    """Keep the size for `chosen_max_size`, and as the limit of every load the command
    makes, however it loads (`reading.choose_limit`), until the command ends."""
    from ..support.reading import choose_limit

    ctx.meta[_MAX_SIZE_KEY] = value
    choose_limit(value)
    ctx.call_on_close(lambda: choose_limit(None))


def max_size_option(func: F) -> F:
    """`--max-size` (and `IPTOOLKIT_MAX_LOAD_SIZE`): the cap on the JSON each snapshot the
    command loads may hold, which the "file too large" error tells people to raise."""
    return click.option(
        "--max-size",
        type=_Size(),
        envvar=env.MAX_LOAD_SIZE,
        expose_value=False,
        callback=_remember_max_size,
        help="Read at most this much JSON (decompressed), e.g. 4GiB.  [default: 1GiB]",
    )(func)


@overload
def snapshot_argument(func: F, *, required: bool = True) -> F: ...
@overload
def snapshot_argument(func: None = None, *, required: bool = True) -> Callable[[F], F]: ...
def snapshot_argument(func: F | None = None, *, required: bool = True) -> F | Callable[[F], F]:
    """The SNAPSHOT argument (a snapshot file or a JSON listing, .json or .json.gz), and
    `--max-size`, the cap on what is read, which `load_estate` applies, and `--progress`.
    `@snapshot_argument(required=False)` makes the snapshot optional (None when absent)."""
    if func is None:

        def with_snapshot(func: F) -> F:
            return snapshot_argument(func, required=required)

        return with_snapshot
    func = max_size_option(func)
    func = progress_option(func)
    path = click.Path(exists=True, dir_okay=False, path_type=Path)
    return click.argument("snapshot", type=path, required=required)(func)


def chosen_max_size() -> int | None:
    """The `--max-size` given to the running command (None: the default or the variable)."""
    context = click.get_current_context(silent=True)
    return context.meta.get(_MAX_SIZE_KEY) if context else None


def load_estate(path: Path, selection: Filter | None = None, *, keep_texts: bool = False) -> Estate:
    """Load a snapshot (no more than `--max-size`) and apply the filter; say on stderr what
    the filter kept. A filter that keeps nothing is an error unless `--allow-empty`: a docs
    pipeline must not publish an empty picture as if all were well. `keep_texts`: for a
    command that audits or diffs, keep the file's text (`Estate.texts`: the URL rules
    search it instead of writing every profile again, the diff compares profiles by it)."""
    from ..core.estate import load
    from ..query.filters import subset as filtered

    context = click.get_current_context(silent=True)
    progress = command_progress()
    estate = load(path, max_size=chosen_max_size(), keep_texts=keep_texts, progress=progress)
    if selection is None or selection.is_empty():
        return estate
    subset = filtered(estate, selection)  # the note below says what it cannot judge
    if not len(subset) and not (context and context.meta.get(_ALLOW_EMPTY_KEY)):
        _tell_unjudged(estate, selection)
        raise click.ClickException(_nothing_selected(estate, selection))
    click.echo(
        f"filter: {selection.describe()} -> {len(subset):,} of {len(estate):,} profiles"
        f"{_completed(estate, selection)}",
        err=True,
    )
    _tell_unjudged(estate, selection)
    return subset


def _tell_unjudged(estate: Estate, selection: Filter) -> None:
    """One line on stderr naming the faulty profiles the filter could not judge: they are
    left out of what the command reads, and a faulty profile is reported, never dropped."""
    from ..query.filters import unjudged, unjudged_note

    left = unjudged(estate, selection)
    if left:
        click.echo(f"note: {unjudged_note(estate, left, _FLAGS.__getitem__)}", err=True)


def _completed(estate: Estate, selection: Filter) -> str:
    """` ('Mosel Retail' is 'Mosel Retail GmbH & Co. KG')`: the names a value selected by
    their start, said, since what was typed is not what was chosen; or nothing."""
    from ..query.filters import completed

    said = [f"{value!r} is {name!r}" for _, value, name in completed(estate, selection)]
    return f" ({'; '.join(said)})" if said else ""


def reference_file(text: str) -> Path:
    """The file a snapshot named on the command line reads (`load_reference`): the file
    itself, or the archive of `ARCHIVE@DATE` (a file of that name first)."""
    path = Path(text)
    file, at, _ = text.rpartition("@")
    if path.exists() or not at or not Path(file).is_file():
        return path
    return Path(file)


def load_reference(text: str, option: str) -> Estate:
    """A snapshot named on the command line: a file, or `ARCHIVE@DATE` (or `@ID`): the
    snapshot an archive holds from that date (`docs --previous`, `compare A B`)."""
    path = Path(text)
    file = reference_file(text)
    if file == path:
        if path.is_dir():
            raise click.BadParameter(f"{text}: is a folder, not a snapshot file", param_hint=option)
        if not path.exists():  # a pipe (`<(gunzip -c a.json.gz)`) is read as SNAPSHOT is
            raise click.BadParameter(f"{text}: no such file (or ARCHIVE@DATE)", param_hint=option)
        return load_estate(path)
    from ..archive import Archive

    when = text.rpartition("@")[2]
    command_progress().stage(f"Reading {file.name}@{when}")
    return Archive(file).estate(at=when)


def _nothing_selected(estate: Estate, selection: Filter) -> str:
    """One line: which filter value matched nothing, and what was perhaps meant."""
    from ..query.filters import unmatched

    missing = unmatched(estate, selection)
    of = f"none of the {len(estate):,} profiles"
    if missing:
        said = "; ".join(
            f"{_FLAGS[field]} {value!r}{hint}"
            if field != "active"
            else ("--active" if value else "--inactive")
            for field, value, hint in missing
        )
        reason = f"{said} matches {of}"
    else:
        together = "each part matches some, together none"
        reason = f"the filter ({selection.describe()}) matches {of}: {together}"
    return f"{reason} (--allow-empty accepts an empty selection)"


def check_connection(base_url: str, profiles_path: str | None) -> None:
    """A wrong `--base-url` or `--profiles-path` as a usage error (one line, exit 2) before
    anything is asked of the user or sent: a malformed URL, or a listing on another origin
    than the base URL's (it would receive the bearer token)."""
    from ..client import check_endpoint

    try:
        check_endpoint(base_url, profiles_path)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def auth_from_options(kind: str | None, client_id: str | None, secret_stdin: bool) -> httpx.Auth:
    """The auth flow for `fetch`: chosen with `--auth`, else guessed from what is set.

    The secret comes from standard input with `--secret-stdin` (asked for, it wins over
    the environment), else its environment variable, else a hidden prompt on a terminal.
    """
    from ..client import BearerToken, ClientCredentials, GuestLogin, SessionCookie

    if kind is None:
        kind = _guess_kind(client_id)
    if kind == "client" and not client_id:
        raise click.UsageError(f"the client-credentials flow needs --client-id or {env.CLIENT_ID}")
    secret = _secret(kind, secret_stdin)
    if kind == "client":
        return ClientCredentials(str(client_id), secret)
    if kind == "guest":
        return GuestLogin(secret)
    if kind == "session":
        return SessionCookie(secret)
    return BearerToken(secret)


def _guess_kind(client_id: str | None) -> str:
    if client_id:
        return "client"
    for kind in ("guest", "session", "bearer"):
        if os.environ.get(env.SECRET_VARIABLES[kind], "").strip():
            return kind
    raise click.UsageError(
        f"no credentials: pass --client-id (or set {env.CLIENT_ID} and {env.CLIENT_SECRET}), "
        f"or set {env.GUEST_TOKEN}, {env.SESSION_COOKIE} or {env.BEARER_TOKEN}, "
        "or choose a flow with --auth"
    )


def _secret(kind: str, secret_stdin: bool) -> str:
    variable = env.SECRET_VARIABLES[kind]
    name = _SECRET_NAMES[kind]
    if secret_stdin and not sys.stdin.isatty():
        value = sys.stdin.readline().strip()
        if not value:
            raise click.UsageError(f"--secret-stdin: no {name} on standard input")
        return value
    value = "" if secret_stdin else os.environ.get(variable, "").strip()
    if not value:  # a terminal's (--secret-stdin too): asked for hidden, never echoed
        if not sys.stdin.isatty():
            raise click.UsageError(f"no {name}: set {variable}, or pipe it in with --secret-stdin")
        value = click.prompt(name.capitalize(), hide_input=True, err=True).strip()
    if not value:
        raise click.UsageError(f"the {name} is empty")
    return value


details_file_option = click.option(
    "--details-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --format md: write the whole Markdown report to this file; the report printed "
    "keeps to a GitHub comment's 65,536 characters (worst first) and names the file.",
)
"""`--details-file PATH` of the reports a pull-request comment shows (compare, diff, audit)."""


def check_details_file(details_file: Path | None, output_format: str) -> None:
    """`--details-file` with another format than md is a wrong option, said before any work."""
    if details_file is not None and output_format != "md":
        raise click.BadParameter("goes with --format md", param_hint="--details-file")


def comment_markdown(render: Callable[..., str], details_file: Path | None) -> str:
    """A report's Markdown for a pull-request comment: `render(limit=, details=)` cut to
    `COMMENT_LIMIT`, the whole report (`render()`) written to `details_file` when given,
    which the cut report names."""
    from ..support.comment_fit import COMMENT_LIMIT

    named = None
    if details_file is not None:
        try:
            details_file.write_text(render(), encoding="utf-8")
        except OSError as error:
            raise click.BadParameter(
                f"{details_file}: {error.strerror or error}", param_hint="--details-file"
            ) from None
        click.echo(f"whole report written to {details_file}", err=True)
        named = str(details_file)
    return render(limit=COMMENT_LIMIT, details=named)


def map_file_option(what: str) -> Callable[[F], F]:
    """`--html PATH`: also write `what` (the map of both snapshots, of both installations)
    into an offline HTML file (`ipt.export`)."""
    return click.option(
        "--html",
        "html_path",
        type=click.Path(dir_okay=False, path_type=Path),
        help=f"Also write {what} into this .html file (opens offline).",
    )


def check_map_file(html_path: Path | None) -> None:
    """`--html` not ending in .html is a wrong option, said before any work."""
    from .host import EXIT_TROUBLE, CommandError

    if html_path is not None and html_path.suffix.lower() != ".html":
        raise CommandError(
            f"--html {html_path.name}: the file name must end in .html", EXIT_TROUBLE
        )


def write_map_file(subject: Any, html_path: Path) -> None:
    """The map of a diff or a comparison written to `html_path` (`ipt.export`), with a
    progress stage, said on stderr so stdout stays the report."""
    from ..exporters import export
    from .host import EXIT_TROUBLE, one_line_errors
    from .progress import end_progress

    command_progress().stage(f"Laying out {html_path.name}")
    with one_line_errors(EXIT_TROUBLE, prefix="--html: "):
        export(subject, html_path)
    end_progress()
    click.echo(f"map written to {html_path}", err=True)
