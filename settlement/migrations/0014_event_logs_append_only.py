"""Every log table refuses UPDATE and DELETE in the database, and no row of data can switch the refusal off.

Migration 0004 protected the hand log (settlement_hand, settlement_handrevision). This one adds the two audit
trails, settlement_sessionevent (closed / reopened) and settlement_playerevent (renamed / merged): their models
refused to change in Python only, so a raw `DELETE FROM settlement_playerevent` went through.

It also closes 0004's way round. Its triggers let a DELETE through while the row of
`settlement_ledger_maintenance` had `deletes_allowed` set, and that row was itself writable: a plain
`UPDATE settlement_ledger_maintenance SET deletes_allowed = true` from the app's connection switched the
protection off. The flag table is dropped. The maintenance path (`ledger.log_deletes_allowed`, used only by
`manage.py flush`, which empties the whole database) is now:

- PostgreSQL: a transaction-local setting, `SELECT set_config('baifen.maintenance', 'on', true)` (what
  `SET LOCAL baifen.maintenance = 'on'` does), checked by the trigger function. It is not a row: no UPDATE,
  INSERT or DELETE reaches it, it is never committed, and it ends with the transaction that set it.
- SQLite has no such setting (and a trigger there cannot read a TEMP table or a per-connection value), so its
  triggers refuse DELETE without exception. The maintenance path drops the `_no_delete` triggers inside its own
  transaction and creates them again, from their text in `sqlite_master`, before that transaction commits.
  SQLite's DDL is transactional and its writers never overlap: no other connection ever sees the log
  unprotected, and a failure rolls the triggers back with everything else.

Either way switching the protection off takes a statement of its own kind (a `set_config`, a `DROP TRIGGER`),
never a write to a table. UPDATE is refused even on the maintenance path. PostgreSQL refuses TRUNCATE as well.

As 0004 says: a later migration that makes Django rebuild one of these tables on SQLite (most ALTERs there copy
the table) drops its triggers with it, and must create them again.
"""

from django.db import migrations

HAND_TABLES = ("settlement_hand", "settlement_handrevision")
EVENT_TABLES = ("settlement_sessionevent", "settlement_playerevent")
TABLES = HAND_TABLES + EVENT_TABLES


def _sqlite_no_update(table):
    return (
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END"
    )


def _sqlite_no_delete(table, *, flag=False):
    when = (
        "WHEN NOT EXISTS (SELECT 1 FROM settlement_ledger_maintenance WHERE id = 1 AND deletes_allowed = 1) "
        if flag
        else ""
    )
    return (
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} {when}"
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END"
    )


SQLITE_FORWARD = [
    *(f"DROP TRIGGER IF EXISTS {table}_no_delete" for table in HAND_TABLES),
    *(_sqlite_no_delete(table) for table in HAND_TABLES),
    *(statement for table in EVENT_TABLES for statement in (_sqlite_no_update(table), _sqlite_no_delete(table))),
    "DROP TABLE IF EXISTS settlement_ledger_maintenance",
]
SQLITE_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {table}_{what}" for table in EVENT_TABLES for what in ("no_update", "no_delete")),
    "CREATE TABLE settlement_ledger_maintenance ("
    " id integer NOT NULL PRIMARY KEY CHECK (id = 1),"
    " deletes_allowed integer NOT NULL DEFAULT 0 CHECK (deletes_allowed IN (0, 1)))",
    "INSERT INTO settlement_ledger_maintenance (id, deletes_allowed) VALUES (1, 0)",
    *(f"DROP TRIGGER IF EXISTS {table}_no_delete" for table in HAND_TABLES),
    *(_sqlite_no_delete(table, flag=True) for table in HAND_TABLES),
]

POSTGRESQL_FUNCTION = """
    CREATE OR REPLACE FUNCTION settlement_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'TRUNCATE') AND current_setting('baifen.maintenance', true) = 'on' THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$
"""
POSTGRESQL_FUNCTION_0004 = """
    CREATE OR REPLACE FUNCTION settlement_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'TRUNCATE')
           AND EXISTS (SELECT 1 FROM settlement_ledger_maintenance WHERE id = 1 AND deletes_allowed) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$
"""
POSTGRESQL_FORWARD = [POSTGRESQL_FUNCTION]
for _table in EVENT_TABLES:
    POSTGRESQL_FORWARD += [
        f"CREATE TRIGGER {_table}_append_only BEFORE UPDATE OR DELETE ON {_table} "
        "FOR EACH ROW EXECUTE FUNCTION settlement_ledger_append_only()",
        f"CREATE TRIGGER {_table}_no_truncate BEFORE TRUNCATE ON {_table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION settlement_ledger_append_only()",
    ]
POSTGRESQL_FORWARD.append("DROP TABLE IF EXISTS settlement_ledger_maintenance")
POSTGRESQL_REVERSE = [
    *(
        f"DROP TRIGGER IF EXISTS {table}_{what} ON {table}"
        for table in EVENT_TABLES
        for what in ("append_only", "no_truncate")
    ),
    "CREATE TABLE settlement_ledger_maintenance ("
    " id smallint NOT NULL PRIMARY KEY CHECK (id = 1),"
    " deletes_allowed boolean NOT NULL DEFAULT false)",
    "INSERT INTO settlement_ledger_maintenance (id, deletes_allowed) VALUES (1, false)",
    POSTGRESQL_FUNCTION_0004,
]

STATEMENTS = {
    "sqlite": (SQLITE_FORWARD, SQLITE_REVERSE),
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_REVERSE),
}


def _run(schema_editor, direction):
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise RuntimeError(f"no append-only triggers for {vendor}: the ledger supports SQLite and PostgreSQL")
    for statement in STATEMENTS[vendor][direction]:
        schema_editor.execute(statement, params=None)


def forward(apps, schema_editor):
    _run(schema_editor, 0)


def reverse(apps, schema_editor):
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0013_api_timestamps"),
    ]

    operations = [
        migrations.RunPython(forward, reverse),
    ]
