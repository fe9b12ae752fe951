"""Reading profile listings: JSON in any wrapping, strict or lenient validation, lossless dumps.

`parse_profiles` is strict and raises `ParseError` naming the profile and the JSON path.
`validate_profiles` is the lenient half: it returns the good models and a `ProfileProblem`
(with the raw profile, unchanged) for each faulty one. `check_profiles` is what `Estate`
builds on: the problems alone, the models let go chunk by chunk, to be built again from the
raw JSON when someone asks for one (`profile_model`, `profile_models`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, NamedTuple, cast

from pydantic import GetCoreSchemaHandler, TypeAdapter, ValidationError
from pydantic_core import core_schema

from ..support.redact import redact_fields
from .base import gc_paused, routed_errors
from .fastcheck import profile_fault
from .jsontext import (
    DuplicateKey,
    Issue,
    ParseError,
    Step,
    json_path,
    loads_json,
    read_json,
)
from .profile import IntegrationProfile

__all__ = [
    "ParseError",
    "ProfileProblem",
    "Issue",
    "WRAPPER_KEYS",
    "loads_json",
    "read_json",
    "DuplicateKey",
    "Listing",
    "read_listing",
    "listing_of",
    "listing_issues",
    "locate_profiles",
    "unwrap_profiles",
    "parse_profiles",
    "validate_profiles",
    "check_profiles",
    "raise_first",
    "profile_model",
    "profile_models",
    "dump_profiles",
]

WRAPPER_KEYS = (
    "data",
    "items",
    "content",
    "profiles",
    "results",
    "entries",
    "records",
    "values",
    "elements",
    "rows",
    "list",
    "_embedded",
)
"""Keys under which a wrapped listing is looked for, in this order."""

_MAX_ERRORS_SHOWN = 5
_EXCERPT = 60


class _NoneIfFaulty:
    """Validate a list item, giving None instead of failing: one pass for a lenient load."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_default_schema(handler(source), default=None, on_error="default")


# The validators are made when first used (the models defer building their schemas too):
# a load whose profiles all pass the fast check builds none, and starts that much sooner.


@functools.cache
def _list_adapter() -> TypeAdapter[list[IntegrationProfile]]:
    return TypeAdapter(list[IntegrationProfile])


@functools.cache
def _lenient_adapter() -> TypeAdapter[list[IntegrationProfile | None]]:
    lenient = TypeAdapter(list[Annotated[IntegrationProfile, _NoneIfFaulty()]])
    return cast("TypeAdapter[list[IntegrationProfile | None]]", lenient)  # None if faulty


@functools.cache
def _one_adapter() -> TypeAdapter[IntegrationProfile]:
    return TypeAdapter(IntegrationProfile)


@dataclass
class ProfileProblem:
    """A profile that failed strict validation, kept raw so that nothing is lost."""

    index: int
    profile_id: Any
    issues: list[Issue]
    raw: Any = field(repr=False)

    @property
    def message(self) -> str:
        shown = "; ".join(str(issue) for issue in self.issues[:_MAX_ERRORS_SHOWN])
        more = len(self.issues) - _MAX_ERRORS_SHOWN
        return shown + (f"; and {more} more" if more > 0 else "")

    def __str__(self) -> str:
        return f"profile {self.index} (id {self.profile_id!r}): {self.message}"

    def path_inside(self, issue: Issue) -> str | None:
        """The issue's JSON path inside the profile (`$.created`, not `$[3].created`), as
        findings and diffs name a field; None for a path outside the profile."""
        root = f"$[{self.index}]"
        if issue.path == root or issue.path.startswith((f"{root}.", f"{root}[")):
            return "$" + issue.path[len(root) :]
        return None

    def renumbered(self, index: int) -> ProfileProblem:
        """This problem at another position of a listing, its JSON paths with it: a subset's
        problems are numbered for the subset, a finding's for the file it points into."""
        if index == self.index:
            return self
        old, new = f"$[{self.index}]", f"$[{index}]"
        issues = [
            dataclasses.replace(issue, path=new + issue.path[len(old) :])
            if issue.path.startswith(old)
            else issue
            for issue in self.issues
        ]
        return dataclasses.replace(self, index=index, issues=issues)


class Listing(NamedTuple):
    """Profiles read from JSON text, with the issues the text itself gave some of them."""

    items: list[Any]
    issues: Mapping[int, list[Issue]]
    """Profile index -> what is wrong with it beyond validation (a key given twice)."""
    suspects: frozenset[int] | None = None
    """The profiles the fast check (`fastcheck`, on each profile as JSON parsed it) found
    at fault, for pydantic to judge; None when not checked (Python objects from a caller,
    which pydantic checks)."""


def read_listing(data: bytes | str, *, fast_check: bool = True) -> Listing:
    """Read a listing in any wrapping; a repeated key in a profile becomes its issue.

    `fast_check`: find the `suspects` too (False when every profile gets a model anyway).

    A repeated key outside the profiles (in the wrapper, or the key holding them) raises
    `ParseError`: it cannot be one profile's problem, and reading on would drop a value,
    perhaps a whole list of profiles.
    """
    document, duplicates = read_json(data)
    items, at = locate_profiles(document)
    if not fast_check:
        return Listing(items, listing_issues(at, duplicates))
    return listing_of(items, at, duplicates)


def listing_of(
    items: list[Any],
    at: tuple[Step, ...] | None,
    duplicates: Sequence[DuplicateKey],
    *,
    known_valid: Container[int] = (),
) -> Listing:
    """The listing of `items`, JSON as parsed (found at the steps `at`; None: the document
    is one profile): the issues of the text, and the profiles the fast check finds at
    fault. `known_valid`: positions not checked again, their exact text having been found
    valid before (the archive stores each text once with its verdict)."""
    issues = listing_issues(at, duplicates)
    with gc_paused():
        suspects = frozenset(
            index
            for index, item in enumerate(items)
            if index not in known_valid and profile_fault(item) is not None
        )
    return Listing(items, issues, suspects)


def listing_issues(
    at: tuple[Step, ...] | None, duplicates: Sequence[DuplicateKey]
) -> dict[int, list[Issue]]:
    """The repeated keys inside the profiles found `at` (None: the document is one profile),
    by profile index; raise `ParseError` for one anywhere else."""
    issues: dict[int, list[Issue]] = {}
    for duplicate in duplicates:
        steps = (*duplicate.path, duplicate.key)
        index: Step
        if at is None:
            index, inside = 0, steps
        elif len(steps) > len(at) + 1 and steps[: len(at)] == at:
            index, *rest = steps[len(at) :]
            inside = tuple(rest)
        else:
            raise ParseError(
                f"{json_path(steps)}: {duplicate.describe()}; this key is not inside a "
                "profile, so nothing was loaded: keep one copy of the key (merge the lists "
                "if it holds profiles)"
            )
        assert isinstance(index, int)
        path = json_path(inside, root=f"$[{index}]")
        issues.setdefault(index, []).append(Issue(path, duplicate.describe()))
    return issues


def unwrap_profiles(data: Any) -> list[Any]:
    """Find the list of profiles in a bare array, a single profile or a wrapper object."""
    if isinstance(data, tuple):  # an estate's raw_profiles
        return list(data)
    return locate_profiles(data)[0]


def locate_profiles(
    data: Any, at: tuple[Step, ...] = ()
) -> tuple[list[Any], tuple[Step, ...] | None]:
    """The list of profiles and the steps to it from the root (None: `data` is one profile)."""
    if isinstance(data, list):
        return data, at
    if not isinstance(data, dict):
        raise ParseError(f"no list of profiles found: {_what_was_given(data)}; {_NEEDED}")
    if data.get("class") == _PROFILE_CLASS:  # a list it holds is an unknown field of it
        return [data], None
    for key in WRAPPER_KEYS:
        value = data.get(key)
        if isinstance(value, list):
            return value, (*at, key)
        if isinstance(value, dict) and key in ("data", "_embedded"):
            return locate_profiles(value, (*at, key))
    if _looks_like_profile(data):
        return [data], None
    lists = [key for key, value in data.items() if isinstance(value, list)]
    if len(lists) == 1:
        return data[lists[0]], (*at, lists[0])
    keys = ", ".join(repr(key) for key in list(data)[:10]) or "none"
    raise ParseError(
        "no list of profiles found in the JSON object "
        f"(keys: {keys}); expected an array, or one key such as 'data' or 'items' holding it"
    )


def parse_profiles(
    data: bytes | bytearray | memoryview | str | list[Any] | dict[str, Any],
) -> list[IntegrationProfile]:
    """Parse a profile listing strictly; raise `ParseError` on the first faulty profile.

    >>> parse_profiles(b'[{"class": "core:IntegrationProfile", "id": "P1"}]')[0].id
    'P1'
    """
    if isinstance(data, bytes | bytearray | memoryview | str):
        text = data if isinstance(data, str | bytes) else bytes(data)
        items, issues, _ = read_listing(text, fast_check=False)  # models are built anyway
        if issues:
            raise_first(check_profiles(items, issues=issues))
    else:
        items = unwrap_profiles(data)
    try:
        with gc_paused():
            return _list_adapter().validate_python(items)
    except ValidationError as exc:
        raise_first(_problems_from(exc, items))
    raise AssertionError("unreachable")  # pragma: no cover


def raise_first(problems: Sequence[ProfileProblem]) -> None:
    """Raise `ParseError` for the first problem, saying how many more there are (if any)."""
    if not problems:
        return
    first = problems[0]
    more = len(problems) - 1
    suffix = f" ({more} more faulty profile{'s' if more != 1 else ''})" if more else ""
    raise ParseError(str(first) + suffix, issues=first.issues)


def validate_profiles(
    items: Sequence[Any],
) -> tuple[list[IntegrationProfile | None], list[ProfileProblem]]:
    """Validate leniently: one model (or None) per item, and a problem per faulty item.

    One pass gives None for each faulty item; only those are validated again, for their
    errors.
    """
    with gc_paused():
        models: list[IntegrationProfile | None] = _lenient_adapter().validate_python(items)
    problems = [
        _problem_of(index, items[index]) for index, model in enumerate(models) if model is None
    ]
    return models, problems


CHECK_CHUNK = 500
"""Profiles validated at a time by `check_profiles`: their models are let go after each chunk."""


def check_profiles(
    items: Sequence[Any],
    *,
    issues: Mapping[int, Sequence[Issue]] | None = None,
    suspects: frozenset[int] | None = None,
) -> list[ProfileProblem]:
    """The problems of a listing, validated as `validate_profiles` does, keeping no model.

    Models take about five times the memory of their JSON; an estate keeps the raw JSON and
    its index, and builds a model when one is asked for. Given the `suspects` (from
    `read_listing`: the profiles whose text `fastcheck` found at fault, no model built),
    only those are validated by pydantic, which decides and says why. Otherwise validating
    a chunk at a time lets each chunk's models go before the next is built, so the peak
    stays small. `issues` (from `read_listing`: what the text said wrong of a profile) come
    first in a problem, and make one of a profile that validates.
    """
    if suspects is not None:
        return _with_issues(_judged(items, suspects | set(issues or ())), items, issues or {})
    problems: list[ProfileProblem] = []
    with gc_paused():
        for start in range(0, len(items), CHECK_CHUNK):
            chunk = items[start : start + CHECK_CHUNK]
            problems.extend(_problem_of(start + offset, chunk[offset]) for offset in _faulty(chunk))
    return _with_issues(problems, items, issues or {})


def _faulty(chunk: Sequence[Any]) -> list[int]:
    """The offsets of the chunk's faulty profiles. Strict, not lenient: the lenient
    validator's default on error swallows any exception, Ctrl-C's `KeyboardInterrupt`
    too (the profile it struck then seemed faulty, and validated alone)."""
    try:
        _list_adapter().validate_python(chunk)  # the models are let go at once
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        return sorted(
            {loc[0] for error in errors if (loc := error["loc"]) and isinstance(loc[0], int)}
        )
    return []


def _judged(items: Sequence[Any], suspects: Iterable[int]) -> list[ProfileProblem]:
    """The problems of the `suspects` as pydantic reports them; pydantic may accept one (a
    rule the fast check leaves to it, such as a field given under its Python name)."""
    with gc_paused():
        found = (_problem_if_any(index, items[index]) for index in sorted(suspects))
        return [problem for problem in found if problem is not None]


def _with_issues(
    problems: list[ProfileProblem], items: Sequence[Any], issues: Mapping[int, Sequence[Issue]]
) -> list[ProfileProblem]:
    if not issues:
        return problems
    by_index = {problem.index: problem for problem in problems}
    for index, found in issues.items():
        problem = by_index.get(index)
        if problem is None:
            by_index[index] = ProfileProblem(
                index, _profile_id(items[index]), list(found), items[index]
            )
        else:
            problem.issues[:0] = found
    return [by_index[index] for index in sorted(by_index)]


def profile_model(item: Any) -> IntegrationProfile:
    """The model of one raw profile; raises `ValidationError` when it is faulty."""
    return _one_adapter().validate_python(item)


def profile_models(items: Sequence[Any]) -> list[IntegrationProfile]:
    """The models of raw profiles known to be valid, in one pass."""
    with gc_paused():
        return _list_adapter().validate_python(items)


def dump_profiles(profiles: Iterable[IntegrationProfile]) -> list[dict[str, Any]]:
    """JSON-ready dicts, key for key and value for value what was parsed."""
    return [profile.to_json_dict() for profile in profiles]


_PROFILE_CLASS = "core:IntegrationProfile"


def _looks_like_profile(data: dict[str, Any]) -> bool:
    cls = data.get("class")
    if isinstance(cls, str):
        return cls == _PROFILE_CLASS
    return any(key in data for key in ("id", "name", "inputAgentSettings", "group"))


def _problems_from(exc: ValidationError, items: Sequence[Any]) -> list[ProfileProblem]:
    by_index: dict[int, list[Issue]] = {}
    for error in routed_errors(exc.errors(include_url=False)):
        index, *rest = error["loc"]
        assert isinstance(index, int)
        path = _json_path(items[index], rest, f"$[{index}]")
        by_index.setdefault(index, []).append(Issue(path, _describe(error)))
    return [
        ProfileProblem(index, _profile_id(items[index]), issues, items[index])
        for index, issues in sorted(by_index.items())
    ]


def _problem_of(index: int, item: Any) -> ProfileProblem:
    """The problem with one item that failed validation in a list, at `index`."""
    problem = _problem_if_any(index, item)
    if problem is None:  # cannot happen: the item failed in the list
        raise AssertionError(f"profile {index} failed validation in the list only")
    return problem


def _problem_if_any(index: int, item: Any) -> ProfileProblem | None:
    """The problem with one item at `index` as pydantic finds it, None if it is valid."""
    try:
        _one_adapter().validate_python(item)
    except ValidationError as exc:
        errors = routed_errors(exc.errors(include_url=False))
    else:
        return None
    issues = [
        Issue(_json_path(item, error["loc"], f"$[{index}]"), _describe(error)) for error in errors
    ]
    return ProfileProblem(index, _profile_id(item), issues, item)


def _json_path(value: Any, loc: Sequence[Any], path: str) -> str:
    """Follow pydantic's location through the raw value; skip union tags it inserts."""
    for step in loc:
        if isinstance(value, dict) and isinstance(step, str) and step in value:
            value = value[step]
            path = json_path((step,), root=path)
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
            path = json_path((step,), root=path)
        elif isinstance(value, dict) and isinstance(step, str) and ":" not in step:
            path += f".{step}"  # a field the error is about that is missing from the input
    return path


def _describe(error: Any) -> str:
    message = error["msg"]
    if error["type"] == "model_type" or error["type"] == "dict_type":
        message = "expected a JSON object"
    elif error["type"] == "list_type":
        message = "expected a JSON array"
    value = error.get("input")
    got = _json_type(value)
    if value is None:  # `null` says both what and which
        return f"{message}; got null"
    excerpt = json.dumps(redact_fields(value), default=str)  # an error is shown and logged
    if len(excerpt) > _EXCERPT:
        excerpt = excerpt[: _EXCERPT - 3] + "..."
    return f"{message}; got {got} {excerpt}"


_NEEDED = "expected a list of profiles (a JSON array) or an object that holds one"


def _what_was_given(data: Any) -> str:
    """`the JSON is a string`, `the JSON is an object`, or, for what JSON cannot hold (a
    generator given to `Estate.from_raw`), `given a generator, not JSON`."""
    if data is None:
        return "the JSON is null"
    if isinstance(data, bool | int | float | str | dict):
        kind = _json_type(data)
        return f"the JSON is {'an' if kind == 'object' else 'a'} {kind}"
    return f"given a {type(data).__name__}, not JSON"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _profile_id(item: Any) -> Any:
    return item.get("id") if isinstance(item, dict) else None
