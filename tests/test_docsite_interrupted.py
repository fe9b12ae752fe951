"""Issue 44 (a new user's first steps): an interrupted `iptoolkit docs` leaves the site as it
was. It wrote into the site's folder page by page, and Ctrl-C left 159 of 586 files new and
the rest old, without a word; it now writes beside the folder and moves the site in whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import iptoolkit as ipt
from iptoolkit.docsite import write_docs


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _staging(parent: Path) -> list[Path]:
    return [
        p for p in parent.iterdir() if p.name.startswith(".site.") and p.name.endswith(".partial")
    ]


def test_ctrl_c_during_docs_leaves_the_old_site_whole(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    ipt.demo_estate(30, seed=2).save(old)
    ipt.demo_estate(1_500, seed=3).save(new)
    site = tmp_path / "site"
    write_docs(old, site, workers=1)
    (site / "docs" / "notes.md").write_text("ours\n", encoding="utf-8")
    before = _files(site)
    process = subprocess.Popen(
        [sys.executable, "-m", "iptoolkit.cli", "docs", str(new), "-o", str(site), "--jobs", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            partial = _staging(tmp_path)  # the new site is being written beside the old
            if partial and len(list(partial[0].rglob("*.md"))) > 50:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the run ended before it could be interrupted"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert _files(site) == before  # not one page of the new site, none of the old lost
    assert _staging(tmp_path) == []  # and nothing left beside it


def test_a_failed_run_leaves_the_site_and_the_readers_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    write_docs(ipt.demo_estate(20, seed=1), site, workers=1)
    before = _files(site)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("iptoolkit.docsite.writer.draw_all", broken)
    with pytest.raises(OSError, match="No space left"):
        write_docs(ipt.demo_estate(40, seed=5), site, workers=1)
    assert _files(site) == before and _staging(tmp_path) == []
    monkeypatch.undo()
    write_docs(ipt.demo_estate(40, seed=5), site, workers=1)
    assert _files(site) != before and os.listdir(tmp_path) == ["site"]
