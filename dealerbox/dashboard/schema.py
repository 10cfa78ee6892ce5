"""The dashboard database's tables (SQLAlchemy Core, one set for SQLite and PostgreSQL) and the numbered
migration steps; store.py runs them and reads and writes the rows."""

from __future__ import annotations

import sqlalchemy as sa

meta = sa.MetaData()

migrations = sa.Table("schema_migrations", meta, sa.Column("version", sa.Integer, primary_key=True),
                      sa.Column("applied_at", sa.Float, nullable=False))
users = sa.Table("users", meta, sa.Column("name", sa.String(64), primary_key=True),
                 sa.Column("role", sa.String(16), nullable=False),
                 sa.Column("password_hash", sa.String(256), nullable=False))
tables = sa.Table("floor_tables", meta, sa.Column("site", sa.String(32), primary_key=True),
                  sa.Column("table_id", sa.String(32), primary_key=True),
                  sa.Column("status", sa.String(16)), sa.Column("reason", sa.String(64)),
                  sa.Column("state", sa.Text), sa.Column("state_at", sa.Float),
                  sa.Column("last_seen", sa.Float), sa.Column("received", sa.Integer, nullable=False, default=0),
                  sa.Column("invalid", sa.Integer, nullable=False, default=0))
alerts = sa.Table("alerts", meta, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                  sa.Column("site", sa.String(32), nullable=False),
                  sa.Column("table_id", sa.String(32), nullable=False),
                  sa.Column("boot", sa.String(64), nullable=False), sa.Column("finding", sa.String(32), nullable=False),
                  sa.Column("rule", sa.String(64)), sa.Column("citation", sa.Text),
                  sa.Column("severity", sa.String(16)),
                  sa.Column("ruling", sa.Text), sa.Column("seats", sa.Text), sa.Column("hand", sa.Integer),
                  sa.Column("raised_at", sa.Float, nullable=False), sa.Column("acked_by", sa.String(64)),
                  sa.Column("acked_at", sa.Float), sa.Column("assigned_to", sa.String(64)),
                  sa.Column("resolved_by", sa.String(64)), sa.Column("resolved_at", sa.Float),
                  sa.Column("note", sa.Text), sa.Column("escalated_at", sa.Float),
                  # the rest of the life cycle (migration 3): who first saw it, who assigned it, and what the table
                  # said (its FindingAcknowledged annotates a floor alert; only the floor's own records close one)
                  sa.Column("seen_by", sa.String(64)), sa.Column("seen_at", sa.Float),
                  sa.Column("assigned_by", sa.String(64)), sa.Column("assigned_at", sa.Float),
                  sa.Column("table_acked_by", sa.String(64)), sa.Column("table_acked_at", sa.Float),
                  sa.UniqueConstraint("site", "table_id", "boot", "finding", name="alerts_once"))
# What pages and the escalation run ask of alerts (migration 4): the open ones (every page's alarm, the map's
# list, escalation each second) through a partial index that holds only those, and a table's own newest.
_OPEN = (alerts.c.acked_at.is_(None)) & (alerts.c.resolved_at.is_(None))
alerts_open = sa.Index("alerts_open", alerts.c.severity, alerts.c.raised_at, sqlite_where=_OPEN, postgresql_where=_OPEN)
alerts_by_table = sa.Index("alerts_by_table", alerts.c.site, alerts.c.table_id, alerts.c.id)
hand_events = sa.Table("hand_events", meta, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                       sa.Column("site", sa.String(32), nullable=False),
                       sa.Column("table_id", sa.String(32), nullable=False),
                       sa.Column("hand", sa.Integer), sa.Column("name", sa.String(64), nullable=False),
                       sa.Column("data", sa.Text, nullable=False), sa.Column("at", sa.Float, nullable=False))
sa.Index("hand_events_by_hand", hand_events.c.site, hand_events.c.table_id, hand_events.c.hand)
journal = sa.Table("journal", meta, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                   sa.Column("at", sa.Float, nullable=False), sa.Column("kind", sa.String(16), nullable=False),
                   sa.Column("site", sa.String(32)), sa.Column("data", sa.Text, nullable=False))
settings = sa.Table("settings", meta, sa.Column("name", sa.String(64), primary_key=True),
                    sa.Column("value", sa.Text, nullable=False))
counters = sa.Table("counters", meta, sa.Column("name", sa.String(64), primary_key=True),
                    sa.Column("value", sa.Integer, nullable=False))
# Every signed head a table published on .../anchor (issue 14): the floor's copy of each log's chain, exported
# as the file ``dealerbox verify --anchors`` reads. The broker keeps only the latest, retained; this keeps all.
anchors = sa.Table("anchors", meta, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                   sa.Column("site", sa.String(32), nullable=False),
                   sa.Column("table_id", sa.String(32), nullable=False),
                   sa.Column("origin", sa.String(64), nullable=False), sa.Column("part", sa.Integer, nullable=False),
                   sa.Column("n", sa.Integer, nullable=False), sa.Column("head", sa.String(64), nullable=False),
                   sa.Column("payload", sa.Text, nullable=False), sa.Column("received_at", sa.Float, nullable=False),
                   sa.UniqueConstraint("site", "table_id", "origin", "part", "n", "head", name="anchors_once"))
# Signed-in browsers (migration 3): the cookie holds a random token, the store its hash, so signing out, a
# password change or a removal ends a session at once; the role is read from ``users`` on every request.
sessions = sa.Table("sessions", meta, sa.Column("token_hash", sa.String(64), primary_key=True),
                    sa.Column("user", sa.String(64), nullable=False), sa.Column("csrf", sa.String(64), nullable=False),
                    sa.Column("created_at", sa.Float, nullable=False),
                    sa.Column("expires_at", sa.Float, nullable=False))
sa.Index("sessions_by_user", sessions.c.user)
# Refused messages, newest read first by the health page (the journal is too big to search for them).
refusals = sa.Table("refusals", meta, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("at", sa.Float, nullable=False), sa.Column("site", sa.String(32)),
                    sa.Column("table_id", sa.String(32)), sa.Column("topic", sa.String(200), nullable=False),
                    sa.Column("reason", sa.String(300), nullable=False))
LIFE_CYCLE_COLUMNS = ("seen_by", "seen_at", "assigned_by", "assigned_at", "table_acked_by", "table_acked_at")

# Each step is idempotent DDL; the version number is what the database remembers having run.
MIGRATIONS = {1: "the first schema: users, tables, alerts, hand events, journal, counters",
              2: "anchors: every signed log head the tables published",
              3: "the alert life cycle (seen, assigned by and when, the table's own ack), sessions, refusals",
              4: "indexes for the queries pages run on alerts: the open ones, and a table's newest"}
ROLES = ("viewer", "supervisor", "admin")
SCHEMA_LOCK = 0x6465616C   # PostgreSQL advisory lock key ("deal"): one instance at a time creates or migrates
ALERT_COLUMNS = [c.name for c in alerts.columns]


def life_cycle(conn: sa.Connection) -> None:
    """Migration 3: the new alert columns on a database made before them, and the sessions and refusals."""
    have = {col["name"] for col in sa.inspect(conn).get_columns("alerts")}
    kinds = {c.name: c.type.compile(conn.dialect) for c in alerts.columns}
    for name in LIFE_CYCLE_COLUMNS:
        if name not in have:
            conn.exec_driver_sql(f"ALTER TABLE alerts ADD COLUMN {name} {kinds[name]}")
    sessions.create(conn, checkfirst=True)
    refusals.create(conn, checkfirst=True)


def alert_indexes(conn: sa.Connection) -> None:
    """Migration 4: the alerts' indexes on a database made before them (a new one has them from step 1)."""
    for index in (alerts_open, alerts_by_table):
        index.create(conn, checkfirst=True)
