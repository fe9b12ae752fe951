"""Parsing speed against `orjson.loads` of the same bytes, in a fresh process and beside an estate.

Two payloads: the demo profiles (`ipt.demo_profiles`) and "full" profiles, in which every
agent, channel, response-unit and content-type class of `iptoolkit.models` appears with
every field set (generated from the models' annotations, so a new field is covered).
Each size runs in its own child process, once fresh and once with a 10k-profile demo estate
held in memory (a large heap slows every allocator, orjson included). Steps:

- `orjson, gc paused` (the floor, ratios are against it: `orjson.loads` with the collector
  paused by `gc_paused`, gc.disable then gc.freeze/unfreeze, as iptoolkit parses) and
  `orjson, GC on` (the old floor, which its own collections slow);
- `parse_profiles(bytes)`: the strict parse (the text read with `read_json`'s checks for
  repeated keys and numbers beyond a double, then validated);
- `Estate path`: `loads_json` then `validate_profiles(raw)`, as `Estate.from_raw` runs it
  (it keeps the raw objects, which it saves back unchanged);
- `ipt.load`: the whole load of the payload as a file, index (records, registries) included.

Goals (issue 25): `ipt.load` within 2x of the floor at 10k and 100k, `parse_profiles`
within 3x. (Peak memory: `bench_load.py`.)

    python benchmarks/bench_parse.py [--sizes 1000,10000,100000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
from annotated_types import Ge
from pydantic import BaseModel, Tag
from timing import best_time, orjson_without_gc

import iptoolkit as ipt
from iptoolkit.models import (
    AGENT_TYPES,
    CHANNEL_TYPES,
    CONTENT_TYPES,
    RESPONSE_UNIT_TYPES,
    IntegrationProfile,
    class_name,
    loads_json,
    validate_profiles,
)
from iptoolkit.support.jsonio import dumps_json

HELD_PROFILES = 10_000
MAX_DEPTH = 6


# -- the full payload -------------------------------------------------------------------


class _Filler:
    """Raw profiles with every field of every model set, cycling through each family."""

    def __init__(self) -> None:
        self.turns: dict[tuple[type[BaseModel], ...], Iterator[type[BaseModel]]] = {}
        self.counter = itertools.count()

    def model(self, model: type[BaseModel], depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            alias = info.alias or name
            if alias == "class":
                out[alias] = class_name(model)
            elif depth < MAX_DEPTH:
                out[alias] = self.value(info.annotation, depth + 1)
        return out

    def value(self, annotation: Any, depth: int) -> Any:
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if annotation is typing.Any:
            return {"opaque": next(self.counter), "kept": ["as", "sent"]}
        if origin is typing.Annotated:
            inner, *metadata = args
            if typing.get_origin(inner) in (typing.Union, types.UnionType):
                members = [typing.get_args(arg)[0] for arg in typing.get_args(inner)]
                if all(
                    isinstance(m, Tag) for arg in typing.get_args(inner) for m in arg.__metadata__
                ):
                    return self.model(self.next_member(tuple(members[:-1])), depth)
            if inner is int:
                low = next((m.ge for m in _flatten(metadata) if isinstance(m, Ge)), 0)
                assert isinstance(low, int), low  # an int field's bound
                return max(low, 0) + next(self.counter) % 100_000
            return self.value(inner, depth)
        if origin in (typing.Union, types.UnionType):
            return self.value(next(arg for arg in args if arg is not type(None)), depth)
        if origin is list:
            return [self.value(args[0], depth) for _ in range(2 if depth < 4 else 1)]
        if annotation is str:
            return f"value-{next(self.counter)}"
        if annotation is bool:
            return next(self.counter) % 2 == 0
        if annotation is int:
            return 1_700_000_000_000 + next(self.counter)
        if annotation is float:
            return next(self.counter) / 7
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self.model(annotation, depth)
        raise TypeError(f"no value for {annotation!r}")

    def next_member(self, members: tuple[type[BaseModel], ...]) -> type[BaseModel]:
        if members not in self.turns:
            self.turns[members] = itertools.cycle(members)
        return next(self.turns[members])


def _flatten(metadata: list[Any]) -> list[Any]:
    flat: list[Any] = []
    for item in metadata:
        flat.extend(getattr(item, "metadata", [item]))
    return flat


def full_profiles(n_profiles: int) -> list[dict[str, Any]]:
    """`n_profiles` profiles with every field set; the families' members take turns."""
    filler = _Filler()
    return [
        {**filler.model(IntegrationProfile, 0), "id": f"F-{index:06d}"}
        for index in range(n_profiles)
    ]


def check_full_payload() -> None:
    """Every class of every family appears in the first profiles, which parse strictly."""
    profiles = full_profiles(len(AGENT_TYPES) * 2)
    text = dumps_json(profiles).decode()
    families = (AGENT_TYPES, CHANNEL_TYPES, RESPONSE_UNIT_TYPES, CONTENT_TYPES)
    missing = [m.__name__ for f in families for m in f if f'"{class_name(m)}"' not in text]
    if missing:
        raise SystemExit(f"full payload lacks {', '.join(missing)}")
    ipt.parse_profiles(profiles)


# -- one measurement, in a child process --------------------------------------------------


def child(payload_file: Path, held: bool, repeat: int) -> None:
    """Time the steps on one payload; print one JSON line of seconds per step."""
    estate = ipt.demo_estate(n_profiles=HELD_PROFILES) if held else None
    payload = payload_file.read_bytes()
    steps: dict[str, Callable[[], Any]] = {
        "orjson, gc paused": lambda: orjson_without_gc(payload),
        "orjson, GC on": lambda: orjson.loads(payload),
        "parse_profiles": lambda: ipt.parse_profiles(payload),
        "Estate path": lambda: validate_profiles(loads_json(payload)),
        "ipt.load": lambda: ipt.load(payload_file),
    }
    seconds = {name: best_time(step, repeat) for name, step in steps.items()}
    print(json.dumps(seconds))
    del estate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), args.child[1] == "held", int(args.child[2]))
        return
    check_full_payload()
    print(f"{'payload':<5} {'profiles':>8} {'MB':>6} {'process':<8} {'step':<15} ", end="")
    print(f"{'seconds':>8} {'x floor':>8}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for kind, make in (("demo", ipt.demo_profiles), ("full", full_profiles)):
            for size in (int(s) for s in args.sizes.split(",")):
                path = Path(folder) / f"{kind}-{size}.json"
                path.write_bytes(dumps_json(make(size)))
                for held in (False, True):
                    repeat = args.repeat if size <= 10_000 else 2
                    report(kind, size, path, held, repeat)


def report(kind: str, size: int, path: Path, held: bool, repeat: int) -> None:
    """Run one child and print its figures with ratios to `orjson.loads`."""
    command = [sys.executable, __file__, "--child", str(path), "held" if held else "fresh"]
    out = subprocess.run([*command, str(repeat)], capture_output=True, text=True, check=True)
    seconds = json.loads(out.stdout.splitlines()[-1])
    floor = seconds["orjson, gc paused"]
    megabytes = path.stat().st_size / 1e6
    for name, value in seconds.items():
        print(
            f"{kind:<5} {size:>8} {megabytes:>6.1f} {'held' if held else 'fresh':<8} {name:<15} "
            f"{value:>8.3f} {value / floor:>8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
