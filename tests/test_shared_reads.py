"""Issue 43: the timeline reads snapshots with their versions shared (`SharedReads`); each
estate must be the one `Archive.estate` reads, record for record, whatever order the
snapshots are read in: faulty profiles, ids given twice, profiles without an id, channels
named by id (resolved against the whole listing), a profile gone from the middle of the
listing (every later record moves up), a profile back as it was."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import iptoolkit as ipt
from iptoolkit.archive import NoSnapshotError
from iptoolkit.archive.shared_reads import KEPT_READS, SharedReads
from iptoolkit.core.estate import Estate

from .factories import agent, channel, partner, profile, tiny_estate, unit


def _listings() -> list[list[Any]]:
    """Four listings a day apart, each the one before with a few changes."""
    base = [copy.deepcopy(raw) for raw in tiny_estate().raw_profiles]
    base += [
        profile("P1", name="Orders in, again", agent=agent("SFTP", channels=[channel(8)])),
        profile(None, name="No id", agent=agent("Fax", channelIds=["6", 7])),
        {"id": "P9", "created": "yesterday"},  # faulty: a stored problem
        "not even an object",
        profile("P4", agent=agent("SFTP", channels=[channel(None, "SFTP")])),  # no channel id
        profile("P5", units=[unit("AS2", channel=channel(7, "AS2"))]),
        profile("P8", agent=agent("Zzz", comChannelId="17")),  # a text id, held below
        profile("P10", agent=agent("SFTP", channels=[channel(17)])),
        profile(  # copies of channel 5 and partner 3 that differ from the first ones
            "P11",
            agent=agent(
                "SFTP",
                channels=[
                    channel(9, partner=partner(3, "Q")),
                    channel(5, partner=partner(3, "Q other")),
                ],
            ),
        ),
        profile("P7", agent=agent("Fax", channelIds=[5, 5])),  # two links, one pair
    ]
    second = copy.deepcopy(base[:-3])  # P10's channel 17 gone: P8's "17" unresolved
    del second[1]  # from the middle: the later profiles move up
    second[-2]["name"] = "Renamed"  # P5; P8 stays as it was
    third = copy.deepcopy(second) + [profile("P6", agent=agent("Fax", channelIds=[5]))]
    third[0]["inputAgentSettings"]["channels"][0]["name"] = "Renamed channel"
    return [base, second, third, copy.deepcopy(base)]  # the last: back as it was


def _same(shared: Estate, fresh: Estate) -> None:
    assert shared.records == fresh.records
    assert [record.index for record in shared.records] == list(range(len(fresh.records)))
    assert [(p.index, p.message) for p in shared.problems] == [
        (p.index, p.message) for p in fresh.problems
    ]
    assert dict(shared.channels) == dict(fresh.channels)
    assert dict(shared.partners) == dict(fresh.partners)
    assert shared.conflicts == fresh.conflicts
    assert shared.unresolved == fresh.unresolved
    assert shared.info == fresh.info
    assert ipt.build_graph(shared).nodes(data="name") == ipt.build_graph(fresh).nodes(data="name")


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> ipt.Archive:
    archive = ipt.Archive(tmp_path_factory.mktemp("shared") / "a.duckdb")
    for day, listing in enumerate(_listings()):
        archive.add(Estate.from_raw(listing, fetched_at=datetime(2026, 11, day + 1, 6, tzinfo=UTC)))
    return archive


def test_each_snapshot_read_shared_is_the_archives_own_read_in_any_order(
    archived: ipt.Archive,
) -> None:
    ids = [int(sid) for sid in archived.snapshots["snapshot_id"]]
    fresh = {sid: ipt.Archive(archived.path).estate(sid) for sid in ids}
    assert fresh[ids[0]].problems and len(fresh[ids[1]]) == len(fresh[ids[0]]) - 4
    assert fresh[ids[0]].conflicts and fresh[ids[1]].unresolved
    reads = SharedReads(archived)
    for sid in [*ids, *reversed(ids), ids[2], ids[0], ids[2]]:
        _same(reads.estate(sid), fresh[sid])


def test_a_read_after_another_reuses_their_shared_profiles_and_forgets_old_reads(
    archived: ipt.Archive,
) -> None:
    ids = [int(sid) for sid in archived.snapshots["snapshot_id"]]
    reads = SharedReads(archived)
    first, last = reads.estate(ids[0]), reads.estate(ids[3])  # the same listing
    assert all(a.raw is b.raw for a, b in zip(first.records, last.records, strict=True))
    holding = [  # valid, naming no channel by id (`finish` resolves those again)
        (a, b)
        for a, b in zip(first.records, last.records, strict=True)
        if a.ok and all(use.held is not None for use in a.uses)
    ]
    assert holding and all(a is b for a, b in holding)  # made once
    for _ in range(KEPT_READS):
        reads.estate(ids[2])  # its first profile changed
    assert reads.estate(ids[0]).records[0].raw is not first.records[0].raw  # read again


def test_a_read_after_an_estate_held_is_the_archives_own_read(archived: ipt.Archive) -> None:
    ids = [int(sid) for sid in archived.snapshots["snapshot_id"]]
    fresh = {sid: ipt.Archive(archived.path).estate(sid) for sid in ids}
    reads = SharedReads(archived)
    held = reads.hold(ids[0], fresh[ids[0]])  # as the Explorer's: "17" resolved to 17
    assert held is fresh[ids[0]]
    for sid in ids[1:]:
        shared = reads.estate(sid)
        _same(shared, fresh[sid])
    assert reads.estate(ids[3]).records[0].raw is held.records[0].raw  # shared with it


def test_a_snapshot_the_archive_lacks_is_named(archived: ipt.Archive) -> None:
    with pytest.raises(NoSnapshotError, match=r"a\.duckdb: no snapshot 999"):
        SharedReads(archived).estate(999)


def _marked(found: Any) -> tuple[Any, ...]:
    union = found.graph
    return (
        found.nodes,
        found.edges,
        found.breaking,
        dict(union.nodes(data=True)),
        sorted((u, v, k, sorted(d.items())) for u, v, k, d in union.edges(keys=True, data=True)),
    )


@pytest.mark.parametrize("case", ["listings", "demo week"])
def test_the_union_made_without_the_older_graph_is_the_one_made_from_both(
    archived: ipt.Archive, tmp_path: Path, case: str
) -> None:
    from iptoolkit.topology.diffstatus import diff_graph

    if case == "demo week":
        archive = ipt.Archive(tmp_path / "week.duckdb")
        first = ipt.demo_estate(n_profiles=120, seed=4, fetched_at="2026-11-09T06:00:00")
        for seed in (1, 2, 3):
            archive.add(first)
            first = ipt.demo_changes(first, seed=seed)
        archive.add(first)
    else:
        archive = archived
    ids = [int(sid) for sid in archive.snapshots["snapshot_id"]]
    reads = SharedReads(archive)
    estates = [reads.estate(sid) for sid in ids]
    pairs = [*itertools.pairwise(estates), (estates[0], estates[-1]), (estates[-1], estates[0])]
    seen: set[str] = set()
    for old, new in pairs:
        changes = ipt.diff(old, new)
        graphs = ipt.build_graph(old), ipt.build_graph(new)
        both = _marked(diff_graph(changes, graphs))
        seen.update(both[0].values(), both[1].values())
        before = list(graphs[1].edges(keys=True, data=True))
        assert _marked(diff_graph(changes, shared=graphs[1])) == both
        assert list(graphs[1].edges(keys=True, data=True)) == before  # left as it was
        assert _marked(diff_graph(changes, shared=True)) == both
    assert seen == {"added", "removed", "changed", "unchanged"}  # every mark was met
