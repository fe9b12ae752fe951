"""The audit on a demo estate (10,000 profiles by default): every rule, on the built
estate (a fresh context each run, so nothing the rules share is reused), against building
the estate's index (`Estate.from_raw`: records, channels, partners) in the same run.

Goal (issue 23): the whole audit under 1 s for 10,000 profiles. Also shown: each rule
alone (the slowest first), the SARIF report with the snapshot's line positions, and a
baseline's filtering, so a regression points at its rule.

Prints best-of-N seconds and ratios; the machine is shared, so the best run is the one
least disturbed.

    python benchmarks/bench_audit.py [--profiles 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from timing import best_time  # noqa: E402

import iptoolkit as ipt  # noqa: E402
from iptoolkit.auditing import BUILTIN_RULES, AuditContext, Baseline, audit  # noqa: E402
from iptoolkit.auditing.lines import profile_positions  # noqa: E402
from iptoolkit.auditing.reports import ReportContext, render  # noqa: E402
from iptoolkit.core.estate import Estate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    estate = ipt.demo_estate(n_profiles=args.profiles, seed=0)
    raw = list(estate.raw_profiles)
    index = best_time(lambda: Estate.from_raw(raw), args.repeat)
    audited = best_time(lambda: audit(estate), args.repeat)  # a fresh context each run
    found = audit(estate)
    print(f"{args.profiles:,} profiles, {len(BUILTIN_RULES)} rules, {len(found):,} findings")
    print(f"  build the index (Estate.from_raw)   {index:8.3f} s")
    print(f"  the whole audit, every rule         {audited:8.3f} s   "
          f"{audited / index:5.2f}x the index   goal: under 1 s")  # fmt: skip

    timings = []
    for one in BUILTIN_RULES:
        alone = partial(lambda rule: AuditContext(estate, {}).run(rule), one)  # a fresh context
        seconds = best_time(alone, args.repeat)
        timings.append((seconds, one.code, one.name))
    print("  each rule alone (fresh context, so shared work is counted in each):")
    for seconds, code, name in sorted(timings, reverse=True)[:8]:
        print(f"    {code} {name:<34} {seconds:8.3f} s")

    with tempfile.TemporaryDirectory() as folder:
        path = estate.save(Path(folder) / "snapshot.json")
        positions = best_time(lambda: profile_positions(path), args.repeat)
        lines = profile_positions(path)
        context = ReportContext(found, BUILTIN_RULES, snapshot=path, positions=lines)
        sarif = best_time(lambda: render(context, "sarif"), args.repeat)
        baseline = Baseline.of(found)
        hide = best_time(lambda: baseline.new_in(found), args.repeat)
        print(f"  profile lines in the snapshot file  {positions:8.3f} s   "
              f"({path.stat().st_size / 1e6:,.0f} MB)")  # fmt: skip
        print(f"  SARIF report                        {sarif:8.3f} s")
        print(f"  baseline filter                     {hide:8.3f} s")


if __name__ == "__main__":
    main()
