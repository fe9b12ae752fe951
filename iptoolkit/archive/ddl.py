"""The archive's tables and the views analysts query, as SQL text (DuckDB).

Tables (what iptoolkit writes; their layout may change between format versions):

- `meta(key, value)`: the format and its version;
- `snapshots`: one row per snapshot: `snapshot_id`, `seq` (its rank by fetch time, 1 the
  oldest), `fetched_at`, `time_from` (`header`, `file mtime` or `added`), `source_url`,
  `toolkit_version`, `header` (other header fields, JSON), `digest` (of its content and
  time), `added_at`, the counts of `ipt.history`'s timeline (`profiles`,
  `active_profiles`, `channels`, `partners`, `problems`, `findings`, `agent_types` as
  JSON) and `notes` (the diff's notes against the snapshot before it, JSON);
- `versions`: each distinct profile JSON once (`json`, byte for byte as saved), by its
  content's digest, with what the views show of it (id, name, group, active, agent type);
- `runs`: which version stands at which place (`order_key`) of the listing from snapshot
  `first_seq` to `last_seq` (NULL: to the newest): a profile unchanged for a year is one
  row, not 365, and adding a snapshot writes only the runs that end or begin;
- `uses`: where a version uses a channel (role, JSON path, channel id, partner);
- `changes`: `ipt.diff` from each snapshot's predecessor to it, one row per change.

Views (documented in docs/archive.md; stable, what analysts build on):
"""

from __future__ import annotations

__all__ = ["FORMAT", "FORMAT_VERSION", "SNAPSHOT_COUNTS", "TABLES", "VIEWS", "VIEW_NAMES"]

FORMAT = "iptoolkit.archive"
FORMAT_VERSION = "1"

SNAPSHOT_COUNTS = ("profiles", "active_profiles", "channels", "partners", "problems", "findings")
"""The count columns of `snapshots` (`ipt.history`'s timeline counts, `estate_history.COUNTS`,
named here so that reading the archive does not import the history)."""

TABLES = """
CREATE TABLE meta(key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE snapshots(
    snapshot_id INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    time_from VARCHAR NOT NULL,
    source_url VARCHAR,
    toolkit_version VARCHAR,
    header JSON,
    digest VARCHAR NOT NULL,
    added_at TIMESTAMPTZ NOT NULL,
    profiles INTEGER,
    active_profiles INTEGER,
    channels INTEGER,
    partners INTEGER,
    problems INTEGER,
    findings INTEGER,
    agent_types JSON,
    notes JSON
);
CREATE TABLE versions(
    version_id INTEGER NOT NULL,
    digest VARCHAR NOT NULL,
    json VARCHAR USING COMPRESSION zstd,
    id VARCHAR,
    name VARCHAR,
    "group" VARCHAR,
    active BOOLEAN,
    agent_type VARCHAR,
    faulty BOOLEAN
);
CREATE TABLE runs(
    version_id INTEGER NOT NULL,
    order_key BIGINT NOT NULL,
    key VARCHAR NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER
);
CREATE TABLE uses(
    version_id INTEGER NOT NULL,
    role VARCHAR NOT NULL,
    path VARCHAR NOT NULL,
    unit INTEGER,
    channel_id VARCHAR,
    channel_name VARCHAR,
    channel_type VARCHAR,
    channel_active BOOLEAN,
    partner_key VARCHAR,
    partner_name VARCHAR
);
CREATE TABLE changes(
    snapshot_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    kind VARCHAR NOT NULL,
    key VARCHAR NOT NULL,
    op VARCHAR NOT NULL,
    severity VARCHAR NOT NULL,
    path VARCHAR,
    old JSON,
    new JSON,
    reason VARCHAR,
    name VARCHAR,
    profiles JSON,
    cause VARCHAR
);
"""

VIEWS: dict[str, tuple[str, str]] = {
    "profile_rows": (
        "internal: the runs expanded to one row per snapshot and profile",
        """
        SELECT s.snapshot_id, s.seq, s.fetched_at, r.order_key, r.key, r.version_id
        FROM runs r
        JOIN snapshots s ON s.seq BETWEEN r.first_seq AND coalesce(r.last_seq, 2147483647)
        """,
    ),
    "profiles": (
        "one row per profile of each snapshot, in listing order (`position` from 0); "
        "`key` is the profile's key (its id, or `#12` / `P1#7`), `node` its graph node id",
        """
        SELECT p.snapshot_id, p.fetched_at,
               (row_number() OVER (PARTITION BY p.snapshot_id ORDER BY p.order_key)) - 1
                   AS position,
               p.key, 'profile:' || p.key AS node, v.id, v.name, v."group", v.active,
               v.agent_type, v.faulty, v.json
        FROM profile_rows p JOIN versions v USING (version_id)
        """,
    ),
    "links": (
        "one row per place a profile of a snapshot uses a channel: `role` is input, "
        "response or reference (named by id only), `path` the JSON path in the profile",
        """
        SELECT p.snapshot_id, p.fetched_at, 'profile:' || p.key AS profile, u.role, u.path,
               u.unit,
               'channel:' || coalesce(u.channel_id, p.key || ':' || u.path) AS channel
        FROM profile_rows p JOIN uses u USING (version_id)
        """,
    ),
    "channels": (
        "one row per channel a profile of a snapshot holds (its first copy, as "
        "`Estate.channels`): key, node, id, name, type, active, partner, JSON",
        """
        SELECT snapshot_id, any_value(fetched_at) AS fetched_at, key, 'channel:' || key AS node,
               arg_min(channel_id, order_key) AS id, arg_min(channel_name, order_key) AS name,
               arg_min(channel_type, order_key) AS type,
               arg_min(channel_active, order_key) AS active,
               arg_min(partner_key, order_key) AS partner,
               arg_min(partner_name, order_key) AS partner_name,
               arg_min(json_extract(json, '$.' || path), order_key) AS json
        FROM (
            SELECT p.snapshot_id, p.fetched_at, p.order_key, u.*, v.json,
                   coalesce(u.channel_id, p.key || ':' || u.path) AS key
            FROM profile_rows p JOIN uses u USING (version_id)
                 JOIN versions v USING (version_id)
            WHERE u.role <> 'reference'
        )
        GROUP BY snapshot_id, key
        """,
    ),
    "partners": (
        "one row per partner of a channel held in a snapshot (as `Estate.partners`): key, "
        "node, name, and how many channels of the snapshot it owns",
        """
        SELECT p.snapshot_id, any_value(p.fetched_at) AS fetched_at, u.partner_key AS key,
               'partner:' || u.partner_key AS node,
               arg_min(u.partner_name, p.order_key) AS name,
               count(DISTINCT coalesce(u.channel_id, p.key || ':' || u.path)) AS channels
        FROM profile_rows p JOIN uses u USING (version_id)
        WHERE u.role <> 'reference' AND u.partner_key IS NOT NULL
        GROUP BY p.snapshot_id, u.partner_key
        """,
    ),
}
"""View name -> (what a row is, its SQL)."""

VIEW_NAMES = ("snapshots", "profiles", "channels", "partners", "links", "changes")
"""What analysts query: the tables `snapshots` and `changes`, and the views."""
