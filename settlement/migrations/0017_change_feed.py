"""The change feed: `settlement_change`, append-only as every log (0004, 0014), backfilled from what is stored.

The table refuses UPDATE and DELETE in the database as the other logs do: on SQLite, triggers that abort; on
PostgreSQL, 0014's trigger function (a DELETE only on the maintenance path, `ledger.log_deletes_allowed`; TRUNCATE
refused). Its `_no_delete` trigger is named as the others, so the SQLite maintenance path finds it.

The backfill writes the changes of every club's stored players, sessions, hand revisions, closes, reopens, renames
and merges, in the order they were written (by time; at one time, players, sessions, hands, session events,
player events), so a client following the feed from the start sees the club's whole history. The statement is
a copy of `ledger.changes.BACKFILL` as it stood, frozen here as a migration must be.
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

TABLE = "settlement_change"

SQLITE_FORWARD = [
    f"CREATE TRIGGER {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: UPDATE refused'); END",
    f"CREATE TRIGGER {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: DELETE refused'); END",
]
SQLITE_REVERSE = [f"DROP TRIGGER IF EXISTS {TABLE}_{what}" for what in ("no_update", "no_delete")]
POSTGRESQL_FORWARD = [
    f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
    "FOR EACH ROW EXECUTE FUNCTION settlement_ledger_append_only()",
    f"CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE} "
    "FOR EACH STATEMENT EXECUTE FUNCTION settlement_ledger_append_only()",
]
POSTGRESQL_REVERSE = [f"DROP TRIGGER IF EXISTS {TABLE}_{what} ON {TABLE}" for what in ("append_only", "no_truncate")]
STATEMENTS = {
    "sqlite": (SQLITE_FORWARD, SQLITE_REVERSE),
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_REVERSE),
}

BACKFILL = """
INSERT INTO settlement_change (club_id, kind, object_id, session_id, number, revision, into_id, created_at)
SELECT club_id, kind, object_id, session_id, number, revision, into_id, at FROM (
    SELECT p.club_id AS club_id, 'player.created' AS kind, p.id AS object_id,
           CAST(NULL AS INTEGER) AS session_id, CAST(NULL AS INTEGER) AS number,
           CAST(NULL AS INTEGER) AS revision, CAST(NULL AS INTEGER) AS into_id,
           p.created_at AS at, 0 AS step, p.id AS tie
      FROM settlement_player p
    UNION ALL
    SELECT s.club_id, 'session.created', s.id, s.id, NULL, NULL, NULL, s.created_at, 1, s.id
      FROM settlement_session s
    UNION ALL
    SELECT s.club_id,
           CASE WHEN r.number = 1 THEN 'hand.recorded' WHEN r.is_void THEN 'hand.voided' ELSE 'hand.corrected' END,
           h.id, h.session_id, h.number, r.number, NULL, r.created_at, 2, r.id
      FROM settlement_handrevision r
      JOIN settlement_hand h ON h.id = r.hand_id
      JOIN settlement_session s ON s.id = h.session_id
    UNION ALL
    SELECT s.club_id, CASE WHEN e.kind = 'closed' THEN 'session.closed' ELSE 'session.reopened' END,
           s.id, s.id, NULL, NULL, NULL, e.created_at, 3, e.id
      FROM settlement_sessionevent e
      JOIN settlement_session s ON s.id = e.session_id
    UNION ALL
    SELECT e.club_id, CASE WHEN e.kind = 'merged' THEN 'player.merged' ELSE 'player.renamed' END,
           e.player_id, NULL, NULL, NULL, e.into_id, e.created_at, 4, e.id
      FROM settlement_playerevent e
) stored
ORDER BY at, step, tie
"""


def _run(schema_editor, direction):
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise RuntimeError(f"no append-only triggers for {vendor}: the ledger supports SQLite and PostgreSQL")
    for statement in STATEMENTS[vendor][direction]:
        schema_editor.execute(statement, params=None)


def forward(apps, schema_editor):
    schema_editor.execute(BACKFILL, params=None)
    _run(schema_editor, 0)


def reverse(apps, schema_editor):
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0016_session_version"),
    ]

    operations = [
        migrations.CreateModel(
            name="Change",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("kind", models.CharField(max_length=40, verbose_name="what")),
                ("object_id", models.BigIntegerField(verbose_name="object")),
                ("session_id", models.BigIntegerField(blank=True, null=True, verbose_name="session")),
                ("number", models.PositiveIntegerField(blank=True, null=True, verbose_name="number")),
                ("revision", models.PositiveIntegerField(blank=True, null=True, verbose_name="revision")),
                ("into_id", models.BigIntegerField(blank=True, null=True, verbose_name="into")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="when")),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="settlement.club",
                        verbose_name="club",
                    ),
                ),
            ],
            options={
                "verbose_name": "feed change",
                "verbose_name_plural": "feed changes",
                "ordering": ("id",),
                "indexes": [models.Index(fields=["club", "id"], name="change_club_id")],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("kind", ""), _negated=True), name="change_kind_not_empty"
                    )
                ],
            },
        ),
        migrations.RunPython(forward, reverse),
    ]
