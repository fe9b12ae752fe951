"""Masking (`redact_fields`, `redact_text`) against copying the same JSON, and on hostile text.

Every export, diff and detail pane masks every field it shows, so a slower `redact_text`
slows them all (a pass gated by four `in` tests per text once made it 2.4 times slower,
which no test saw). Figures, each the best of `--repeat` runs:

- `copy`: `orjson.loads(orjson.dumps(raw))` of the demo profiles (the floor: the same tree
  walked and rebuilt in C), and `mask`: `redact_fields` of the same profiles, with the
  ratio mask / copy; once in a fresh process and once beside a 10,000-profile estate held
  in memory (the notebook situation, `--beside`);
- the hostile inputs of the tests (`tests/test_redact.py`: 200-300 KB each, built to make
  a careless pattern quadratic): the slowest five, in milliseconds per 100 KB, beside
  `str.lower` of the same text (a pass over it in C).

    python benchmarks/bench_redact.py [--profiles 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' hostile inputs
sys.path.insert(0, str(Path(__file__).parent))

from timing import best_time  # noqa: E402

import iptoolkit as ipt  # noqa: E402
from iptoolkit.support.redact import redact_fields, redact_text  # noqa: E402


def fields(profiles: int, repeat: int) -> tuple[float, float]:
    """Seconds to copy and to mask every field of `profiles` demo profiles."""
    raw = list(ipt.demo_estate(profiles).raw_profiles)
    copy = best_time(lambda: orjson.loads(orjson.dumps(raw)), repeat)
    mask = best_time(lambda: redact_fields(raw), repeat)
    return copy, mask


def hostile(repeat: int) -> list[tuple[float, float, str]]:
    """(ms per 100 KB masking, ms per 100 KB lowering, the input's start) of each input."""
    from tests.test_redact import HOSTILE_CONFIG_TEXT

    out = []
    for text, _ in HOSTILE_CONFIG_TEXT:
        per = 100_000 / len(text) * 1000
        masked = best_time(functools.partial(redact_text, text), repeat) * per
        lowered = best_time(text.lower, repeat) * per
        out.append((masked, lowered, text[:24]))
    return sorted(out, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--beside", action="store_true", help="(a child: hold 10k first)")
    args = parser.parse_args()
    if args.beside:
        held = ipt.demo_estate(10_000)  # noqa: F841 - held in memory while timing
        copy, mask = fields(args.profiles, args.repeat)
        print(f"{'beside 10k':>12} {copy:>8.3f} {mask:>8.3f} {mask / copy:>7.2f}")
        return
    print(f"{'fields of':>12} {'copy s':>8} {'mask s':>8} {'x copy':>7}   ({args.profiles:,} "
          "demo profiles)")  # fmt: skip
    copy, mask = fields(args.profiles, args.repeat)
    print(f"{'fresh':>12} {copy:>8.3f} {mask:>8.3f} {mask / copy:>7.2f}")
    sys.stdout.flush()
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, __file__, "--beside", "--profiles", str(args.profiles),
         "--repeat", str(args.repeat)],
        check=True,
    )  # fmt: skip
    print(f"{'':>12} (the child took {time.perf_counter() - started:.0f} s)")
    print(f"\n{'hostile':>12} {'mask ms':>8} {'lower ms':>8}   per 100 KB, slowest five")
    for masked, lowered, start in hostile(args.repeat)[:5]:
        print(f"{'':>12} {masked:>8.1f} {lowered:>8.2f}   {start!r}")


if __name__ == "__main__":
    main()
