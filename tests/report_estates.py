"""The 2,000-profile demo estate and what the reports are run on beside it, saved as
snapshots (issue 45: each report of the 2k demo and its test installation)."""

from __future__ import annotations

from pathlib import Path

import iptoolkit as ipt


def report_files(folder: Path, *, with_empty_cases: bool = False) -> dict[str, Path]:
    """`prod` (the 2k demo), `test` (its test installation, 876 differences planted) and
    `week` (its week of changes, 185) saved in `folder`; with `with_empty_cases`, also
    `same` (an installation with no difference) and `empty` (no profile)."""
    prod = ipt.demo_estate(n_profiles=2000)
    made = {
        "prod": prod,
        "test": ipt.demo_environment(prod, plant=True),
        "week": ipt.demo_changes(prod),
    }
    if with_empty_cases:
        made["same"] = ipt.demo_environment(prod, hosts={}, seed=5)
        made["empty"] = ipt.Estate.from_raw([])
    return {name: estate.save(folder / f"{name}.json") for name, estate in made.items()}
