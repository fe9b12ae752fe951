"""`Archive.log(item)`: when a profile, channel or partner appeared, changed or went.

Read from the changes each add stored (`ipt.diff` of each snapshot against the one before
it), so a year of snapshots answers in milliseconds and agrees with `ipt.diff` by
construction. The item is named as everywhere (`query/resolve.py`): node id, bare id, or a
channel's or partner's name, looked up among every item the archive ever held.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from ..change.estate_diff import SEVERITIES

if TYPE_CHECKING:
    import duckdb
    import pandas

    from ..core.estate import Estate

__all__ = ["item_log", "item_node", "LOG_COLUMNS", "Stored"]


class Stored(Protocol):
    """What the readers of an archive need of it (`store.Archive` is one): its file, a
    connection, and an estate of it. A protocol, so that they never import the store."""

    path: Path

    def _connection(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]: ...

    def estate(self, at: Any = None) -> Estate: ...


LOG_COLUMNS = ["snapshot", "fetched_at", "event", "severity", "paths", "reasons", "changes"]
_EVENTS = {"added": "appeared", "removed": "disappeared", "changed": "changed"}


def item_node(con: duckdb.DuckDBPyConnection, item: str) -> str:
    """The node id `item` names among every profile, channel and partner ever stored.

    A node id or a bare id is looked up directly; a name (or a miss, for the close
    matches) goes through the resolver over every item's latest name.
    """
    text = item.strip()
    kind, colon, rest = text.partition(":")
    if colon and kind in _EXISTS and _exists(con, kind, rest):
        return text
    found = [f"{kind}:{text}" for kind in _EXISTS if _exists(con, kind, text)]
    if len(found) == 1:
        return found[0]
    import networkx as nx

    from ..query.resolve import ItemIndex

    graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    last = "coalesce(r.last_seq, 2147483647)"
    queries = {
        "profile": f"SELECT r.key, arg_max(v.name, {last}) FROM runs r "
        "JOIN versions v USING (version_id) GROUP BY r.key",
        "channel": "SELECT coalesce(u.channel_id, r.key || ':' || u.path), "
        f"arg_max(u.channel_name, {last}) FROM runs r JOIN uses u USING (version_id) "
        "WHERE u.role <> 'reference' GROUP BY 1",
        "partner": "SELECT partner_key, any_value(partner_name) FROM uses "
        "WHERE partner_key IS NOT NULL GROUP BY 1",
    }
    for kind, query in queries.items():
        graph.add_nodes_from(
            (f"{kind}:{key}", {"kind": kind, "name": name})
            for key, name in con.execute(query).fetchall()
        )
    return str(ItemIndex(graph).resolve(item, what="log"))


_EXISTS = {
    "profile": "SELECT 1 FROM runs WHERE key = ? LIMIT 1",
    "channel": "SELECT 1 FROM uses WHERE channel_id = ? AND role <> 'reference' LIMIT 1",
    "partner": "SELECT 1 FROM uses WHERE partner_key = ? LIMIT 1",
}


def _exists(con: duckdb.DuckDBPyConnection, kind: str, key: str) -> bool:
    return con.execute(_EXISTS[kind], [key]).fetchone() is not None


def item_log(archive: Stored, item: str) -> pandas.DataFrame:
    """One row per snapshot in which the item appeared, changed or disappeared: the
    snapshot id, its fetch time, the event, the worst severity (empty for an item the
    archive's first snapshot holds: nothing to compare with), the changed JSON paths
    (for `changed`), the reasons, and how many changes."""
    import pandas as pd

    with archive._connection() as con:
        node = item_node(con, item)
        first = _in_first_snapshot(con, node)
        rows = con.execute(
            "SELECT s.snapshot_id, s.fetched_at, c.op, c.severity, c.path, c.reason "
            "FROM changes c JOIN snapshots s USING (snapshot_id) WHERE c.key = ? "
            "ORDER BY s.seq, c.number",
            [node],
        ).fetchall()
    events: dict[tuple[int, str], _Event] = {}
    if first is not None:
        events[(first[0], "appeared")] = _event(first[0], first[1], "appeared")
    for snapshot, fetched, op, severity, path, reason in rows:
        event = events.setdefault((snapshot, _EVENTS[op]), _event(snapshot, fetched, _EVENTS[op]))
        event["changes"] += 1
        worst = event["severity"]
        if not worst or SEVERITIES.index(severity) < SEVERITIES.index(worst):
            event["severity"] = severity
        if path is not None and path not in event["paths"]:
            event["paths"].append(path)
        if reason and reason not in event["reasons"]:
            event["reasons"].append(reason)
    frame = pd.DataFrame(list(events.values()), columns=LOG_COLUMNS)
    frame.attrs["item"] = node
    if not frame.empty:
        frame["fetched_at"] = pd.to_datetime(frame["fetched_at"], utc=True)
    return frame


class _Event(TypedDict):
    """One row of a log (`LOG_COLUMNS`) while the changes are gathered."""

    snapshot: int
    fetched_at: object
    event: str
    severity: str
    paths: list[str]
    reasons: list[str]
    changes: int


def _event(snapshot: int, fetched: object, event: str) -> _Event:
    return {
        "snapshot": snapshot,
        "fetched_at": fetched,
        "event": event,
        "severity": "",
        "paths": [],
        "reasons": [],
        "changes": 0,
    }


def _in_first_snapshot(con: duckdb.DuckDBPyConnection, node: str) -> tuple[int, object] | None:
    """(id, fetch time) of the archive's first snapshot when it holds the item: the item
    appeared there, as far as the archive knows."""
    kind, _, key = node.partition(":")
    where = {
        "profile": "SELECT 1 FROM runs WHERE first_seq = 1 AND key = ? LIMIT 1",
        "channel": "SELECT 1 FROM runs r JOIN uses u USING (version_id) WHERE r.first_seq = 1 "
        "AND u.role <> 'reference' AND coalesce(u.channel_id, r.key || ':' || u.path) = ? LIMIT 1",
        "partner": "SELECT 1 FROM runs r JOIN uses u USING (version_id) WHERE r.first_seq = 1 "
        "AND u.role <> 'reference' AND u.partner_key = ? LIMIT 1",
    }.get(kind)
    if where is None or con.execute(where, [key]).fetchone() is None:
        return None
    found = con.execute("SELECT snapshot_id, fetched_at FROM snapshots WHERE seq = 1").fetchone()
    return None if found is None else (int(found[0]), found[1])
