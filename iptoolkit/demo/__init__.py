"""The demo: synthetic estates, a week of changes to one, and the run `make demo` shows.

- `estate.py`: `demo_profiles` and `demo_estate`, deterministic estates of any size;
- `week.py`: `demo_changes`, the same estate a week later (added, removed, rewired);
- `environment.py`: `demo_environment`, the same estate as another installation holds it
  (new ids, other hosts, planted differences), for `ipt.compare`;
- `data.py`: the names, groups and channel settings both draw from;
- `run.py`: `run_demo`, the whole toolkit against the embedded reference server.
"""

from __future__ import annotations

from .environment import demo_environment
from .estate import demo_estate, demo_profiles
from .week import demo_changes

__all__ = ["demo_changes", "demo_environment", "demo_estate", "demo_profiles"]
