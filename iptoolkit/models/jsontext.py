"""Reading JSON text exactly: big integers kept, nothing non-finite, valid Unicode, every key.

jiter (the parser inside pydantic-core, whose `from_json` cannot report repeated keys)
reads the text: integers of any size stay ints, and it notices a repeated key in an object as it
reads (10k profiles: about as fast as pydantic-core's `from_json`, which it replaces). It
shares every repeated short string, keys and values alike (`cache_mode="all"`): a listing
repeats class names, flags and hosts thousands of times, and one object each halves the
parsed JSON's memory (10k profiles: 2.2x the payload, against 4.2x with keys alone).
What it lets through or words poorly is checked here, each reported with its JSON path:

- a key given twice (`{"id": "P1", "id": "P2"}`) would keep only the last value: only then
  is the text read a second time, by the standard library, to find every repeated key and
  its values (`DuplicateKey`); `loads_json` refuses them, `read_json` hands them over;
- a number beyond a double's range (`1e400`) would become infinity and be saved as null: a
  cheap signal (orjson writes infinity as `null`, so the document written again holds more
  `null`s than the text) decides whether the document is searched for one;
- a number whose digits a double cannot hold (`3.14159265358979323846`, `1e-400`) would be
  saved as another number (`3.141592653589793`, `0.0`): refused, as the one beyond a
  double's range is. The text orjson writes exactly holds none (the proof below); other
  text is read a second time keeping each number's digits (jiter's lossless floats),
  which orjson writes back as they came: when that equals the document written, no
  number was changed, else the changed one is found and named. A number spelled another
  way but of the same value (`1E2`, saved as `100.0`; `1.50` as `1.5`) is the same JSON
  number and is read, as `\\u00e9` is read as `é`;
- a lone surrogate (`"\\ud800"`) is named as such, not as a broken escape.
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

import jiter
import orjson

from .base import gc_paused

__all__ = [
    "ParseError",
    "DuplicateKey",
    "ItemSpans",
    "ListingVisit",
    "read_json",
    "loads_json",
    "json_path",
]

MAX_DEPTH = 200
"""jiter reads arrays and objects nested this deep, no deeper."""
_SURROGATE_ERRORS = ("lone leading surrogate", "unexpected end of hex escape")

Step = str | int


@dataclass(frozen=True)
class Issue:
    """One thing wrong with one value: its JSON path and what was expected."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class ParseError(ValueError):
    """Input that is not a valid profile listing; the message says what and where."""

    def __init__(self, message: str, *, issues: Sequence[Issue] = ()) -> None:
        super().__init__(message)
        self.issues = list(issues)


class DuplicateKey(NamedTuple):
    """A key given more than once in one object: where, and every value in order."""

    path: tuple[Step, ...]
    """The steps from the document's root to the object holding the key."""
    key: str
    values: tuple[Any, ...]
    """Every value given, in order; the document holds the last."""

    def describe(self) -> str:
        """What is wrong, without the values (a repeated key may hold a secret)."""
        lists = ""
        if all(isinstance(value, list) for value in self.values):
            lists = f" (arrays of {' and '.join(str(len(v)) for v in self.values)} items)"
        return (
            f"the key {json.dumps(self.key)} is given {len(self.values)} times in one "
            f"object{lists}; a JSON reader keeps the last value and drops the others"
        )


def json_path(steps: tuple[Step, ...] | list[Step], root: str = "$") -> str:
    """`$.a[3]["b c"]`: the steps to a value, as JSON paths are written."""
    path = root
    for step in steps:
        if isinstance(step, int):
            path += f"[{step}]"
        else:
            path += f".{step}" if step.isidentifier() else f"[{json.dumps(step)}]"
    return path


def loads_json(data: bytes | str) -> Any:
    """Parse JSON text exactly; raise `ParseError` for bad JSON or a repeated key.

    >>> loads_json(b'{"id": 12345678901234567890123}')
    {'id': 12345678901234567890123}
    """
    document, duplicates = read_json(data)
    if duplicates:
        first = duplicates[0]
        raise ParseError(f"{json_path(first.path + (first.key,))}: {first.describe()}")
    return document


class ListingVisit:
    """Work on each item of a document's listing, done by `read_json(visit=)` as it proves
    the item, while the item's objects are still in the processor's cache (a load's checks
    and index then cost one pass over the estate, not one per step).

    `locate` picks the listing in the parsed document (None: none to visit); `item` is
    called for each of its items in order. `proven` tells whether every item was visited
    and the whole text proven exactly as orjson writes it. When it is False, `void` was
    called: what `item` saw is void (the text is read again another way, or the listing
    was proven whole, not item by item: one nested below the top object).
    """

    proven = False

    def locate(self, document: Any) -> list[Any] | None:
        return None

    def item(self, index: int, item: Any) -> None:
        pass

    def void(self) -> None:
        """The visit is void: let go of what `locate` and `item` kept."""


class _Visiting:
    """The listing `read_json` visits (by `id()`), what to call with each item, and
    whether every item was visited."""

    __slots__ = ("listing", "call", "done")

    def __init__(self, listing: list[Any], call: Callable[[int, Any], None]) -> None:
        self.listing = id(listing)
        self.call = call
        self.done = False


class ItemSpans:
    """Filled by `read_json(texts=)`: the text read, and where the items of each of its
    arrays that may be a listing are (the top three levels), by `id()` of the parsed
    array, when the text is as iptoolkit writes it."""

    def __init__(self) -> None:
        self.text = b""
        self.spans: dict[int, list[tuple[int, int]]] = {}


def read_json(
    data: bytes | str, *, texts: ItemSpans | None = None, visit: ListingVisit | None = None
) -> tuple[Any, list[DuplicateKey]]:
    """The document, and every key that some object gives twice (the last value is kept).

    `texts`, when given, learns where each profile of the listing is in the text, when
    the proof below holds: a caller needing each profile's JSON (the archive, the URL
    audit rules) then reads it there instead of writing it again. Left empty otherwise.
    `visit`: see `ListingVisit`.

    Raises `ParseError` for text that is not JSON, nests too deeply, holds a number beyond
    a double's range or a lone surrogate.
    """
    text = without_bom(data)
    if isinstance(text, bytes) and _compact(text):
        with gc_paused():  # the visit builds many objects too
            try:
                document = jiter.from_json(text, allow_inf_nan=False, cache_mode="all")
            except ValueError as exc:
                raise _not_json(exc, text) from None
            spans = None if texts is None else texts.spans
            listing = visit.locate(document) if visit is not None else None
            hook = None if listing is None or visit is None else _Visiting(listing, visit.item)
            written = _written_as(document, text, spans, hook)
            if visit is not None:
                visit.proven = written and hook is not None and hook.done
                if not visit.proven:
                    visit.void()  # before reading again: the work done so far can go
            if written:
                if texts is not None:
                    texts.text = text
                return document, []
        if spans:
            spans.clear()
    try:
        with gc_paused():
            document = jiter.from_json(
                _as_bytes(text),
                allow_inf_nan=False,
                cache_mode="all",
                catch_duplicate_keys=True,
                float_mode="lossless-float",
            )
    except ValueError as exc:
        if not str(exc).startswith("Detected duplicate key"):
            raise _not_json(exc, text) from None
        return _with_duplicates(text)
    if _has_floats(document):
        with gc_paused():  # the digits are proven: now the floats the views read
            document = jiter.from_json(_as_bytes(text), allow_inf_nan=False, cache_mode="all")
    return document, []


def _compact(text: bytes) -> bool:
    """Whether the text may be exactly as orjson writes it (no spaces between tokens,
    judged by its start; a listing may hold one profile per line, as snapshots do):
    snapshots, and many APIs' answers. A quote escaped inside a string (`"{\\"_id\\": 0}"`,
    a query a profile holds) is no token: it once sent a file orjson wrote down the slow
    road, read twice."""
    head = text[:_HEAD].rstrip().replace(b'\\"', b"")
    return b'": ' not in head and b'", "' not in head


_HEAD = 4096


Spans = dict[int, list[tuple[int, int]]]


class _Unwritable(Exception):
    """orjson cannot write a value: an integer beyond 64 bits."""


def _written_as(
    document: Any, text: bytes, spans: Spans | None = None, hook: _Visiting | None = None
) -> bool:
    """Whether orjson writes `document` as exactly `text` (trailing white space aside).

    Then the text gives no key twice (the document would have fewer pairs than the text)
    and no number beyond a double's range (orjson writes infinity as null): one cheap
    proof instead of looking for either, for the text iptoolkit itself writes. Written a
    part at a time (each profile), so that no second copy of a large document is made;
    `spans` keeps where each listing item is (see `read_json`); `hook` visits the items of
    one listing as each is proven.
    """
    try:
        end = _match(document, text, 0, 0, spans, hook)
    except _Unwritable:
        return False
    return end >= 0 and not text[end:].strip()


def _line_break(text: bytes, at: int) -> int:
    """Past the one line break a listing may put between its items (a snapshot writes a
    profile per line), or `at` itself."""
    return at + 1 if text.startswith(b"\n", at) else at


def _match(
    value: Any, text: bytes, at: int, depth: int, spans: Spans | None, hook: _Visiting | None
) -> int:
    """Where `value`, written by orjson, ends if `text` holds it at `at`; -1 if not."""
    if depth < 3 and isinstance(value, list):  # a listing: written a profile at a time
        if not text.startswith(b"[", at):
            return -1
        at = _line_break(text, at + 1)
        found: list[tuple[int, int]] = []
        visiting = hook if hook is not None and hook.listing == id(value) else None
        for index, item in enumerate(value):
            if index:
                if not text.startswith(b",", at):
                    return -1
                at = _line_break(text, at + 1)
            end = _match(item, text, at, depth + 1, spans, hook)
            if end < 0:
                return -1
            if visiting is not None:
                visiting.call(index, item)
            found.append((at, end))
            at = end
        if spans is not None:
            spans[id(value)] = found
        if visiting is not None:
            visiting.done = True
        at = _line_break(text, at)
        return at + 1 if text.startswith(b"]", at) else -1
    if depth == 0 and isinstance(value, dict):  # a wrapper, such as a snapshot's header
        if not text.startswith(b"{", at):
            return -1
        at += 1
        for index, (key, item) in enumerate(value.items()):
            written = (b"," if index else b"") + orjson.dumps(key) + b":"
            if not text.startswith(written, at):
                return -1
            at = _match(item, text, at + len(written), depth + 1, spans, hook)
            if at < 0:
                return -1
        return at + 1 if text.startswith(b"}", at) else -1
    try:
        written = orjson.dumps(value)
    except TypeError:  # only an integer beyond 64 bits, in parsed JSON
        raise _Unwritable from None
    return at + len(written) if text.startswith(written, at) else -1


def without_bom(data: bytes | str) -> bytes | str:
    """Drop a byte-order mark (RFC 8259 allows ignoring one); Windows tools write them.

    UTF-16 with a BOM (PowerShell 5's `>` redirection) is decoded; anything else is left
    to the parser, which reports it.
    """
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :]
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return data
    return data


def _as_bytes(text: bytes | str) -> bytes:
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")  # a lone surrogate stays one, for jiter
    return bytes(text)


def _not_json(exc: ValueError, text: bytes | str) -> ParseError:
    reason = str(exc)
    if reason.startswith("recursion limit exceeded"):
        return ParseError(f"JSON nested too deeply to read ({MAX_DEPTH} levels at most): {reason}")
    if reason.startswith(_SURROGATE_ERRORS):
        found = _lone_surrogate(text)
        if found:
            return ParseError(f"not JSON: {found} ({reason})")
    if isinstance(text, bytes):
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as decode_error:
            reason = f"the input is not UTF-8 text ({decode_error.reason})"
    return ParseError(f"not JSON: {reason}")


def _lone_surrogate(text: bytes | str) -> str | None:
    """Where the first string holding a lone surrogate is, read by the lenient stdlib."""
    try:
        document = json.loads(text)
    except ValueError:
        return None
    for steps, value in _walk(document, (), {}):
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                code = ord(value[exc.start])
                return f"{json_path(steps)}: lone surrogate \\u{code:04x}, not valid Unicode"
    return None


def _with_duplicates(text: bytes | str) -> tuple[Any, list[DuplicateKey]]:
    """The slow path, for text with a repeated key: every repeat found, with its path."""
    try:  # first the checks jiter stopped short of, past the first repeated key
        jiter.from_json(_as_bytes(text), allow_inf_nan=False, cache_mode="none")
    except ValueError as exc:
        raise _not_json(exc, text) from None
    repeated: dict[int, dict[str, list[Any]]] = {}

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) < len(pairs):
            values: dict[str, list[Any]] = {}
            for key, value in pairs:
                values.setdefault(key, []).append(value)
            repeated[id(result)] = {k: v for k, v in values.items() if len(v) > 1}
        return result

    overflowed = False
    inexact: str | None = None

    def parse_float(literal: str) -> float:
        nonlocal overflowed, inexact
        value = float(literal)
        overflowed = overflowed or not math.isfinite(value)
        inexact = inexact or _changed(literal, value)
        return value

    with gc_paused():
        document = json.loads(text, object_pairs_hook=pairs_hook, parse_float=parse_float)
    if overflowed:
        _refuse_non_finite(document, repeated)
    if inexact:
        _refuse_inexact(text, inexact)
    found: list[tuple[tuple[Step, ...], dict[str, Any]]] = []
    _find_objects(document, [], repeated, found)
    duplicates = [
        DuplicateKey(steps, key, tuple(values))
        for steps, value in found
        for key, values in repeated[id(value)].items()
    ]
    return document, duplicates


def _find_objects(
    value: Any,
    steps: list[Step],
    wanted: dict[int, dict[str, list[Any]]],
    found: list[tuple[tuple[Step, ...], dict[str, Any]]],
) -> None:
    """The objects in `wanted` (by id) with their steps from the root, in document order.

    Only arrays and objects are visited, and the steps are one list pushed and popped: the
    slow path stays a small part of reading the text again.
    """
    if isinstance(value, dict):
        dropped = wanted.get(id(value))
        if dropped is not None:
            found.append((tuple(steps), value))
        for key, item in value.items():
            earlier = dropped.get(key, [item])[:-1] if dropped else []
            for child in (*earlier, item):
                if isinstance(child, dict | list):
                    steps.append(key)
                    _find_objects(child, steps, wanted, found)
                    steps.pop()
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                steps.append(index)
                _find_objects(item, steps, wanted, found)
                steps.pop()


def _has_floats(document: Any) -> bool:
    """Whether the document, read with lossless floats, holds a float; a number a double
    cannot hold (beyond its range, or its digits) is refused with its path. orjson writes
    each float as it came (a C pass; the hook runs once a float), a part at a time (each
    item of a listing, the values of a wrapper): a large document is never copied whole."""
    floats: list[Any] = []

    def as_received(value: Any) -> orjson.Fragment:
        if not isinstance(value, jiter.LosslessFloat):
            raise TypeError
        floats.append(value)
        return orjson.Fragment(bytes(value))

    def write(value: Any, depth: int) -> None:
        if depth < 3 and isinstance(value, list):
            for item in value:
                orjson.dumps(item, default=as_received)
        elif depth == 0 and isinstance(value, dict):
            for item in value.values():
                write(item, depth + 1)
        else:
            orjson.dumps(value, default=as_received)

    try:
        write(document, 0)
    except TypeError:  # an integer beyond 64 bits: search the document instead
        floats = [value for _, value in _walk(document, (), {})
                  if isinstance(value, jiter.LosslessFloat)]  # fmt: skip
    if any(_number_problem(bytes(value).decode()) for value in floats):
        for steps, value in _walk(document, (), {}):
            if isinstance(value, jiter.LosslessFloat):
                problem = _number_problem(bytes(value).decode())
                if problem:
                    raise ParseError(f"{json_path(steps)}: {problem}")
    return bool(floats)


_BEYOND_RANGE = (
    "a number beyond the range of a double (±1.8e308) would be read as infinity and saved "
    "as null; write it as a string, or smaller"
)


def _number_problem(literal: str) -> str | None:
    """Why the number `literal` cannot be read as a double, None when it can."""
    value = float(literal)
    return _BEYOND_RANGE if not math.isfinite(value) else _changed(literal, value)


def _refuse_non_finite(document: Any, repeated: dict[int, dict[str, list[Any]]]) -> None:
    for steps, value in _walk(document, (), repeated):
        if isinstance(value, float) and not math.isfinite(value):
            raise ParseError(f"{json_path(steps)}: {_BEYOND_RANGE}")


def _refuse_inexact(text: bytes | str, known: str) -> None:
    """The slow path's refusal of a number a double cannot hold (`known` says which): its
    path is found in the text read again with lossless floats, unless only a value that a
    repeated key drops holds it."""
    _has_floats(jiter.from_json(_as_bytes(text), allow_inf_nan=False,
                                float_mode="lossless-float"))  # fmt: skip
    raise ParseError(f"{known} (in a value that a repeated key drops)")


def _changed(literal: str, value: float) -> str | None:
    """Why the number `literal`, read as `value`, would be saved as another number: None
    when it would not (its value is the double's, in the shortest, the 17-digit or the
    exact spelling of it) or when it is beyond a double's range (refused as such)."""
    if not math.isfinite(value):
        return None
    received = Decimal(literal)
    if received in (Decimal(repr(value)), Decimal(f"{value:.17g}"), Decimal(value)):
        return None
    shown = literal if len(literal) <= 40 else literal[:37] + "..."
    saved = orjson.dumps(value).decode()
    why = "is too small for a double" if value == 0 else "has more digits than a double holds"
    return (f"the number {shown} {why}: it would be saved as {saved}; write it as a "
            "string")  # fmt: skip


def _walk(
    value: Any, steps: tuple[Step, ...], repeated: dict[int, dict[str, list[Any]]]
) -> Iterator[tuple[tuple[Step, ...], Any]]:
    """Every value with its steps from the root, the values a repeated key dropped included."""
    yield steps, value
    if isinstance(value, dict):
        dropped = repeated.get(id(value), {})
        for key, item in value.items():
            for earlier in dropped.get(key, [])[:-1]:
                yield from _walk(earlier, (*steps, key), repeated)
            yield from _walk(item, (*steps, key), repeated)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, (*steps, index), repeated)
