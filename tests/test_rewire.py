"""Migrations are not outages: links replaced on the same agent or unit, channels removed
after every user was rewired, and what stays breaking (a profile left behind)."""

from __future__ import annotations

import csv
import io
import json
import re

import iptoolkit as ipt
from tests.factories import ACME, agent, channel, estate_of, profile, unit

OLD = channel(40049, "AS2", partner=ACME, name="Fjord Freight AS2", as2Url="https://as2.x/r")
NEW = channel(
    40082, "AS2", partner=ACME, name="Fjord Freight AS2, new gateway", as2Url="https://gw.x/r"
)
USERS = [f"P{n}" for n in range(1, 8)]
"""Seven active profiles on channel 40049: more than a reason names."""


def receiving(pid: str, ch: dict | None, **fields: object) -> dict:
    return profile(pid, agent=agent("AS2", channels=[ch] if ch else []), **fields)


def delivering(pid: str, ch: dict) -> dict:
    return profile(pid, agent=agent("ManualUpload"), units=[unit("AS2", channel=ch)])


def one(diff: ipt.EstateDiff, **wanted: object) -> ipt.Change:
    found = [c for c in diff if all(getattr(c, k) == v for k, v in wanted.items())]
    assert len(found) == 1, (wanted, diff.changes)
    return found[0]


def week(moved: list[str], left: dict[str, dict | None]) -> ipt.EstateDiff:
    """Every user on OLD (P7 delivers through it); those in `moved` now on NEW, those in
    `left` with the channel they have instead (None: none)."""
    before = [receiving(p, OLD) for p in USERS[:-1]] + [delivering(USERS[-1], OLD)]
    after = []
    for pid in USERS:
        ch = NEW if pid in moved else left.get(pid, OLD)
        after.append(delivering(pid, ch) if pid == USERS[-1] else receiving(pid, ch))
    return ipt.diff(estate_of(*before), estate_of(*after))


def test_a_migration_with_every_user_rewired_is_notable():
    result = week(USERS, {})
    assert not result.of(severity="breaking"), result.to_text()
    gone = one(result, key="channel:40049", op="removed")
    assert gone.severity == "notable"
    assert gone.reason.startswith("channel removed; every active profile using it was rewired")
    assert "and 2 more" in gone.reason  # people read five names ...
    assert set(gone.profiles) == set(USERS)  # ... the machine forms get all seven
    swap = one(result, key="profile:P1", path="$.inputAgentSettings.channels[0]")
    assert (swap.old["id"], swap.new["id"], swap.severity) == (40049, 40082, "notable")
    assert swap.reason == "rewired from channel 40049 to channel 40082"
    unit_swap = one(result, key="profile:P7", path="$.responseSettings.units[0].channel")
    assert unit_swap.severity == "notable"  # a unit's channel swapped: the same response path
    links = result.of(kind="link", op="removed")
    assert {link.severity for link in links} == {"notable"}
    assert {link.cause for link in links if link.key.startswith("agent:")} == {
        f"profile:{p}" for p in USERS[:-1]
    }


def test_a_half_migration_is_breaking_and_names_the_profile_left_behind():
    result = week(USERS[:-2] + USERS[-1:], {"P6": None})
    breaking = result.of(severity="breaking")
    assert {c.key for c in breaking} == {"channel:40049", "agent:P6 -> channel:40049"}
    gone = one(result, key="channel:40049", op="removed")
    assert "left without it: P6" in gone.reason and "rewired: P1" in gone.reason
    assert gone.profiles[0] == "P6" and set(gone.profiles) == set(USERS)
    lost = one(result, key="agent:P6 -> channel:40049")
    assert lost.reason == "active profile P6 loses its input channel channel:40049"


def test_an_outage_without_replacement_is_breaking_for_every_user():
    result = week([], dict.fromkeys(USERS[:-1]))
    lost = [c for c in result.of(severity="breaking") if c.kind == "link"]
    assert {c.key for c in lost} == {f"agent:{p} -> channel:40049" for p in USERS[:-1]}
    # P7 still delivers through 40049: the channel is not removed
    assert not result.of(kind="channel", op="removed")


def test_a_partner_channel_swapped_for_another_partner_is_still_a_rewiring_of_the_agent():
    other = channel(50, "AS2", partner={"class": "core:IntegrationPartner", "id": 9, "name": "Z"})
    result = ipt.diff(estate_of(receiving("P1", OLD)), estate_of(receiving("P1", other)))
    assert not result.of(severity="breaking")
    assert one(result, key="partner:1", op="removed").severity == "notable"


def test_an_active_profile_removed_is_as_breaking_as_one_deactivated():
    base = estate_of(receiving("P1", OLD), receiving("P2", OLD, active=False))
    removed = ipt.diff(base, estate_of(receiving("P2", OLD, active=False)))
    deactivated = ipt.diff(
        base, estate_of(receiving("P1", OLD, active=False), receiving("P2", OLD, active=False))
    )
    assert one(removed, key="profile:P1", op="removed").severity == "breaking"
    assert one(deactivated, key="profile:P1", path="$.active").severity == "breaking"
    inactive = ipt.diff(base, estate_of(receiving("P1", OLD)))
    assert one(inactive, key="profile:P2", op="removed").severity == "notable"


def test_text_shows_the_swap_as_one_line_with_its_links_under_it():
    text = week(USERS, {}).to_text()
    block = re.split(r"\n  (?! )", text[text.index("~ profile profile:P1\n") :])[0]
    lines = block.splitlines()
    assert lines[1].strip() == (
        "$.inputAgentSettings.channels[0]: channel 40049 (Fjord Freight AS2) -> channel 40082 "
        "(Fjord Freight AS2, new gateway)  [rewired from channel 40049 to channel 40082]"
    )
    assert [line.strip() for line in lines[2:]] == [
        "link - agent:P1 -> channel:40049",
        "link + agent:P1 -> channel:40082",
    ]
    assert "null" not in block


def test_json_and_csv_list_every_affected_profile():
    result = week(USERS[:-2] + USERS[-1:], {"P6": None})
    data = json.loads(result.to_json())
    gone = next(c for c in data["changes"] if c["key"] == "channel:40049" and c["op"] == "removed")
    assert set(gone["profiles"]) == set(USERS) and "more" in gone["reason"]
    rows = list(csv.DictReader(io.StringIO(result.to_frame().to_csv(index=False))))
    row = next(r for r in rows if r["key"] == "channel:40049" and r["op"] == "removed")
    assert set(json.loads(row["profiles"])) == set(USERS)
    assert {"profiles", "cause"} <= set(rows[0])


def test_timestamps_are_shown_as_dates_for_people_and_as_numbers_for_machines():
    stamp, later = 1763290800000, 1763895600000  # 2025-11-16 11:00, a week later (UTC)
    result = ipt.diff(
        estate_of(receiving("P1", OLD, lastModified=stamp)),
        estate_of(receiving("P1", OLD, lastModified=later)),
    )
    assert "$.lastModified: 1763290800000 (2025-11-16 11:00 UTC) -> 1763895600000 " in (
        result.to_text()
    )
    assert one(result, path="$.lastModified").new == later


def test_old_newer_than_new_is_said():
    from datetime import UTC, datetime

    from iptoolkit.core.snapshot import SnapshotInfo

    raw = [receiving("P1", OLD)]
    monday = ipt.Estate.from_raw(
        raw, info=SnapshotInfo(fetched_at=datetime(2026, 11, 16, tzinfo=UTC))
    )
    tuesday = ipt.Estate.from_raw(
        raw, info=SnapshotInfo(fetched_at=datetime(2026, 11, 17, tzinfo=UTC))
    )
    assert not ipt.diff(monday, tuesday).notes
    backwards = ipt.diff(tuesday, monday)
    assert "the old snapshot was fetched after the new one" in backwards.notes[0]
    assert "Note: the old snapshot was fetched after the new one" in backwards.summary()


def test_the_readme_shows_the_severity_table_of_the_code():
    from pathlib import Path

    from iptoolkit.change.severity import RULES, rules_markdown

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert rules_markdown() in readme
    assert len(RULES) == rules_markdown().count("\n| ")  # one row per rule
    assert [rule.severity for rule in RULES] == sorted(
        (rule.severity for rule in RULES), key=ipt.change.estate_diff.SEVERITIES.index
    )


def test_every_rule_of_the_table_is_used_and_the_code_names_no_other():
    import re
    from pathlib import Path

    from iptoolkit.change.severity import RULES

    code = "".join(
        (Path(ipt.__file__).parent / "change" / name).read_text()
        for name in ("severity.py", "diff.py")
    )
    used = set(re.findall(r'rule\(\s*"([a-z-]+)"', code))
    used |= set(re.findall(r'"([a-z-]+)" if \w+ else', code))  # rule("a" if x else "b")
    assert used <= {rule.name for rule in RULES}
    assert {rule.name for rule in RULES} - used == set(), {rule.name for rule in RULES} - used
