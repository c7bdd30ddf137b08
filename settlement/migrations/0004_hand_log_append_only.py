"""The database itself refuses UPDATE and DELETE on the hand log (settlement_hand, settlement_handrevision).

`AppendOnly.save()` / `.delete()` already refuse in Python; these triggers also
stop a queryset `.update()` / `.delete()`, the admin, a script or a SQL shell.
PostgreSQL refuses TRUNCATE as well.

The one way through: a DELETE (or TRUNCATE) passes while the single row of
`settlement_ledger_maintenance` has `deletes_allowed` set. Only `manage.py flush`
sets it, inside the transaction that empties the whole database, and clears it
before that transaction commits (`settlement/management/commands/flush.py`), so
it is never seen on by anyone else. UPDATE is refused even then. A missing flag
row refuses too. The flag table is not a model, so `flush` leaves it alone.

A later migration that makes Django rebuild one of these tables on SQLite
(most ALTERs there copy the table and drop the old one) drops its triggers with
it: such a migration must create them again.
"""

from django.db import migrations

TABLES = ("settlement_hand", "settlement_handrevision")

SQLITE_FORWARD = [
    "CREATE TABLE settlement_ledger_maintenance ("
    " id integer NOT NULL PRIMARY KEY CHECK (id = 1),"
    " deletes_allowed integer NOT NULL DEFAULT 0 CHECK (deletes_allowed IN (0, 1)))",
    "INSERT INTO settlement_ledger_maintenance (id, deletes_allowed) VALUES (1, 0)",
]
for _table in TABLES:
    SQLITE_FORWARD += [
        f"CREATE TRIGGER {_table}_no_update BEFORE UPDATE ON {_table} "
        f"BEGIN SELECT RAISE(ABORT, '{_table} is append-only: UPDATE refused'); END",
        f"CREATE TRIGGER {_table}_no_delete BEFORE DELETE ON {_table} "
        "WHEN NOT EXISTS (SELECT 1 FROM settlement_ledger_maintenance WHERE id = 1 AND deletes_allowed = 1) "
        f"BEGIN SELECT RAISE(ABORT, '{_table} is append-only: DELETE refused'); END",
    ]
SQLITE_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {table}_{what}" for table in TABLES for what in ("no_update", "no_delete")),
    "DROP TABLE IF EXISTS settlement_ledger_maintenance",
]

POSTGRESQL_FORWARD = [
    "CREATE TABLE settlement_ledger_maintenance ("
    " id smallint NOT NULL PRIMARY KEY CHECK (id = 1),"
    " deletes_allowed boolean NOT NULL DEFAULT false)",
    "INSERT INTO settlement_ledger_maintenance (id, deletes_allowed) VALUES (1, false)",
    """
    CREATE FUNCTION settlement_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'TRUNCATE')
           AND EXISTS (SELECT 1 FROM settlement_ledger_maintenance WHERE id = 1 AND deletes_allowed) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$
    """,
]
for _table in TABLES:
    POSTGRESQL_FORWARD += [
        f"CREATE TRIGGER {_table}_append_only BEFORE UPDATE OR DELETE ON {_table} "
        "FOR EACH ROW EXECUTE FUNCTION settlement_ledger_append_only()",
        f"CREATE TRIGGER {_table}_no_truncate BEFORE TRUNCATE ON {_table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION settlement_ledger_append_only()",
    ]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {table}_{what} ON {table}" for table in TABLES for what in ("append_only", "no_truncate")),
    "DROP FUNCTION IF EXISTS settlement_ledger_append_only()",
    "DROP TABLE IF EXISTS settlement_ledger_maintenance",
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
        ("settlement", "0003_session_client_key"),
    ]

    operations = [
        migrations.RunPython(forward, reverse),
    ]
