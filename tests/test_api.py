"""The public API: the exported names stay in place, and `import iptoolkit` stays cheap."""

from __future__ import annotations

import subprocess
import sys

import iptoolkit as ipt

EXPECTED = {
    "__version__",
    "parse_profiles",
    "dump_profiles",
    "ParseError",
    "IntegrationProfile",
    "timestamp",
    "Estate",
    "load",
    "demo_estate",
    "demo_profiles",
}


def test_public_names_are_pinned():
    assert set(ipt.__all__) == EXPECTED
    assert len(ipt.__all__) == len(set(ipt.__all__))
    for name in ipt.__all__:
        assert getattr(ipt, name) is not None, name


def test_import_is_cheap():
    heavy = ["matplotlib", "pandas", "ipywidgets", "fastapi", "uvicorn", "networkx", "httpx"]
    code = f"import sys, iptoolkit; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
