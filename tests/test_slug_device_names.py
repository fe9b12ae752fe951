"""No file named for a Windows device (`CON`, `NUL`, `COM1`) from a hostile name.

`support.names.slug` makes file names from names the platform holds; a partner or group
named `CON` became `partners/con.md`, `groups/con.svg`, which Windows cannot create (or
opens the console): the docs site (`iptoolkit docs`) failed there, or wrote nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.support.names import slug

from .factories import agent, channel, partner, profile

DEVICES = ("CON", "prn", "Aux", "NUL", "COM1", "lpt9", "com0")
WINDOWS_DEVICES = {"con", "prn", "aux", "nul"} | {
    f"{p}{n}" for p in ("com", "lpt") for n in range(10)
}


@pytest.mark.parametrize("name", [*DEVICES, " con ", "nul\x00"])
def test_slug_never_names_a_device(name: str) -> None:
    made = slug(name)
    assert made.split(".")[0] not in WINDOWS_DEVICES
    assert made.startswith(name.strip().strip("\x00").lower()[:3])


def test_other_slugs_are_unchanged() -> None:
    assert slug("Viking Tools GmbH & Co. KG") == "viking-tools-gmbh-co-kg"
    assert slug("console") == "console"
    assert slug("com10") == "com10"
    assert slug("") == "item"


def test_the_docs_site_writes_no_device_file(tmp_path: Path) -> None:
    raws = [
        profile(
            f"P{n}",
            name=name,
            group=name,
            agent=agent("SFTP", channels=[channel(n, "SFTP", partner=partner(n, name))]),
        )
        for n, name in enumerate(DEVICES, start=1)
    ]
    ipt.write_docs(ipt.Estate.from_raw(raws), tmp_path / "site")
    stems = {p.name.split(".")[0].lower() for p in (tmp_path / "site").rglob("*")}
    assert not stems & WINDOWS_DEVICES
